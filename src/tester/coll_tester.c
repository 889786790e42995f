/* The collective tester `mpiguard collectives` runs, one job per test (docs/design/collectives.md,
 * "The tester"): one collective of Table V (blocking or nonblocking) with n elements per process of
 * a predefined integer type of s bytes on all ranks, every received byte checked against what the
 * unbroken collective must deliver. Exit 0: correct; 1: wrong bytes (the first one is printed, and
 * a line "coll_tester: ...: WRONG bytes after", by which the CLI tells it from a launcher error);
 * 2: bad arguments or no memory; a crash or a hang is seen by the caller.
 * The MPI-4 large-count forms ("Gatherv_c", "Igatherv_c") are called with MPI_Count counts and the
 * true MPI_Aint displacements, where the library has them (built against an MPI-4 header). A name
 * ending in "_inplace" passes MPI_IN_PLACE (at the root of a rooted collective), its data already
 * in the receive buffer where MPI wants it.
 * Usage: mpiguard-coll-tester-<flavor> COLLECTIVE S N   (COLLECTIVE as "Gatherv", "Igatherv",
 * "Igatherv_c", "Alltoall_inplace") */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int P, me;
static int64_t n;
static int s;

/* Element k of rank r's contribution: small, so integer sums of P of them never overflow. */
static int64_t value(int r, int64_t k)
{
    int64_t limit = s == 1 ? 127 / P : 1000;
    return (k * 7 + r * 3) % (limit > 1 ? limit : 1);
}

static void put(void *buf, int64_t i, int64_t v)
{
    switch (s) {
    case 1:
        ((signed char *)buf)[i] = (signed char)v;
        break;
    case 2:
        ((short *)buf)[i] = (short)v;
        break;
    case 4:
        ((int *)buf)[i] = (int)v;
        break;
    default:
        ((long long *)buf)[i] = v;
    }
}

static int64_t get(const void *buf, int64_t i)
{
    switch (s) {
    case 1:
        return ((const signed char *)buf)[i];
    case 2:
        return ((const short *)buf)[i];
    case 4:
        return ((const int *)buf)[i];
    default:
        return ((const long long *)buf)[i];
    }
}

static MPI_Datatype type_of(void)
{
    return s == 1 ? MPI_SIGNED_CHAR : s == 2 ? MPI_SHORT : s == 4 ? MPI_INT : MPI_LONG_LONG;
}

