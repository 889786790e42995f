/* A job one rank of which dies while the others wait for it, for tests/integration/hang_dead.sh
 * (docs/hang.md "A rank that dies"). Usage: dying_rank kill|exit0|vanish: every rank runs an
 * allreduce loop; after 2 s rank 1 kills itself with SIGKILL (as kill -9 does) or calls exit(0)
 * without MPI_Finalize, and the others wait for it in MPI_Allreduce. vanish: every rank runs an
 * alltoall loop of 32 KB per peer for good, rank 1 holding 256 MB as a real application does, for
 * the test to kill it from outside (run 131088 of issue 29: UCX's cma transport aborts a rank that
 * can no longer read the killed one's memory, and the kernel may announce that abort before the
 * exit of the killed rank, whose memory it tears down first). */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { VANISH_COUNT = 32 << 10, VANISH_HELD = 256 << 20 };

static void vanish(int rank, int size)
{
    char *send = calloc((size_t)size, VANISH_COUNT), *recv = calloc((size_t)size, VANISH_COUNT);
    /* in small pages, many for the kernel to tear down as a real application's heap */
    char *held = rank == 1 ? mmap(NULL, VANISH_HELD, PROT_READ | PROT_WRITE,
                                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                           : MAP_FAILED;
    if (held != MAP_FAILED) {
        madvise(held, VANISH_HELD, MADV_NOHUGEPAGE);
        memset(held, 1, VANISH_HELD);
    }
    for (;;)
        MPI_Alltoall(send, VANISH_COUNT, MPI_CHAR, recv, VANISH_COUNT, MPI_CHAR, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && strcmp(argv[1], "vanish") == 0)
        vanish(rank, size);
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
