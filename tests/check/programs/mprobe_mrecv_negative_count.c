/* Rank 0 sizes its matched receive from the probe's status in the wrong unit: 3 MPI_INT are not a
 * whole number of MPI_DOUBLE, so MPI_Get_count gives MPI_UNDEFINED, a negative count, which
 * MPI_Mrecv gets. Errors return here, so the job goes on. Issue 28 items 1 and 2 (Mrecv's
 * arguments).
 * np: 2
 * slice: none
 * expect: negative_count ranks 0 line 26
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, n = 0, ints[3] = {1, 2, 3};
    double d[3];
    MPI_Message msg;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Mprobe(1, 0, MPI_COMM_WORLD, &msg, &st);
        MPI_Get_count(&st, MPI_DOUBLE, &n);
        if (n == MPI_UNDEFINED)
            MPI_Mrecv(d, n, MPI_DOUBLE, &msg, MPI_STATUS_IGNORE); /* <- reported */
    } else {
        MPI_Send(ints, 3, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
