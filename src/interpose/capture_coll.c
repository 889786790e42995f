/* The capture module's collectives (capture_call.h), blocking and nonblocking, all observed: the
 * records carry the root as a world rank, the op as an id identical on every rank, and a request
 * id for the nonblocking ones (docs/check-detector.md §1). Also Op_create, which numbers the user
 * ops those ids name. */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "capture_coll.h"

#include "capture_call.h"
#include "capture_emit.h"

/* Collectives: root translated to a world rank, op to its id, a request for the nonblocking. */
static void coll(uint16_t fn, int phase, int rc, MPI_Comm comm, int root, MPI_Op op, int count,
                 MPI_Request *request)
{
    const capture_comm *c = capture_comm_find(comm);
    if (!c)
        return;
    check_event ev = capture_event(fn, capture_call_kind(phase), c);
    ev.root = root >= 0 ? capture_comm_world(c, root) : CHECK_NO_ROOT;
    ev.op = op == MPI_OP_NULL ? 0 : capture_op_id(op);
    ev.count = count;
    if (request)
        ev.request = capture_call_request(phase, rc, request, c, 0);
    capture_emit(&ev);
}

#define NO_ROOT -1
static void obs_Barrier(int ph, int rc, MPI_Comm comm)
{
    coll(CHECK_FN_BARRIER, ph, rc, comm, NO_ROOT, MPI_OP_NULL, 0, NULL);
}
static void obs_Bcast(int ph, int rc, void *b, int n, MPI_Datatype t, int root, MPI_Comm comm)
{
    (void)b, (void)t;
    coll(CHECK_FN_BCAST, ph, rc, comm, root, MPI_OP_NULL, n, NULL);
}
static void obs_Gather(int ph, int rc, const void *sb, int sn, MPI_Datatype st, void *rb, int rn,
                       MPI_Datatype rt, int root, MPI_Comm comm)
{
    (void)sb, (void)st, (void)rb, (void)rn, (void)rt;
    coll(CHECK_FN_GATHER, ph, rc, comm, root, MPI_OP_NULL, sn, NULL);
}
static void obs_Gatherv(int ph, int rc, const void *sb, int sn, MPI_Datatype st, void *rb,
                        const int rn[], const int d[], MPI_Datatype rt, int root, MPI_Comm comm)
{
    (void)sb, (void)st, (void)rb, (void)rn, (void)d, (void)rt;
    coll(CHECK_FN_GATHERV, ph, rc, comm, root, MPI_OP_NULL, sn, NULL);
}
static void obs_Scatter(int ph, int rc, const void *sb, int sn, MPI_Datatype st, void *rb, int rn,
                        MPI_Datatype rt, int root, MPI_Comm comm)
{
    (void)sb, (void)sn, (void)st, (void)rb, (void)rt;
    coll(CHECK_FN_SCATTER, ph, rc, comm, root, MPI_OP_NULL, rn, NULL);
}
static void obs_Scatterv(int ph, int rc, const void *sb, const int sn[], const int d[],
                         MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, int root, MPI_Comm comm)
{
    (void)sb, (void)sn, (void)d, (void)st, (void)rb, (void)rt;
    coll(CHECK_FN_SCATTERV, ph, rc, comm, root, MPI_OP_NULL, rn, NULL);
}
static void obs_Allgather(int ph, int rc, const void *sb, int sn, MPI_Datatype st, void *rb,
                          int rn, MPI_Datatype rt, MPI_Comm comm)
{
    (void)sb, (void)st, (void)rb, (void)rn, (void)rt;
    coll(CHECK_FN_ALLGATHER, ph, rc, comm, NO_ROOT, MPI_OP_NULL, sn, NULL);
}
static void obs_Allgatherv(int ph, int rc, const void *sb, int sn, MPI_Datatype st, void *rb,
                           const int rn[], const int d[], MPI_Datatype rt, MPI_Comm comm)
{
    (void)sb, (void)st, (void)rb, (void)rn, (void)d, (void)rt;
    coll(CHECK_FN_ALLGATHERV, ph, rc, comm, NO_ROOT, MPI_OP_NULL, sn, NULL);
}
static void obs_Alltoall(int ph, int rc, const void *sb, int sn, MPI_Datatype st, void *rb, int rn,
                         MPI_Datatype rt, MPI_Comm comm)
{
    (void)sb, (void)st, (void)rb, (void)rn, (void)rt;
    coll(CHECK_FN_ALLTOALL, ph, rc, comm, NO_ROOT, MPI_OP_NULL, sn, NULL);
}
static void obs_Alltoallv(int ph, int rc, const void *sb, const int sn[], const int sd[],
                          MPI_Datatype st, void *rb, const int rn[], const int rd[], MPI_Datatype rt,
                          MPI_Comm comm)
{
    (void)sb, (void)sn, (void)sd, (void)st, (void)rb, (void)rn, (void)rd, (void)rt;
    coll(CHECK_FN_ALLTOALLV, ph, rc, comm, NO_ROOT, MPI_OP_NULL, 0, NULL);
}
static void obs_Alltoallw(int ph, int rc, const void *sb, const int sn[], const int sd[],
                          const MPI_Datatype st[], void *rb, const int rn[], const int rd[],
                          const MPI_Datatype rt[], MPI_Comm comm)
{
    (void)sb, (void)sn, (void)sd, (void)st, (void)rb, (void)rn, (void)rd, (void)rt;
    coll(CHECK_FN_ALLTOALLW, ph, rc, comm, NO_ROOT, MPI_OP_NULL, 0, NULL);
}
static void obs_Reduce(int ph, int rc, const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op,
                       int root, MPI_Comm comm)
{
    (void)sb, (void)rb, (void)t;
    coll(CHECK_FN_REDUCE, ph, rc, comm, root, op, n, NULL);
}
#define OBSERVE_REDUCTION(Name, FN, COUNT_T)                                                       \
    static void obs_##Name(int ph, int rc, const void *sb, void *rb, COUNT_T n, MPI_Datatype t,   \
                           MPI_Op op, MPI_Comm comm)                                               \
    {                                                                                              \
        (void)sb, (void)rb, (void)t, (void)n;                                                      \
        coll(FN, ph, rc, comm, NO_ROOT, op, 0, NULL);                                              \
    }
