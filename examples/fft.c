/* fft: a transpose-based FFT-like loop: local butterflies on a block, then an Alltoall that
 * transposes the distributed matrix. --size N: doubles per peer in the Alltoall (default 4096).
 * A long period with a heavy collective. */
#include "example.h"

#include <math.h>
#include <stdlib.h>

static void butterflies(double *a, long n)
{
    for (long half = 1; half < n; half *= 2)
        for (long i = 0; i + half < n; i += 2 * half) {
            double s = a[i], d = a[i + half];
            a[i] = s + d;
            a[i + half] = (s - d) * 0.5;
        }
}

int main(int argc, char **argv)
{
    example ex;
    example_init(&ex, "fft", 4096, &argc, &argv);
    long per_peer = ex.problem_size, total = per_peer * ex.size;
    double *a = malloc((size_t)total * sizeof *a), *b = malloc((size_t)total * sizeof *b);
    for (long i = 0; i < total; i++)
        a[i] = sin((double)(i + ex.rank * total));
    double checksum = 0;
    while (!example_should_stop(&ex, 1)) {
        for (int p = 0; p < ex.size; p++)
            butterflies(a + p * per_peer, per_peer);
        MPI_Alltoall(a, (int)per_peer, MPI_DOUBLE, b, (int)per_peer, MPI_DOUBLE, MPI_COMM_WORLD);
        for (long i = 0; i < total; i++)
            a[i] = b[i] / (double)ex.size;
        checksum = a[0] + a[total - 1];
    }
    free(a);
    free(b);
    return example_finish(&ex, checksum);
}
