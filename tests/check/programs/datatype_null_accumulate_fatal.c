/* Rank 0 adds an integer into rank 1's window with a target type handle never set up
 * (MPI_DATATYPE_NULL), under the default error handler: both MPIs raise MPI_ERR_TYPE and end the
 * job inside the call, so the finding is the record written before the call reached MPI, with
 * its line. Issue 28 item 2.
 * np: 2
 * slice: none
 * mpi: abort
 * expect: datatype_null ranks 0 line 23
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cell = 0, value = 7;
    MPI_Datatype target = MPI_DATATYPE_NULL; /* meant to be MPI_INT */
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(&cell, sizeof cell, sizeof cell, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        /* the count of 1 makes the null target type an error */
        MPI_Accumulate(&value, 1, MPI_INT, 1, 0, 1, target, MPI_SUM, win); /* <- reported */
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
