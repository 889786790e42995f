/* Rank 1 probes the message, reads its size with MPI_Get_count in MPI_INT, but receives it in a
 * contiguous type of 4 ints with that count: 6 ints probed, 6 / 4 = 1 unit received. Errors return
 * here, so the job goes on. Issue 28 items 1 and 8 (probe then receive, derived types).
 * np: 2
 * slice: none
 * expect: truncation ranks 0,1 line 22
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, values[8] = {0}, count;
    MPI_Datatype quad;
    MPI_Status status;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_contiguous(4, MPI_INT, &quad);
    MPI_Type_commit(&quad);
    if (rank == 0) {
        MPI_Send(values, 6, MPI_INT, 1, 0, MPI_COMM_WORLD); /* <- reported */
    } else {
        MPI_Probe(0, 0, MPI_COMM_WORLD, &status);
        MPI_Get_count(&status, MPI_INT, &count);
        MPI_Recv(values, count / 4, quad, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Type_free(&quad);
    MPI_Finalize();
    return 0;
}
