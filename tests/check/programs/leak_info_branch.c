/* Rank 1 alone builds an info to describe its part, in its branch, and never frees it: one
 * info_leak, rank 1's. Issue 28 item 3.
 * np: 2
 * slice: none
 * expect: info_leak ranks 1 line 16
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, nkeys = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        MPI_Info part;
        MPI_Info_create(&part); /* <- reported */
        MPI_Info_set(part, "role", "worker");
        MPI_Info_get_nkeys(part, &nkeys);
    }
    MPI_Bcast(&nkeys, 1, MPI_INT, 1, MPI_COMM_WORLD);
    MPI_Finalize();
    return nkeys == 1 ? 0 : 1;
}
