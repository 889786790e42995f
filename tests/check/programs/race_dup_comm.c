/* The race of race_recv_any_source on a duplicate of MPI_COMM_WORLD: rank 0 receives from
 * MPI_ANY_SOURCE the messages of ranks 1 and 2 (issue 28 item 6).
 * np: 3
 * slice: none
 * expect: message_race ranks 0,1,2 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Comm comm;
    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_rank(comm, &rank);
    if (rank == 0) {
        for (int i = 0; i < 2; i++)
            MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, 7, comm, MPI_STATUS_IGNORE);
    } else {
        value = rank;
        MPI_Send(&value, 1, MPI_INT, 0, 7, comm);
    }
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
