/* A receive buffer reused before its completion: rank 0 posts a receive into the same buffer once
 * per message and waits for all of them at the end; each message overwrites the last. Issue 28
 * item 4.
 * np: 2
 * slice: none
 * expect: pending_buffers_overlap ranks 0 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int a[4] = {0};
    MPI_Request q[2];
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (int i = 0; i < 2; i++)
            MPI_Irecv(a, 4, MPI_INT, 1, i, MPI_COMM_WORLD, &q[i]);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    } else {
        for (int i = 0; i < 2; i++)
            MPI_Send(a, 4, MPI_INT, 0, i, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
