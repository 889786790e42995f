/* A nonblocking send of a struct type with padding ({char, double}) whose second element's
 * double is written before the Wait. Issue 28 item 4.
 * np: 2
 * slice: none
 * expect: send_buffer_modified ranks 0 line 27
 */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    struct cell {
        char c;
        double d;
    } s[2] = {{1, 1.0}, {2, 2.0}};
    MPI_Request q;
    MPI_Datatype t;
    int lengths[2] = {1, 1};
    MPI_Aint displacements[2] = {offsetof(struct cell, c), offsetof(struct cell, d)};
    MPI_Datatype types[2] = {MPI_CHAR, MPI_DOUBLE};
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_create_struct(2, lengths, displacements, types, &t);
    MPI_Type_commit(&t);
    if (rank == 0) {
        MPI_Isend(s, 2, t, 1, 0, MPI_COMM_WORLD, &q);
        s[1].d = 0.5;
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(s, 2, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
