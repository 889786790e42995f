/* The least a PMPI layer can be: each collective coll_time calls, forwarded to its PMPI_ entry and
 * nothing else. overhead.sh preloads it (mode "null") to measure, beside the protection module and
 * in the same run, what any interposition costs on these calls: the part of the module's ratio that
 * no PMPI tool can avoid (docs/collectives-measurements.md, "Cost when no detector fires"). Built
 * as a shared library with the flavor's mpicc. Built with -DNULL_LAYER_LINES=N (modes "linesN"),
 * each forward first reads N distinct cache lines of its own data and nothing else: the cost of a
 * layer whose fast path touches N lines that the MPI library's own work between two calls has
 * pushed out of L1, the yardstick for the module's path (which touches about 15 beyond this layer's
 * own, code and data). Built with -DNULL_LAYER_SCAN (mode "scan", -I the scaling engine's
 * directory), each int irregular collective first runs the engine's scaling_check_plain on its
 * vectors where the module's quick pass does (a Gatherv's root, every rank of Allgatherv and
 * Alltoallv), with the rank and size of the first call's communicator: the least work Detector D
 * needs on a call, the floor under the module's ratio on these calls. */
#include <mpi.h>

#ifndef NULL_LAYER_LINES
#define NULL_LAYER_LINES 0
#endif

#if NULL_LAYER_LINES
static volatile long lines[NULL_LAYER_LINES][8] __attribute__((aligned(64)));
/* Read every line; the sum is kept by an asm barrier, so that no load can be dropped. */
#define TOUCH_LINES()                                                                              \
    do {                                                                                           \
        long sum = 0;                                                                              \
        for (int i = 0; i < NULL_LAYER_LINES; i++)                                                 \
            sum += lines[i][0];                                                                    \
        __asm__ volatile("" : : "r"(sum));                                                         \
    } while (0)
#else
#define TOUCH_LINES() ((void)0)
#endif

#ifdef NULL_LAYER_SCAN
#include "scaling_check.h"

static int rank = -1, size;
static volatile int triggered;

/* D's scan on the call's vectors where the quick pass makes it (a Gatherv's root, every rank of the
 * others), with the rank and size of the first call's communicator; a negative entry is counted.
 * Inlined into each forward, as the module's quick pass is into its entry point. */
static inline __attribute__((always_inline)) void scan(scaling_coll coll, MPI_Comm c, int in_place,
                                                       int root, const int *ca, const int *da,
                                                       const int *cb, const int *db)
{
    if (rank < 0) {
        PMPI_Comm_rank(c, &rank);
        PMPI_Comm_size(c, &size);
    }
    if ((coll != SCALING_COLL_GATHERV || rank == root) &&
        !scaling_check_plain(coll, (uint32_t)size, in_place, ca, da, cb, db))
        triggered++;
}
#define SCAN(...) scan(__VA_ARGS__)
#else
#define SCAN(...) ((void)0)
#endif

int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c)
{
    TOUCH_LINES();
    return PMPI_Bcast(b, n, t, root, c);
}

int MPI_Gather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt, int root,
               MPI_Comm c)
{
    TOUCH_LINES();
    return PMPI_Gather(sb, sc, st, rb, rc, rt, root, c);
}

int MPI_Gatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[], const int d[],
                MPI_Datatype rt, int root, MPI_Comm c)
{
    TOUCH_LINES();
    SCAN(SCALING_COLL_GATHERV, c, sb == MPI_IN_PLACE, root, rcs, d, NULL, NULL);
    return PMPI_Gatherv(sb, sc, st, rb, rcs, d, rt, root, c);
}

int MPI_Allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                  MPI_Comm c)
{
    TOUCH_LINES();
    return PMPI_Allgather(sb, sc, st, rb, rc, rt, c);
}

int MPI_Allgatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[],
                   const int d[], MPI_Datatype rt, MPI_Comm c)
{
    TOUCH_LINES();
    SCAN(SCALING_COLL_ALLGATHERV, c, sb == MPI_IN_PLACE, 0, rcs, d, NULL, NULL);
    return PMPI_Allgatherv(sb, sc, st, rb, rcs, d, rt, c);
}

int MPI_Alltoall(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                 MPI_Comm c)
{
    TOUCH_LINES();
    return PMPI_Alltoall(sb, sc, st, rb, rc, rt, c);
}

int MPI_Alltoallv(const void *sb, const int scs[], const int sd[], MPI_Datatype st, void *rb,
                  const int rcs[], const int rd[], MPI_Datatype rt, MPI_Comm c)
{
    TOUCH_LINES();
    SCAN(SCALING_COLL_ALLTOALLV, c, sb == MPI_IN_PLACE, 0, scs, sd, rcs, rd);
    return PMPI_Alltoallv(sb, scs, sd, st, rb, rcs, rd, rt, c);
}

int MPI_Reduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c)
{
    TOUCH_LINES();
    return PMPI_Reduce(sb, rb, n, t, op, root, c);
}

int MPI_Allreduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    TOUCH_LINES();
    return PMPI_Allreduce(sb, rb, n, t, op, c);
}

int MPI_Igather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                int root, MPI_Comm c, MPI_Request *rq)
{
    TOUCH_LINES();
    return PMPI_Igather(sb, sc, st, rb, rc, rt, root, c, rq);
}

int MPI_Igatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[], const int d[],
                 MPI_Datatype rt, int root, MPI_Comm c, MPI_Request *rq)
{
    TOUCH_LINES();
    SCAN(SCALING_COLL_GATHERV, c, sb == MPI_IN_PLACE, root, rcs, d, NULL, NULL);
    return PMPI_Igatherv(sb, sc, st, rb, rcs, d, rt, root, c, rq);
}
