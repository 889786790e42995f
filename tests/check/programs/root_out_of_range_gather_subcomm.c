/* The ranks split the world into communicators of one rank each and gather on them to the
 * world's rank 1, a root that exists in the world but not on rank 0's communicator (of size 1):
 * rank 0's Gather is refused; on rank 1's own communicator, root 1 is out of range too. Errors
 * return here, so the job goes on. Issue 28 items 2 and 8.
 * np: 2
 * slice: none
 * expect: root_out_of_range ranks 0 line 20
 * expect: root_out_of_range ranks 1 line 20
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, mine = 1, all[2];
    MPI_Comm own;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &own);
    MPI_Comm_set_errhandler(own, MPI_ERRORS_RETURN);
    MPI_Gather(&mine, 1, MPI_INT, all, 1, MPI_INT, 1, own); /* <- reported */
    MPI_Comm_free(&own);
    MPI_Finalize();
    return 0;
}
