/* What a PMPI layer preloaded into this one-rank job adds to a call, in ns: MPI_Test on
 * MPI_REQUEST_NULL and MPI_Barrier on MPI_COMM_SELF (calls of 10-40 ns in the library, so that the
 * layer's few instructions are not lost in them), each timed through MPI_* (the layer) and straight
 * into PMPI_*, in rounds that alternate the two. Under a loaded machine most rounds are stretched
 * by other jobs: the least time over the rounds is the call's own. Prints, per call, the least
 * ns/call of each way and their difference.
 * Usage: chain_cost CALLS ROUNDS */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

enum { TEST, BARRIER, CALLS_TIMED };
static const char *const names[] = {"Test", "Barrier"};

static double round_ns(int call, int through_layer, long calls)
{
    MPI_Request null = MPI_REQUEST_NULL;
    int flag;
    double start = MPI_Wtime();
    for (long i = 0; i < calls; i++) {
        if (call == TEST)
            through_layer ? MPI_Test(&null, &flag, MPI_STATUS_IGNORE)
                          : PMPI_Test(&null, &flag, MPI_STATUS_IGNORE);
        else
            through_layer ? MPI_Barrier(MPI_COMM_SELF) : PMPI_Barrier(MPI_COMM_SELF);
    }
    return (MPI_Wtime() - start) * 1e9 / (double)calls;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long calls = argc > 1 ? atol(argv[1]) : 100000;
    int rounds = argc > 2 ? atoi(argv[2]) : 51;
    for (int call = 0; call < CALLS_TIMED; call++) {
        double least[2] = {1e30, 1e30};
        for (int r = 0; r < rounds; r++)
            for (int k = 0; k < 2; k++) {
                int through_layer = (r + k) % 2;
                double ns = round_ns(call, through_layer, calls);
                if (ns < least[through_layer])
                    least[through_layer] = ns;
            }
        printf("chain_cost: %s PMPI %.2f ns, MPI %.2f ns, added %.2f ns\n", names[call], least[0],
               least[1], least[1] - least[0]);
    }
    MPI_Finalize();
    return 0;
}
