/* What a user meets in a campaign (tests/concolic/user_side.sh), by argv[1]:
 * "hangs"      two different hangs: x == 42 deadlocks (rank 0 waits for a message rank 1 never
 *              sends, rank 1 waits in the barrier), x == 7 spins in a loop on every rank;
 * "mpi-error"  x == 5 sends to a rank past the last: MPI's default handler ends the job;
 * "sleep"      every run with the default x sleeps 30 s (a run to interrupt);
 * "uninit"     a second input marked on a local the program never sets, on a stack just filled
 *              with 0x41 bytes: it must start at mpiguard-cc's default 0, not 1,094,795,585. */
#include <mpi.h>
#include <mpiguard/concolic.h>
#include <string.h>
#include <unistd.h>

static void scribble(void)
{
    volatile char junk[256];
    memset((char *)junk, 0x41, sizeof junk);
}

static int unset_input(void)
{
    int u;
    mpiguard_int(&u);
    return u;
}

int main(int argc, char **argv)
{
    int rank, size, x = 1;
    const char *mode = argc > 1 ? argv[1] : "";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mpiguard_int(&x);
    if (!strcmp(mode, "hangs") && x == 42) {
        if (rank == 0)
            MPI_Recv(&x, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* DEADLOCK */
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (!strcmp(mode, "hangs") && x == 7)
        for (volatile long spin = 0; spin >= 0; spin += 0) /* SPIN */
            ;
    if (!strcmp(mode, "mpi-error") && x == 5)
        MPI_Send(&x, 1, MPI_INT, size + 1, 0, MPI_COMM_WORLD); /* BAD-RANK */
    if (!strcmp(mode, "uninit")) {
        scribble();
        x += unset_input() != 0;
    }
    if (!strcmp(mode, "sleep") && x == 1)
        sleep(30);
    MPI_Finalize();
    return 0;
}
