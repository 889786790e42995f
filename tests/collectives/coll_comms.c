/* Collectives on communicators created and freed in turn, of sizes that change from round to
 * round: the protection module keeps a record per communicator (its rank and size) and remembers
 * the last one it looked up, and MPI hands a freed communicator's handle to a later one. A record
 * that outlived its communicator would plan with the wrong size or rank: the entries past a
 * communicator's size are poisoned with -1, which the module would report as a user error, and a
 * plan for the wrong size or root delivers wrong bytes, fails in MPI, or passes the call
 * unprotected (each call is a call site of its own, so the module's log shows which were served).
 * Run under `mpiguard protect --bound 20` (every call fires G) with 4 or more ranks. Prints
 * "coll_comms: <rounds> rounds on <P> ranks: <m> mismatching". */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { N = 16, ROUNDS = 6, MAXP = 64, POISON = -1 };

static int counts[MAXP], displs[MAXP];
static unsigned char sendbuf[N], recvbuf[N * MAXP];

static unsigned char byte_of(int rank, int round, int j)
{
    return (unsigned char)(rank * 7 + round * 3 + j + 1);
}

/* Every block of the receive buffer holds its sender's bytes. */
static int blocks_right(int size, int round)
{
    for (int i = 0; i < size; i++)
        for (int j = 0; j < N; j++)
            if (recvbuf[i * N + j] != byte_of(i, round, j))
                return 0;
    return 1;
}

/* Round r's communicator: all ranks, then the first two apart from the rest, then the even and the
 * odd ranks. */
static MPI_Comm comm_of_round(int round, int me)
{
    MPI_Comm c;
    int color = round % 3 == 0 ? 0 : round % 3 == 1 ? me < 2 : me % 2;
    MPI_Comm_split(MPI_COMM_WORLD, color, me, &c);
    return c;
}

/* One round; inlined at each use, so that every round's two calls are call sites of their own and
 * the module's log, one line per site, shows each of them protected. */
static inline __attribute__((always_inline)) int one_round(int round, int me)
{
    MPI_Comm c = comm_of_round(round, me);
    int size, rank, bad = 0;
    MPI_Comm_size(c, &size);
    MPI_Comm_rank(c, &rank);
    for (int i = 0; i < MAXP; i++) {
        counts[i] = i < size ? N : POISON;
        displs[i] = i < size ? i * N : POISON;
    }
    for (int j = 0; j < N; j++)
        sendbuf[j] = byte_of(rank, round, j);
    memset(recvbuf, 0, sizeof recvbuf);
    MPI_Allgatherv(sendbuf, N, MPI_BYTE, recvbuf, counts, displs, MPI_BYTE, c);
    bad += !blocks_right(size, round);
    int root = size - 1;
    memset(recvbuf, 0, sizeof recvbuf);
    MPI_Gatherv(sendbuf, N, MPI_BYTE, recvbuf, counts, displs, MPI_BYTE, root, c);
    bad += rank == root && !blocks_right(size, round);
    MPI_Comm_free(&c);
    return bad;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int P, me, bad = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (P > MAXP)
        MPI_Abort(MPI_COMM_WORLD, 2);
    bad += one_round(0, me);
    bad += one_round(1, me);
    bad += one_round(2, me);
    bad += one_round(3, me);
    bad += one_round(4, me);
    bad += one_round(5, me);
    int all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0)
        printf("coll_comms: %d rounds on %d ranks: %d mismatching\n", ROUNDS, P, all);
    MPI_Finalize();
    return all != 0;
}
