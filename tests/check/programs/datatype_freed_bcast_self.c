/* Each rank keeps a persistent send of its struct type, frees the type through a copy of the
 * handle (legal: the request still holds it), and then broadcasts on MPI_COMM_SELF with the
 * original handle: a datatype used after MPI_Type_free, in a collective. MPI keeps the type alive
 * for the request, so the call goes through. Issue 28 items 2 and 8 (derived types: struct).
 * np: 2
 * slice: none
 * expect: datatype_freed ranks 0 line 34
 * expect: datatype_freed ranks 1 line 34
 */
#include <mpi.h>
#include <stddef.h>

struct sample {
    int step;
    double value;
};

int main(int argc, char **argv)
{
    int rank, lengths[2] = {1, 1};
    struct sample sample = {0, 0.0};
    MPI_Aint displacements[2] = {offsetof(struct sample, step), offsetof(struct sample, value)};
    MPI_Datatype members[2] = {MPI_INT, MPI_DOUBLE}, record, copy;
    MPI_Request keep;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Type_create_struct(2, lengths, displacements, members, &record);
    MPI_Type_commit(&record);
    MPI_Send_init(&sample, 1, record, 1 - rank, 0, MPI_COMM_WORLD, &keep);
    copy = record;
    MPI_Type_free(&copy);
    MPI_Bcast(&sample, 1, record, 0, MPI_COMM_SELF); /* <- reported */
    MPI_Request_free(&keep);
    MPI_Finalize();
    return 0;
}
