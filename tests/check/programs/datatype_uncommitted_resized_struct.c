/* Rank 1 commits a struct type, resizes it to the C struct's extent and receives an array with
 * the resized type, which it never committed (only the struct was). Errors return here, so the
 * job goes on. Issue 28 items 2 and 8 (derived types: struct, resized).
 * np: 2
 * slice: none
 * expect: datatype_uncommitted ranks 1 line 30
 */
#include <mpi.h>
#include <stddef.h>

struct particle {
    int id;
    double mass;
};

int main(int argc, char **argv)
{
    int rank, lengths[2] = {1, 1};
    struct particle particles[3];
    MPI_Aint displacements[2] = {offsetof(struct particle, id), offsetof(struct particle, mass)};
    MPI_Datatype members[2] = {MPI_INT, MPI_DOUBLE}, record, padded;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_create_struct(2, lengths, displacements, members, &record);
    MPI_Type_commit(&record);
    MPI_Type_create_resized(record, 0, sizeof(struct particle), &padded);
    if (rank == 1)
        MPI_Irecv(particles, 3, padded, 0, 0, MPI_COMM_WORLD, &request); /* <- reported */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Type_free(&padded);
    MPI_Type_free(&record);
    MPI_Finalize();
    return 0;
}
