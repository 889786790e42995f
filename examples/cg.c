/* cg: conjugate-gradient-like iterations: local matrix-free work, then an Allreduce of the dot
 * products. --size N: local vector length (default 200000). A medium period. */
#include "example.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    example ex;
    example_init(&ex, "cg", 200000, &argc, &argv);
    long n = ex.problem_size;
    double *x = malloc((size_t)n * sizeof *x), *r = malloc((size_t)n * sizeof *r);
    for (long i = 0; i < n; i++) {
        x[i] = 0;
        r[i] = 1.0 + (double)((i + ex.rank) % 5);
    }
    double rho = 0;
    while (!example_should_stop(&ex, 1)) {
        double local[2] = {0, 0}, global[2];
        for (long i = 0; i < n; i++) {
            double ap = 2.0 * r[i] - (i > 0 ? r[i - 1] : 0) - (i + 1 < n ? r[i + 1] : 0);
            local[0] += r[i] * r[i];
            local[1] += r[i] * ap;
        }
        MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double alpha = global[1] != 0 ? global[0] / global[1] : 0;
        for (long i = 0; i < n; i++) {
            x[i] += alpha * r[i];
            r[i] = r[i] * 0.5 + 0.5 * (double)((i + ex.iterations) % 3);
        }
        rho = global[0];
    }
    free(x);
    free(r);
    return example_finish(&ex, rho / ex.size);
}
