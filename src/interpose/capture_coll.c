/* The capture module's collectives (capture_call.h), blocking and nonblocking, all observed: the
 * records carry the root as a world rank, the op as an id identical on every rank, and a request
 * id for the nonblocking ones (docs/design/check-detector.md §1); their MPI-4 large-count forms
 * (MPI_Bcast_c, ...) where mpi.h declares them, with the same records. Also Op_create, which
 * numbers the user ops those ids name. */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "capture_coll.h"

#include "capture_args.h"
#include "capture_call.h"
#include "capture_handles.h"
#include "capture_emit.h"
#include "capture_types.h"
#include "mpi_binding.h"

#pragma weak PMPI_Comm_rank

/* Collectives: root translated to a world rank, op to its id, a request for the nonblocking.
 * count: an int of the int binding or an MPI_Count of the `_c` one, the same record for both, so
 * that the detector matches MPI_Bcast_c with MPI_Bcast. block x type: the message every member
 * must describe alike (docs/design/check-detector.md §13); MPI_DATATYPE_NULL where members may
 * differ. buf: that message's buffer, for the argument checks; sides: where members may differ,
 * the datatype arguments, and places their buffers (capture_args_coll). */
static void coll(uint16_t fn, int phase, int rc, MPI_Comm comm, int root, MPI_Op op, int64_t count,
                 const void *buf, int64_t block, MPI_Datatype type,
                 const capture_args_typed sides[2], const capture_args_place places[2],
                 MPI_Request *request)
{
    const capture_comm *c = capture_comm_find(comm);
    const check_event_func_info *info = check_event_func_describe(fn);
    uint32_t op_id = op == MPI_OP_NULL ? 0 : capture_emit_op_id(op);
    if (capture_args_coll(fn, phase, comm, c, info->rooted, root, buf, block, type, op_id, sides,
                          places) ||
        !c) {
        if (request)
            capture_call_untracked(phase, rc, request);
        return;
    }
    check_event ev = capture_emit_event(fn, capture_call_kind(phase), c);
    ev.flags |= capture_call_refused(rc);
    ev.root = root >= 0 ? capture_comm_world(c, root) : CHECK_EVENT_NO_ROOT;
    ev.op = op_id;
    ev.count = count;
    capture_types_describe(&ev, type, block);
    if (request)
        ev.request = capture_call_request(phase, rc, request, c, 0);
    capture_emit(&ev);
}

#define NO_ROOT -1
static void obs_Barrier(int ph, int rc, MPI_Comm comm)
{
    coll(CHECK_EVENT_FN_BARRIER, ph, rc, comm, NO_ROOT, MPI_OP_NULL, 0, NULL, 0, MPI_DATATYPE_NULL,
         NULL, NULL, NULL);
}
static void obs_Ibarrier(int ph, int rc, MPI_Comm comm, MPI_Request *r)
{
    coll(CHECK_EVENT_FN_IBARRIER, ph, rc, comm, NO_ROOT, MPI_OP_NULL, 0, NULL, 0, MPI_DATATYPE_NULL,
         NULL, NULL, r);
}

/* The observers of the collectives with a `_c` form: one text per argument shape (mpi_binding.h),
 * blocking (mode B) or not (NB); name is MPI's without the prefix (Bcast, Ibcast_c), fn the
 * record's function, F the family. The record's count is the one the int forms always carried. */
