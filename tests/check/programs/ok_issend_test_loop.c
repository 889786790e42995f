/* Rank 0 MPI_Issends and polls with MPI_Test while rank 1 receives after a short delay.
 * np: 2
 * expect: clean
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, x = 0, flag = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        x = 11;
        MPI_Issend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req);
        while (!flag)
            MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    } else {
        usleep(50000);
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return x == 11 ? 0 : 1;
}
