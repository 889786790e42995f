/* A particle struct type, resized to the C struct's extent: the program frees the struct type it
 * built the resized one from, and never the resized one it sends with: one datatype_leak per rank
 * at MPI_Type_create_resized. Issue 28 item 3.
 * np: 2
 * slice: none
 * expect: datatype_leak ranks 0 line 26
 * expect: datatype_leak ranks 1 line 26
 */
#include <mpi.h>
#include <stddef.h>

typedef struct particle {
    int id;
    double position[3];
} particle;

int main(int argc, char **argv)
{
    int rank, lengths[2] = {1, 3};
    MPI_Aint displs[2] = {offsetof(particle, id), offsetof(particle, position)};
    MPI_Datatype members[2] = {MPI_INT, MPI_DOUBLE}, fields, particles;
    particle p[4] = {{0, {0}}};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_create_struct(2, lengths, displs, members, &fields);
    MPI_Type_create_resized(fields, 0, sizeof(particle), &particles); /* <- reported */
    MPI_Type_free(&fields);
    MPI_Type_commit(&particles);
    if (rank == 0)
        MPI_Send(p, 4, particles, 1, 0, MPI_COMM_WORLD);
    else
        MPI_Recv(p, 4, particles, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
