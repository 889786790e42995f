/* Rank 0 probes rank 1's message with MPI_Mprobe, sizes its buffer from the status, and receives
 * it with MPI_Mrecv as MPI_FLOAT: three MPI_INT were sent (room enough, so MPI itself says
 * nothing: the data is silently wrong). The matched receive's type is the Mrecv's, not the
 * probe's. Issue 28 item 1 (probe then receive).
 * np: 2
 * slice: mpich
 * expect: type_mismatch ranks 1,0 line 25,23
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, ints[3] = {1, 2, 3}, n = 0;
    float floats[3];
    MPI_Message msg;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Mprobe(1, 5, MPI_COMM_WORLD, &msg, &st);
        MPI_Get_count(&st, MPI_INT, &n);
        MPI_Mrecv(floats, n, MPI_FLOAT, &msg, MPI_STATUS_IGNORE); /* <- reported */
    } else {
        MPI_Send(ints, 3, MPI_INT, 0, 5, MPI_COMM_WORLD); /* <- reported */
    }
    MPI_Finalize();
    return 0;
}
