/* MPI_BYTE sent and received as MPI_BYTE, and an MPI_PACKED message unpacked from a receive of
 * MPI_PACKED and received into MPI_INT (MPI_PACKED matches any type, MPI 3.1 §4.2). Issue 28
 * item 1.
 * np: 2
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, values[4] = {1, 2, 3, 4}, position = 0;
    char bytes[16] = {0}, packed[64];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(bytes, 16, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Pack(values, 4, MPI_INT, packed, sizeof packed, &position, MPI_COMM_WORLD);
        MPI_Send(packed, position, MPI_PACKED, 1, 1, MPI_COMM_WORLD);
        MPI_Send(values, 4, MPI_INT, 1, 2, MPI_COMM_WORLD);
    } else {
        MPI_Recv(bytes, 16, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(packed, sizeof packed, MPI_PACKED, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Unpack(packed, sizeof packed, &position, values, 4, MPI_INT, MPI_COMM_WORLD);
        MPI_Recv(packed, sizeof packed, MPI_PACKED, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