OBSERVE_REDUCTION(Allreduce, CHECK_FN_ALLREDUCE, int)
OBSERVE_REDUCTION(Reduce_scatter, CHECK_FN_REDUCE_SCATTER, const int *)
OBSERVE_REDUCTION(Reduce_scatter_block, CHECK_FN_REDUCE_SCATTER_BLOCK, int)
OBSERVE_REDUCTION(Scan, CHECK_FN_SCAN, int)
OBSERVE_REDUCTION(Exscan, CHECK_FN_EXSCAN, int)

static void obs_Ibarrier(int ph, int rc, MPI_Comm comm, MPI_Request *r)
{
    coll(CHECK_FN_IBARRIER, ph, rc, comm, NO_ROOT, MPI_OP_NULL, 0, r);
}
static void obs_Ibcast(int ph, int rc, void *b, int n, MPI_Datatype t, int root, MPI_Comm comm,
                       MPI_Request *r)
{
    (void)b, (void)t;
    coll(CHECK_FN_IBCAST, ph, rc, comm, root, MPI_OP_NULL, n, r);
}
static void obs_Igather(int ph, int rc, const void *sb, int sn, MPI_Datatype st, void *rb, int rn,
                        MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *r)
{
    (void)sb, (void)st, (void)rb, (void)rn, (void)rt;
    coll(CHECK_FN_IGATHER, ph, rc, comm, root, MPI_OP_NULL, sn, r);
}
static void obs_Igatherv(int ph, int rc, const void *sb, int sn, MPI_Datatype st, void *rb,
                         const int rn[], const int d[], MPI_Datatype rt, int root, MPI_Comm comm,
                         MPI_Request *r)
{
    (void)sb, (void)st, (void)rb, (void)rn, (void)d, (void)rt;
    coll(CHECK_FN_IGATHERV, ph, rc, comm, root, MPI_OP_NULL, sn, r);
}
static void obs_Iscatter(int ph, int rc, const void *sb, int sn, MPI_Datatype st, void *rb, int rn,
                         MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *r)
{
    (void)sb, (void)sn, (void)st, (void)rb, (void)rt;
    coll(CHECK_FN_ISCATTER, ph, rc, comm, root, MPI_OP_NULL, rn, r);
}
static void obs_Iscatterv(int ph, int rc, const void *sb, const int sn[], const int d[],
                          MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, int root,
                          MPI_Comm comm, MPI_Request *r)
{
    (void)sb, (void)sn, (void)d, (void)st, (void)rb, (void)rt;
    coll(CHECK_FN_ISCATTERV, ph, rc, comm, root, MPI_OP_NULL, rn, r);
}
static void obs_Iallgather(int ph, int rc, const void *sb, int sn, MPI_Datatype st, void *rb,
                           int rn, MPI_Datatype rt, MPI_Comm comm, MPI_Request *r)
{
    (void)sb, (void)st, (void)rb, (void)rn, (void)rt;
    coll(CHECK_FN_IALLGATHER, ph, rc, comm, NO_ROOT, MPI_OP_NULL, sn, r);
}
static void obs_Iallgatherv(int ph, int rc, const void *sb, int sn, MPI_Datatype st, void *rb,
                            const int rn[], const int d[], MPI_Datatype rt, MPI_Comm comm,
                            MPI_Request *r)
{
    (void)sb, (void)st, (void)rb, (void)rn, (void)d, (void)rt;
    coll(CHECK_FN_IALLGATHERV, ph, rc, comm, NO_ROOT, MPI_OP_NULL, sn, r);
}
static void obs_Ialltoall(int ph, int rc, const void *sb, int sn, MPI_Datatype st, void *rb, int rn,
                          MPI_Datatype rt, MPI_Comm comm, MPI_Request *r)
{
    (void)sb, (void)st, (void)rb, (void)rn, (void)rt;
    coll(CHECK_FN_IALLTOALL, ph, rc, comm, NO_ROOT, MPI_OP_NULL, sn, r);
}
static void obs_Ialltoallv(int ph, int rc, const void *sb, const int sn[], const int sd[],
                           MPI_Datatype st, void *rb, const int rn[], const int rd[],
                           MPI_Datatype rt, MPI_Comm comm, MPI_Request *r)
{
    (void)sb, (void)sn, (void)sd, (void)st, (void)rb, (void)rn, (void)rd, (void)rt;
    coll(CHECK_FN_IALLTOALLV, ph, rc, comm, NO_ROOT, MPI_OP_NULL, 0, r);
}
static void obs_Ialltoallw(int ph, int rc, const void *sb, const int sn[], const int sd[],
                           const MPI_Datatype st[], void *rb, const int rn[], const int rd[],
                           const MPI_Datatype rt[], MPI_Comm comm, MPI_Request *r)
{
    (void)sb, (void)sn, (void)sd, (void)st, (void)rb, (void)rn, (void)rd, (void)rt;
    coll(CHECK_FN_IALLTOALLW, ph, rc, comm, NO_ROOT, MPI_OP_NULL, 0, r);
}
static void obs_Ireduce(int ph, int rc, const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op,
                        int root, MPI_Comm comm, MPI_Request *r)
{
    (void)sb, (void)rb, (void)t;
    coll(CHECK_FN_IREDUCE, ph, rc, comm, root, op, n, r);
}
#define OBSERVE_IREDUCTION(Name, FN, COUNT_T)                                                      \
    static void obs_##Name(int ph, int rc, const void *sb, void *rb, COUNT_T n, MPI_Datatype t,   \
                           MPI_Op op, MPI_Comm comm, MPI_Request *r)                               \
    {                                                                                              \
        (void)sb, (void)rb, (void)t, (void)n;                                                      \
        coll(FN, ph, rc, comm, NO_ROOT, op, 0, r);                                                 \
    }
