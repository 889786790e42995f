/* Rank 1 builds a group of world rank 5 in a job of 2: MPI raises MPI_ERR_RANK (the argument
 * checks do not look at groups) and, under MPI_ERRORS_ARE_FATAL, aborts the job. Issue 28 item 6.
 * np: 2
 * slice: mpich
 * mpi: abort
 * expect: mpi_error ranks 1 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, members[1] = {5};
    MPI_Group world, group;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    if (rank == 1)
        MPI_Group_incl(world, 1, members, &group); /* <- reported */
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
