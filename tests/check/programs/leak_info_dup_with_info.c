/* An info with a hint for a duplicated communicator: the communicator is freed, the info never
 * (MPI_Comm_dup_with_info keeps what it needs; the info is the program's to free): one info_leak
 * per rank at MPI_Info_create. Issue 28 item 3.
 * np: 2
 * slice: none
 * expect: info_leak ranks 0 line 18
 * expect: info_leak ranks 1 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, sum = 0;
    MPI_Info hints;
    MPI_Comm comm;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Info_create(&hints); /* <- reported */
    MPI_Info_set(hints, "mpi_assert_no_any_source", "true");
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, hints, &comm);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return sum == 1 ? 0 : 1;
}
