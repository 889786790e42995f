/* Both ranks reduce two doubles to root `size` (2 on a world of 2 ranks): the process count
 * passed where the last rank was meant. Errors return here, so the job goes on.
 * Issue 28 items 2 and 8.
 * np: 2
 * slice: none
 * expect: root_out_of_range ranks 0 line 18
 * expect: root_out_of_range ranks 1 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int size;
    double partial[2] = {1.0, 2.0}, total[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Reduce(partial, total, 2, MPI_DOUBLE, MPI_MAX, size, MPI_COMM_WORLD); /* <- reported */
    MPI_Finalize();
    return 0;
}
