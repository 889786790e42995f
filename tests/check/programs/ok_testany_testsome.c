/* Rank 0 completes three wildcard-tag Irecvs from rank 1 with MPI_Testany, and three from rank 2
 * with MPI_Testsome.
 * np: 3
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, in[6] = {0};
    MPI_Request reqs[6];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (int i = 0; i < 6; i++)
            MPI_Irecv(&in[i], 1, MPI_INT, 1 + i / 3, MPI_ANY_TAG, MPI_COMM_WORLD, &reqs[i]);
        for (int left = 3; left > 0;) {
            int idx, flag = 0;
            MPI_Testany(3, reqs, &idx, &flag, MPI_STATUS_IGNORE);
            left -= flag && idx != MPI_UNDEFINED;
        }
        for (int left = 3; left > 0;) {
            int done = 0, idx[3];
            MPI_Testsome(3, &reqs[3], &done, idx, MPI_STATUSES_IGNORE);
            left -= done == MPI_UNDEFINED ? 0 : done;
        }
    } else {
        for (int t = 0; t < 3; t++)
            MPI_Send(&t, 1, MPI_INT, 0, t, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
