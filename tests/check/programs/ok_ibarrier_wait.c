/* Every rank starts an MPI_Ibarrier, does local work, and completes it with MPI_Wait.
 * np: 4
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    volatile double acc = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    for (int i = 0; i < 100000; i++)
        acc += i * 0.5;
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
