/* The protection module's replacements of the 12 collectives of Table V and their nonblocking
 * forms (24 entry points; the "16" counts Table V's rows differently): each describes its
 * call for protect_run and passes it to MPI unchanged when the module does not act. */
#include "protect_entry.h"
#include "protect_pmpi.h"

#include "protect_run.h"

#define PROTECT_OR_PASS(pc, ...)                                                                   \
    do {                                                                                           \
        int rc_;                                                                                   \
        if (protect_run(&(pc), &rc_))                                                              \
            return rc_;                                                                            \
        return __VA_ARGS__;                                                                        \
    } while (0)

static protect_call call_of(mg_fn fn, scaling_coll coll, const void *sendbuf, MPI_Datatype st,
                            void *recvbuf, MPI_Datatype rt, MPI_Comm comm, MPI_Request *request)
{
    protect_call pc = {.fn = fn,
                       .nonblocking = request != NULL,
                       .sendbuf = sendbuf,
                       .recvbuf = recvbuf,
                       .sendtype = st,
                       .recvtype = rt,
                       .op = MPI_OP_NULL,
                       .comm = comm,
                       .request = request};
    pc.a.coll = coll;
    pc.a.in_place = sendbuf == MPI_IN_PLACE;
    return pc;
}

/* Bcast: one buffer, the receive side of the engine's view. */
static protect_call bcast(mg_fn fn, void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm,
                          MPI_Request *req)
{
    protect_call pc = call_of(fn, SCALING_BCAST, buf, t, buf, t, comm, req);
    pc.a.count = pc.send_count = pc.recv_count = count;
    pc.a.root = (uint32_t)root;
    return pc;
}

static protect_call rooted(mg_fn fn, scaling_coll coll, const void *sb, int sc, MPI_Datatype st,
                           void *rb, int rc, MPI_Datatype rt, int root, MPI_Comm comm,
                           MPI_Request *req)
{
    protect_call pc = call_of(fn, coll, sb, st, rb, rt, comm, req);
    int scatter = coll == SCALING_SCATTER || coll == SCALING_SCATTERV;
    if (scatter)
        pc.a.in_place = rb == MPI_IN_PLACE;
    pc.a.root = (uint32_t)root;
    /* Filled again by the rank test in protect_run: the root's count is its global-buffer side. */
    pc.a.count = scatter ? rc : sc;
    pc.root_count = scatter ? sc : rc;
    pc.send_count = sc;
    pc.recv_count = rc;
    return pc;
}

/* count: the engine's (the receive count of Allgather and Alltoall, Allgatherv's send count). */
static protect_call symmetric(mg_fn fn, scaling_coll coll, const void *sb, int sc, MPI_Datatype st,
                              void *rb, int rc, MPI_Datatype rt, int count, MPI_Comm comm,
                              MPI_Request *req)
{
    protect_call pc = call_of(fn, coll, sb, st, rb, rt, comm, req);
    pc.a.count = count;
    pc.send_count = sc;
    pc.recv_count = rc;
    return pc;
}

static protect_call reduction(mg_fn fn, scaling_coll coll, const void *sb, void *rb, int count,
                              MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm, MPI_Request *req)
{
    protect_call pc = call_of(fn, coll, sb, t, rb, t, comm, req);
    pc.a.count = pc.send_count = pc.recv_count = count;
    pc.a.root = (uint32_t)root;
    pc.op = op;
    return pc;
}

/* The irregular collectives' vectors: A (counts, displacements) and, for Alltoallv, B. */
static void vectors(protect_call *pc, const int *ca, const int *da, const int *cb, const int *db)
{
    pc->a.counts_a = ca;
    pc->a.displs_a = da;
    pc->a.counts_b = cb;
    pc->a.displs_b = db;
}

static int Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm comm)
{
    protect_call pc = bcast(MG_FN_Bcast, b, n, t, root, comm, NULL);
    PROTECT_OR_PASS(pc, PMPI_Bcast(b, n, t, root, comm));
}

static int Ibcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm comm, MPI_Request *r)
{
    protect_call pc = bcast(MG_FN_Ibcast, b, n, t, root, comm, r);
    PROTECT_OR_PASS(pc, PMPI_Ibcast(b, n, t, root, comm, r));
}

static int Gather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                  int root, MPI_Comm comm)
{
    protect_call pc =
        rooted(MG_FN_Gather, SCALING_GATHER, sb, sc, st, rb, rc, rt, root, comm, NULL);
    PROTECT_OR_PASS(pc, PMPI_Gather(sb, sc, st, rb, rc, rt, root, comm));
}

static int Igather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                   int root, MPI_Comm comm, MPI_Request *r)
{
    protect_call pc = rooted(MG_FN_Igather, SCALING_GATHER, sb, sc, st, rb, rc, rt, root, comm, r);
    PROTECT_OR_PASS(pc, PMPI_Igather(sb, sc, st, rb, rc, rt, root, comm, r));
}

static int Scatter(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                   int root, MPI_Comm comm)
{
    protect_call pc =
        rooted(MG_FN_Scatter, SCALING_SCATTER, sb, sc, st, rb, rc, rt, root, comm, NULL);
    PROTECT_OR_PASS(pc, PMPI_Scatter(sb, sc, st, rb, rc, rt, root, comm));
}

