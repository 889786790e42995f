/* What the interposition library adds to one MPI call, for the overhead figures of
 * docs/hang-measurements.md: a single rank times ITERATIONS calls of MPI_Test on a null request
 * (the cheapest wrapped call, so the wrapper's share is as large as it gets) and prints nanoseconds
 * per call. Run it plain, with the library preloaded and no module, and with the `state` module
 * (bench/hang/call_cost.sh, which compiles it with the flavour's mpicc). call_cost ITERATIONS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long iterations = argc > 1 ? atol(argv[1]) : 10000000;
    MPI_Request request = MPI_REQUEST_NULL;
    int flag;
    double start = now_ns();
    for (long i = 0; i < iterations; i++)
        MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
    double ns = (now_ns() - start) / (double)iterations;
    printf("%.2f\n", ns);
    MPI_Finalize();
    return 0;
}
