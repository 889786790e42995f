/* Both ranks start a nonblocking reduction and read its result without waiting for it (the
 * request is never completed nor freed): one request per rank still active at MPI_Finalize.
 * Issue 28 items 3 and 8 (nonblocking collectives).
 * np: 2
 * slice: mpich
 * expect: request_not_completed ranks 0 line 19
 * expect: request_not_completed ranks 1 line 19
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, local, total = 0;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    local = rank + 1;
    MPI_Iallreduce(&local, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &request); /* <- reported */
    MPI_Barrier(MPI_COMM_WORLD);
    if (total < 0)
        printf("unexpected total %d\n", total);
    MPI_Finalize();
    return 0;
}
