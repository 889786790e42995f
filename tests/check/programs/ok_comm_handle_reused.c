/* Correct: communicators made and freed in a loop, each used only while it lives. Both MPIs hand
 * a freed communicator's handle out again for the next one (MPICH's handle pool, Open MPI's
 * allocator), so the handle of a freed communicator comes back as a valid one: no comm_freed.
 * Issue 28 item 2.
 * np: 2
 * slice: mpich
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 1, sum = 0;
    MPI_Comm comm;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 4; i++) {
        if (i % 2)
            MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &comm);
        else
            MPI_Comm_dup(MPI_COMM_WORLD, &comm);
        MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, comm);
        MPI_Send(&value, 1, MPI_INT, MPI_PROC_NULL, 0, comm);
        MPI_Comm_free(&comm);
    }
    MPI_Finalize();
    return sum != 2;
}
