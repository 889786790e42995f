/* Rank 0 encodes (step, block) into its tag as step * 1000000 + block in 32 bits: at step 3000 the
 * product wraps around and the tag comes out negative. Errors return here, so the job goes on.
 * Issue 28 items 2 and 8.
 * np: 2
 * slice: none
 * expect: tag_out_of_range ranks 0 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    unsigned step = 3000, block = 5;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int tag = (int)(step * 1000000u + block);
    if (rank == 0)
        MPI_Ssend(&value, 1, MPI_INT, 1, tag, MPI_COMM_WORLD); /* <- reported */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
