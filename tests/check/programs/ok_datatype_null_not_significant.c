/* MPI_DATATYPE_NULL where MPI reads no datatype: the non-roots of MPI_Gatherv and MPI_Scatterv
 * pass no counts and a null type for the root's side, which only the root's call uses (MPI 3.1
 * §5.5, §5.6); both MPIs accept it. Issue 28 item 2.
 * np: 3
 * expect: clean
 */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int rank, size, mine, all[3] = {0}, counts[3] = {1, 1, 1}, displs[3] = {0, 1, 2};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mine = rank;
    if (rank == 0) {
        MPI_Gatherv(&mine, 1, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Scatterv(all, counts, displs, MPI_INT, &mine, 1, MPI_INT, 0, MPI_COMM_WORLD);
    } else {
        MPI_Gatherv(&mine, 1, MPI_INT, NULL, NULL, NULL, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD);
        mine = -1;
        MPI_Scatterv(NULL, NULL, NULL, MPI_DATATYPE_NULL, &mine, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return size == 3 && mine == rank ? 0 : 1;
}
