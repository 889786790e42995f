/* The capture module's neighbourhood collectives (capture_call.h), blocking and nonblocking, all
 * observed: collectives on their communicator (every member calls them, MPI 3.1 §7.6), so that
 * the detector matches them and finds a member that skips one as it does for any collective. Their
 * arguments are checked before MPI sees them: a communicator without a process topology (which MPI
 * refuses with MPI_ERR_TOPOLOGY), and each datatype argument against the count of every neighbour
 * it describes. The records carry no message signature: only two neighbours' sides must agree,
 * and members may pass different counts (docs/check.md, "Limits"). */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "capture_neighbor.h"

#include "capture_args.h"
#include "capture_call.h"
#include "capture_emit.h"
#include "mpi_binding.h"
#include "topology_degrees.h"

/* What a side's n says before neighbor sets it: one count for every neighbour, or a count per
 * neighbour. */
enum { ONE = 1, EACH = -1 };

/* A neighbourhood collective's records (fn, mg: its ids). count: the send side's one count (0 for
 * the V and W forms), with buf and type its block for the argument checks (NULL and
 * MPI_DATATYPE_NULL where every neighbour has its own); sides: the send and receive datatype
 * arguments against the counts of the rank's neighbours (n ONE or EACH, set here from the rank's
 * out- or in-degree: a side towards no neighbour is not significant), with their blocks where
 * places says they are. A communicator the module
 * never saw made (a graph topology's) is not captured, and said so once. */
static void neighbor(uint16_t fn, mpi_function_ids_fn mg, int phase, int rc, MPI_Comm comm,
                     const void *buf, int64_t count, MPI_Datatype type, capture_args_typed sides[2],
                     const capture_args_place places[2], MPI_Request *request)
{
    const capture_comm *c = capture_comm_find(comm);
    int in = 0, out = 0;
    /* an intercommunicator has no topology */
    int topology = c && !c->remote_size && topology_degrees(comm, &in, &out);
    sides[0].n = sides[0].n == EACH ? out : out > 0;
    sides[1].n = sides[1].n == EACH ? in : in > 0;
    usage_args_problem p = c && !topology ? USAGE_ARGS_TOPOLOGY_MISSING : USAGE_ARGS_OK;
    int rejected = capture_args_reject(fn, phase, c, p, CHECK_EVENT_NO_ROOT, 0, count) ||
                   capture_args_coll(fn, phase, comm, c, 0, CHECK_EVENT_NO_ROOT, buf, count, type,
                                     0, sides, places);
    if (rejected || !c) {
        if (request)
            capture_call_untracked(phase, rc, request);
        if (!rejected && phase == INTERPOSE_HOOKS_CALL_EXIT && rc == MPI_SUCCESS)
            capture_emit_unmodelled(mg);
        return;
    }
    check_event ev = capture_emit_event(fn, capture_call_kind(phase), c);
    ev.flags |= capture_call_refused(rc);
    ev.count = count;
    if (request)
        ev.request = capture_call_request(phase, rc, request, c, 0);
    capture_emit(&ev);
}

/* A side's count and datatype arguments: one count per neighbour and a datatype for all (per 0)
 * or per neighbour too (per 1), or one count and one datatype. */
#define PER_NEIGHBOR(counts, types, per)                                                           \
    {                                                                                              \
        counts, sizeof *(counts), types, EACH, per                                                 \
    }
#define ONE_COUNT(count, type)                                                                     \
    {                                                                                              \
        &(count), sizeof(count), &(type), ONE, 0                                                   \
    }

