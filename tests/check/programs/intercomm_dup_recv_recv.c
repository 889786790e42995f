/* Both leaders of a duplicated intercommunicator receive first: a deadlock across the two
 * groups. The duplicate has one id on both sides, so the knot is found (issue 28 item 6).
 * np: 2
 * expect: deadlock ranks 0,1 knot 0,1 line 16
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Comm inter, dup;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, 1 - rank, 3, &inter);
    MPI_Comm_dup(inter, &dup);
    MPI_Recv(&value, 1, MPI_INT, 0, 0, dup, MPI_STATUS_IGNORE); /* <- reported */
    MPI_Send(&value, 1, MPI_INT, 0, 0, dup);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&inter);
    MPI_Finalize();
    return 0;
}
