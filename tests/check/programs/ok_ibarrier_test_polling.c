/* Rank 0 arrives late at an MPI_Ibarrier; the others poll it with MPI_Test until it completes.
 * np: 3
 * expect: clean
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, flag = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        usleep(100000);
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    while (!flag)
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
