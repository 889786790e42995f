/* Both ranks make a group of rank 0 alone and MPI_Comm_create from it: rank 1, outside the group,
 * gets MPI_COMM_NULL and then starts the group's nonblocking barrier on it. Errors return here, so
 * the job goes on. Issue 28 items 2 and 8 (nonblocking collectives).
 * np: 2
 * slice: none
 * expect: comm_null ranks 1 line 22
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int first = 0;
    MPI_Group world, alone;
    MPI_Comm solo;
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &first, &alone);
    MPI_Comm_create(MPI_COMM_WORLD, alone, &solo);
    MPI_Ibarrier(solo, &request); /* <- reported (rank 1) */
    if (solo != MPI_COMM_NULL) {
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        MPI_Comm_free(&solo);
    }
    MPI_Group_free(&alone);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