static void *alloc(int64_t elems)
{
    void *p = malloc((size_t)(elems > 0 ? elems : 1) * (size_t)s);
    if (!p) {
        fprintf(stderr, "coll_tester: rank %d: no memory for %lld elements\n", me,
                (long long)elems);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

/* Checks elems elements of buf against expect(i); prints the first difference. */
static int check(const void *buf, int64_t elems, int64_t (*expect)(int64_t))
{
    for (int64_t i = 0; i < elems; i++)
        if (get(buf, i) != expect(i)) {
            fprintf(stderr, "coll_tester: rank %d: element %lld is %lld, expected %lld\n", me,
                    (long long)i, (long long)get(buf, i), (long long)expect(i));
            return 1;
        }
    return 0;
}

/* The rooted collectives' root: the last rank, whose own block lies furthest into the root's
 * buffer and which takes the library's paths for a root other than 0 (MPICH 4.0.2's Scatter
 * with root 1 of 2 crashes once its s n P bytes reach 2^31; with root 0 it passes). */
static int root;

/* What each collective delivers, element i of the checked buffer. */
static int64_t from_root(int64_t i)
{
    return value(root, i);
}
static int64_t block_for_me(int64_t i)
{
    return value(root, (int64_t)me * n + i);
}
static int64_t gathered(int64_t i)
{
    return value((int)(i / n), i % n);
}
static int64_t exchanged(int64_t i)
{
    return value((int)(i / n), (int64_t)me * n + i % n);
}
static int64_t summed(int64_t i)
{
    int64_t t = 0;
    for (int r = 0; r < P; r++)
        t += value(r, i);
    return t;
}
static int64_t summed_mine(int64_t i)
{
    return summed((int64_t)me * n + i);
}

/* The `_c` forms exist only in MPI-4 headers; elsewhere asking for one ends the test (the CLI
 * refuses `_c` collectives on such an MPI before any test runs). */
#if MPI_VERSION >= 4
#define LARGE(call) (call)
#else
#define LARGE(call) no_large_count()
static int no_large_count(void)
{
    fprintf(stderr, "coll_tester: this MPI has no large-count (_c) collectives\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
    return 1;
}
#endif

static void wait_if(int nb, MPI_Request *rq)
{
    if (nb)
        MPI_Wait(rq, MPI_STATUS_IGNORE);
}

/* Runs the collective (its nonblocking form when nb, its `_c` form when lc, with MPI_IN_PLACE when
 * ip); returns the number of wrong ranks' checks on this rank (0 or 1). */
static int run(const char *name, int nb, int lc, int ip)
{
    MPI_Datatype t = type_of();
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Request rq = MPI_REQUEST_NULL;
    int is_root = me == root;
    int64_t total = n * P;
    int ni = (int)n;
    int *counts = malloc((size_t)P * sizeof *counts), *displs = malloc((size_t)P * sizeof *displs);
    for (int i = 0; i < P; i++)
        counts[i] = ni, displs[i] = (int)(uint32_t)(uint64_t)((int64_t)i * n);
    /* The `_c` forms' vectors: the counts, and the true displacements (nothing to truncate). */
    MPI_Count nc = n, *counts_c = malloc((size_t)P * sizeof *counts_c);
    MPI_Aint *displs_c = malloc((size_t)P * sizeof *displs_c);
    for (int i = 0; i < P; i++)
        counts_c[i] = n, displs_c[i] = (MPI_Aint)i * n;
    (void)nc; /* unused without an MPI-4 header */
    void *sb, *rb;
    const void *send; /* sb, or MPI_IN_PLACE where this rank passes it */
    int bad = 0;
    /* The call in the form asked for: int or `_c`, blocking or not. */
#define NB(call, icall, call_c, icall_c)                                                           \
    (lc ? ((nb) ? LARGE(icall_c) : LARGE(call_c)) : (nb) ? (icall) : (call))
    if (strcasecmp(name, "Bcast") == 0 && !ip) {
        rb = alloc(n);
        for (int64_t i = 0; i < n && is_root; i++)
            put(rb, i, value(root, i));
        NB(MPI_Bcast(rb, ni, t, root, w), MPI_Ibcast(rb, ni, t, root, w, &rq),
           MPI_Bcast_c(rb, nc, t, root, w), MPI_Ibcast_c(rb, nc, t, root, w, &rq));
        wait_if(nb, &rq);
        bad = check(rb, n, from_root);
    } else if (strcasecmp(name, "Scatter") == 0 || strcasecmp(name, "Scatterv") == 0) {
        sb = alloc(is_root ? total : 1);
        rb = alloc(n);
        /* In place the root receives nothing: its block stays where it is in sb. */
        void *recv = ip && is_root ? MPI_IN_PLACE : rb;
        for (int64_t i = 0; i < total && is_root; i++)
            put(sb, i, value(root, i));
        if (name[7])
            NB(MPI_Scatterv(sb, counts, displs, t, recv, ni, t, root, w),
               MPI_Iscatterv(sb, counts, displs, t, recv, ni, t, root, w, &rq),
               MPI_Scatterv_c(sb, counts_c, displs_c, t, recv, nc, t, root, w),
               MPI_Iscatterv_c(sb, counts_c, displs_c, t, recv, nc, t, root, w, &rq));
        else
            NB(MPI_Scatter(sb, ni, t, recv, ni, t, root, w),
               MPI_Iscatter(sb, ni, t, recv, ni, t, root, w, &rq),
               MPI_Scatter_c(sb, nc, t, recv, nc, t, root, w),
               MPI_Iscatter_c(sb, nc, t, recv, nc, t, root, w, &rq));
        wait_if(nb, &rq);
        bad = recv == rb ? check(rb, n, block_for_me) : 0;
        free(sb);
    } else if (strcasecmp(name, "Gather") == 0 || strcasecmp(name, "Gatherv") == 0) {
        sb = alloc(n);
        rb = alloc(is_root ? total : 1);
        /* In place the root's contribution is already its block of rb. */
        send = ip && is_root ? MPI_IN_PLACE : sb;
        for (int64_t i = 0; i < n; i++)
            put(send == sb ? sb : (char *)rb + (size_t)(root * n * s), i, value(me, i));
        if (name[6])
            NB(MPI_Gatherv(send, ni, t, rb, counts, displs, t, root, w),
               MPI_Igatherv(send, ni, t, rb, counts, displs, t, root, w, &rq),
               MPI_Gatherv_c(send, nc, t, rb, counts_c, displs_c, t, root, w),
               MPI_Igatherv_c(send, nc, t, rb, counts_c, displs_c, t, root, w, &rq));
        else
            NB(MPI_Gather(send, ni, t, rb, ni, t, root, w),
               MPI_Igather(send, ni, t, rb, ni, t, root, w, &rq),
               MPI_Gather_c(send, nc, t, rb, nc, t, root, w),
               MPI_Igather_c(send, nc, t, rb, nc, t, root, w, &rq));
        wait_if(nb, &rq);
        bad = is_root ? check(rb, total, gathered) : 0;
        free(sb);
    } else if (strcasecmp(name, "Allgather") == 0 || strcasecmp(name, "Allgatherv") == 0) {
        sb = alloc(ip ? 1 : n);
        rb = alloc(total);
        /* In place each rank's contribution is already its block of rb. */
        send = ip ? MPI_IN_PLACE : sb;
        for (int64_t i = 0; i < n; i++)
            put(ip ? (char *)rb + (size_t)(me * n * s) : sb, i, value(me, i));
        if (name[9])
            NB(MPI_Allgatherv(send, ni, t, rb, counts, displs, t, w),
               MPI_Iallgatherv(send, ni, t, rb, counts, displs, t, w, &rq),
               MPI_Allgatherv_c(send, nc, t, rb, counts_c, displs_c, t, w),
               MPI_Iallgatherv_c(send, nc, t, rb, counts_c, displs_c, t, w, &rq));
        else
            NB(MPI_Allgather(send, ni, t, rb, ni, t, w),
               MPI_Iallgather(send, ni, t, rb, ni, t, w, &rq),
               MPI_Allgather_c(send, nc, t, rb, nc, t, w),
               MPI_Iallgather_c(send, nc, t, rb, nc, t, w, &rq));
        wait_if(nb, &rq);
        bad = check(rb, total, gathered);
        free(sb);
    } else if (strcasecmp(name, "Alltoall") == 0 || strcasecmp(name, "Alltoallv") == 0) {
        sb = alloc(ip ? 1 : total);
        rb = alloc(total);
        /* In place rb holds what this rank sends; the send arguments are ignored. */
        send = ip ? MPI_IN_PLACE : sb;
        for (int64_t i = 0; i < total; i++)
            put(ip ? rb : sb, i, value(me, i));
        if (name[8])
            NB(MPI_Alltoallv(send, counts, displs, t, rb, counts, displs, t, w),
               MPI_Ialltoallv(send, counts, displs, t, rb, counts, displs, t, w, &rq),
               MPI_Alltoallv_c(send, counts_c, displs_c, t, rb, counts_c, displs_c, t, w),
               MPI_Ialltoallv_c(send, counts_c, displs_c, t, rb, counts_c, displs_c, t, w, &rq));
        else
            NB(MPI_Alltoall(send, ni, t, rb, ni, t, w),
               MPI_Ialltoall(send, ni, t, rb, ni, t, w, &rq),
               MPI_Alltoall_c(send, nc, t, rb, nc, t, w),
               MPI_Ialltoall_c(send, nc, t, rb, nc, t, w, &rq));
        wait_if(nb, &rq);
        bad = check(rb, total, exchanged);
        free(sb);
    } else if (strcasecmp(name, "Reduce") == 0 || strcasecmp(name, "Allreduce") == 0) {
        int all = name[0] == 'A' || name[0] == 'a';
        sb = alloc(n);
        rb = alloc(n);
        /* In place (at the root of Reduce) rb holds this rank's input. */
        send = ip && (all || is_root) ? MPI_IN_PLACE : sb;
        for (int64_t i = 0; i < n; i++)
            put(send == sb ? sb : rb, i, value(me, i));
        if (all)
            NB(MPI_Allreduce(send, rb, ni, t, MPI_SUM, w),
               MPI_Iallreduce(send, rb, ni, t, MPI_SUM, w, &rq),
               MPI_Allreduce_c(send, rb, nc, t, MPI_SUM, w),
               MPI_Iallreduce_c(send, rb, nc, t, MPI_SUM, w, &rq));
        else
            NB(MPI_Reduce(send, rb, ni, t, MPI_SUM, root, w),
               MPI_Ireduce(send, rb, ni, t, MPI_SUM, root, w, &rq),
               MPI_Reduce_c(send, rb, nc, t, MPI_SUM, root, w),
               MPI_Ireduce_c(send, rb, nc, t, MPI_SUM, root, w, &rq));
        wait_if(nb, &rq);
        bad = all || is_root ? check(rb, n, summed) : 0;
        free(sb);
    } else if (strcasecmp(name, "Reduce_scatter") == 0) {
        sb = alloc(ip ? 1 : total);
        rb = alloc(ip ? total : n);
        /* In place rb holds the whole input and receives this rank's block at its start. */
        send = ip ? MPI_IN_PLACE : sb;
        for (int64_t i = 0; i < total; i++)
            put(ip ? rb : sb, i, value(me, i));
        NB(MPI_Reduce_scatter(send, rb, counts, t, MPI_SUM, w),
           MPI_Ireduce_scatter(send, rb, counts, t, MPI_SUM, w, &rq),
           MPI_Reduce_scatter_c(send, rb, counts_c, t, MPI_SUM, w),
           MPI_Ireduce_scatter_c(send, rb, counts_c, t, MPI_SUM, w, &rq));
        wait_if(nb, &rq);
        bad = check(rb, n, summed_mine);
        free(sb);
    } else {
        fprintf(stderr, "coll_tester: unknown collective %s%s\n", name, ip ? "_inplace" : "");
        MPI_Abort(w, 2);
        return 1;
    }
#undef NB
    free(rb);
    free(counts);
    free(displs);
    free(counts_c);
    free(displs_c);
    return bad;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    root = P - 1;
    if (argc != 4) {
        if (me == 0)
            fprintf(stderr, "usage: coll_tester COLLECTIVE S N\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *name = argv[1];
    s = atoi(argv[2]);
    n = atoll(argv[3]);
    if ((s != 1 && s != 2 && s != 4 && s != 8) || n < 1 || n > 2147483647) {
        if (me == 0)
            fprintf(stderr, "coll_tester: S must be 1, 2, 4 or 8 and 1 <= N <= INT_MAX\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    /* No blocking collective of Table V starts with I: "I" + a name is the nonblocking form;
     * "_c" at the end the large-count form, then "_inplace" the call with MPI_IN_PLACE. */
    int nb = name[0] == 'I' || name[0] == 'i';
    char base[40];
    snprintf(base, sizeof base, "%s", nb ? name + 1 : name);
    size_t len = strlen(base);
    int ip = len > 8 && strcasecmp(base + len - 8, "_inplace") == 0;
    if (ip)
        base[len -= 8] = '\0';
    int lc = len > 2 && strcasecmp(base + len - 2, "_c") == 0;
    if (lc)
        base[len - 2] = '\0';
    double t0 = MPI_Wtime();
    int bad = run(base, nb, lc, ip), any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    /* Silent when correct: `mpiguard collectives` prints its own progress. */
    if (me == 0 && any)
        fprintf(stderr, "coll_tester: %s s %d n %lld P %d: WRONG bytes after %.3f s\n", name, s,
                (long long)n, P, MPI_Wtime() - t0);
    MPI_Finalize();
    return any ? 1 : 0;
}
