/* Proof of the protection module's correctness on a real MPI (docs/design/collectives.md,
 * "Proof"): every collective of Table V, blocking and nonblocking, in place where MPI
 * allows it, run twice from identical buffers: once straight into the library (PMPI_*, which the
 * interposition library does not wrap) and once through MPI_*, which `mpiguard protect --bound N
 * --workaround W` routes through a workaround. Every byte of every rank's buffers must match.
 * Built twice from this file: coll_check calls the int-count forms, coll_check_c (COLL_LARGE,
 * coll_form.h) the MPI-4 large-count `_c` forms with MPI_Count counts and MPI_Aint displacements
 * (on an MPI without them it says so and exits 77).
 *
 * Usage: coll_check N ROOT [ZEROS]
 * N even: the irregular counts are N, N+2, N+4 and all even, so W2's big datatype applies too.
 * ZEROS 1 adds a second pass of the 46 cases with zero-size messages: count 0 for every pair
 * (i, j) with (i + j) % 3 == 1 in the irregular collectives, and count 0 in the regular ones.
 * Prints one line per mismatching case; exits 1 if any. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_form.h"

#define PROG "coll_check" FORM_SUFFIX

#ifdef COLL_NO_LARGE
int main(void)
{
    printf(PROG ": this MPI has no large-count (_c) collectives\n");
    return 77;
}
#else

enum { NCOLL = 12 };
static const char *const names[NCOLL] = {"Bcast",     "Scatter",   "Scatterv",   "Gather",
                                         "Gatherv",   "Allgather", "Allgatherv", "Alltoall",
                                         "Alltoallv", "Reduce",    "Allreduce",  "Reduce_scatter"};
static const int has_in_place[NCOLL] = {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};

static int P, me, N, root;
static int zero_pass; /* the pass with zero-size messages */
static size_t cap;    /* ints per buffer */

/* The irregular count of messages from i to j (symmetric, so Alltoallv's sides agree). */
static int cnt(int i, int j)
{
    if (zero_pass && (i + j) % 3 == 1)
        return 0;
    return N + 2 * ((i + j) % 3);
}

/* Gapped layout: block i starts after the blocks before it plus 2 ints per earlier block. */
static void layout(int who, count_t *counts, displ_t *displs, int by_receiver)
{
    int at = 0;
    for (int i = 0; i < P; i++) {
        counts[i] = by_receiver ? cnt(i, who) : cnt(who, i);
        displs[i] = at;
        at += counts[i] + 2;
    }
}

typedef struct bufs {
    int *s, *r;
} bufs;

static void fill(bufs *b, int salt)
{
    for (size_t k = 0; k < cap; k++) {
        b->s[k] = me * 1000003 + (int)k * 7 + salt;
        b->r[k] = -(me * 7919 + (int)k * 13 + salt);
    }
}

/* Completes a protected nonblocking call, each time with another of MPI's completion calls (the
 * module keeps a nonblocking workaround's arrays until it sees the request complete in one). */
static void complete(MPI_Request *rq)
{
    static int turn;
    int flag = 0, index, count;
    MPI_Status st[1]; /* not MPI_STATUSES_IGNORE: gcc takes it for an array of size 0 */
    switch (turn++ % 8) {
    case 0:
        MPI_Wait(rq, MPI_STATUS_IGNORE);
        break;
    case 1:
        MPI_Waitall(1, rq, st);
        break;
    case 2:
        MPI_Waitany(1, rq, &index, MPI_STATUS_IGNORE);
        break;
    case 3:
        MPI_Waitsome(1, rq, &count, &index, st);
        break;
    case 4:
        while (!flag)
            MPI_Test(rq, &flag, MPI_STATUS_IGNORE);
        break;
    case 5:
        while (!flag)
            MPI_Testall(1, rq, &flag, st);
        break;
    case 6:
        while (!flag)
            MPI_Testany(1, rq, &index, &flag, MPI_STATUS_IGNORE);
        break;
    default:
        for (count = 0; count == 0;)
            MPI_Testsome(1, rq, &count, &index, st);
        break;
    }
}

/* Runs case (c, nb, ip) into b, through MPI (protected) or PMPI (reference), in the form of this
 * build (MPI_Gatherv or MPI_Gatherv_c). */
