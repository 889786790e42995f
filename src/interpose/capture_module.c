/* The "capture" module of `mpiguard check`: one check event record per call entry and exit
 * (docs/check-detector.md §1) into the rank's shared-memory ring, the entry written before the
 * call can block. Calls whose status decides a wildcard (receives, probes, Wait/Test) replace the
 * PMPI call (mg_impl_*) so a status the application ignores is still seen; the others observe
 * (mg_observe_*). Spec: design/check.md; design: docs/check.md "The runtime". */
#include <mpi.h>
#include "mpi_handles_weak.h"


#include "capture_comm.h"
#include "capture_emit.h"
#include "event_ring.h"
#include "interpose_hooks.h"
#include "interpose_log.h"
#include "module.h"

#include <stdlib.h>

#define MG_PRAGMA(x) _Pragma(#x)
#define MG_FN(name, params, args, cls) MG_PRAGMA(weak PMPI_##name)
#define MG_FN_SPECIAL(name, cls)
#include "mpi_functions.def"
#undef MG_FN
#undef MG_FN_SPECIAL
#pragma weak PMPI_Query_thread

/* The request id handed out at a nonblocking call's entry, bound to its handle at the exit. */
static uint64_t pending_id;
/* A handle the call is about to null (Comm_free, Request_free). */
static MPI_Comm freeing_comm;
static MPI_Request freeing_request;
static capture_comm *ctor_parent;

static int32_t tag_of(int tag)
{
    return tag == MPI_ANY_TAG ? CHECK_ANY_TAG : tag;
}

static uint8_t kind_of(int phase)
{
    return phase == MG_CALL_ENTER ? CHECK_EV_ENTER : CHECK_EV_EXIT;
}

static void emit_p2p(uint16_t fn, int phase, const capture_comm *c, int count, int peer, int tag,
                     uint64_t request)
{
    check_event ev = capture_event(fn, kind_of(phase), c);
    ev.peer = capture_comm_world(c, peer);
    ev.tag = tag_of(tag);
    ev.count = count;
    ev.request = request;
    capture_emit(&ev);
}

/* ---- observed calls ---- */

#define OBSERVE_SEND(Name, FN)                                                                     \
    static void obs_##Name(int phase, int rc, const void *buf, int count, MPI_Datatype dt,       \
                           int dest, int tag, MPI_Comm comm)                                       \
    {                                                                                              \
        (void)rc, (void)buf, (void)dt;                                                             \
        const capture_comm *c = capture_comm_find(comm);                                           \
        if (c)                                                                                     \
            emit_p2p(FN, phase, c, count, dest, tag, 0);                                           \
    }
OBSERVE_SEND(Send, CHECK_FN_SEND)
OBSERVE_SEND(Bsend, CHECK_FN_BSEND)
OBSERVE_SEND(Ssend, CHECK_FN_SSEND)
OBSERVE_SEND(Rsend, CHECK_FN_RSEND)

static void nonblocking(uint16_t fn, int phase, int rc, const capture_comm *c, int count, int peer,
                        int tag, MPI_Request *request, int persistent)
{
    if (phase == MG_CALL_ENTER)
        pending_id = capture_request_new();
    else if (rc == MPI_SUCCESS)
        capture_request_bind(*request, pending_id, c, persistent);
    emit_p2p(fn, phase, c, count, peer, tag, pending_id);
}

#define OBSERVE_NONBLOCKING(Name, FN, BUF, PERSISTENT)                                             \
    static void obs_##Name(int phase, int rc, BUF buf, int count, MPI_Datatype dt, int peer,       \
                           int tag, MPI_Comm comm, MPI_Request *request)                           \
    {                                                                                              \
        (void)buf, (void)dt;                                                                       \
        const capture_comm *c = capture_comm_find(comm);                                           \
        if (c)                                                                                     \
            nonblocking(FN, phase, rc, c, count, peer, tag, request, PERSISTENT);                  \
    }