static int Iscatter(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                    int root, MPI_Comm comm, MPI_Request *r)
{
    protect_call pc =
        rooted(MG_FN_Iscatter, SCALING_SCATTER, sb, sc, st, rb, rc, rt, root, comm, r);
    PROTECT_OR_PASS(pc, PMPI_Iscatter(sb, sc, st, rb, rc, rt, root, comm, r));
}

static int Gatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[],
                   const int d[], MPI_Datatype rt, int root, MPI_Comm comm)
{
    protect_call pc =
        rooted(MG_FN_Gatherv, SCALING_GATHERV, sb, sc, st, rb, 0, rt, root, comm, NULL);
    vectors(&pc, rcs, d, NULL, NULL);
    PROTECT_OR_PASS(pc, PMPI_Gatherv(sb, sc, st, rb, rcs, d, rt, root, comm));
}

static int Igatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[],
                    const int d[], MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *r)
{
    protect_call pc = rooted(MG_FN_Igatherv, SCALING_GATHERV, sb, sc, st, rb, 0, rt, root, comm, r);
    vectors(&pc, rcs, d, NULL, NULL);
    PROTECT_OR_PASS(pc, PMPI_Igatherv(sb, sc, st, rb, rcs, d, rt, root, comm, r));
}

static int Scatterv(const void *sb, const int scs[], const int d[], MPI_Datatype st, void *rb,
                    int rc, MPI_Datatype rt, int root, MPI_Comm comm)
{
    protect_call pc =
        rooted(MG_FN_Scatterv, SCALING_SCATTERV, sb, 0, st, rb, rc, rt, root, comm, NULL);
    vectors(&pc, scs, d, NULL, NULL);
    PROTECT_OR_PASS(pc, PMPI_Scatterv(sb, scs, d, st, rb, rc, rt, root, comm));
}

static int Iscatterv(const void *sb, const int scs[], const int d[], MPI_Datatype st, void *rb,
                     int rc, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *r)
{
    protect_call pc =
        rooted(MG_FN_Iscatterv, SCALING_SCATTERV, sb, 0, st, rb, rc, rt, root, comm, r);
    vectors(&pc, scs, d, NULL, NULL);
    PROTECT_OR_PASS(pc, PMPI_Iscatterv(sb, scs, d, st, rb, rc, rt, root, comm, r));
}

static int Allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                     MPI_Comm comm)
{
    protect_call pc =
        symmetric(MG_FN_Allgather, SCALING_ALLGATHER, sb, sc, st, rb, rc, rt, rc, comm, NULL);
    PROTECT_OR_PASS(pc, PMPI_Allgather(sb, sc, st, rb, rc, rt, comm));
}

static int Iallgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                      MPI_Comm comm, MPI_Request *r)
{
    protect_call pc =
        symmetric(MG_FN_Iallgather, SCALING_ALLGATHER, sb, sc, st, rb, rc, rt, rc, comm, r);
    PROTECT_OR_PASS(pc, PMPI_Iallgather(sb, sc, st, rb, rc, rt, comm, r));
}

static int Allgatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[],
                      const int d[], MPI_Datatype rt, MPI_Comm comm)
{
    protect_call pc =
        symmetric(MG_FN_Allgatherv, SCALING_ALLGATHERV, sb, sc, st, rb, 0, rt, sc, comm, NULL);
    vectors(&pc, rcs, d, NULL, NULL);
    PROTECT_OR_PASS(pc, PMPI_Allgatherv(sb, sc, st, rb, rcs, d, rt, comm));
}

static int Iallgatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[],
                       const int d[], MPI_Datatype rt, MPI_Comm comm, MPI_Request *r)
{
    protect_call pc =
        symmetric(MG_FN_Iallgatherv, SCALING_ALLGATHERV, sb, sc, st, rb, 0, rt, sc, comm, r);
    vectors(&pc, rcs, d, NULL, NULL);
    PROTECT_OR_PASS(pc, PMPI_Iallgatherv(sb, sc, st, rb, rcs, d, rt, comm, r));
}

static int Alltoall(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                    MPI_Comm comm)
{
    protect_call pc =
        symmetric(MG_FN_Alltoall, SCALING_ALLTOALL, sb, sc, st, rb, rc, rt, rc, comm, NULL);
    PROTECT_OR_PASS(pc, PMPI_Alltoall(sb, sc, st, rb, rc, rt, comm));
}

static int Ialltoall(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                     MPI_Comm comm, MPI_Request *r)
{
    protect_call pc =
        symmetric(MG_FN_Ialltoall, SCALING_ALLTOALL, sb, sc, st, rb, rc, rt, rc, comm, r);
    PROTECT_OR_PASS(pc, PMPI_Ialltoall(sb, sc, st, rb, rc, rt, comm, r));
}

