/* The `_c` calls: W3's, and the plan calls of a workaround for the application's own `_c` call; see
 * protect_large.h. The prototypes are written here (MPI_Count and MPI_Aint
 * exist in every MPI-3 header; the `_c` declarations only in MPI-4 ones) and checked against the
 * MPI-4.0 bindings; the functions themselves come from dlsym at init. */
#include "protect_large.h"
#include "protect_pmpi.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "scaling_w3.h"

typedef int bcast_c(void *, MPI_Count, MPI_Datatype, int, MPI_Comm);
typedef int ibcast_c(void *, MPI_Count, MPI_Datatype, int, MPI_Comm, MPI_Request *);
/* Scatter, Gather */
typedef int rooted_c(const void *, MPI_Count, MPI_Datatype, void *, MPI_Count, MPI_Datatype, int,
                     MPI_Comm);
typedef int irooted_c(const void *, MPI_Count, MPI_Datatype, void *, MPI_Count, MPI_Datatype, int,
                      MPI_Comm, MPI_Request *);
typedef int scatterv_c(const void *, const MPI_Count[], const MPI_Aint[], MPI_Datatype, void *,
                       MPI_Count, MPI_Datatype, int, MPI_Comm);
typedef int iscatterv_c(const void *, const MPI_Count[], const MPI_Aint[], MPI_Datatype, void *,
                        MPI_Count, MPI_Datatype, int, MPI_Comm, MPI_Request *);
typedef int gatherv_c(const void *, MPI_Count, MPI_Datatype, void *, const MPI_Count[],
                      const MPI_Aint[], MPI_Datatype, int, MPI_Comm);
typedef int igatherv_c(const void *, MPI_Count, MPI_Datatype, void *, const MPI_Count[],
                       const MPI_Aint[], MPI_Datatype, int, MPI_Comm, MPI_Request *);
/* Allgather, Alltoall */
typedef int all_c(const void *, MPI_Count, MPI_Datatype, void *, MPI_Count, MPI_Datatype, MPI_Comm);
typedef int iall_c(const void *, MPI_Count, MPI_Datatype, void *, MPI_Count, MPI_Datatype, MPI_Comm,
                   MPI_Request *);
typedef int allgatherv_c(const void *, MPI_Count, MPI_Datatype, void *, const MPI_Count[],
                         const MPI_Aint[], MPI_Datatype, MPI_Comm);
typedef int iallgatherv_c(const void *, MPI_Count, MPI_Datatype, void *, const MPI_Count[],
                          const MPI_Aint[], MPI_Datatype, MPI_Comm, MPI_Request *);
typedef int alltoallv_c(const void *, const MPI_Count[], const MPI_Aint[], MPI_Datatype, void *,
                        const MPI_Count[], const MPI_Aint[], MPI_Datatype, MPI_Comm);
typedef int ialltoallv_c(const void *, const MPI_Count[], const MPI_Aint[], MPI_Datatype, void *,
                         const MPI_Count[], const MPI_Aint[], MPI_Datatype, MPI_Comm,
                         MPI_Request *);
typedef int reduce_c(const void *, void *, MPI_Count, MPI_Datatype, MPI_Op, int, MPI_Comm);
typedef int ireduce_c(const void *, void *, MPI_Count, MPI_Datatype, MPI_Op, int, MPI_Comm,
                      MPI_Request *);
typedef int allreduce_c(const void *, void *, MPI_Count, MPI_Datatype, MPI_Op, MPI_Comm);
typedef int iallreduce_c(const void *, void *, MPI_Count, MPI_Datatype, MPI_Op, MPI_Comm,
                         MPI_Request *);
typedef int reduce_scatter_c(const void *, void *, const MPI_Count[], MPI_Datatype, MPI_Op,
                             MPI_Comm);
typedef int ireduce_scatter_c(const void *, void *, const MPI_Count[], MPI_Datatype, MPI_Op,
                              MPI_Comm, MPI_Request *);

/* [collective][nonblocking]: the library's PMPI_<Name>_c, or NULL. Written once at init, before
 * any collective is routed here. */
static void *fns[SCALING_COLL_COUNT][2];

int protect_large_setup(void)
{
    int found = 0;
    for (int c = 0; c < SCALING_COLL_COUNT; c++)
        for (int nb = 0; nb < 2; nb++) {
            char name[64] = "P"; /* PMPI_Gatherv_c, PMPI_Igatherv_c */
            scaling_coll_mpi_name((scaling_coll)c, nb, 1, name + 1, sizeof name - 1);
            fns[c][nb] = dlsym(RTLD_DEFAULT, name);
            found += fns[c][nb] != NULL;
        }
    return found;
}

int protect_large_has(scaling_coll coll, int nonblocking)
{
    return (unsigned)coll < SCALING_COLL_COUNT && fns[coll][nonblocking != 0] != NULL;
}

