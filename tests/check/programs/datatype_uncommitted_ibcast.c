/* Both ranks start a nonblocking broadcast of a contiguous type of doubles they never committed.
 * Errors return here, so the job goes on. Issue 28 items 2 and 8 (nonblocking collectives).
 * np: 2
 * slice: none
 * expect: datatype_uncommitted ranks 0 line 18
 * expect: datatype_uncommitted ranks 1 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    double block[6] = {0};
    MPI_Datatype triple;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_contiguous(3, MPI_DOUBLE, &triple);
    MPI_Ibcast(block, 2, triple, 0, MPI_COMM_WORLD, &request); /* <- reported */
    MPI_Type_free(&triple);
    MPI_Finalize();
    return 0;
}