static int Alltoallv(const void *sb, const int scs[], const int sd[], MPI_Datatype st, void *rb,
                     const int rcs[], const int rd[], MPI_Datatype rt, MPI_Comm comm)
{
    protect_call pc =
        symmetric(MG_FN_Alltoallv, SCALING_ALLTOALLV, sb, 0, st, rb, 0, rt, 0, comm, NULL);
    vectors(&pc, scs, sd, rcs, rd);
    PROTECT_OR_PASS(pc, PMPI_Alltoallv(sb, scs, sd, st, rb, rcs, rd, rt, comm));
}

static int Ialltoallv(const void *sb, const int scs[], const int sd[], MPI_Datatype st, void *rb,
                      const int rcs[], const int rd[], MPI_Datatype rt, MPI_Comm comm,
                      MPI_Request *r)
{
    protect_call pc =
        symmetric(MG_FN_Ialltoallv, SCALING_ALLTOALLV, sb, 0, st, rb, 0, rt, 0, comm, r);
    vectors(&pc, scs, sd, rcs, rd);
    PROTECT_OR_PASS(pc, PMPI_Ialltoallv(sb, scs, sd, st, rb, rcs, rd, rt, comm, r));
}

static int Reduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, int root,
                  MPI_Comm comm)
{
    protect_call pc = reduction(MG_FN_Reduce, SCALING_REDUCE, sb, rb, n, t, op, root, comm, NULL);
    PROTECT_OR_PASS(pc, PMPI_Reduce(sb, rb, n, t, op, root, comm));
}

static int Ireduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, int root,
                   MPI_Comm comm, MPI_Request *r)
{
    protect_call pc = reduction(MG_FN_Ireduce, SCALING_REDUCE, sb, rb, n, t, op, root, comm, r);
    PROTECT_OR_PASS(pc, PMPI_Ireduce(sb, rb, n, t, op, root, comm, r));
}

static int Allreduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    protect_call pc =
        reduction(MG_FN_Allreduce, SCALING_ALLREDUCE, sb, rb, n, t, op, 0, comm, NULL);
    PROTECT_OR_PASS(pc, PMPI_Allreduce(sb, rb, n, t, op, comm));
}

static int Iallreduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                      MPI_Request *r)
{
    protect_call pc = reduction(MG_FN_Iallreduce, SCALING_ALLREDUCE, sb, rb, n, t, op, 0, comm, r);
    PROTECT_OR_PASS(pc, PMPI_Iallreduce(sb, rb, n, t, op, comm, r));
}

static int Reduce_scatter(const void *sb, void *rb, const int rcs[], MPI_Datatype t, MPI_Op op,
                          MPI_Comm comm)
{
    protect_call pc =
        reduction(MG_FN_Reduce_scatter, SCALING_REDUCE_SCATTER, sb, rb, 0, t, op, 0, comm, NULL);
    vectors(&pc, rcs, NULL, NULL, NULL);
    PROTECT_OR_PASS(pc, PMPI_Reduce_scatter(sb, rb, rcs, t, op, comm));
}

static int Ireduce_scatter(const void *sb, void *rb, const int rcs[], MPI_Datatype t, MPI_Op op,
                           MPI_Comm comm, MPI_Request *r)
{
    protect_call pc =
        reduction(MG_FN_Ireduce_scatter, SCALING_REDUCE_SCATTER, sb, rb, 0, t, op, 0, comm, r);
    vectors(&pc, rcs, NULL, NULL, NULL);
    PROTECT_OR_PASS(pc, PMPI_Ireduce_scatter(sb, rb, rcs, t, op, comm, r));
}

#define HOOK(name) mg_impl_##name = name
void protect_entry_install(void)
{
    HOOK(Bcast), HOOK(Ibcast), HOOK(Gather), HOOK(Igather), HOOK(Scatter), HOOK(Iscatter);
    HOOK(Gatherv), HOOK(Igatherv), HOOK(Scatterv), HOOK(Iscatterv);
    HOOK(Allgather), HOOK(Iallgather), HOOK(Allgatherv), HOOK(Iallgatherv);
    HOOK(Alltoall), HOOK(Ialltoall), HOOK(Alltoallv), HOOK(Ialltoallv);
    HOOK(Reduce), HOOK(Ireduce), HOOK(Allreduce), HOOK(Iallreduce);
    HOOK(Reduce_scatter), HOOK(Ireduce_scatter);
}

void protect_entry_remove(void)
{
#define UNHOOK(name) mg_impl_##name = NULL
    UNHOOK(Bcast), UNHOOK(Ibcast), UNHOOK(Gather), UNHOOK(Igather), UNHOOK(Scatter);
    UNHOOK(Iscatter), UNHOOK(Gatherv), UNHOOK(Igatherv), UNHOOK(Scatterv), UNHOOK(Iscatterv);
    UNHOOK(Allgather), UNHOOK(Iallgather), UNHOOK(Allgatherv), UNHOOK(Iallgatherv);
    UNHOOK(Alltoall), UNHOOK(Ialltoall), UNHOOK(Alltoallv), UNHOOK(Ialltoallv);
    UNHOOK(Reduce), UNHOOK(Ireduce), UNHOOK(Allreduce), UNHOOK(Iallreduce);
    UNHOOK(Reduce_scatter), UNHOOK(Ireduce_scatter);
#undef UNHOOK
}
