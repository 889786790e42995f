/* A job one rank of which dies while the others wait for it, for tests/integration/hang_dead.sh
 * (docs/hang.md "A rank that dies"). Usage: dying_rank kill|exit0: every rank runs an allreduce
 * loop; after 2 s rank 1 kills itself with SIGKILL (as kill -9 does) or calls exit(0) without
 * MPI_Finalize, and the others wait for it in MPI_Allreduce. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double start = MPI_Wtime(), one = 1, sum = 0;
    for (;;) {
        MPI_Allreduce(&one, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        if (rank == 1 && MPI_Wtime() - start > 2) {
            if (argc > 1 && strcmp(argv[1], "exit0") == 0)
                exit(0);
            raise(SIGKILL);
        }
        usleep(1000);
    }
}
