/* Both ranks broadcast nothing: a count of 0 with MPI_DATATYPE_NULL and a NULL buffer, which the
 * standard allows (no element is described). Errors return here: an MPI that refuses the null
 * handle anyway refuses it on every rank alike, and the job goes on. Issue 28 item 2.
 * Open MPI only: MPICH 4.0.2 fails an internal assertion on it in its binomial Bcast
 * ("dtp_ != NULL", then aborts the job), so there the legal call is a crash.
 * flavors: openmpi
 * np: 2
 * expect: clean
 */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int value = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Bcast(NULL, 0, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD);
    MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return value == 1 ? 0 : 1;
}
