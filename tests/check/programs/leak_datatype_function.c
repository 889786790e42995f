/* A helper builds and commits a type for its caller, which is called from two sites and frees
 * neither: one datatype_leak per rank at the helper's constructor, count 2. Issue 28 item 3.
 * np: 2
 * slice: none
 * expect: datatype_leak ranks 0 line 13
 * expect: datatype_leak ranks 1 line 13
 */
#include <mpi.h>

static MPI_Datatype pairs_of(MPI_Datatype basic)
{
    MPI_Datatype pair;
    MPI_Type_contiguous(2, basic, &pair); /* <- reported */
    MPI_Type_commit(&pair);
    return pair;
}

int main(int argc, char **argv)
{
    int rank, ints[4] = {0};
    double doubles[4] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Datatype int_pair = pairs_of(MPI_INT);
    MPI_Bcast(ints, 2, int_pair, 0, MPI_COMM_WORLD);
    MPI_Datatype double_pair = pairs_of(MPI_DOUBLE);
    MPI_Bcast(doubles, 2, double_pair, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
