/* In one fence epoch, rank 0 puts an integer into rank 1's window with an origin type never set
 * up (MPI_DATATYPE_NULL), rank 1 reads rank 0's with a null target type: both with a positive
 * count, both reported before they reach MPI. Errors on the window return here. Issue 28 item 2.
 * slice: none
 * np: 2
 * expect: datatype_null ranks 0 line 22
 * expect: datatype_null ranks 1 line 24
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cell = 0, value = 7, got = 0;
    MPI_Datatype origin = MPI_DATATYPE_NULL, target = MPI_DATATYPE_NULL; /* meant to be MPI_INT */
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(&cell, sizeof cell, sizeof cell, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(&value, 1, origin, 1, 0, 1, MPI_INT, win); /* <- reported */
    else
        MPI_Get(&got, 1, MPI_INT, 0, 0, 1, target, win); /* <- reported */
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
