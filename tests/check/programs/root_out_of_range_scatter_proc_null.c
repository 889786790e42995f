/* Both ranks scatter from root MPI_PROC_NULL (a "no root yet" placeholder): MPI_PROC_NULL is a
 * peer for point-to-point calls, never a root on an intracommunicator. Errors return here, so the
 * job goes on. Issue 28 items 2 and 8.
 * np: 2
 * slice: none
 * expect: root_out_of_range ranks 0 line 16
 * expect: root_out_of_range ranks 1 line 16
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int parts[2] = {1, 2}, mine = 0, root = MPI_PROC_NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Scatter(parts, 1, MPI_INT, &mine, 1, MPI_INT, root, MPI_COMM_WORLD); /* <- reported */
    MPI_Finalize();
    return 0;
}
