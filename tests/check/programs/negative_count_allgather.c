/* Every rank gathers "the number of local cells minus the halo" values from all, which is
 * negative on this small grid: both Allgather calls refuse the count. Errors return here, so the
 * job goes on. (Not a reduction: MPICH 4.0.2 does not check a reduction's count, and its
 * MPI_Allreduce then crashes in a copy of -8 bytes.) Issue 28 items 2 and 8.
 * np: 2
 * slice: none
 * expect: negative_count ranks 0 line 18
 * expect: negative_count ranks 1 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    double local[4] = {0}, all[8];
    int cells = 2, halo = 3;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Allgather(local, cells - halo, MPI_DOUBLE, all, cells - halo, /* <- reported */
                  MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
