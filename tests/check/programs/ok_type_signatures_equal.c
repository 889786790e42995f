/* Correct: sends and receives whose types differ but whose flattened signatures are equal. A
 * column (vector of 4 MPI_INT) received as 4 MPI_INT; a struct {int, int, float} received into
 * another struct of the same signature but another layout {int[2], float}; an indexed type of 3
 * doubles received as a contiguous(3, MPI_DOUBLE). Issue 28 items 1 and 8 (derived types).
 * np: 2
 * slice: none
 * expect: clean
 */
#include <mpi.h>
#include <stddef.h>

struct cell {
    int i, j;
    float weight;
};
struct packed_cell {
    float weight;
    int ij[2];
};

int main(int argc, char **argv)
{
    int rank, grid[4][4] = {{0}}, column[4], lengths[2] = {2, 1}, index_lengths[3] = {1, 1, 1};
    int index_displacements[3] = {0, 2, 4};
    double spread[6] = {0}, three[3];
    struct cell cell = {1, 2, 0.5f};
    struct packed_cell other;
    MPI_Aint cell_displacements[2] = {offsetof(struct cell, i), offsetof(struct cell, weight)};
    MPI_Aint other_displacements[2] = {offsetof(struct packed_cell, ij),
                                       offsetof(struct packed_cell, weight)};
    MPI_Datatype members[2] = {MPI_INT, MPI_FLOAT}, strided, cell_type, other_type, every_other,
                 triple;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_vector(4, 1, 4, MPI_INT, &strided);
    MPI_Type_create_struct(2, lengths, cell_displacements, members, &cell_type);
    MPI_Type_create_struct(2, lengths, other_displacements, members, &other_type);
    MPI_Type_indexed(3, index_lengths, index_displacements, MPI_DOUBLE, &every_other);
    MPI_Type_contiguous(3, MPI_DOUBLE, &triple);
    MPI_Datatype all[5] = {strided, cell_type, other_type, every_other, triple};
    for (int i = 0; i < 5; i++)
        MPI_Type_commit(&all[i]);
    if (rank == 0) {
        MPI_Send(&grid[0][2], 1, all[0], 1, 0, MPI_COMM_WORLD);
        MPI_Send(&cell, 1, all[1], 1, 1, MPI_COMM_WORLD);
        MPI_Send(spread, 1, all[3], 1, 2, MPI_COMM_WORLD);
    } else {
        MPI_Recv(column, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&other, 1, all[2], 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(three, 1, all[4], 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < 5; i++)
        MPI_Type_free(&all[i]);
    MPI_Finalize();
    return 0;
}
