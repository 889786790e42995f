/* Nonblocking collectives issued in different orders: rank 0 Ibcast then Ireduce, rank 1 Ireduce
 * then Ibcast, completed together by Waitall.
 * np: 2
 * expect: collective_mismatch ranks 0,1 line 17
 * expect: collective_mismatch ranks 0,1
 * mpi: hang abort completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 1, sum = 0;
    MPI_Request reqs[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Ibcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD, &reqs[0]); /* <- reported */
        MPI_Ireduce(&rank, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &reqs[1]);
    } else {
        MPI_Ireduce(&rank, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &reqs[1]);
        MPI_Ibcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD, &reqs[0]);
    }
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    MPI_Finalize();
    return 0;
}
