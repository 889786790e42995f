/* What the interposition library adds to one MPI call, for the overhead figures of
 * docs/hang-measurements.md: a single rank times ITERATIONS calls of MPI_Test on a null request
 * (the cheapest wrapped call, so the wrapper's share is as large as it gets) and prints nanoseconds
 * per call. Run it plain, with the library preloaded and no module, and with the `state` module
 * (bench/hang/call_cost.sh, which compiles it with the flavour's mpicc). With `sendrecv`, the call
 * is an MPI_Sendrecv of one int to itself instead: a blocking call, whose entry publishes what it
 * waits for (the state module's wait-for stores). With `allgatherv` or `allreduce`, a collective
 * of one int on the rank's own world: what the protect module adds to the collectives it watches
 * (bench/apps/cost_bound.sh). With `testany`, MPI_Testany on one null request: hpcc's most frequent
 * call (HPL polls its messages with it); `testall`, `testsome` and `iprobe` (no message) time the
 * other polling calls. call_cost ITERATIONS
 * [test|testany|testall|testsome|iprobe|sendrecv|allgatherv|allreduce] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The calling thread's CPU time, not the clock's: on a loaded node the clock counts the time the
 * scheduler gave to others, which swamps the nanoseconds measured here. */
static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long iterations = argc > 1 ? atol(argv[1]) : 10000000;
    const char *call = argc > 2 ? argv[2] : "test";
    MPI_Request request = MPI_REQUEST_NULL;
    int flag, index, out = 1, in = 0, count = 1, displ = 0;
    double start = now_ns();
    if (strcmp(call, "sendrecv") == 0)
        for (long i = 0; i < iterations; i++)
            MPI_Sendrecv(&out, 1, MPI_INT, 0, 0, &in, 1, MPI_INT, 0, 0, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
    else if (strcmp(call, "allgatherv") == 0)
        for (long i = 0; i < iterations; i++)
            MPI_Allgatherv(&out, 1, MPI_INT, &in, &count, &displ, MPI_INT, MPI_COMM_WORLD);
    else if (strcmp(call, "allreduce") == 0)
        for (long i = 0; i < iterations; i++)
            MPI_Allreduce(&out, &in, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    else if (strcmp(call, "testany") == 0)
        for (long i = 0; i < iterations; i++)
            MPI_Testany(1, &request, &index, &flag, MPI_STATUS_IGNORE);
    else if (strcmp(call, "testall") == 0)
        for (long i = 0; i < iterations; i++)
            MPI_Testall(1, &request, &flag, MPI_STATUSES_IGNORE);
    else if (strcmp(call, "testsome") == 0)
        for (long i = 0; i < iterations; i++)
            MPI_Testsome(1, &request, &count, &index, MPI_STATUSES_IGNORE);
    else if (strcmp(call, "iprobe") == 0)
        for (long i = 0; i < iterations; i++)
            MPI_Iprobe(0, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    else
        for (long i = 0; i < iterations; i++)
            MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
    double ns = (now_ns() - start) / (double)iterations;
    printf("%.2f\n", ns);
    MPI_Finalize();
    return 0;
}