#define BCAST(name, fn, F, mode)                                                                   \
    static void obs_##name(int ph, int rc, void *b, MG_MPI_BINDING_COUNT_##F n, MPI_Datatype t,    \
                           int root, MPI_Comm comm MG_MPI_BINDING_RQ_PARAM_##mode)                 \
    {                                                                                              \
        coll(fn, ph, rc, comm, root, MPI_OP_NULL, n, b, n, t, NULL, NULL,                          \
             MG_MPI_BINDING_RQ_##mode);                                                            \
    }

/* Whether a shape has a root: its parameter and what the record gets. */
#define ROOT_PARAM_ROOTED , int root
#define ROOT_PARAM_UNROOTED
#define ROOT_ROOTED root
#define ROOT_UNROOTED NO_ROOT

/* Gather, Scatter, Allgather, Alltoall; the record carries the count and block of side S (s: the
 * send side, r: the receive side), and of the other side O where side S is MPI_IN_PLACE (the
 * standard then takes the block from there). */
#define REGULAR(name, fn, F, mode, S, O, R)                                                        \
    static void obs_##name(int ph, int rc, const void *sb, MG_MPI_BINDING_COUNT_##F sn,            \
                           MPI_Datatype st, void *rb, MG_MPI_BINDING_COUNT_##F rn,                 \
                           MPI_Datatype rt ROOT_PARAM_##R,                                         \
                           MPI_Comm comm MG_MPI_BINDING_RQ_PARAM_##mode)                           \
    {                                                                                              \
        (void)sb, (void)rb;                                                                        \
        int in_place = S##b == MPI_IN_PLACE;                                                       \
        coll(fn, ph, rc, comm, ROOT_##R, MPI_OP_NULL, S##n, S##b, in_place ? O##n : S##n,          \
             in_place ? O##t : S##t, NULL, NULL, MG_MPI_BINDING_RQ_##mode);                        \
    }
#define GATHER(name, fn, F, mode) REGULAR(name, fn, F, mode, s, r, ROOTED)
#define SCATTER(name, fn, F, mode) REGULAR(name, fn, F, mode, r, s, ROOTED)
#define SYMMETRIC(name, fn, F, mode) REGULAR(name, fn, F, mode, s, r, UNROOTED)

/* The counts of the vector side of a v- or w-form (a count per peer) at this rank, 0 where it is
 * not significant, and in *block whether its block side (one count) is: a rooted form's vector is
 * the root's (MPI_ROOT's on an intercommunicator, where the root's group has no block and
 * MPI_PROC_NULL names its other members), an unrooted one's every member's (MPI 3.1 §5.5-5.8). */
static int vector_counts(MPI_Comm comm, int root, int *block)
{
    const capture_comm *c = capture_comm_find(comm);
    int me = -1;
    *block = c != NULL;
    if (!c)
        return 0;
    if (root == NO_ROOT)
        return c->remote_size ? c->remote_size : c->size;
    if (c->remote_size) {
        *block = root != MPI_ROOT && root != MPI_PROC_NULL;
        return root == MPI_ROOT ? c->remote_size : 0;
    }
    return PMPI_Comm_rank(comm, &me) == MPI_SUCCESS && me == root ? c->size : 0;
}

/* The size of comm's local group, whose members Reduce_scatter's counts name; 0 for a
 * communicator not captured. */
static int local_size(MPI_Comm comm)
{
    const capture_comm *c = capture_comm_find(comm);
    return c ? c->size : 0;
}

/* Gatherv, Allgatherv (V: the vector side is the receive side) and Scatterv (the send side), with
 * the vector side's displacements d; the record carries the block's count. A block side of
 * MPI_IN_PLACE is not read. */
#define VECTOR_SIDES(sides, V, B, R)                                                               \
    int block_, peers_ = vector_counts(comm, ROOT_##R, &block_);                                   \
    capture_args_typed sides[2] = {                                                                \
        [V##_SIDE] = {V##n, sizeof *V##n, &V##t, peers_, 0},                                       \
        [B##_SIDE] = {&B##n, sizeof B##n, &B##t, block_ && B##b != MPI_IN_PLACE, 0}};              \
    capture_args_place places[2] = {[V##_SIDE] = {V##b, d, sizeof *d}, [B##_SIDE] = {B##b, NULL, 0}}
#define s_SIDE 0
#define r_SIDE 1
#define GATHERV_(name, fn, F, mode, R)                                                             \
    static void obs_##name(int ph, int rc, const void *sb, MG_MPI_BINDING_COUNT_##F sn,            \
                           MPI_Datatype st, void *rb, const MG_MPI_BINDING_COUNT_##F rn[],         \
                           const MG_MPI_BINDING_DISPL_##F d[], MPI_Datatype rt ROOT_PARAM_##R,     \
                           MPI_Comm comm MG_MPI_BINDING_RQ_PARAM_##mode)                           \
    {                                                                                              \
        VECTOR_SIDES(sides, r, s, R);                                                              \
        coll(fn, ph, rc, comm, ROOT_##R, MPI_OP_NULL, sn, NULL, 0, MPI_DATATYPE_NULL, sides,       \
             places, MG_MPI_BINDING_RQ_##mode);                                                    \
    }
#define GATHERV(name, fn, F, mode) GATHERV_(name, fn, F, mode, ROOTED)
#define ALLGATHERV(name, fn, F, mode) GATHERV_(name, fn, F, mode, UNROOTED)

#define SCATTERV(name, fn, F, mode)                                                                \
    static void obs_##name(int ph, int rc, const void *sb, const MG_MPI_BINDING_COUNT_##F sn[],    \
                           const MG_MPI_BINDING_DISPL_##F d[], MPI_Datatype st, void *rb,          \
                           MG_MPI_BINDING_COUNT_##F rn, MPI_Datatype rt, int root,                 \
                           MPI_Comm comm MG_MPI_BINDING_RQ_PARAM_##mode)                           \
    {                                                                                              \
        VECTOR_SIDES(sides, s, r, ROOTED);                                                         \
        coll(fn, ph, rc, comm, root, MPI_OP_NULL, rn, NULL, 0, MPI_DATATYPE_NULL, sides, places,   \
             MG_MPI_BINDING_RQ_##mode);                                                            \
    }

/* Alltoallv, Alltoallw (TYPES: one datatype, or a vector of them, PER 1; REF: & for one): no
 * single count; a send side of MPI_IN_PLACE is not read. */
#define ALLTOALL_VECTORS(name, fn, F, mode, TYPES, REF, PER)                                       \
    static void obs_##name(int ph, int rc, const void *sb, const MG_MPI_BINDING_COUNT_##F sn[],    \
                           const MG_MPI_BINDING_DISPL_##F sd[], TYPES st, void *rb,                \
                           const MG_MPI_BINDING_COUNT_##F rn[],                                    \
                           const MG_MPI_BINDING_DISPL_##F rd[], TYPES rt,                          \
                           MPI_Comm comm MG_MPI_BINDING_RQ_PARAM_##mode)                           \
    {                                                                                              \
        int block_, peers_ = vector_counts(comm, NO_ROOT, &block_);                                \
        capture_args_typed sides[2] = {                                                            \
            {sn, sizeof *sn, REF st, sb == MPI_IN_PLACE ? 0 : peers_, PER},                        \
            {rn, sizeof *rn, REF rt, peers_, PER}};                                                \
        capture_args_place places[2] = {{sb, sd, sizeof *sd}, {rb, rd, sizeof *rd}};               \
        coll(fn, ph, rc, comm, NO_ROOT, MPI_OP_NULL, 0, NULL, 0, MPI_DATATYPE_NULL, sides, places, \
             MG_MPI_BINDING_RQ_##mode);                                                            \
    }
#define ALLTOALLV(name, fn, F, mode) ALLTOALL_VECTORS(name, fn, F, mode, MPI_Datatype, &, 0)
#define ALLTOALLW(name, fn, F, mode) ALLTOALL_VECTORS(name, fn, F, mode, const MPI_Datatype *, , 1)

#define REDUCE(name, fn, F, mode)                                                                  \
    static void obs_##name(int ph, int rc, const void *sb, void *rb, MG_MPI_BINDING_COUNT_##F n,   \
                           MPI_Datatype t, MPI_Op op, int root,                                    \
                           MPI_Comm comm MG_MPI_BINDING_RQ_PARAM_##mode)                           \
    {                                                                                              \
        (void)rb;                                                                                  \
        coll(fn, ph, rc, comm, root, op, n, sb, n, t, NULL, NULL, MG_MPI_BINDING_RQ_##mode);       \
    }

/* Allreduce, Reduce_scatter_block, Scan, Exscan (N: a count, BLOCK its block, SIDES NULL) and
 * Reduce_scatter (a vector of the local group's counts, no common block: SIDES its datatype
 * argument against them, which covers the send side's sum too): the record carries no count. */
#define REDUCTION_(name, fn, mode, N, BLOCK, TYPE, SIDES)                                          \
    static void obs_##name(int ph, int rc, const void *sb, void *rb, N n, MPI_Datatype t,          \
                           MPI_Op op, MPI_Comm comm MG_MPI_BINDING_RQ_PARAM_##mode)                \
    {                                                                                              \
        (void)rb, (void)t, (void)n;                                                                \
        coll(fn, ph, rc, comm, NO_ROOT, op, 0, sb, BLOCK, TYPE, SIDES, NULL,                       \
             MG_MPI_BINDING_RQ_##mode);                                                            \
    }
#define REDUCTION(name, fn, F, mode)                                                               \
    REDUCTION_(name, fn, mode, MG_MPI_BINDING_COUNT_##F, n, t, NULL)
#define REDUCE_SCATTER(name, fn, F, mode)                                                          \
    REDUCTION_(name, fn, mode, const MG_MPI_BINDING_COUNT_##F *, 0, MPI_DATATYPE_NULL,             \
               ((capture_args_typed[2]){{n, sizeof *n, &t, local_size(comm), 0}}))

/* The collectives of family F, named with suffix c (empty, or _c): E(shape, name, fn, F, mode). */
#define COLLECTIVES(E, F, c)                                                                       \
    E(BCAST, Bcast##c, CHECK_EVENT_FN_BCAST, F, B)                                                 \
    E(BCAST, Ibcast##c, CHECK_EVENT_FN_IBCAST, F, NB)                                              \
    E(GATHER, Gather##c, CHECK_EVENT_FN_GATHER, F, B)                                              \
    E(GATHER, Igather##c, CHECK_EVENT_FN_IGATHER, F, NB)                                           \
    E(GATHERV, Gatherv##c, CHECK_EVENT_FN_GATHERV, F, B)                                           \
    E(GATHERV, Igatherv##c, CHECK_EVENT_FN_IGATHERV, F, NB)                                        \
    E(SCATTER, Scatter##c, CHECK_EVENT_FN_SCATTER, F, B)                                           \
    E(SCATTER, Iscatter##c, CHECK_EVENT_FN_ISCATTER, F, NB)                                        \
    E(SCATTERV, Scatterv##c, CHECK_EVENT_FN_SCATTERV, F, B)                                        \
    E(SCATTERV, Iscatterv##c, CHECK_EVENT_FN_ISCATTERV, F, NB)                                     \
    E(SYMMETRIC, Allgather##c, CHECK_EVENT_FN_ALLGATHER, F, B)                                     \
    E(SYMMETRIC, Iallgather##c, CHECK_EVENT_FN_IALLGATHER, F, NB)                                  \
    E(ALLGATHERV, Allgatherv##c, CHECK_EVENT_FN_ALLGATHERV, F, B)                                  \
    E(ALLGATHERV, Iallgatherv##c, CHECK_EVENT_FN_IALLGATHERV, F, NB)                               \
    E(SYMMETRIC, Alltoall##c, CHECK_EVENT_FN_ALLTOALL, F, B)                                       \
    E(SYMMETRIC, Ialltoall##c, CHECK_EVENT_FN_IALLTOALL, F, NB)                                    \
    E(ALLTOALLV, Alltoallv##c, CHECK_EVENT_FN_ALLTOALLV, F, B)                                     \
    E(ALLTOALLV, Ialltoallv##c, CHECK_EVENT_FN_IALLTOALLV, F, NB)                                  \
    E(ALLTOALLW, Alltoallw##c, CHECK_EVENT_FN_ALLTOALLW, F, B)                                     \
    E(ALLTOALLW, Ialltoallw##c, CHECK_EVENT_FN_IALLTOALLW, F, NB)                                  \
    E(REDUCE, Reduce##c, CHECK_EVENT_FN_REDUCE, F, B)                                              \
    E(REDUCE, Ireduce##c, CHECK_EVENT_FN_IREDUCE, F, NB)                                           \
    E(REDUCTION, Allreduce##c, CHECK_EVENT_FN_ALLREDUCE, F, B)                                     \
    E(REDUCTION, Iallreduce##c, CHECK_EVENT_FN_IALLREDUCE, F, NB)                                  \
    E(REDUCE_SCATTER, Reduce_scatter##c, CHECK_EVENT_FN_REDUCE_SCATTER, F, B)                      \
    E(REDUCE_SCATTER, Ireduce_scatter##c, CHECK_EVENT_FN_IREDUCE_SCATTER, F, NB)                   \
    E(REDUCTION, Reduce_scatter_block##c, CHECK_EVENT_FN_REDUCE_SCATTER_BLOCK, F, B)               \
    E(REDUCTION, Ireduce_scatter_block##c, CHECK_EVENT_FN_IREDUCE_SCATTER_BLOCK, F, NB)            \
    E(REDUCTION, Scan##c, CHECK_EVENT_FN_SCAN, F, B)                                               \
    E(REDUCTION, Iscan##c, CHECK_EVENT_FN_ISCAN, F, NB)                                            \
    E(REDUCTION, Exscan##c, CHECK_EVENT_FN_EXSCAN, F, B)                                           \
    E(REDUCTION, Iexscan##c, CHECK_EVENT_FN_IEXSCAN, F, NB)

#define DEFINE(shape, name, fn, F, mode) shape(name, fn, F, mode)
#define INSTALL(shape, name, fn, F, mode) CAPTURE_CALL_OBSERVE(name)

COLLECTIVES(DEFINE, INT, )
#if MG_MPI_LARGE_COUNT
COLLECTIVES(DEFINE, LARGE, _c)
#endif

static void obs_Op_create(int phase, int rc, MPI_User_function *fn, int commute, MPI_Op *op)
{
    (void)fn, (void)commute;
    if (phase == INTERPOSE_HOOKS_CALL_EXIT && rc == MPI_SUCCESS) {
        capture_emit_op_bind(*op);
        capture_handles_made(CHECK_EVENT_HANDLE_OP, op, sizeof *op, MG_FN_Op_create);
    }
}

void capture_coll_install(void)
{
    COLLECTIVES(INSTALL, INT, )
#if MG_MPI_LARGE_COUNT
    COLLECTIVES(INSTALL, LARGE, _c)
#endif
    CAPTURE_CALL_OBSERVE(Barrier)
    CAPTURE_CALL_OBSERVE(Ibarrier)
    CAPTURE_CALL_OBSERVE(Op_create)
}
