/* MUST paper Fig. 4: rank 0 waits for wildcard receives on communicators A = {0,1,2} and
 * B = {0,2,3} (AND over two ORs) while ranks 1 and 3 wait for 2 and rank 2 waits for 0.
 * np: 4
 * expect: deadlock ranks 0,1,2,3 line 20
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x[2] = {0, 0};
    MPI_Comm a, b;
    MPI_Request reqs[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank == 3 ? MPI_UNDEFINED : 0, rank, &a);
    MPI_Comm_split(MPI_COMM_WORLD, rank == 1 ? MPI_UNDEFINED : 0, rank, &b);
    if (rank == 0) {
        MPI_Irecv(&x[0], 1, MPI_INT, MPI_ANY_SOURCE, 0, a, &reqs[0]);
        MPI_Irecv(&x[1], 1, MPI_INT, MPI_ANY_SOURCE, 0, b, &reqs[1]);
        MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE); /* <- reported */
    } else {
        MPI_Recv(&x[0], 1, MPI_INT, rank == 2 ? 0 : 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
