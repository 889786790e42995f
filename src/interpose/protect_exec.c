/* Workaround execution; see protect_exec.h. */
#include "protect_exec.h"
#include "protect_pmpi.h"

#include "protect_large.h"
#include "protect_pending.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Issues one plan call in the form the application called: the `_c` form for a large-count call
 * (the plan's int vectors widened into bufs->lcounts/ldispls), so that a workaround calls the very
 * collective the application called. */
static int issue(const protect_call *pc, const scaling_args_call *call,
                 const protect_call_bufs *bufs, MPI_Comm comm, MPI_Request *request)
{
    return pc->large ? protect_large_issue_call(pc, call, bufs, comm, request)
                     : protect_call_issue(pc, call, bufs, comm, request);
}

/* The vectors of one plan call in one zeroed allocation: four arrays of P ints and, for a
 * large-count call, the `_c` binding's arrays they are widened into (bufs->lcounts, ldispls). */
static int *call_vectors(const protect_call *pc, scaling_args_call *call, protect_call_bufs *bufs)
{
    size_t P = pc->a.nprocs;
    size_t wide = pc->large ? 2 * P * (sizeof(MPI_Count) + sizeof(MPI_Aint)) : 0;
    _Static_assert(sizeof(MPI_Count) % sizeof(int) == 0, "the `_c` arrays follow the ints aligned");
    int *v = calloc(1, 4 * P * sizeof *v + wide);
    if (v) {
        call->counts_a = v;
        call->displs_a = v + P;
        call->counts_b = v + 2 * P;
        call->displs_b = v + 3 * P;
    }
    if (v && pc->large) {
        bufs->lcounts = (MPI_Count *)(v + 4 * P);
        bufs->ldispls = (MPI_Aint *)(bufs->lcounts + 2 * P);
    }
    return v;
}

static void copy_all(const protect_call *pc, const protect_call_bufs *bufs,
                     const scaling_args_copy *c, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        memmove(protect_call_addr(pc, bufs, c[i].to), protect_call_addr(pc, bufs, c[i].from),
                (size_t)c[i].bytes);
}

static protect_call_bufs user_bufs(const protect_call *pc)
{
    protect_call_bufs b = {NULL, NULL, pc->sendtype, pc->recvtype, NULL, NULL};
    return b;
}

/* W1-B stages a call's blocks, where it must, through two buffers as large as a round's messages.
 * Allocated per call, they were fresh pages every time: a page fault per 4 KiB, paid on every call
 * that fires. They are kept for the next call, grown as needed, released at MPI_Finalize; a call
 * made while another thread holds them (MPI_THREAD_MULTIPLE) allocates its own. */
static struct {
    char *buf;
    size_t cap;
} stages[2]; /* send, receive */
static atomic_flag stages_busy = ATOMIC_FLAG_INIT;

/* NULL for 0 bytes or when memory is short (then *failed). */
static char *stage_take(int cached, int which, int64_t bytes, int *failed)
{
    if (bytes <= 0)
        return NULL;
    char *p;
    if (!cached) {
        p = malloc((size_t)bytes);
    } else if (stages[which].cap >= (size_t)bytes) {
        p = stages[which].buf;
    } else {
        free(stages[which].buf); /* nothing to keep: every round packs before it reads */
        p = stages[which].buf = malloc((size_t)bytes);
        stages[which].cap = p ? (size_t)bytes : 0;
    }
    *failed |= !p;
    return p;
}

static void stages_give_back(int cached, protect_call_bufs *bufs)
{
    if (cached) {
        atomic_flag_clear(&stages_busy);
        return;
    }
    free(bufs->stage_send);
    free(bufs->stage_recv);
}

void protect_exec_finalize(void)
{
    for (int i = 0; i < 2; i++) {
        free(stages[i].buf);
        stages[i].buf = NULL;
        stages[i].cap = 0;
    }
}

/* A side a W1-B round addresses with a block stride (scaling_args.h): its count elements of base
 * become one element per rank of a type whose extent is stride elements (*out, committed; *count
 * becomes 1). The byte arithmetic holds because W1-B runs only on contiguous datatypes (lb 0,
 * extent = true extent = size: protect_run.c refuses W1-B otherwise), whose extent is their size
 * s. A plain side (stride 0) is left alone. */
static int strided_type(int64_t stride, int *count, MPI_Datatype base, uint64_t s,
                        MPI_Datatype *out)
{
    if (stride == 0)
        return MPI_SUCCESS;
    MPI_Datatype block, resized;
    int rc = PMPI_Type_contiguous(*count, base, &block);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = PMPI_Type_create_resized(block, 0, (MPI_Aint)(stride * (int64_t)s), &resized);
    PMPI_Type_free(&block);
    if (rc != MPI_SUCCESS)
        return rc;
    *out = resized;
    *count = 1;
    return PMPI_Type_commit(out);
}

/* Issues one W1-B round, its strided sides with the types made for this round (the last round's
 * slices may be shorter), freed once the blocking call returns. */
static int issue_round(const protect_call *pc, scaling_args_call *call,
                       const protect_call_bufs *bufs)
{
    MPI_Datatype st = MPI_DATATYPE_NULL, rt = MPI_DATATYPE_NULL;
    int rc = strided_type(call->send_stride, &call->send_count, bufs->send_type, pc->a.type_size,
                          &st);
    if (rc == MPI_SUCCESS)
        rc = strided_type(call->recv_stride, &call->recv_count, bufs->recv_type, pc->a.type_size,
                          &rt);
    protect_call_bufs b = *bufs;
    b.send_type = st != MPI_DATATYPE_NULL ? st : b.send_type;
    b.recv_type = rt != MPI_DATATYPE_NULL ? rt : b.recv_type;
    if (rc == MPI_SUCCESS)
        rc = issue(pc, call, &b, pc->comm, NULL);
    if (st != MPI_DATATYPE_NULL)
        PMPI_Type_free(&st);
    if (rt != MPI_DATATYPE_NULL)
        PMPI_Type_free(&rt);
    return rc;
}

static int run_w1b(const protect_call *pc, const protect_exec_plan *plan)
{
    uint32_t P = pc->a.nprocs;
    scaling_args_call call = {0};
    protect_call_bufs bufs = user_bufs(pc);
    /* MPI ignores an in-place call's send type (it may be anything); an in-place Alltoall(v)'s
     * rounds send their packed slices of the receive buffer, of the receive type. */
    if (pc->a.in_place &&
        (pc->a.coll == SCALING_COLL_ALLTOALL || pc->a.coll == SCALING_COLL_ALLTOALLV))
        bufs.send_type = pc->recvtype;
    int *vec = call_vectors(pc, &call, &bufs);
    scaling_args_copy *copies = malloc(2 * (size_t)P * sizeof *copies);
    int cached = !atomic_flag_test_and_set(&stages_busy), short_of_memory = 0;
    bufs.stage_send = stage_take(cached, 0, plan->w1b.stage_send_bytes, &short_of_memory);
    bufs.stage_recv = stage_take(cached, 1, plan->w1b.stage_recv_bytes, &short_of_memory);
    int rc = MPI_SUCCESS;
    if (!vec || !copies || short_of_memory)
        rc = MPI_ERR_NO_MEM;
    for (uint32_t r = 0; rc == MPI_SUCCESS && r < plan->w1b.rounds; r++) {
        uint32_t npack = 0, nunpack = 0;
        if (scaling_w1b_round(&plan->w1b, &pc->a, plan->true_a, plan->true_b, r, &call, copies,
                              &npack, copies + P, &nunpack) != 0) {
            rc = MPI_ERR_INTERN;
            break;
        }
        copy_all(pc, &bufs, copies, npack);
        rc = issue_round(pc, &call, &bufs);
        copy_all(pc, &bufs, copies + P, nunpack);
    }
    stages_give_back(cached, &bufs);
    free(copies);
    free(vec);
    return rc;
}

typedef struct w1a_ctx {
    const protect_call *pc;
    const protect_exec_plan *plan;
    scaling_args_call *call;
} w1a_ctx;

static int members_of(uint32_t g, uint32_t *members, uint32_t *n, void *ctx)
{
    w1a_ctx *x = ctx;
    int member = 0;
    scaling_w1a_group(&x->plan->w1a, &x->pc->a, x->plan->true_a, g, members, n, &member, x->call);
    return member;
}

static int run_w1a(const protect_call *pc, protect_comm *pcomm, const protect_exec_plan *plan)
{
    uint32_t P = pc->a.nprocs, n = 0;
    scaling_args_call call = {0};
    protect_call_bufs bufs = user_bufs(pc);
    int *vec = call_vectors(pc, &call, &bufs);
    uint32_t *members = malloc((size_t)P * sizeof *members);
    w1a_ctx ctx = {pc, plan, &call};
    const MPI_Comm *comms = NULL;
    if (vec && members && protect_comm_private(pcomm, pc->comm) != MPI_COMM_NULL)
        comms = protect_comm_groups(pcomm, pc->a.coll, pc->a.root, plan->w1a.ngroups,
                                    plan->w1a.starts, members_of, &ctx);
    int rc = comms ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (uint32_t g = 0; rc == MPI_SUCCESS && g < plan->w1a.ngroups; g++) {
        int member = 0;
        scaling_w1a_group(&plan->w1a, &pc->a, plan->true_a, g, members, &n, &member, &call);
        if (member)
            rc = issue(pc, &call, &bufs, comms[g], NULL);
    }
    free(members);
    free(vec);
    return rc;
}

/* Which sides of the call this rank's datatypes matter on (MPI ignores the others, whose handles
 * may be anything). */
static int send_side(const protect_call *pc)
{
    scaling_coll c = pc->a.coll;
    if (c == SCALING_COLL_BCAST || pc->a.in_place)
        return c == SCALING_COLL_BCAST || c == SCALING_COLL_SCATTER || c == SCALING_COLL_SCATTERV;
    return !((c == SCALING_COLL_SCATTER || c == SCALING_COLL_SCATTERV) && pc->a.rank != pc->a.root);
}

static int recv_side(const protect_call *pc)
{
    scaling_coll c = pc->a.coll;
    int root = pc->a.rank == pc->a.root;
    if ((c == SCALING_COLL_GATHER || c == SCALING_COLL_GATHERV) && !root)
        return 0;
    return !((c == SCALING_COLL_SCATTER || c == SCALING_COLL_SCATTERV) && pc->a.in_place);
}

static int big_type(int use, uint64_t k, MPI_Datatype base, MPI_Datatype *out)
{
    *out = MPI_DATATYPE_NULL;
    if (!use)
        return MPI_SUCCESS;
    int rc = PMPI_Type_contiguous((int)k, base, out);
    return rc == MPI_SUCCESS ? PMPI_Type_commit(out) : rc;
}

/* The arrays of a single-call workaround (W2, W3): a nonblocking call keeps them until it
 * completes (MPI reads them until then); otherwise they are freed now. */
static void release_vectors(const protect_call *pc, int rc, void *block)
{
    if (block && pc->nonblocking && rc == MPI_SUCCESS && scaling_args_has_vectors(&pc->a))
        protect_pending_keep(*pc->request, block);
    else
        free(block);
}

static int run_w2(const protect_call *pc, const protect_exec_plan *plan)
{
    scaling_args_call call = {0};
    protect_call_bufs bufs = user_bufs(pc);
    int *vec = call_vectors(pc, &call, &bufs);
    if (!vec)
        return MPI_ERR_NO_MEM;
    int rc = scaling_w2_call(&plan->w2, &pc->a, plan->true_a, plan->true_b, &call) == 0
                 ? MPI_SUCCESS
                 : MPI_ERR_INTERN;
    /* One handle for both sides where they share the base type: Open MPI copies a root's own
     * block with memcpy only when its two datatypes are the same handle, and through a convertor
     * otherwise (W2's Gather at 2 ranks took 1.15-1.18 times the plain call with two handles). */
    int one_type = pc->a.coll == SCALING_COLL_BCAST ||
                   (pc->sendtype == pc->recvtype && send_side(pc) && recv_side(pc));
    if (rc == MPI_SUCCESS)
        rc = big_type(recv_side(pc), plan->w2.k, pc->recvtype, &bufs.recv_type);
    if (rc == MPI_SUCCESS && !one_type)
        rc = big_type(send_side(pc), plan->w2.k, pc->sendtype, &bufs.send_type);
    if (one_type)
        bufs.send_type = bufs.recv_type;
    if (rc == MPI_SUCCESS)
        rc = issue(pc, &call, &bufs, pc->comm, pc->nonblocking ? pc->request : NULL);
    /* A datatype freed while a nonblocking call uses it stays valid until the call completes. */
    if (bufs.send_type != MPI_DATATYPE_NULL && bufs.send_type != bufs.recv_type)
        PMPI_Type_free(&bufs.send_type);
    if (bufs.recv_type != MPI_DATATYPE_NULL)
        PMPI_Type_free(&bufs.recv_type);
    release_vectors(pc, rc, vec);
    return rc;
}

/* W3: the `_c` form of the collective, once, with the widened counts and the true displacements;
 * a nonblocking call stays nonblocking. */
static int run_w3(const protect_call *pc, const protect_exec_plan *plan)
{
    protect_large_vectors v;
    void *block;
    if (protect_large_vectors_make(pc, plan->true_a, plan->true_b, &v, &block) != 0)
        return MPI_ERR_NO_MEM;
    int rc = protect_large_issue(pc, &v, pc->comm, pc->nonblocking ? pc->request : NULL);
    release_vectors(pc, rc, block);
    return rc;
}

static int done_query(void *extra, MPI_Status *status)
{
    (void)extra;
    PMPI_Status_set_elements(status, MPI_BYTE, 0);
    PMPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_UNDEFINED;
    status->MPI_TAG = MPI_UNDEFINED;
    return MPI_SUCCESS;
}

static int done_free(void *extra)
{
    (void)extra;
    return MPI_SUCCESS;
}

static int done_cancel(void *extra, int complete)
{
    (void)extra, (void)complete;
    return MPI_SUCCESS;
}

/* A request that is already complete: what a nonblocking call finished eagerly returns. */
static int completed_request(MPI_Request *request)
{
    int rc = PMPI_Grequest_start(done_query, done_free, done_cancel, NULL, request);
    return rc == MPI_SUCCESS ? PMPI_Grequest_complete(*request) : rc;
}

int protect_exec_eager(const protect_call *pc, const protect_exec_plan *plan)
{
    return pc->nonblocking &&
           (plan->w == SCALING_CHOICE_WA_W1A || plan->w == SCALING_CHOICE_WA_W1B);
}

int protect_exec(const protect_call *pc, protect_comm *pcomm, const protect_exec_plan *plan)
{
    int rc;
    switch (plan->w) {
    case SCALING_CHOICE_WA_W3:
        return run_w3(pc, plan);
    case SCALING_CHOICE_WA_W2:
        return run_w2(pc, plan);
    case SCALING_CHOICE_WA_W1A:
        rc = run_w1a(pc, pcomm, plan);
        break;
    default:
        rc = run_w1b(pc, plan);
        break;
    }
    if (protect_exec_eager(pc, plan)) {
        int rq = completed_request(pc->request);
        rc = rc == MPI_SUCCESS ? rq : rc;
    }
    return rc;
}