OBSERVE_NONBLOCKING(Isend, CHECK_FN_ISEND, const void *, 0)
OBSERVE_NONBLOCKING(Ibsend, CHECK_FN_IBSEND, const void *, 0)
OBSERVE_NONBLOCKING(Issend, CHECK_FN_ISSEND, const void *, 0)
OBSERVE_NONBLOCKING(Irsend, CHECK_FN_IRSEND, const void *, 0)
OBSERVE_NONBLOCKING(Irecv, CHECK_FN_IRECV, void *, 0)
OBSERVE_NONBLOCKING(Send_init, CHECK_FN_SEND_INIT, const void *, 1)
OBSERVE_NONBLOCKING(Bsend_init, CHECK_FN_BSEND_INIT, const void *, 1)
OBSERVE_NONBLOCKING(Ssend_init, CHECK_FN_SSEND_INIT, const void *, 1)
OBSERVE_NONBLOCKING(Rsend_init, CHECK_FN_RSEND_INIT, const void *, 1)
OBSERVE_NONBLOCKING(Recv_init, CHECK_FN_RECV_INIT, void *, 1)

static uint64_t id_of(MPI_Request handle)
{
    const capture_request *r = capture_request_find(handle);
    return r ? r->id : 0;
}

static void obs_Start(int phase, int rc, MPI_Request *request)
{
    (void)rc;
    check_event ev = capture_event(CHECK_FN_START, kind_of(phase), NULL);
    ev.request = id_of(*request);
    capture_emit(&ev);
}

static void obs_Startall(int phase, int rc, int count, MPI_Request reqs[])
{
    (void)rc;
    int n = count < CAPTURE_MAX_ARRAY ? count : CAPTURE_MAX_ARRAY;
    check_event ev = capture_event(CHECK_FN_STARTALL, kind_of(phase), NULL);
    for (int i = 0; i < n; i++)
        capture_tmp.ids[i] = id_of(reqs[i]);
    ev.n_requests = (uint32_t)n;
    ev.requests = capture_tmp.ids;
    capture_emit(&ev);
}

static void obs_Request_free(int phase, int rc, MPI_Request *request)
{
    check_event ev = capture_event(CHECK_FN_REQUEST_FREE, kind_of(phase), NULL);
    if (phase == MG_CALL_ENTER)
        freeing_request = *request;
    ev.request = id_of(freeing_request);
    if (ev.request)
        capture_emit(&ev);
    if (phase == MG_CALL_EXIT && rc == MPI_SUCCESS)
        capture_request_drop(freeing_request);
}

static void obs_Cancel(int phase, int rc, MPI_Request *request)
{
    (void)rc;
    check_event ev = capture_event(CHECK_FN_CANCEL, kind_of(phase), NULL);
    ev.request = id_of(*request);
    if (ev.request)
        capture_emit(&ev);
}

