/* stencil: a 2-D Jacobi sweep on a process grid with halo exchange by Isend/Irecv/Waitall.
 * --size N: each rank owns an N x N block (default 256). A short compute/communication period. */
#include "example.h"

#include <stdlib.h>
#include <string.h>

enum { NORTH, SOUTH, WEST, EAST };

int main(int argc, char **argv)
{
    example ex;
    example_init(&ex, "stencil", 256, &argc, &argv);
    int dims[2] = {0, 0}, periods[2] = {1, 1}, coords[2];
    MPI_Dims_create(ex.size, 2, dims);
    MPI_Comm grid;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
    MPI_Cart_coords(grid, ex.rank, 2, coords);
    int neighbour[4];
    MPI_Cart_shift(grid, 0, 1, &neighbour[NORTH], &neighbour[SOUTH]);
    MPI_Cart_shift(grid, 1, 1, &neighbour[WEST], &neighbour[EAST]);

    long n = ex.problem_size, w = n + 2;
    double *u = calloc((size_t)(w * w), sizeof *u), *v = calloc((size_t)(w * w), sizeof *v);
    double *halo_out = malloc(4 * (size_t)n * sizeof *halo_out);
    double *halo_in = malloc(4 * (size_t)n * sizeof *halo_in);
    for (long i = 0; i < w * w; i++)
        u[i] = (double)((i + ex.rank) % 13);
    double checksum = 0;
    while (!example_should_stop(&ex, 10)) {
        for (long k = 0; k < n; k++) {
            halo_out[NORTH * n + k] = u[1 * w + 1 + k];
            halo_out[SOUTH * n + k] = u[n * w + 1 + k];
            halo_out[WEST * n + k] = u[(1 + k) * w + 1];
            halo_out[EAST * n + k] = u[(1 + k) * w + n];
        }
        MPI_Request req[8];
        for (int d = 0; d < 4; d++) {
            MPI_Irecv(halo_in + d * n, (int)n, MPI_DOUBLE, neighbour[d], d ^ 1, grid, &req[d]);
            MPI_Isend(halo_out + d * n, (int)n, MPI_DOUBLE, neighbour[d], d, grid, &req[4 + d]);
        }
        MPI_Status statuses[8];
        MPI_Waitall(8, req, statuses);
        for (long k = 0; k < n; k++) {
            u[0 * w + 1 + k] = halo_in[NORTH * n + k];
            u[(n + 1) * w + 1 + k] = halo_in[SOUTH * n + k];
            u[(1 + k) * w + 0] = halo_in[WEST * n + k];
            u[(1 + k) * w + n + 1] = halo_in[EAST * n + k];
        }
        for (long i = 1; i <= n; i++)
            for (long j = 1; j <= n; j++)
                v[i * w + j] = 0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j] + u[i * w + j - 1] +
                                       u[i * w + j + 1]);
        double *t = u;
        u = v;
        v = t;
        checksum = u[(n / 2) * w + n / 2];
    }
    free(u);
    free(v);
    free(halo_out);
    free(halo_in);
    MPI_Comm_free(&grid);
    return example_finish(&ex, checksum);
}
