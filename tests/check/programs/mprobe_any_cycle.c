/* Three ranks each MPI_Mprobe for a message from any source before anyone sends.
 * np: 3
 * expect: deadlock ranks 0,1,2 line 15
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, x = 0;
    MPI_Message msg;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Mprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &msg, &st); /* <- reported */
    MPI_Mrecv(&x, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
    MPI_Send(&x, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
