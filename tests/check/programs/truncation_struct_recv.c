/* Rank 0 sends two particles (a struct of an int and three doubles); rank 1 receives one: the
 * receive holds 4 of the message's 8 basic elements. Errors return here, so the job goes on.
 * Issue 28 items 1 and 8 (derived types: struct).
 * np: 2
 * slice: none
 * expect: truncation ranks 0,1 line 30
 * mpi: completes
 */
#include <mpi.h>
#include <stddef.h>

struct particle {
    int id;
    double position[3];
};

int main(int argc, char **argv)
{
    int rank, lengths[2] = {1, 3};
    struct particle particles[2] = {{0, {0}}, {1, {0}}};
    MPI_Aint displacements[2] = {offsetof(struct particle, id),
                                 offsetof(struct particle, position)};
    MPI_Datatype members[2] = {MPI_INT, MPI_DOUBLE}, record;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_create_struct(2, lengths, displacements, members, &record);
    MPI_Type_commit(&record);
    if (rank == 0)
        MPI_Send(particles, 2, record, 1, 0, MPI_COMM_WORLD); /* <- reported */
    else
        MPI_Recv(particles, 1, record, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&record);
    MPI_Finalize();
    return 0;
}
