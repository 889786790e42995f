/* Issuing one call of a workaround plan with PMPI; see protect_call.h. Every plan call is the
 * intercepted collective itself (the paper's design rule), or its V-form where the plan says so
 * (the same data movement: scaling_args.h), with the plan's counts and buffers. */
#include "protect_call.h"
#include "protect_pmpi.h"

#include <stddef.h>

void *protect_call_addr(const protect_call *pc, const protect_call_bufs *bufs, scaling_args_ref r)
{
    char *base;
    switch (r.buf) {
    case SCALING_ARGS_BUF_USER_SEND:
        base = (char *)pc->sendbuf;
        break;
    case SCALING_ARGS_BUF_USER_RECV:
        base = pc->recvbuf;
        break;
    case SCALING_ARGS_BUF_STAGE_SEND:
        base = bufs->stage_send;
        break;
    case SCALING_ARGS_BUF_STAGE_RECV:
        base = bufs->stage_recv;
        break;
    case SCALING_ARGS_BUF_IN_PLACE:
        return MPI_IN_PLACE;
    default:
        return NULL;
    }
    return base ? base + r.off : NULL;
}

/* Calls the blocking form, or the nonblocking one when req is set. */
#define ISSUE(name, iname, req, ...)                                                               \
    ((req) ? PMPI_##iname(__VA_ARGS__, req) : PMPI_##name(__VA_ARGS__))

int protect_call_issue(const protect_call *pc, const scaling_args_call *sc,
                       const protect_call_bufs *bufs, MPI_Comm comm, MPI_Request *req)
{
    void *s = protect_call_addr(pc, bufs, sc->send), *r = protect_call_addr(pc, bufs, sc->recv);
    MPI_Datatype st = bufs->send_type, rt = bufs->recv_type;
    int root = (int)sc->root;
    switch (scaling_call_coll(sc, pc->a.coll)) {
    case SCALING_COLL_BCAST:
        return ISSUE(Bcast, Ibcast, req, r, sc->recv_count, rt, root, comm);
    case SCALING_COLL_SCATTER:
        return ISSUE(Scatter, Iscatter, req, s, sc->send_count, st, r, sc->recv_count, rt, root,
                     comm);
    case SCALING_COLL_SCATTERV:
        return ISSUE(Scatterv, Iscatterv, req, s, sc->counts_a, sc->displs_a, st, r, sc->recv_count,
                     rt, root, comm);
    case SCALING_COLL_GATHER:
        return ISSUE(Gather, Igather, req, s, sc->send_count, st, r, sc->recv_count, rt, root,
                     comm);
    case SCALING_COLL_GATHERV:
        return ISSUE(Gatherv, Igatherv, req, s, sc->send_count, st, r, sc->counts_a, sc->displs_a,
                     rt, root, comm);
    case SCALING_COLL_ALLGATHER:
        return ISSUE(Allgather, Iallgather, req, s, sc->send_count, st, r, sc->recv_count, rt,
                     comm);
    case SCALING_COLL_ALLGATHERV:
        return ISSUE(Allgatherv, Iallgatherv, req, s, sc->send_count, st, r, sc->counts_a,
                     sc->displs_a, rt, comm);
    case SCALING_COLL_ALLTOALL:
        return ISSUE(Alltoall, Ialltoall, req, s, sc->send_count, st, r, sc->recv_count, rt, comm);
    case SCALING_COLL_ALLTOALLV:
        return ISSUE(Alltoallv, Ialltoallv, req, s, sc->counts_a, sc->displs_a, st, r, sc->counts_b,
                     sc->displs_b, rt, comm);
    case SCALING_COLL_REDUCE:
        return ISSUE(Reduce, Ireduce, req, s, r, sc->recv_count, rt, pc->op, root, comm);
    case SCALING_COLL_ALLREDUCE:
        return ISSUE(Allreduce, Iallreduce, req, s, r, sc->recv_count, rt, pc->op, comm);
    default: /* SCALING_COLL_REDUCE_SCATTER */
        return ISSUE(Reduce_scatter, Ireduce_scatter, req, s, r, sc->counts_a, rt, pc->op, comm);
    }
}