#define CALL(name, iname, ...)                                                                     \
    do {                                                                                           \
        MPI_Request rq;                                                                            \
        if (nb && prot) {                                                                          \
            FORM(MPI_##iname)(__VA_ARGS__, &rq);                                                   \
            complete(&rq);                                                                         \
        } else if (nb) {                                                                           \
            FORM(PMPI_##iname)(__VA_ARGS__, &rq);                                                  \
            PMPI_Wait(&rq, MPI_STATUS_IGNORE);                                                     \
        } else if (prot) {                                                                         \
            FORM(MPI_##name)(__VA_ARGS__);                                                         \
        } else {                                                                                   \
            FORM(PMPI_##name)(__VA_ARGS__);                                                        \
        }                                                                                          \
    } while (0)

static void run(int c, int nb, int ip, int prot, bufs *b)
{
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Datatype t = MPI_INT;
    int is_root = me == root;
    int n = zero_pass ? 0 : N; /* the regular collectives' count */
    void *sb = ip ? MPI_IN_PLACE : b->s, *rb = b->r;
    count_t sc[64], rc[64];
    displ_t sd[64], rd[64];
    switch (c) {
    case 0:
        CALL(Bcast, Ibcast, is_root ? b->s : b->r, n, t, root, w);
        break;
    case 1:
        CALL(Scatter, Iscatter, b->s, n, t, ip && is_root ? MPI_IN_PLACE : rb, n, t, root, w);
        break;
    case 2:
        layout(root, sc, sd, 0);
        CALL(Scatterv, Iscatterv, b->s, sc, sd, t, ip && is_root ? MPI_IN_PLACE : rb, cnt(root, me),
             t, root, w);
        break;
    case 3:
        CALL(Gather, Igather, ip && is_root ? MPI_IN_PLACE : b->s, n, t, rb, n, t, root, w);
        break;
    case 4:
        layout(root, rc, rd, 1);
        CALL(Gatherv, Igatherv, ip && is_root ? MPI_IN_PLACE : b->s, cnt(me, root), t, rb, rc, rd,
             t, root, w);
        break;
    case 5:
        CALL(Allgather, Iallgather, sb, n, t, rb, n, t, w);
        break;
    case 6:
        /* Allgatherv needs one count per sender, the same on every rank: cnt(i, 0). */
        for (int i = 0, at = 0; i < P; i++)
            rc[i] = cnt(i, 0), rd[i] = at, at += rc[i] + 2;
        CALL(Allgatherv, Iallgatherv, sb, cnt(me, 0), t, rb, rc, rd, t, w);
        break;
    case 7:
        CALL(Alltoall, Ialltoall, sb, n, t, rb, n, t, w);
        break;
    case 8:
        layout(me, sc, sd, 0);
        layout(me, rc, rd, 1);
        CALL(Alltoallv, Ialltoallv, sb, sc, sd, t, rb, rc, rd, t, w);
        break;
    case 9:
        CALL(Reduce, Ireduce, ip && is_root ? MPI_IN_PLACE : b->s, rb, n, t, MPI_SUM, root, w);
        break;
    case 10:
        CALL(Allreduce, Iallreduce, sb, rb, n, t, MPI_SUM, w);
        break;
    default:
        for (int i = 0; i < P; i++)
            rc[i] = cnt(i, 0);
        CALL(Reduce_scatter, Ireduce_scatter, sb, rb, rc, t, MPI_SUM, w);
        break;
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    PMPI_Comm_size(MPI_COMM_WORLD, &P);
    N = argc > 1 ? atoi(argv[1]) : 16;
    root = (argc > 2 ? atoi(argv[2]) : 1) % P;
    int passes = argc > 3 && atoi(argv[3]) ? 2 : 1;
    if (P > 64 || N < 2 || N % 2) {
        if (me == 0)
            fprintf(stderr, PROG ": needs at most 64 ranks and an even N >= 2\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    cap = (size_t)P * (size_t)(N + 8) + 16;
    bufs ref = {malloc(cap * sizeof(int)), malloc(cap * sizeof(int))};
    bufs got = {malloc(cap * sizeof(int)), malloc(cap * sizeof(int))};
    int cases = 0, bad = 0;
    for (zero_pass = 0; zero_pass < passes; zero_pass++)
        for (int c = 0; c < NCOLL; c++)
            for (int nb = 0; nb < 2; nb++)
                for (int ip = 0; ip <= has_in_place[c]; ip++) {
                    int salt = c * 8 + nb * 2 + ip + zero_pass * 100;
                    fill(&ref, salt);
                    fill(&got, salt);
                    run(c, nb, ip, 0, &ref);
                    run(c, nb, ip, 1, &got);
                    int differs = memcmp(ref.s, got.s, cap * sizeof(int)) != 0 ||
                                  memcmp(ref.r, got.r, cap * sizeof(int)) != 0;
                    int any = 0;
                    PMPI_Allreduce(&differs, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
                    cases++;
                    bad += any;
                    if (any && me == 0)
                        printf(PROG ": MISMATCH %s%s%s%s%s\n", nb ? "MPI_I" : "MPI_", names[c],
                               FORM_SUFFIX, ip ? " (in place)" : "",
                               zero_pass ? " (zero-size messages)" : "");
                }
    if (me == 0)
        printf(PROG ": %d cases on %d ranks, n %d, root %d: %d mismatching\n", cases, P, N, root,
               bad);
    free(ref.s), free(ref.r), free(got.s), free(got.r);
    MPI_Finalize();
    return bad ? 1 : 0;
}
#endif
