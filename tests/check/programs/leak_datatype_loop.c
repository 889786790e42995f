/* Each rank builds a column type per iteration of a stencil loop and frees none of them: one
 * datatype_leak per rank at the constructor's line, count 4. Issue 28 item 3.
 * np: 2
 * slice: mpich
 * expect: datatype_leak ranks 0 line 22
 * expect: datatype_leak ranks 1 line 22
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size;
    double grid[4][8] = {{0}};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int step = 0; step < 4; step++) {
        MPI_Datatype column;
        /* the type is the same every step: building it once outside the loop, or freeing it at
         * the end of each step, is the fix */
        MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &column); /* <- reported */
        MPI_Type_commit(&column);
        MPI_Sendrecv(&grid[0][7], 1, column, right, step, &grid[0][0], 1, column, left, step,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
