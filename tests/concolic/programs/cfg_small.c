/* A small program for the distance test (tests/concolic/cfg_distances.sh): three branches in
 * main around a call to clamp(), which holds the fourth; the expected table is worked out by
 * hand in the test from the blocks clang -O0 + mem2reg makes of this source. */
#include <mpi.h>
#include <mpiguard/concolic.h>
#include <stdio.h>

static int clamp(int v)
{
    if (v > 10)
        return 10;
    return v;
}

int main(int argc, char **argv)
{
    int x = 0;
    MPI_Init(&argc, &argv);
    mpiguard_int(&x);
    if (x > 0)
        x = clamp(x);
    while (x < 5)
        x++;
    if (x == 7)
        printf("seven\n");
    MPI_Finalize();
    return 0;
}
