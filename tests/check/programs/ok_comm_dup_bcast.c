/* A library-style duplicate of MPI_COMM_WORLD and WORLD itself each carry a message with the
 * same tag, sent nonblocking and received in the other order: each matches on its own
 * communicator. Then a Bcast on the duplicate.
 * np: 2
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, a = 0, b = 0;
    MPI_Comm lib;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &lib);
    if (rank == 0) {
        a = 1;
        b = 2;
        MPI_Request reqs[2];
        MPI_Isend(&a, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &reqs[0]);
        MPI_Isend(&b, 1, MPI_INT, 1, 0, lib, &reqs[1]);
        MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    } else {
        MPI_Recv(&b, 1, MPI_INT, 0, 0, lib, MPI_STATUS_IGNORE);
        MPI_Recv(&a, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Bcast(&a, 1, MPI_INT, 0, lib);
    MPI_Comm_free(&lib);
    MPI_Finalize();
    return a == 1 && b == 2 ? 0 : 1;
}
