/* The loop solver of the planted target (a second translation unit, so branch ids must be global:
 * see planted.c for the bugs). */
#include <stdio.h>
#include <stdlib.h>

double planted_solve(int iters, int width, int rank);

double planted_solve(int iters, int width, int rank)
{
    double x = 1.0;
    int steps = 0;
    if (iters > 10 && rank == 0)
        fprintf(stderr, "warning: %d iterations requested\n", iters);
    for (int i = 0; i < iters; i++) {
        x = 0.5 * (x + (double)width / x);
        if (++steps == 7 && rank == 0)
            abort(); /* B4: the 7th sweep of the solver */
    }
    return x;
}