OBSERVE_IREDUCTION(Iallreduce, CHECK_FN_IALLREDUCE, int)
OBSERVE_IREDUCTION(Ireduce_scatter, CHECK_FN_IREDUCE_SCATTER, const int *)
OBSERVE_IREDUCTION(Ireduce_scatter_block, CHECK_FN_IREDUCE_SCATTER_BLOCK, int)
OBSERVE_IREDUCTION(Iscan, CHECK_FN_ISCAN, int)
OBSERVE_IREDUCTION(Iexscan, CHECK_FN_IEXSCAN, int)

static void obs_Op_create(int phase, int rc, MPI_User_function *fn, int commute, MPI_Op *op)
{
    (void)fn, (void)commute;
    if (phase == MG_CALL_EXIT && rc == MPI_SUCCESS)
        capture_op_bind(*op);
}

void capture_coll_install(void)
{
    CAPTURE_OBSERVE(Barrier) CAPTURE_OBSERVE(Bcast) CAPTURE_OBSERVE(Gather) CAPTURE_OBSERVE(Gatherv)
    CAPTURE_OBSERVE(Scatter) CAPTURE_OBSERVE(Scatterv) CAPTURE_OBSERVE(Allgather)
    CAPTURE_OBSERVE(Allgatherv) CAPTURE_OBSERVE(Alltoall) CAPTURE_OBSERVE(Alltoallv)
    CAPTURE_OBSERVE(Alltoallw) CAPTURE_OBSERVE(Reduce) CAPTURE_OBSERVE(Allreduce)
    CAPTURE_OBSERVE(Reduce_scatter) CAPTURE_OBSERVE(Reduce_scatter_block) CAPTURE_OBSERVE(Scan)
    CAPTURE_OBSERVE(Exscan)
    CAPTURE_OBSERVE(Ibarrier) CAPTURE_OBSERVE(Ibcast) CAPTURE_OBSERVE(Igather)
    CAPTURE_OBSERVE(Igatherv) CAPTURE_OBSERVE(Iscatter) CAPTURE_OBSERVE(Iscatterv)
    CAPTURE_OBSERVE(Iallgather) CAPTURE_OBSERVE(Iallgatherv) CAPTURE_OBSERVE(Ialltoall)
    CAPTURE_OBSERVE(Ialltoallv) CAPTURE_OBSERVE(Ialltoallw) CAPTURE_OBSERVE(Ireduce)
    CAPTURE_OBSERVE(Iallreduce) CAPTURE_OBSERVE(Ireduce_scatter)
    CAPTURE_OBSERVE(Ireduce_scatter_block) CAPTURE_OBSERVE(Iscan) CAPTURE_OBSERVE(Iexscan)
    CAPTURE_OBSERVE(Op_create)
}
