/* Arguments at the edge of legal: count 0 with a NULL buffer, MPI_PROC_NULL as destination and
 * source, MPI_ANY_SOURCE and MPI_ANY_TAG on receives, tag MPI_TAG_UB, a NULL buffer (MPI_BOTTOM)
 * with a struct type of absolute addresses. Issue 28 item 2.
 * np: 2
 * expect: clean
 */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int rank, value = 0, *ub, flag;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    int length = 1;
    MPI_Aint address;
    MPI_Get_address(&value, &address);
    MPI_Datatype absolute, base = MPI_INT;
    MPI_Type_create_struct(1, &length, &address, &base, &absolute);
    MPI_Type_commit(&absolute);
    MPI_Send(NULL, 0, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    MPI_Recv(NULL, 0, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0) {
        MPI_Send(NULL, 0, MPI_INT, 1, *ub, MPI_COMM_WORLD);
        MPI_Send(MPI_BOTTOM, 1, absolute, 1, 1, MPI_COMM_WORLD);
    } else {
        MPI_Recv(NULL, 0, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(MPI_BOTTOM, 1, absolute, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Type_free(&absolute);
    MPI_Finalize();
    return 0;
}
