/* A persistent send is started and completed twice, then freed; the loop's last step starts it
 * once more through the copy of the handle it kept: MPI_Start of a request already freed,
 * reported before the call reaches MPI. Issue 28 item 2.
 * np: 2
 * slice: none
 * mpi: completes abort
 * expect: request_freed ranks 0 line 31
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 1;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Send_init(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req);
        const MPI_Request persistent = req;
        for (int step = 0; step < 3; step++) {
            MPI_Request r = persistent;
            if (step == 2) {
                MPI_Request_free(&req);
                break;
            }
            MPI_Start(&r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
        MPI_Request late = persistent;
        MPI_Start(&late); /* <- reported */
    } else {
        for (int step = 0; step < 2; step++)
            MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
