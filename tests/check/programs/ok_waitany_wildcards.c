/* Rank 0 posts one wildcard Irecv per worker and completes them one by one with MPI_Waitany.
 * np: 4
 * checks: -message_race
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, in[4] = {0}, seen = 0;
    MPI_Request reqs[4];
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        for (int i = 0; i < size - 1; i++)
            MPI_Irecv(&in[i], 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &reqs[i]);
        for (int i = 0; i < size - 1; i++) {
            int idx;
            MPI_Waitany(size - 1, reqs, &idx, &st);
            seen |= 1 << st.MPI_SOURCE;
        }
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return rank != 0 || seen == (1 << size) - 2 ? 0 : 1;
}