/* Collectives: root translated to a world rank, op to its id, a request for the nonblocking. */
static void coll(uint16_t fn, int phase, int rc, MPI_Comm comm, int root, MPI_Op op, int count,
                 MPI_Request *request)
{
    const capture_comm *c = capture_comm_find(comm);
    if (!c)
        return;
    check_event ev = capture_event(fn, kind_of(phase), c);
    ev.root = root >= 0 ? capture_comm_world(c, root) : CHECK_NO_ROOT;
    ev.op = op == MPI_OP_NULL ? 0 : capture_op_id(op);
    ev.count = count;
    if (request) {
        if (phase == MG_CALL_ENTER)
            pending_id = capture_request_new();
        else if (rc == MPI_SUCCESS)
            capture_request_bind(*request, pending_id, c, 0);
        ev.request = pending_id;
    }
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

/* Communicator constructors: a collective on the parent; the exit carries the new id and members.
 * parent NULL: Intercomm_create, whose id the two groups derive from the tag. */
static void ctor(uint16_t fn, int phase, int rc, MPI_Comm parent, MPI_Comm *newcomm, int inter_tag)
{
    if (phase == MG_CALL_ENTER)
        ctor_parent = capture_comm_find(parent);
    if (!ctor_parent)
        return;
    check_event ev = capture_event(fn, kind_of(phase), ctor_parent);
    const capture_comm *made = NULL;
    if (phase == MG_CALL_EXIT) {
        made = capture_comm_register(inter_tag >= 0 ? NULL : ctor_parent,
                                     rc == MPI_SUCCESS ? *newcomm : MPI_COMM_NULL, inter_tag);
        ev.aux = made ? made->id : CHECK_COMM_NULL;
    }
    if (made) {
        int32_t *r = capture_tmp.ranks;
        for (int i = 0; i < made->size; i++)
            r[i] = made->world[i];
        for (int i = 0; i < made->remote_size; i++)
            r[made->size + i] = made->remote[i];
        ev.n_ranks = (uint32_t)(made->size + made->remote_size);
        ev.n_local = (uint32_t)made->size;
        ev.ranks = r;
        if (made->remote)
            ev.flags |= CHECK_FLAG_INTERCOMM;
    }
    capture_emit(&ev);
}

#define NOT_INTER -1
static void obs_Comm_dup(int ph, int rc, MPI_Comm comm, MPI_Comm *out)
{
    ctor(CHECK_FN_COMM_DUP, ph, rc, comm, out, NOT_INTER);
}
static void obs_Comm_dup_with_info(int ph, int rc, MPI_Comm comm, MPI_Info info, MPI_Comm *out)
{
    (void)info;
    ctor(CHECK_FN_COMM_DUP, ph, rc, comm, out, NOT_INTER);
}
static void obs_Comm_split(int ph, int rc, MPI_Comm comm, int color, int key, MPI_Comm *out)
{
    (void)color, (void)key;
    ctor(CHECK_FN_COMM_SPLIT, ph, rc, comm, out, NOT_INTER);
}
static void obs_Comm_split_type(int ph, int rc, MPI_Comm comm, int type, int key, MPI_Info info,
                                MPI_Comm *out)
{
    (void)type, (void)key, (void)info;
    ctor(CHECK_FN_COMM_SPLIT_TYPE, ph, rc, comm, out, NOT_INTER);
}
static void obs_Comm_create(int ph, int rc, MPI_Comm comm, MPI_Group g, MPI_Comm *out)
{
    (void)g;
    ctor(CHECK_FN_COMM_CREATE, ph, rc, comm, out, NOT_INTER);
}
static void obs_Comm_create_group(int ph, int rc, MPI_Comm comm, MPI_Group g, int tag, MPI_Comm *out)
{
    (void)g, (void)tag;
    ctor(CHECK_FN_COMM_CREATE_GROUP, ph, rc, comm, out, NOT_INTER);
}
static void obs_Intercomm_create(int ph, int rc, MPI_Comm local, int ll, MPI_Comm peer, int rl,
                                 int tag, MPI_Comm *out)
{
    (void)ll, (void)peer, (void)rl;
    ctor(CHECK_FN_INTERCOMM_CREATE, ph, rc, local, out, tag < 0 ? 0 : tag);
}
static void obs_Intercomm_merge(int ph, int rc, MPI_Comm inter, int high, MPI_Comm *out)
{
    (void)high;
    ctor(CHECK_FN_INTERCOMM_MERGE, ph, rc, inter, out, NOT_INTER);
}
static void obs_Cart_create(int ph, int rc, MPI_Comm comm, int nd, const int dims[],
                            const int periods[], int reorder, MPI_Comm *out)
{
    (void)nd, (void)dims, (void)periods, (void)reorder;
    ctor(CHECK_FN_CART_CREATE, ph, rc, comm, out, NOT_INTER);
}

static void obs_Comm_free(int phase, int rc, MPI_Comm *comm)
{
    if (phase == MG_CALL_ENTER)
        freeing_comm = *comm;
    const capture_comm *c = capture_comm_find(freeing_comm);
    if (!c)
        return;
    check_event ev = capture_event(CHECK_FN_COMM_FREE, kind_of(phase), c);
    capture_emit(&ev);
    if (phase == MG_CALL_EXIT && rc == MPI_SUCCESS)
        capture_comm_forget(freeing_comm);
}

static void obs_Op_create(int phase, int rc, MPI_User_function *fn, int commute, MPI_Op *op)
{
    (void)fn, (void)commute;
    if (phase == MG_CALL_EXIT && rc == MPI_SUCCESS)
        capture_op_bind(*op);
}

/* ---- calls whose status matters: they replace the PMPI call ---- */

static check_status status_of(const capture_comm *c, uint32_t index, const MPI_Status *st)
{
    check_status s = {.index = index, .source = CHECK_PROC_NULL, .tag = CHECK_ANY_TAG};
    if (st != MPI_STATUS_IGNORE) {
        s.source = c ? capture_comm_world(c, st->MPI_SOURCE) : st->MPI_SOURCE;
        s.tag = st->MPI_TAG;
    }
    return s;
}

static void emit_status_exit(check_event *ev, const capture_comm *c, int rc, const MPI_Status *st)
{
    check_status s = status_of(c, 0, st);
    if (rc == MPI_SUCCESS) {
        ev->n_statuses = 1;
        ev->statuses = &s;
    }
    capture_emit(ev);
}

static int impl_Recv(void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
                     MPI_Status *status)
{
    const capture_comm *c = capture_comm_find(comm);
    if (!c)
        return PMPI_Recv(buf, count, dt, source, tag, comm, status);
    MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
    emit_p2p(CHECK_FN_RECV, MG_CALL_ENTER, c, count, source, tag, 0);
    int rc = PMPI_Recv(buf, count, dt, source, tag, comm, st);
    check_event ev = capture_event(CHECK_FN_RECV, CHECK_EV_EXIT, c);
    emit_status_exit(&ev, c, rc, st);
    return rc;
}

static void sendrecv_enter(uint16_t fn, const capture_comm *c, int count, int dest, int stag,
                           int source, int rtag)
{
    check_event ev = capture_event(fn, CHECK_EV_ENTER, c);
    ev.peer = capture_comm_world(c, dest);
    ev.tag = tag_of(stag);
    ev.peer2 = capture_comm_world(c, source);
    ev.tag2 = tag_of(rtag);
    ev.count = count;
    capture_emit(&ev);
}

static int impl_Sendrecv(const void *sb, int sn, MPI_Datatype st_, int dest, int stag, void *rb,
                         int rn, MPI_Datatype rt, int source, int rtag, MPI_Comm comm,
                         MPI_Status *status)
{
    const capture_comm *c = capture_comm_find(comm);
    if (!c)
        return PMPI_Sendrecv(sb, sn, st_, dest, stag, rb, rn, rt, source, rtag, comm, status);
    MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
    sendrecv_enter(CHECK_FN_SENDRECV, c, sn, dest, stag, source, rtag);
    int rc = PMPI_Sendrecv(sb, sn, st_, dest, stag, rb, rn, rt, source, rtag, comm, st);
    check_event ev = capture_event(CHECK_FN_SENDRECV, CHECK_EV_EXIT, c);
    emit_status_exit(&ev, c, rc, st);
    return rc;
}

static int impl_Sendrecv_replace(void *buf, int count, MPI_Datatype dt, int dest, int stag,
                                 int source, int rtag, MPI_Comm comm, MPI_Status *status)
{
    const capture_comm *c = capture_comm_find(comm);
    if (!c)
        return PMPI_Sendrecv_replace(buf, count, dt, dest, stag, source, rtag, comm, status);
    MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
    sendrecv_enter(CHECK_FN_SENDRECV_REPLACE, c, count, dest, stag, source, rtag);
    int rc = PMPI_Sendrecv_replace(buf, count, dt, dest, stag, source, rtag, comm, st);
    check_event ev = capture_event(CHECK_FN_SENDRECV_REPLACE, CHECK_EV_EXIT, c);
    emit_status_exit(&ev, c, rc, st);
    return rc;
}

static int impl_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    const capture_comm *c = capture_comm_find(comm);
    if (!c)
        return PMPI_Probe(source, tag, comm, status);
    MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
    emit_p2p(CHECK_FN_PROBE, MG_CALL_ENTER, c, 0, source, tag, 0);
    int rc = PMPI_Probe(source, tag, comm, st);
    check_event ev = capture_event(CHECK_FN_PROBE, CHECK_EV_EXIT, c);
    emit_status_exit(&ev, c, rc, st);
    return rc;
}

