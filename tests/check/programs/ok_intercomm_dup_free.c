/* An intercommunicator between two halves of MPI_COMM_WORLD, duplicated and split, used for a
 * message and freed on both sides: a correct program. Each side sees its own group as the local
 * one; check used to give the duplicate two ids, one per side, and report its Comm_free as a
 * potential deadlock. Issue 28 item 6.
 * np: 4
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Comm half, inter, dup, split;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 7, &inter);
    MPI_Comm_dup(inter, &dup);
    MPI_Comm_split(inter, rank / 2, rank, &split);
    if (rank % 2 == 0)
        MPI_Send(&value, 1, MPI_INT, 0, 0, dup);
    else if (rank == 1)
        for (int source = 0; source < 2; source++)
            MPI_Recv(&value, 1, MPI_INT, source, 0, dup, MPI_STATUS_IGNORE);
    MPI_Barrier(split);
    MPI_Comm_free(&split);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
