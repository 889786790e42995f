/* An intercommunicator between {0} and {1}: a destination on it is a rank of the remote group,
 * which has one member, so rank 0's send to 1 (its world rank) is out of range. Errors return
 * here, so the job goes on. Issue 28 items 2 and 8.
 * np: 2
 * slice: mpich
 * expect: rank_out_of_range ranks 0 line 21
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 9;
    MPI_Comm own, inter;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &own);
    MPI_Intercomm_create(own, 0, MPI_COMM_WORLD, 1 - rank, 7, &inter);
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    if (rank == 0)
        MPI_Send(&value, 1, MPI_INT, 1, 0, inter); /* <- reported */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&own);
    MPI_Finalize();
    return 0;
}
