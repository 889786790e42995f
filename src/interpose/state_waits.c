/* Observers of the blocking calls that publish what each waits for (state_waits.h). Each one is a
 * few relaxed stores on entry and nothing on exit: no syscall, no lock, no comparison, so that the
 * shm sampler's overhead target holds (docs/hang-measurements.md "Overhead"). Ranks go out as the
 * communicator's with its handle as an id; the reader translates them (rank_state.h). Only the
 * creation of a communicator, rare, asks MPI whether its ranks are the world's. */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "interpose_hooks.h"
#include "handle_bits.h"
#include "state_waits.h"

#include <stdbool.h>
#include <stddef.h>

#pragma weak PMPI_Comm_compare

static rank_state *state;

static uint64_t comm_id(MPI_Comm comm)
{
    return mg_handle_bits(&comm, sizeof comm);
}

static int32_t rank_or_any(int rank)
{
    return rank == MPI_ANY_SOURCE ? RANK_STATE_PEER_ANY : rank;
}

static void publish(int phase, uint32_t on, int rank, int tag, MPI_Comm comm)
{
    if (phase != INTERPOSE_HOOKS_CALL_ENTER)
        return;
    atomic_store_explicit(&state->wait_peer, rank_or_any(rank), memory_order_relaxed);
    atomic_store_explicit(&state->wait_tag, tag == MPI_ANY_TAG ? RANK_STATE_TAG_ANY : tag,
                          memory_order_relaxed);
    atomic_store_explicit(&state->wait_comm, comm_id(comm), memory_order_relaxed);
    atomic_store_explicit(&state->wait_on, on, memory_order_relaxed);
}

static void post(int phase, int rank, int tag, MPI_Comm comm)
{
    if (phase != INTERPOSE_HOOKS_CALL_ENTER)
        return;
    uint32_t slot = atomic_load_explicit(&state->posted, memory_order_relaxed);
    uint32_t i = slot % RANK_STATE_POSTED;
    atomic_store_explicit(&state->posted_peer[i], rank_or_any(rank), memory_order_relaxed);
    atomic_store_explicit(&state->posted_tag[i], tag == MPI_ANY_TAG ? RANK_STATE_TAG_ANY : tag,
                          memory_order_relaxed);
    atomic_store_explicit(&state->posted_comm[i], comm_id(comm), memory_order_relaxed);
    atomic_store_explicit(&state->posted, slot + 1, memory_order_relaxed);
}

/* A collective: its root when it has one (root < 0: none), else the whole communicator; the
 * epoch of MPI_COMM_WORLD's collectives moves on entry. */
static void collective(int phase, int root, MPI_Comm comm)
{
    if (phase != INTERPOSE_HOOKS_CALL_ENTER)
        return;
    if (comm == MPI_COMM_WORLD)
        atomic_store_explicit(
            &state->world_collectives,
            atomic_load_explicit(&state->world_collectives, memory_order_relaxed) + 1,
            memory_order_relaxed);
    publish(phase, root >= 0 ? RANK_STATE_WAIT_ROOT : RANK_STATE_WAIT_ALL, root, MPI_ANY_TAG, comm);
}

/* A new communicator whose ranks are the world's, in the same order, joins world_like (while
 * there is room). On exit of its constructor only; MPI_Comm_compare is local and, the per-thread
 * depth being taken, goes straight to the library. */
static void created(int phase, int rc, MPI_Comm comm)
{
    uint32_t n = atomic_load_explicit(&state->world_like_count, memory_order_relaxed);
    int same = MPI_UNEQUAL;
    if (phase != INTERPOSE_HOOKS_CALL_EXIT || rc != MPI_SUCCESS || comm == MPI_COMM_NULL ||
        n >= RANK_STATE_WORLD_LIKE || PMPI_Comm_compare(comm, MPI_COMM_WORLD, &same) != 0 ||
        (same != MPI_IDENT && same != MPI_CONGRUENT))
        return;
    atomic_store_explicit(&state->world_like[n], comm_id(comm), memory_order_relaxed);
    atomic_store_explicit(&state->world_like_count, n + 1, memory_order_release);
}

static void obs_Comm_dup(int phase, int rc, MPI_Comm comm, MPI_Comm *newcomm)
{
    (void)comm;
    created(phase, rc, *newcomm);
}

static void obs_Comm_split(int phase, int rc, MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    (void)comm, (void)color, (void)key;
    created(phase, rc, *newcomm);
}

static void obs_Comm_create(int phase, int rc, MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    (void)comm, (void)group;
    created(phase, rc, *newcomm);
}

static void obs_Cart_create(int phase, int rc, MPI_Comm comm, int ndims, const int dims[],
                            const int periods[], int reorder, MPI_Comm *cart)
{
    (void)comm, (void)ndims, (void)dims, (void)periods, (void)reorder;
    created(phase, rc, *cart);
}

#define BLOCKING_SEND(Name)                                                                        \
    static void obs_##Name(int phase, int rc, const void *buf, int count, MPI_Datatype dt,         \
                           int dest, int tag, MPI_Comm comm)                                       \
    {                                                                                              \
        (void)rc, (void)buf, (void)count, (void)dt;                                                \
        publish(phase, RANK_STATE_WAIT_PEER, dest, tag, comm);                                     \
    }
BLOCKING_SEND(Send)
BLOCKING_SEND(Ssend)
BLOCKING_SEND(Bsend)
BLOCKING_SEND(Rsend)

#define NONBLOCKING(Name, buf_type)                                                                \
    static void obs_##Name(int phase, int rc, buf_type buf, int count, MPI_Datatype dt, int peer,  \
                           int tag, MPI_Comm comm, MPI_Request *request)                           \
    {                                                                                              \
        (void)rc, (void)buf, (void)count, (void)dt, (void)request;                                 \
        post(phase, peer, tag, comm);                                                              \
    }
