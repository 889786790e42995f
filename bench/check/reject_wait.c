/* What a call with invalid arguments pays under `mpiguard check`
 * (docs/check-measurements-overhead.md, "args"): before such a call goes on to MPI, the capture
 * waits until the detector has read its record, so that the finding keeps its site if MPI then
 * ends the process. Each rank times CALLS sends to a rank beyond the world (rank_out_of_range; MPI
 * returns MPI_ERR_RANK under MPI_ERRORS_RETURN) and CALLS sends to MPI_PROC_NULL (valid, no
 * wait), wall clock, and prints one line per call: `invalid NS` or `valid NS`.
 * reject_wait [CALLS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* The wall clock, not CPU time: the wait sleeps until the detector, another process, has read. */
static double reject_wait_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

static double reject_wait_send(int dest)
{
    int value = 1;
    double start = reject_wait_now_ns();
    MPI_Send(&value, 1, MPI_INT, dest, 0, MPI_COMM_WORLD);
    return reject_wait_now_ns() - start;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int calls = argc > 1 ? atoi(argv[1]) : 20, size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    /* interleaved, so that a burst of load falls on both kinds alike */
    for (int i = 0; i < calls; i++) {
        printf("invalid %.0f\n", reject_wait_send(size));
        printf("valid %.0f\n", reject_wait_send(MPI_PROC_NULL));
    }
    MPI_Finalize();
    return 0;
}
