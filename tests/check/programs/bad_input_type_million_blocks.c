/* Bad input of issue 28: a type of 10^6 blocks. Rank 0 sends every other int of a 2 x 10^6 array
 * as one indexed type of 10^6 one-int blocks, twice: rank 1 receives the first as 10^6 ints
 * (correct: no finding) and the second as 10^6 floats. The signature is hashed once, at the
 * constructor, in time and memory linear in the blocks: the run ends within the guard and the
 * one mismatch is found at the second send's line.
 * np: 2
 * slice: mpich
 * expect: type_mismatch ranks 0,1 line 33
 */
#include <mpi.h>
#include <stdlib.h>

enum { BLOCKS = 1000000 };

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        int *lengths = malloc(BLOCKS * sizeof *lengths), *displs = malloc(BLOCKS * sizeof *displs);
        int *data = calloc(2 * BLOCKS, sizeof *data);
        for (int i = 0; i < BLOCKS; i++) {
            lengths[i] = 1;
            displs[i] = 2 * i;
        }
        MPI_Datatype every_other;
        MPI_Type_indexed(BLOCKS, lengths, displs, MPI_INT, &every_other);
        MPI_Type_commit(&every_other);
        free(lengths);
        free(displs);
        MPI_Send(data, 1, every_other, 1, 0, MPI_COMM_WORLD);
        MPI_Send(data, 1, every_other, 1, 1, MPI_COMM_WORLD); /* <- reported */
        MPI_Type_free(&every_other);
        free(data);
    } else {
        int *ints = malloc(BLOCKS * sizeof *ints);
        float *floats = malloc(BLOCKS * sizeof *floats);
        MPI_Recv(ints, BLOCKS, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(floats, BLOCKS, MPI_FLOAT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        free(ints);
        free(floats);
    }
    MPI_Finalize();
    return 0;
}
