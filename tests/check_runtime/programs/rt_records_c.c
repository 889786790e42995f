/* The records of the MPI-4 large-count (`_c`) calls (MPICH only: Open MPI 4.1.4 has none): two
 * ranks make the same sequence of calls twice, first in the int binding, then in the `_c` one,
 * with the same arguments, the rounds separated by an MPI_Barrier (which has no `_c` form). The
 * test (check_runtime.sh records_c) asserts that both rounds give the same records. MPI_Bcast_c
 * carries 64 elements so that a protection module bounding the `_c` calls at 8 acts on it. */
#include <mpi.h>
#include <stdlib.h>

enum { BIG = 64 };

/* One call in the binding of the round: MPI_<name> or MPI_<name>_c, the same arguments. */
#define CALL(large, name, ...) ((large) ? MPI_##name##_c(__VA_ARGS__) : MPI_##name(__VA_ARGS__))

static void point_to_point(int large, int rank)
{
    int x = rank, y = -1;
    MPI_Request r;
    MPI_Status st;
    if (rank == 0) {
        CALL(large, Send, &x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        CALL(large, Ssend, &x, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
        CALL(large, Isend, &x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        CALL(large, Send_init, &x, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, &r);
        MPI_Start(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Request_free(&r);
        CALL(large, Send, &x, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
        CALL(large, Send, &x, 1, MPI_INT, 1, 8, MPI_COMM_WORLD);
    } else {
        CALL(large, Recv, &y, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
        CALL(large, Recv, &y, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &st);
        CALL(large, Irecv, &y, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        CALL(large, Recv_init, &y, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, &r);
        MPI_Start(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Request_free(&r);
        MPI_Message m;
        MPI_Mprobe(0, 7, MPI_COMM_WORLD, &m, MPI_STATUS_IGNORE);
        CALL(large, Mrecv, &y, 1, MPI_INT, &m, MPI_STATUS_IGNORE);
        MPI_Mprobe(0, 8, MPI_COMM_WORLD, &m, MPI_STATUS_IGNORE);
        CALL(large, Imrecv, &y, 1, MPI_INT, &m, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    int peer = 1 - rank;
    CALL(large, Sendrecv, &x, 1, MPI_INT, peer, 5, &y, 1, MPI_INT, MPI_ANY_SOURCE, 5,
         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CALL(large, Sendrecv_replace, &x, 1, MPI_INT, peer, 6, peer, 6, MPI_COMM_WORLD,
         MPI_STATUS_IGNORE);
}

/* The collectives with vector arguments: the int and the `_c` binding take different arrays. */
static void vector_collectives(int large)
{
    int s[2] = {1, 2}, d[2] = {0, 0};
    int ci[2] = {1, 1}, di[2] = {0, 1};
    MPI_Count cc[2] = {1, 1};
    MPI_Aint dc[2] = {0, 1};
    int dbytes[2] = {0, (int)sizeof(int)};
    MPI_Aint dcbytes[2] = {0, (MPI_Aint)sizeof(int)};
    MPI_Datatype types[2] = {MPI_INT, MPI_INT};
    MPI_Request r;
    if (large) {
        MPI_Scatterv_c(s, cc, dc, MPI_INT, d, 1, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Allgatherv_c(s, 1, MPI_INT, d, cc, dc, MPI_INT, MPI_COMM_WORLD);
        MPI_Alltoallv_c(s, cc, dc, MPI_INT, d, cc, dc, MPI_INT, MPI_COMM_WORLD);
        MPI_Alltoallw_c(s, cc, dcbytes, types, d, cc, dcbytes, types, MPI_COMM_WORLD);
        MPI_Ialltoallw_c(s, cc, dcbytes, types, d, cc, dcbytes, types, MPI_COMM_WORLD, &r);
    } else {
        MPI_Scatterv(s, ci, di, MPI_INT, d, 1, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Allgatherv(s, 1, MPI_INT, d, ci, di, MPI_INT, MPI_COMM_WORLD);
        MPI_Alltoallv(s, ci, di, MPI_INT, d, ci, di, MPI_INT, MPI_COMM_WORLD);
        MPI_Alltoallw(s, ci, dbytes, types, d, ci, dbytes, types, MPI_COMM_WORLD);
        MPI_Ialltoallw(s, ci, dbytes, types, d, ci, dbytes, types, MPI_COMM_WORLD, &r);
    }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
}

static void collectives(int large, int rank)
{
    int *big = calloc(BIG, sizeof *big);
    int x = rank + 1, y = 0, two[2] = {0, 0};
    MPI_Request r;
    CALL(large, Bcast, big, BIG, MPI_INT, 1, MPI_COMM_WORLD);
    CALL(large, Ibcast, &x, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CALL(large, Reduce, &x, &y, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    CALL(large, Allreduce, &x, &y, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    CALL(large, Gather, &x, 1, MPI_INT, two, 1, MPI_INT, 1, MPI_COMM_WORLD);
    CALL(large, Reduce_scatter_block, two, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CALL(large, Scan, &x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CALL(large, Exscan, &x, &y, 1, MPI_INT, MPI_PROD, MPI_COMM_WORLD);
    CALL(large, Iallreduce, &x, &y, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    vector_collectives(large);
    free(big);
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int large = 0; large <= 1; large++) {
        point_to_point(large, rank);
        collectives(large, rank);
        MPI_Barrier(MPI_COMM_WORLD); /* the end of a round in the records */
    }
    MPI_Finalize();
    return 0;
}
