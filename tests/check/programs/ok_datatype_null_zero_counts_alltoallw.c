/* Each rank sends one integer to its right neighbour and receives one from its left with
 * MPI_Alltoallw, the other peers' datatypes MPI_DATATYPE_NULL with counts 0: a null type that
 * describes no element, legal (pmodels/mpich#4659). Issue 28 item 2.
 * MPICH only: Open MPI 4.1 refuses a null type in MPI_Alltoallw whatever its count
 * (MPI_ERR_TYPE), so there the legal call is an error.
 * flavors: mpich
 * np: 3
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, mine, got = -1;
    int sn[3] = {0}, rn[3] = {0}, sd[3] = {0}, rd[3] = {0};
    MPI_Datatype st[3], rt[3];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mine = rank;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int i = 0; i < size; i++)
        st[i] = rt[i] = MPI_DATATYPE_NULL;
    sn[right] = rn[left] = 1;
    st[right] = rt[left] = MPI_INT;
    MPI_Alltoallw(&mine, sn, sd, st, &got, rn, rd, rt, MPI_COMM_WORLD);
    MPI_Finalize();
    return size == 3 && got == left ? 0 : 1;
}
