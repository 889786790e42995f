/* Both ranks start a nonblocking broadcast from "the last rank" computed as size instead of
 * size - 1. Errors return here, so the job goes on. Issue 28 items 2 and 8 (nonblocking
 * collectives).
 * np: 2
 * slice: mpich
 * expect: root_out_of_range ranks 0 line 18
 * expect: root_out_of_range ranks 1 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int size, value = 0;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Ibcast(&value, 1, MPI_INT, size, MPI_COMM_WORLD, &request); /* <- reported */
    MPI_Finalize();
    return 0;
}