int protect_large_vectors_make(const protect_call *pc, const int64_t *true_a, const int64_t *true_b,
                               protect_large_vectors *v, void **block)
{
    _Static_assert(sizeof(MPI_Count) <= sizeof(int64_t) && sizeof(MPI_Aint) <= sizeof(int64_t),
                   "the engine's 64-bit vectors must fit the `_c` binding's types");
    memset(v, 0, sizeof *v);
    *block = NULL;
    const scaling_args *a = &pc->a;
    if (!scaling_args_has_vectors(a))
        return 0;
    size_t P = a->nprocs;
    /* The engine's int64 vectors (4P), then the typed ones the call keeps (4P). */
    int64_t *wide = malloc(4 * P * sizeof *wide + 2 * P * (sizeof(MPI_Count) + sizeof(MPI_Aint)));
    if (!wide)
        return -1;
    int64_t *ca = wide, *da = wide + P, *cb = wide + 2 * P, *db = wide + 3 * P;
    if (scaling_w3_vectors(a, true_a, true_b, ca, da, cb, db) != 0) {
        free(wide);
        return -1;
    }
    MPI_Count *counts = (MPI_Count *)(wide + 4 * P);
    MPI_Aint *displs = (MPI_Aint *)(counts + 2 * P);
    const scaling_coll_info *info = scaling_coll_get(a->coll);
    for (size_t i = 0; i < P; i++) {
        counts[i] = (MPI_Count)ca[i], counts[P + i] = (MPI_Count)cb[i];
        displs[i] = (MPI_Aint)da[i], displs[P + i] = (MPI_Aint)db[i];
    }
    if (a->counts_a) {
        v->counts_a = counts;
        v->displs_a = (info->vectors & SCALING_COLL_VEC_A_DISPLS) ? displs : NULL;
    }
    if (info->vectors & SCALING_COLL_VEC_B) {
        v->counts_b = counts + P;
        v->displs_b = displs + P;
    }
    *block = wide;
    return 0;
}

/* The arguments of one `_c` call: W3's (the application's) or a workaround's plan call. */
typedef struct large_call {
    const void *s;
    void *r;
    MPI_Count sc, rc;
    MPI_Datatype st, rt;
    int root;
    const MPI_Count *ca, *cb;
    const MPI_Aint *da, *db;
} large_call;

/* Calls the blocking `_c` form, or the nonblocking one when req is set. */
#define ISSUE_C(type, req, ...)                                                                    \
    ((req) ? ((i##type *)fn[1])(__VA_ARGS__, req) : ((type *)fn[0])(__VA_ARGS__))

/* Issues collective coll (pc's own, or its V-form for a plan call that names it). */
static int issue(const protect_call *pc, scaling_coll coll, const large_call *x, MPI_Comm comm,
                 MPI_Request *req)
{
    void *const *fn = fns[coll];
    if (!fn[req != NULL])
        return MPI_ERR_INTERN;
    switch (coll) {
    case SCALING_COLL_BCAST:
        return ISSUE_C(bcast_c, req, x->r, x->rc, x->rt, x->root, comm);
    case SCALING_COLL_SCATTER:
    case SCALING_COLL_GATHER:
        return ISSUE_C(rooted_c, req, x->s, x->sc, x->st, x->r, x->rc, x->rt, x->root, comm);
    case SCALING_COLL_SCATTERV:
        return ISSUE_C(scatterv_c, req, x->s, x->ca, x->da, x->st, x->r, x->rc, x->rt, x->root,
                       comm);
    case SCALING_COLL_GATHERV:
        return ISSUE_C(gatherv_c, req, x->s, x->sc, x->st, x->r, x->ca, x->da, x->rt, x->root,
                       comm);
    case SCALING_COLL_ALLGATHER:
    case SCALING_COLL_ALLTOALL:
        return ISSUE_C(all_c, req, x->s, x->sc, x->st, x->r, x->rc, x->rt, comm);
    case SCALING_COLL_ALLGATHERV:
        return ISSUE_C(allgatherv_c, req, x->s, x->sc, x->st, x->r, x->ca, x->da, x->rt, comm);
    case SCALING_COLL_ALLTOALLV:
        return ISSUE_C(alltoallv_c, req, x->s, x->ca, x->da, x->st, x->r, x->cb, x->db, x->rt,
                       comm);
    case SCALING_COLL_REDUCE:
        return ISSUE_C(reduce_c, req, x->s, x->r, x->rc, x->rt, pc->op, x->root, comm);
    case SCALING_COLL_ALLREDUCE:
        return ISSUE_C(allreduce_c, req, x->s, x->r, x->rc, x->rt, pc->op, comm);
    default: /* SCALING_COLL_REDUCE_SCATTER */
        return ISSUE_C(reduce_scatter_c, req, x->s, x->r, x->ca, x->rt, pc->op, comm);
    }
}

int protect_large_issue(const protect_call *pc, const protect_large_vectors *v, MPI_Comm comm,
                        MPI_Request *req)
{
    large_call x = {pc->sendbuf,  pc->recvbuf,  pc->send_count,  pc->recv_count,
                    pc->sendtype, pc->recvtype, (int)pc->a.root, v->counts_a,
                    v->counts_b,  v->displs_a,  v->displs_b};
    return issue(pc, pc->a.coll, &x, comm, req);
}

/* Widens one int vector of a plan call (absent: left alone). */
static void widen_count(const int *in, MPI_Count *out, size_t n)
{
    for (size_t i = 0; in && i < n; i++)
        out[i] = in[i];
}

static void widen_displ(const int *in, MPI_Aint *out, size_t n)
{
    for (size_t i = 0; in && i < n; i++)
        out[i] = in[i];
}

int protect_large_issue_call(const protect_call *pc, const scaling_args_call *sc,
                             const protect_call_bufs *bufs, MPI_Comm comm, MPI_Request *req)
{
    size_t P = pc->a.nprocs;
    widen_count(sc->counts_a, bufs->lcounts, P);
    widen_count(sc->counts_b, bufs->lcounts + P, P);
    widen_displ(sc->displs_a, bufs->ldispls, P);
    widen_displ(sc->displs_b, bufs->ldispls + P, P);
    large_call x = {protect_call_addr(pc, bufs, sc->send),
                    protect_call_addr(pc, bufs, sc->recv),
                    sc->send_count,
                    sc->recv_count,
                    bufs->send_type,
                    bufs->recv_type,
                    (int)sc->root,
                    bufs->lcounts,
                    bufs->lcounts + P,
                    bufs->ldispls,
                    bufs->ldispls + P};
    return issue(pc, scaling_call_coll(sc, pc->a.coll), &x, comm, req);
}