NONBLOCKING(Isend, const void *)
NONBLOCKING(Issend, const void *)
NONBLOCKING(Irecv, void *)

static void obs_Recv(int phase, int rc, void *buf, int count, MPI_Datatype dt, int source, int tag,
                     MPI_Comm comm, MPI_Status *status)
{
    (void)rc, (void)buf, (void)count, (void)dt, (void)status;
    publish(phase, RANK_STATE_WAIT_PEER, source, tag, comm);
}

/* The receive half: a send of a sendrecv that blocks is the other side's receive not posted, seen
 * from that side. */
static void obs_Sendrecv(int phase, int rc, const void *sbuf, int scount, MPI_Datatype stype,
                         int dest, int stag, void *rbuf, int rcount, MPI_Datatype rtype, int source,
                         int rtag, MPI_Comm comm, MPI_Status *status)
{
    (void)rc, (void)sbuf, (void)scount, (void)stype, (void)dest, (void)stag, (void)rbuf;
    (void)rcount, (void)rtype, (void)status;
    publish(phase, RANK_STATE_WAIT_PEER, source, rtag, comm);
}

static void obs_Probe(int phase, int rc, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    (void)rc, (void)status;
    publish(phase, RANK_STATE_WAIT_PEER, source, tag, comm);
}

static void obs_Barrier(int phase, int rc, MPI_Comm comm)
{
    (void)rc;
    collective(phase, -1, comm);
}

static void obs_Bcast(int phase, int rc, void *buf, int count, MPI_Datatype dt, int root,
                      MPI_Comm comm)
{
    (void)rc, (void)buf, (void)count, (void)dt;
    collective(phase, root, comm);
}

static void obs_Reduce(int phase, int rc, const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                       MPI_Op op, int root, MPI_Comm comm)
{
    (void)rc, (void)sbuf, (void)rbuf, (void)count, (void)dt, (void)op;
    collective(phase, root, comm);
}

#define REDUCTION(Name)                                                                            \
    static void obs_##Name(int phase, int rc, const void *sbuf, void *rbuf, int count,             \
                           MPI_Datatype dt, MPI_Op op, MPI_Comm comm)                              \
    {                                                                                              \
        (void)rc, (void)sbuf, (void)rbuf, (void)count, (void)dt, (void)op;                         \
        collective(phase, -1, comm);                                                               \
    }
REDUCTION(Allreduce)
REDUCTION(Scan)
REDUCTION(Exscan)

#define ROOTED(Name)                                                                               \
    static void obs_##Name(int phase, int rc, const void *sbuf, int scount, MPI_Datatype stype,    \
                           void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)    \
    {                                                                                              \
        (void)rc, (void)sbuf, (void)scount, (void)stype, (void)rbuf, (void)rcount, (void)rtype;    \
        collective(phase, root, comm);                                                             \
    }
ROOTED(Gather)
ROOTED(Scatter)

#define TO_ALL(Name)                                                                               \
    static void obs_##Name(int phase, int rc, const void *sbuf, int scount, MPI_Datatype stype,    \
                           void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm)              \
    {                                                                                              \
        (void)rc, (void)sbuf, (void)scount, (void)stype, (void)rbuf, (void)rcount, (void)rtype;    \
        collective(phase, -1, comm);                                                               \
    }
TO_ALL(Allgather)
TO_ALL(Alltoall)

/* One observer a line: clang-format would fold the list. */
/* clang-format off */
#define EACH_OBSERVER(X) \
    X(Comm_dup) \
    X(Comm_split) \
    X(Comm_create) \
    X(Cart_create) \
    X(Send) \
    X(Ssend) \
    X(Bsend) \
    X(Rsend) \
    X(Isend) \
    X(Issend) \
    X(Irecv) \
    X(Recv) \
    X(Sendrecv) \
    X(Probe) \
    X(Barrier) \
    X(Bcast) \
    X(Reduce) \
    X(Allreduce) \
    X(Scan) \
    X(Exscan) \
    X(Gather) \
    X(Scatter) \
    X(Allgather) \
    X(Alltoall)
/* clang-format on */

/* The completion calls wait for their requests, the polling ones (MPI_Test*) as a wait does, one
 * call at a time. Published by the state module's enter hook rather than by observers: the two
 * calls of an observer (with the call's arguments) were a third of the state module's
 * instructions on hpcc's MPI_Testany (bench/apps/cost_bound.sh), and no argument is needed. */
bool state_waits_on_requests(mpi_function_ids_fn fn)
{
    switch (fn) {
    case MG_FN_Wait:
    case MG_FN_Waitall:
    case MG_FN_Waitany:
    case MG_FN_Waitsome:
    case MG_FN_Test:
    case MG_FN_Testall:
    case MG_FN_Testany:
    case MG_FN_Testsome:
        return true;
    default:
        return false;
    }
}

void state_waits_install(rank_state *s)
{
    state = s;
    atomic_store_explicit(&s->world_like[0], comm_id(MPI_COMM_WORLD), memory_order_relaxed);
    atomic_store_explicit(&s->world_like_count, 1, memory_order_release);
#define INSTALL(Name)                                                                              \
    if (!mg_observe_##Name)                                                                        \
        mg_observe_##Name = obs_##Name;
    EACH_OBSERVER(INSTALL)
#undef INSTALL
}

void state_waits_remove(void)
{
#define REMOVE(Name)                                                                               \
    if (mg_observe_##Name == obs_##Name)                                                           \
        mg_observe_##Name = NULL;
    EACH_OBSERVER(REMOVE)
#undef REMOVE
}
