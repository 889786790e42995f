/* Rank 0 receives the column it probed with MPI_Mrecv into a vector type it never committed.
 * Errors return here, so the job goes on. Issue 28 items 1 and 2 (Mrecv's arguments).
 * np: 2
 * slice: none
 * expect: datatype_uncommitted ranks 0 line 23
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, m[4][4] = {{0}}, col[4] = {1, 2, 3, 4};
    MPI_Datatype column;
    MPI_Message msg;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Type_vector(4, 1, 4, MPI_INT, &column);
    if (rank == 0) {
        MPI_Mprobe(1, 0, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE);
        /* MPI_Type_commit(&column) forgotten */
        MPI_Mrecv(&m[0][1], 1, column, &msg, MPI_STATUS_IGNORE); /* <- reported */
    } else {
        MPI_Send(col, 4, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Type_free(&column);
    MPI_Finalize();
    return 0;
}
