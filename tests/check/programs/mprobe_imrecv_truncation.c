/* Rank 0 polls with MPI_Improbe from any source and receives what it found with MPI_Imrecv into
 * one pair (a contiguous type of 2 MPI_INT); rank 2 sent 4 MPI_INT: the matched receive is
 * shorter than the message. Only the derived type's length shows it (the Imrecv's count is 1).
 * Which sender the probe finds first is MPI's choice (a race by design, not checked here).
 * Errors return here, so the job goes on. Issue 28 item 1 (probe then receive, wildcards).
 * np: 3
 * checks: -message_race
 * slice: mpich
 * expect: truncation ranks 2,0 line 34,30
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, flag = 0, data[4] = {1, 2, 3, 4};
    MPI_Datatype pair;
    MPI_Message msg;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    if (rank == 0) {
        for (int got = 0; got < 2; got++) {
            do
                MPI_Improbe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &flag, &msg, MPI_STATUS_IGNORE);
            while (!flag);
            MPI_Imrecv(data, 1, pair, &msg, &req); /* <- reported (rank 2's message) */
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
    } else {
        MPI_Send(data, 2 * rank, MPI_INT, 0, 0, MPI_COMM_WORLD); /* <- reported (rank 2) */
    }
    MPI_Type_free(&pair);
    MPI_Finalize();
    return 0;
}