/* Neighbor_allgather and Neighbor_alltoall: one block each way. */
#define REGULAR(name, Fn, mode)                                                                    \
    static void obs_##name(int ph, int rc, const void *sb, int sn, MPI_Datatype st, void *rb,      \
                           int rn, MPI_Datatype rt, MPI_Comm comm MG_MPI_BINDING_RQ_PARAM_##mode)  \
    {                                                                                              \
        (void)rb;                                                                                  \
        capture_args_typed sides[2] = {ONE_COUNT(sn, st), ONE_COUNT(rn, rt)};                      \
        capture_args_place places[2] = {{sb, NULL, 0}, {rb, NULL, 0}};                             \
        neighbor(CHECK_EVENT_FN_##Fn, MG_FN_##name, ph, rc, comm, sb, sn, st, sides, places,       \
                 MG_MPI_BINDING_RQ_##mode);                                                        \
    }
/* Neighbor_allgatherv: one block sent, a count per neighbour received. */
#define ALLGATHERV(name, Fn, mode)                                                                 \
    static void obs_##name(int ph, int rc, const void *sb, int sn, MPI_Datatype st, void *rb,      \
                           const int rn[], const int rd[], MPI_Datatype rt,                        \
                           MPI_Comm comm MG_MPI_BINDING_RQ_PARAM_##mode)                           \
    {                                                                                              \
        capture_args_typed sides[2] = {ONE_COUNT(sn, st), PER_NEIGHBOR(rn, &rt, 0)};               \
        capture_args_place places[2] = {{sb, NULL, 0}, {rb, rd, sizeof *rd}};                      \
        neighbor(CHECK_EVENT_FN_##Fn, MG_FN_##name, ph, rc, comm, sb, sn, st, sides, places,       \
                 MG_MPI_BINDING_RQ_##mode);                                                        \
    }
/* Neighbor_alltoallv (TYPES a datatype, REF &, PER 0; D the displacements' type) and
 * Neighbor_alltoallw (a datatype per neighbour: TYPES an array, REF empty, PER 1). */
#define VECTORS(name, Fn, mode, D, TYPES, REF, PER)                                                \
    static void obs_##name(int ph, int rc, const void *sb, const int sn[], const D sd[], TYPES st, \
                           void *rb, const int rn[], const D rd[], TYPES rt,                       \
                           MPI_Comm comm MG_MPI_BINDING_RQ_PARAM_##mode)                           \
    {                                                                                              \
        capture_args_typed sides[2] = {PER_NEIGHBOR(sn, REF st, PER),                              \
                                       PER_NEIGHBOR(rn, REF rt, PER)};                             \
        capture_args_place places[2] = {{sb, sd, sizeof *sd}, {rb, rd, sizeof *rd}};               \
        neighbor(CHECK_EVENT_FN_##Fn, MG_FN_##name, ph, rc, comm, NULL, 0, MPI_DATATYPE_NULL,      \
                 sides, places, MG_MPI_BINDING_RQ_##mode);                                         \
    }
#define ALLTOALLV(name, Fn, mode) VECTORS(name, Fn, mode, int, MPI_Datatype, &, 0)
#define ALLTOALLW(name, Fn, mode) VECTORS(name, Fn, mode, MPI_Aint, const MPI_Datatype *, , 1)

/* Every neighbourhood collective: E(shape, name, record function, mode). */
#define NEIGHBORHOOD(E)                                                                            \
    E(REGULAR, Neighbor_allgather, NEIGHBOR_ALLGATHER, B)                                          \
    E(REGULAR, Ineighbor_allgather, INEIGHBOR_ALLGATHER, NB)                                       \
    E(ALLGATHERV, Neighbor_allgatherv, NEIGHBOR_ALLGATHERV, B)                                     \
    E(ALLGATHERV, Ineighbor_allgatherv, INEIGHBOR_ALLGATHERV, NB)                                  \
    E(REGULAR, Neighbor_alltoall, NEIGHBOR_ALLTOALL, B)                                            \
    E(REGULAR, Ineighbor_alltoall, INEIGHBOR_ALLTOALL, NB)                                         \
    E(ALLTOALLV, Neighbor_alltoallv, NEIGHBOR_ALLTOALLV, B)                                        \
    E(ALLTOALLV, Ineighbor_alltoallv, INEIGHBOR_ALLTOALLV, NB)                                     \
    E(ALLTOALLW, Neighbor_alltoallw, NEIGHBOR_ALLTOALLW, B)                                        \
    E(ALLTOALLW, Ineighbor_alltoallw, INEIGHBOR_ALLTOALLW, NB)

#define DEFINE(shape, name, Fn, mode) shape(name, Fn, mode)
#define INSTALL(shape, name, Fn, mode) CAPTURE_CALL_OBSERVE(name)

NEIGHBORHOOD(DEFINE)

void capture_neighbor_install(void)
{
    NEIGHBORHOOD(INSTALL)
}
