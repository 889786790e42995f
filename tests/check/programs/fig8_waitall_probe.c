/* MUST paper Fig. 8: rank 1's wildcard Irecv takes rank 2's message (rank 0 sends late), its
 * Irecv from rank 2 never matches, and the hanging Waitall never reports the wildcard's source:
 * only probing the alternative match finds the deadlock.
 * np: 3
 * expect: potential_deadlock ranks 0,1,2
 * expect: deadlock ranks 1,2,0 knot 1,2 line 20
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, x[2] = {0, 0};
    MPI_Request reqs[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        MPI_Irecv(&x[0], 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &reqs[0]);
        MPI_Irecv(&x[1], 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &reqs[1]);
        MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE); /* <- reported */
    } else {
        if (rank == 0)
            usleep(500000); /* rank 2's message reaches the wildcard first */
        MPI_Send(&x[0], 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
