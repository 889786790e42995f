/* Rank 0 receives two messages from each worker with specific-source Irecvs, completing them
 * in batches with MPI_Waitsome until none is left.
 * np: 4
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, in[8] = {0};
    MPI_Request reqs[8];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        int n = 2 * (size - 1), left = n;
        for (int i = 0; i < n; i++)
            MPI_Irecv(&in[i], 1, MPI_INT, 1 + i / 2, i % 2, MPI_COMM_WORLD, &reqs[i]);
        while (left > 0) {
            int done, idx[8];
            MPI_Waitsome(n, reqs, &done, idx, MPI_STATUSES_IGNORE);
            left -= done;
        }
    } else {
        for (int t = 0; t < 2; t++)
            MPI_Send(&rank, 1, MPI_INT, 0, t, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
