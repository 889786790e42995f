/* A process grid read from input, checked as HPL's HPL_pdinfo checks its P x Q grids: P rows
 * and Q columns must fit in the job (P * Q <= size), else the program refuses them. The input's
 * grid is 1 x 2; P >= 2 rows (the rows' own code, HPL's pivot swap) needs np >= 2 * Q, so the
 * search reaches it only when the product keeps P symbolic and the process count follows. */
#include <mpi.h>
#include <mpiguard/concolic.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, p = 1, q = 2;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mpiguard_int(&p);
    mpiguard_int(&q);
    if (p < 1 || q < 1 || p * q > size) { /* the program's own input check */
        if (rank == 0)
            fprintf(stderr, "a %d x %d grid needs %d processes\n", p, q, p * q);
        MPI_Finalize();
        return 1;
    }
    if (p >= 2) /* ROWS */
        printf("rank %d: row %d of %d\n", rank, rank / q, p);
    MPI_Finalize();
    return 0;
}
