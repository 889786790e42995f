/* Each rank duplicates MPI_COMM_WORLD with MPI_Comm_idup, waits for it, passes a token around the
 * duplicate and frees it: correct, and nothing is found, but check does not model Comm_idup, so
 * the clean line names it among what was not checked (tests/cli/check_findings_report.sh asserts
 * the line). Issue 28 (the clean line).
 * np: 2
 * slice: mpich
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, got = -1;
    MPI_Comm dup;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT,
                 (rank + size - 1) % size, 0, dup, MPI_STATUS_IGNORE);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return got == (rank + size - 1) % size ? 0 : 1;
}
