/* A halo exchange along a line of ranks whose receive side names MPI_DATATYPE_NULL: at the ends
 * the peers are MPI_PROC_NULL, so nothing would move, but the datatype is still checked (rank 0's
 * call: its left neighbour is MPI_PROC_NULL, rank 1's right one). Errors return here, so the job
 * goes on. Issue 28 items 2 and 8.
 * np: 2
 * slice: none
 * expect: datatype_null ranks 0 line 22
 * expect: datatype_null ranks 1 line 22
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, mine = 1, ghost = 0;
    MPI_Datatype ghost_type = MPI_DATATYPE_NULL; /* meant to be set up before the exchange */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int right = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    MPI_Sendrecv(&mine, 1, MPI_INT, right, 0, &ghost, 1, ghost_type, left, 0, /* <- reported */
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
