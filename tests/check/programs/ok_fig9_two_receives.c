/* MUST paper Fig. 9 completed correctly: rank 0 posts a wildcard Irecv for each of the two
 * senders, communicates, and only then waits.
 * np: 3
 * checks: -message_race
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, sum = 0, x[2] = {0, 0};
    MPI_Request reqs[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int n = rank == 0 ? 2 : 1;
    if (rank == 0) {
        for (int i = 0; i < 2; i++)
            MPI_Irecv(&x[i], 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &reqs[i]);
    } else {
        MPI_Isend(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &reqs[0]);
    }
    for (int i = 0; i < 3; i++) /* the long communication phase */
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
    MPI_Finalize();
    return rank != 0 || x[0] + x[1] == 3 ? 0 : 1;
}