static int impl_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    const capture_comm *c = capture_comm_find(comm);
    if (!c)
        return PMPI_Iprobe(source, tag, comm, flag, status);
    MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
    emit_p2p(CHECK_FN_IPROBE, MG_CALL_ENTER, c, 0, source, tag, 0);
    int rc = PMPI_Iprobe(source, tag, comm, flag, st);
    check_event ev = capture_event(CHECK_FN_IPROBE, CHECK_EV_EXIT, c);
    ev.result = rc == MPI_SUCCESS && *flag;
    emit_status_exit(&ev, c, ev.result ? rc : MPI_ERR_OTHER, st);
    return rc;
}

static int impl_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    const capture_comm *c = capture_comm_find(comm);
    if (!c)
        return PMPI_Mprobe(source, tag, comm, message, status);
    MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
    emit_p2p(CHECK_FN_MPROBE, MG_CALL_ENTER, c, 0, source, tag, 0);
    int rc = PMPI_Mprobe(source, tag, comm, message, st);
    check_event ev = capture_event(CHECK_FN_MPROBE, CHECK_EV_EXIT, c);
    ev.aux = rc == MPI_SUCCESS ? capture_message_bind(*message) : 0;
    emit_status_exit(&ev, c, rc, st);
    return rc;
}

static int impl_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                        MPI_Status *status)
{
    const capture_comm *c = capture_comm_find(comm);
    if (!c)
        return PMPI_Improbe(source, tag, comm, flag, message, status);
    MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
    emit_p2p(CHECK_FN_IMPROBE, MG_CALL_ENTER, c, 0, source, tag, 0);
    int rc = PMPI_Improbe(source, tag, comm, flag, message, st);
    check_event ev = capture_event(CHECK_FN_IMPROBE, CHECK_EV_EXIT, c);
    ev.result = rc == MPI_SUCCESS && *flag;
    ev.aux = ev.result ? capture_message_bind(*message) : 0;
    emit_status_exit(&ev, c, ev.result ? rc : MPI_ERR_OTHER, st);
    return rc;
}

