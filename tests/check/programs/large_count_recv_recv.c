/* MUST paper Fig. 1b through the MPI-4 large-count binding: both ranks call MPI_Recv_c before
 * sending, so neither send is ever reached. The checker must see MPI_Recv_c as it sees MPI_Recv.
 * MPICH only: Open MPI 4.1 has no MPI-4 large-count `_c` functions.
 * flavors: mpich
 * np: 2
 * expect: deadlock ranks 0,1 line 16
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, in = 0, out = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int peer = 1 - rank;
    MPI_Recv_c(&in, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* <- reported */
    MPI_Send_c(&out, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
