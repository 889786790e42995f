/* Per-peer blocks used correctly: MPI_Gatherv's receive arguments, which only the root reads,
 * NULL on the others; an MPI_Alltoallv whose send buffer is NULL with every send count 0 (rank 0
 * sends nothing); an MPI_Alltoallw from MPI_BOTTOM with types of absolute addresses (a NULL
 * buffer there is legal); an in-place MPI_Allgatherv. Issue 28 item 2.
 * np: 3
 * expect: clean
 */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int rank, value, table[3] = {0}, ones[3] = {1, 1, 1}, zeros[3] = {0}, displs[3] = {0, 1, 2};
    int got[3] = {0}, from0[3], all[3];
    MPI_Datatype at[3], bytes_types[3] = {MPI_INT, MPI_INT, MPI_INT};
    MPI_Aint addr;
    int bytes[3] = {0, 0, 0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = rank;
    MPI_Gatherv(&value, 1, MPI_INT, rank == 0 ? table : NULL, rank == 0 ? ones : NULL,
                rank == 0 ? displs : NULL, MPI_INT, 0, MPI_COMM_WORLD);
    int *sends = rank == 0 ? zeros : ones, recvs[3] = {1, 1, 1};
    recvs[0] = 0;
    MPI_Alltoallv(rank == 0 ? NULL : &value, sends, zeros, MPI_INT, from0, recvs, displs, MPI_INT,
                  MPI_COMM_WORLD);
    for (int j = 0; j < 3; j++) {
        MPI_Get_address(&got[j], &addr);
        MPI_Type_create_struct(1, (int[]){1}, &addr, (MPI_Datatype[]){MPI_INT}, &at[j]);
        MPI_Type_commit(&at[j]);
    }
    MPI_Alltoallw(&value, ones, bytes, bytes_types, MPI_BOTTOM, ones, bytes, at, MPI_COMM_WORLD);
    for (int j = 0; j < 3; j++)
        MPI_Type_free(&at[j]);
    all[rank] = rank;
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, ones, displs, MPI_INT, MPI_COMM_WORLD);
    MPI_Finalize();
    return got[2] == 2 && all[1] == 1 && (rank != 0 || table[2] == 2) ? 0 : 1;
}