static int impl_Mrecv(void *buf, int count, MPI_Datatype dt, MPI_Message *message, MPI_Status *status)
{
    MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
    check_event ev = capture_event(CHECK_FN_MRECV, CHECK_EV_ENTER, NULL);
    ev.aux = capture_message_take(*message);
    ev.count = count;
    capture_emit(&ev);
    int rc = PMPI_Mrecv(buf, count, dt, message, st);
    ev = capture_event(CHECK_FN_MRECV, CHECK_EV_EXIT, NULL);
    emit_status_exit(&ev, NULL, rc, st);
    return rc;
}

static void obs_Imrecv(int phase, int rc, void *buf, int count, MPI_Datatype dt, MPI_Message *message,
                       MPI_Request *request)
{
    (void)buf, (void)dt;
    check_event ev = capture_event(CHECK_FN_IMRECV, kind_of(phase), NULL);
    if (phase == MG_CALL_ENTER) {
        pending_id = capture_request_new();
        ev.aux = capture_message_take(*message);
    } else if (rc == MPI_SUCCESS) {
        capture_request_bind(*request, pending_id, NULL, 0);
    }
    ev.count = count;
    ev.request = pending_id;
    capture_emit(&ev);
}

/* The Wait/Test family: the entry lists the request ids; the exit the completions, by index.
 * Completed non-persistent requests leave the table (MPI nulls their handles). */
static int snapshot(uint16_t fn, int count, const MPI_Request *reqs)
{
    int n = count < CAPTURE_MAX_ARRAY ? count : CAPTURE_MAX_ARRAY;
    for (int i = 0; i < n; i++) {
        capture_tmp.handles[i] = reqs[i];
        capture_tmp.reqs[i] = capture_request_find(reqs[i]);
        capture_tmp.ids[i] = capture_tmp.reqs[i] ? capture_tmp.reqs[i]->id : 0;
    }
    check_event ev = capture_event(fn, CHECK_EV_ENTER, NULL);
    ev.n_requests = (uint32_t)n;
    ev.requests = capture_tmp.ids;
    capture_emit(&ev);
    return n;
}

/* Records completion number k: request index i with status st (may be MPI_STATUS_IGNORE). */
static void completed(uint32_t k, int i, const MPI_Status *st)
{
    const capture_request *r = capture_tmp.reqs[i];
    capture_tmp.statuses[k] = status_of(r ? r->comm : NULL, (uint32_t)i, st);
    if (r && !r->persistent)
        capture_request_drop(capture_tmp.handles[i]);
}

static void multi_exit(uint16_t fn, int n, uint32_t nst, int result)
{
    check_event ev = capture_event(fn, CHECK_EV_EXIT, NULL);
    ev.n_requests = (uint32_t)n;
    ev.requests = capture_tmp.ids;
    ev.n_statuses = nst;
    ev.statuses = capture_tmp.statuses;
    ev.result = result;
    capture_emit(&ev);
}

