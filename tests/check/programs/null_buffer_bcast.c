/* Every rank broadcasts 4 ints from a NULL buffer (each was to allocate it after the broadcast):
 * a NULL buffer with a positive count in a collective (Open MPI's broadcast crashes on it).
 * mpi: completes abort
 * np: 2
 * slice: mpich
 * expect: null_buffer ranks 0 line 17
 * expect: null_buffer ranks 1 line 17
 */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int *settings = NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Bcast(settings, 4, MPI_INT, 0, MPI_COMM_WORLD); /* <- reported */
    MPI_Finalize();
    return 0;
}
