/* MUST paper Fig. 4's communicators and Waitall, with the messages sent: rank 1 sends on A,
 * rank 3 on B, and rank 0 answers rank 2.
 * np: 4
 * expect: clean
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
        MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
        MPI_Send(x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, a);
    } else if (rank == 3) {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, b); /* rank 0 is local rank 0 of B */
    } else {
        MPI_Recv(x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (a != MPI_COMM_NULL)
        MPI_Comm_free(&a);
    if (b != MPI_COMM_NULL)
        MPI_Comm_free(&b);
    MPI_Finalize();
    return 0;
}