static MPI_Status *statuses_for(MPI_Status *given, int count)
{
    return given != MPI_STATUSES_IGNORE || count > CAPTURE_MAX_ARRAY ? given : capture_tmp.mpi_statuses;
}

static const MPI_Status *status_at(const MPI_Status *array, int i)
{
    return array == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &array[i];
}

static int single(uint16_t fn, MPI_Request *request, int *flag, MPI_Status *status)
{
    MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
    int n = snapshot(fn, 1, request);
    int done = 1;
    int rc = flag ? PMPI_Test(request, flag, st) : PMPI_Wait(request, st);
    if (flag)
        done = rc == MPI_SUCCESS && *flag;
    if (done && rc == MPI_SUCCESS)
        completed(0, 0, st);
    multi_exit(fn, n, done && rc == MPI_SUCCESS, done);
    return rc;
}

static int impl_Wait(MPI_Request *request, MPI_Status *status)
{
    return single(CHECK_FN_WAIT, request, NULL, status);
}

static int impl_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    return single(CHECK_FN_TEST, request, flag, status);
}

static int all(uint16_t fn, int count, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
    MPI_Status *st = statuses_for(statuses, count);
    int n = snapshot(fn, count, reqs);
    int rc = flag ? PMPI_Testall(count, reqs, flag, st) : PMPI_Waitall(count, reqs, st);
    int done = (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) && (!flag || *flag);
    uint32_t k = 0;
    for (int i = 0; done && i < n; i++)
        if (capture_tmp.ids[i])
            completed(k++, i, status_at(st, i));
    multi_exit(fn, n, k, done);
    return rc;
}

static int impl_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
    return all(CHECK_FN_WAITALL, count, reqs, NULL, statuses);
}

static int impl_Testall(int count, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
    return all(CHECK_FN_TESTALL, count, reqs, flag, statuses);
}

static int any(uint16_t fn, int count, MPI_Request reqs[], int *indx, int *flag, MPI_Status *status)
{
    MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
    int n = snapshot(fn, count, reqs);
    int rc = flag ? PMPI_Testany(count, reqs, indx, flag, st) : PMPI_Waitany(count, reqs, indx, st);
    int done = rc == MPI_SUCCESS && (!flag || *flag) && *indx != MPI_UNDEFINED && *indx < n;
    if (done)
        completed(0, *indx, st);
    multi_exit(fn, n, (uint32_t)done, rc == MPI_SUCCESS && (!flag || *flag));
    return rc;
}

static int impl_Waitany(int count, MPI_Request reqs[], int *indx, MPI_Status *status)
{
    return any(CHECK_FN_WAITANY, count, reqs, indx, NULL, status);
}

static int impl_Testany(int count, MPI_Request reqs[], int *indx, int *flag, MPI_Status *status)
{
    return any(CHECK_FN_TESTANY, count, reqs, indx, flag, status);
}

static int some(uint16_t fn, int incount, MPI_Request reqs[], int *outcount, int indices[],
                MPI_Status statuses[])
{
    MPI_Status *st = statuses_for(statuses, incount);
    int n = snapshot(fn, incount, reqs);
    int rc = fn == CHECK_FN_TESTSOME ? PMPI_Testsome(incount, reqs, outcount, indices, st)
                                     : PMPI_Waitsome(incount, reqs, outcount, indices, st);
    uint32_t k = 0;
    int ok = rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS;
    for (int j = 0; ok && *outcount != MPI_UNDEFINED && j < *outcount; j++)
        if (indices[j] >= 0 && indices[j] < n)
            completed(k++, indices[j], status_at(st, j));
    multi_exit(fn, n, k, k > 0);
    return rc;
}

static int impl_Waitsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
                         MPI_Status statuses[])
{
    return some(CHECK_FN_WAITSOME, incount, reqs, outcount, indices, statuses);
}

static int impl_Testsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
                         MPI_Status statuses[])
{
    return some(CHECK_FN_TESTSOME, incount, reqs, outcount, indices, statuses);
}

/* ---- the module ---- */

