/* Rank 1 dies (SIGKILL: no handler of the MPI library runs) while rank 0 waits in MPI_Recv. */
#include <mpi.h>
#include <signal.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        usleep(300000);
        kill(getpid(), SIGKILL);
    }
    MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
