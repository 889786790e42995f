/* Both ranks sum (value, index) pairs of MPI_2INT, meant for MPI_MAXLOC: the pair types are
 * defined for MPI_MINLOC and MPI_MAXLOC only. Errors return here, so the job goes on. (Logical
 * ops on floating point are no case for the suite: MPICH 4.0.2 aborts inside the reduction.) Issue
 * 28 items 1, 2 and 8.
 * np: 2
 * slice: none
 * expect: op_type_mismatch ranks 0 line 20
 * expect: op_type_mismatch ranks 1 line 20
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, pair[2], total[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    pair[0] = 10 * rank;
    pair[1] = rank;
    MPI_Allreduce(pair, total, 1, MPI_2INT, MPI_SUM, MPI_COMM_WORLD); /* <- reported */
    MPI_Finalize();
    return 0;
}