static void install_hooks(void)
{
#define OBSERVE(Name) mg_observe_##Name = obs_##Name;
    OBSERVE(Send) OBSERVE(Bsend) OBSERVE(Ssend) OBSERVE(Rsend)
    OBSERVE(Isend) OBSERVE(Ibsend) OBSERVE(Issend) OBSERVE(Irsend) OBSERVE(Irecv)
    OBSERVE(Send_init) OBSERVE(Bsend_init) OBSERVE(Ssend_init) OBSERVE(Rsend_init)
    OBSERVE(Recv_init) OBSERVE(Start) OBSERVE(Startall) OBSERVE(Request_free) OBSERVE(Cancel)
    OBSERVE(Imrecv)
    OBSERVE(Barrier) OBSERVE(Bcast) OBSERVE(Gather) OBSERVE(Gatherv) OBSERVE(Scatter)
    OBSERVE(Scatterv) OBSERVE(Allgather) OBSERVE(Allgatherv) OBSERVE(Alltoall) OBSERVE(Alltoallv)
    OBSERVE(Alltoallw) OBSERVE(Reduce) OBSERVE(Allreduce) OBSERVE(Reduce_scatter)
    OBSERVE(Reduce_scatter_block) OBSERVE(Scan) OBSERVE(Exscan)
    OBSERVE(Ibarrier) OBSERVE(Ibcast) OBSERVE(Igather) OBSERVE(Igatherv) OBSERVE(Iscatter)
    OBSERVE(Iscatterv) OBSERVE(Iallgather) OBSERVE(Iallgatherv) OBSERVE(Ialltoall)
    OBSERVE(Ialltoallv) OBSERVE(Ialltoallw) OBSERVE(Ireduce) OBSERVE(Iallreduce)
    OBSERVE(Ireduce_scatter) OBSERVE(Ireduce_scatter_block) OBSERVE(Iscan) OBSERVE(Iexscan)
    OBSERVE(Comm_dup) OBSERVE(Comm_dup_with_info) OBSERVE(Comm_split) OBSERVE(Comm_split_type)
    OBSERVE(Comm_create) OBSERVE(Comm_create_group) OBSERVE(Intercomm_create)
    OBSERVE(Intercomm_merge) OBSERVE(Cart_create) OBSERVE(Comm_free) OBSERVE(Op_create)
#undef OBSERVE
#define REPLACE(Name) mg_impl_##Name = impl_##Name;
    REPLACE(Recv) REPLACE(Sendrecv) REPLACE(Sendrecv_replace) REPLACE(Probe) REPLACE(Iprobe)
    REPLACE(Mprobe) REPLACE(Improbe) REPLACE(Mrecv) REPLACE(Wait) REPLACE(Waitall)
    REPLACE(Waitany) REPLACE(Waitsome) REPLACE(Test) REPLACE(Testall) REPLACE(Testany)
    REPLACE(Testsome)
#undef REPLACE
}

static int capture_init(int rank, int size)
{
    const char *token = getenv("MPIGUARD_JOB_TOKEN");
    if (!token || !*token) {
        interpose_log("capture module off: MPIGUARD_JOB_TOKEN is not set", NULL);
        return -1;
    }
    int provided = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&provided);
    if (provided == MPI_THREAD_MULTIPLE) {
        interpose_log("capture module off: MPI_THREAD_MULTIPLE is not supported by check", NULL);
        return -1;
    }
    const char *bytes = getenv("MPIGUARD_RING_BYTES");
    size_t ring_bytes = bytes && *bytes ? strtoul(bytes, NULL, 10) : EVENT_RING_DEFAULT_BYTES;
    if (capture_emit_init(token, rank, size, ring_bytes) != 0 || capture_comm_init(rank, size) != 0) {
        interpose_log("capture module off: cannot create its ring or tables", NULL);
        return -1;
    }
    check_event ev = capture_event(CHECK_FN_INIT, CHECK_EV_ENTER, NULL);
    capture_emit(&ev);
    ev = capture_event(CHECK_FN_INIT, CHECK_EV_EXIT, NULL);
    capture_emit(&ev);
    install_hooks();
    return 0;
}

static void capture_finalize(int aborting)
{
    capture_emit_close(aborting);
}

const mg_module mg_capture_module = {
    .name = "capture",
    .init = capture_init,
    .finalize = capture_finalize,
};
