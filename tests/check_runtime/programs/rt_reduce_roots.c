/* Rank 0 reduces to root 0, rank 1 to root 1: a collective mismatch in which both roots wait for
 * the other's contribution, inside MPI, until the job is stopped. Rank 0 creates the file argv[1]
 * just before its call, for the test that interrupts mpiguard within the second a mismatch is held
 * for a refusal. */
#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, x = 1, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && argc > 1)
        close(open(argv[1], O_CREAT | O_WRONLY, 0600));
    MPI_Reduce(&x, &sum, 1, MPI_INT, MPI_SUM, rank, MPI_COMM_WORLD); /* MISMATCH-LINE */
    MPI_Finalize();
    return 0;
}
