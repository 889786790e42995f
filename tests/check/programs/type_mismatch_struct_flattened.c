/* Rank 0 sends one record {int, int, float} as a struct; rank 1 receives three MPI_INT: the same
 * length, but the flattened signatures differ in the third element (MPI 3.1 §3.3.1). Issue 28
 * items 1 and 8 (derived types: struct).
 * np: 2
 * slice: mpich
 * expect: type_mismatch ranks 0,1 line 28
 * mpi: completes
 */
#include <mpi.h>
#include <stddef.h>

struct cell {
    int i, j;
    float weight;
};

int main(int argc, char **argv)
{
    int rank, lengths[2] = {2, 1}, ints[3];
    struct cell cell = {1, 2, 0.5f};
    MPI_Aint displacements[2] = {offsetof(struct cell, i), offsetof(struct cell, weight)};
    MPI_Datatype members[2] = {MPI_INT, MPI_FLOAT}, record;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_create_struct(2, lengths, displacements, members, &record);
    MPI_Type_commit(&record);
    if (rank == 0)
        MPI_Send(&cell, 1, record, 1, 0, MPI_COMM_WORLD); /* <- reported */
    else
        MPI_Recv(ints, 3, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&record);
    MPI_Finalize();
    return 0;
}
