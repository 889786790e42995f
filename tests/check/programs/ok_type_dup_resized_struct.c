/* Types with equal signatures built differently: a dup of MPI_DOUBLE against a resized
 * MPI_DOUBLE, a vector of 2 x 2 MPI_INT against 4 MPI_INT, and a struct {int, double} against
 * its dup, through a persistent send and a Sendrecv_replace. Issue 28 item 1.
 * np: 2
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, ints[8] = {0};
    double doubles[4] = {0};
    struct {
        int i;
        double d;
    } pairs[2];
    MPI_Datatype dup_double, wide_double, strided, pair, pair_dup;
    int lengths[2] = {1, 1};
    MPI_Aint displs[2] = {0, sizeof(double)};
    MPI_Datatype members[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_dup(MPI_DOUBLE, &dup_double);
    MPI_Type_create_resized(MPI_DOUBLE, 0, sizeof(double), &wide_double);
    MPI_Type_vector(2, 2, 4, MPI_INT, &strided);
    MPI_Type_create_struct(2, lengths, displs, members, &pair);
    MPI_Type_dup(pair, &pair_dup);
    MPI_Datatype all[] = {dup_double, wide_double, strided, pair, pair_dup};
    for (int i = 0; i < 5; i++)
        MPI_Type_commit(&all[i]);
    if (rank == 0) {
        MPI_Send_init(doubles, 4, all[0], 1, 0, MPI_COMM_WORLD, &request);
        MPI_Start(&request);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        MPI_Request_free(&request);
        MPI_Send(ints, 1, all[2], 1, 1, MPI_COMM_WORLD);
        MPI_Sendrecv_replace(pairs, 2, all[3], 1, 2, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(doubles, 4, all[1], 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(ints, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv_replace(pairs, 2, all[4], 0, 2, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < 5; i++)
        MPI_Type_free(&all[i]);
    MPI_Finalize();
    return 0;
}
