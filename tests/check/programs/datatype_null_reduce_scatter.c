/* Both ranks sum two integers and keep one each with MPI_Reduce_scatter, naming a type handle
 * never set up (MPI_DATATYPE_NULL) for counts of 1: a reduction's datatype is checked against its
 * per-rank counts. Errors return here, so the job goes on. Issue 28 item 2.
 * slice: none
 * np: 2
 * expect: datatype_null ranks 0 line 19
 * expect: datatype_null ranks 1 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, values[2], mine = 0, counts[2] = {1, 1};
    MPI_Datatype element = MPI_DATATYPE_NULL; /* meant to be MPI_INT */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    values[0] = values[1] = rank + 1;
    MPI_Reduce_scatter(values, &mine, counts, element, MPI_SUM, MPI_COMM_WORLD); /* <- reported */
    MPI_Finalize();
    return 0;
}
