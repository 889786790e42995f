/* Every rank gathers one integer from each rank with MPI_Allgatherv, its receive type a handle
 * never set up (MPI_DATATYPE_NULL) for counts of 1: a v-collective's datatype is checked against
 * the counts it goes with. Errors return here, so the job goes on. Issue 28 item 2.
 * slice: none
 * np: 2
 * expect: datatype_null ranks 0 line 19
 * expect: datatype_null ranks 1 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, mine, all[2] = {0}, counts[2] = {1, 1}, displs[2] = {0, 1};
    MPI_Datatype cell = MPI_DATATYPE_NULL; /* meant to be MPI_INT resized to a padded stride */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    mine = rank;
    MPI_Allgatherv(&mine, 1, MPI_INT, all, counts, displs, cell, MPI_COMM_WORLD); /* <- reported */
    MPI_Finalize();
    return 0;
}
