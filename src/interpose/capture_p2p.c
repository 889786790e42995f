/* The capture module's point-to-point calls (capture_call.h): sends, nonblocking and persistent
 * initiations (observed), and receives and probes, which replace the PMPI call so that a status
 * the application ignores still tells the detector which send a wildcard matched
 * (docs/design/check-detector.md §1, docs/design/check.md "How it is built"). The MPI-4 large-count
 * forms (MPI_Send_c, ...) where mpi.h declares them, with the same hooks and records. */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "capture_p2p.h"

#include "capture_args.h"
#include "capture_buffers.h"
#include "capture_call.h"
#include "capture_emit.h"
#include "capture_types.h"
#include "interpose_next.h"
#include "mpi_binding.h"

static int32_t tag_of(int tag)
{
    return tag == MPI_ANY_TAG ? CHECK_EVENT_ANY_TAG : tag;
}

/* count: an int of the int binding or an MPI_Count of the `_c` one, the same record for both (the
 * record's count is 64-bit), so the detector matches MPI_Send_c with MPI_Recv. dt: the message's
 * datatype (MPI_DATATYPE_NULL for a probe). */
static void emit_p2p(uint16_t fn, int phase, int rc, const capture_comm *c, int64_t count,
                     MPI_Datatype dt, int peer, int tag, uint64_t request)
{
    check_event ev = capture_emit_event(fn, capture_call_kind(phase), c);
    ev.flags |= capture_call_refused(rc);
    ev.peer = capture_comm_world(c, peer);
    ev.tag = tag_of(tag);
    ev.count = count;
    ev.request = request;
    capture_types_describe(&ev, dt, count);
    capture_emit(&ev);
}

static void emit_status_exit(check_event *ev, const capture_comm *c, int rc, const MPI_Status *st)
{
    check_event_status s = capture_call_status(c, 0, st);
    if (capture_call_matched(rc)) {
        ev->n_statuses = 1;
        ev->statuses = &s;
    } else {
        ev->flags |= capture_call_refused(rc); /* a truncated receive matched its message */
    }
    capture_emit(ev);
}

/* The record describes the send side's message (dt); the receive side's is not compared. */
static void sendrecv_enter(uint16_t fn, const capture_comm *c, int64_t count, MPI_Datatype dt,
                           int dest, int stag, int source, int rtag)
{
    check_event ev = capture_emit_event(fn, CHECK_EVENT_EV_ENTER, c);
    ev.peer = capture_comm_world(c, dest);
    ev.tag = tag_of(stag);
    ev.peer2 = capture_comm_world(c, source);
    ev.tag2 = tag_of(rtag);
    ev.count = count;
    capture_types_describe(&ev, dt, count);
    capture_emit(&ev);
}

/* A request's buffer is watched while it is in flight (capture_buffers.h). */
static void nonblocking(uint16_t fn, int phase, int rc, const capture_comm *c, const void *buf,
                        int64_t count, MPI_Datatype dt, int peer, int tag, MPI_Request *request,
                        int persistent, int role)
{
    uint64_t id = capture_call_request(phase, rc, request, c, persistent);
    emit_p2p(fn, phase, rc, c, count, dt, peer, tag, id);
    if (phase == INTERPOSE_HOOKS_CALL_EXIT && rc == MPI_SUCCESS)
        capture_buffers_post(id, fn, c, peer, buf, count, dt, role == CAPTURE_ARGS_FROM,
                             persistent);
}

/* ---- the hooks of the calls with a `_c` form: one text per argument shape (mpi_binding.h),
 * name is MPI's without the prefix (Send, Send_c), fn the record's function, F the family ---- */

#define SEND(name, fn, F)                                                                          \
    static void obs_##name(int phase, int rc, const void *buf, MG_MPI_BINDING_COUNT_##F count,     \
                           MPI_Datatype dt, int dest, int tag, MPI_Comm comm)                      \
    {                                                                                              \
        const capture_comm *c = capture_comm_find(comm);                                           \
        if (capture_args_p2p(fn, phase, comm, c, buf, count, dt, dest, tag, CAPTURE_ARGS_TO) ||    \
            !c)                                                                                    \
            return;                                                                                \
        emit_p2p(fn, phase, rc, c, count, dt, dest, tag, 0);                                       \
        if (phase == INTERPOSE_HOOKS_CALL_ENTER)                                                   \
            capture_buffers_used(fn, c, dest, buf, count, dt, 0);                                  \
    }

/* Nonblocking sends and receives, and the persistent inits (a request id the table keeps); ROLE:
 * the peer is the destination (CAPTURE_ARGS_TO) or the source (CAPTURE_ARGS_FROM). */
#define NONBLOCKING(name, fn, F, BUF, PERSISTENT, ROLE)                                            \
    static void obs_##name(int phase, int rc, BUF buf, MG_MPI_BINDING_COUNT_##F count,             \
                           MPI_Datatype dt, int peer, int tag, MPI_Comm comm,                      \
                           MPI_Request *request)                                                   \
    {                                                                                              \
        const capture_comm *c = capture_comm_find(comm);                                           \
        if (!capture_args_p2p(fn, phase, comm, c, buf, count, dt, peer, tag, ROLE) && c)           \
            nonblocking(fn, phase, rc, c, buf, count, dt, peer, tag, request, PERSISTENT, ROLE);   \
        else                                                                                       \
            capture_call_untracked(phase, rc, request);                                            \
    }
#define ISEND(name, fn, F) NONBLOCKING(name, fn, F, const void *, 0, CAPTURE_ARGS_TO)
#define IRECV(name, fn, F) NONBLOCKING(name, fn, F, void *, 0, CAPTURE_ARGS_FROM)
#define SEND_INIT(name, fn, F) NONBLOCKING(name, fn, F, const void *, 1, CAPTURE_ARGS_TO)
#define RECV_INIT(name, fn, F) NONBLOCKING(name, fn, F, void *, 1, CAPTURE_ARGS_FROM)

/* The receives replace the PMPI call: a status the application ignores is swapped for ours. */
#define RECV(name, fn, F)                                                                          \
    static int impl_##name(void *buf, MG_MPI_BINDING_COUNT_##F count, MPI_Datatype dt, int source, \
                           int tag, MPI_Comm comm, MPI_Status *status)                             \
    {                                                                                              \
        const capture_comm *c = capture_comm_find(comm);                                           \
        if (capture_args_p2p(fn, INTERPOSE_HOOKS_CALL_ENTER, comm, c, buf, count, dt, source, tag, \
                             CAPTURE_ARGS_FROM) ||                                                 \
            !c)                                                                                    \
            return mg_next_##name(buf, count, dt, source, tag, comm, status);                      \
        MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;                     \
        emit_p2p(fn, INTERPOSE_HOOKS_CALL_ENTER, MPI_SUCCESS, c, count, dt, source, tag, 0);       \
        capture_buffers_used(fn, c, source, buf, count, dt, 1);                                    \
        int rc = mg_next_##name(buf, count, dt, source, tag, comm, st);                            \
        check_event ev = capture_emit_event(fn, CHECK_EVENT_EV_EXIT, c);                           \
        emit_status_exit(&ev, c, rc, st);                                                          \
        return rc;                                                                                 \
    }

#define SENDRECV(name, fn, F)                                                                      \
    static int impl_##name(const void *sb, MG_MPI_BINDING_COUNT_##F sn, MPI_Datatype st_,          \
                           int dest, int stag, void *rb, MG_MPI_BINDING_COUNT_##F rn,              \
                           MPI_Datatype rt, int source, int rtag, MPI_Comm comm,                   \
                           MPI_Status *status)                                                     \
    {                                                                                              \
        const capture_comm *c = capture_comm_find(comm);                                           \
        if (capture_args_p2p(fn, INTERPOSE_HOOKS_CALL_ENTER, comm, c, sb, sn, st_, dest, stag,     \
                             CAPTURE_ARGS_TO) ||                                                   \
            capture_args_p2p(fn, INTERPOSE_HOOKS_CALL_ENTER, comm, c, rb, rn, rt, source, rtag,    \
                             CAPTURE_ARGS_FROM) ||                                                 \
            !c)                                                                                    \
            return mg_next_##name(sb, sn, st_, dest, stag, rb, rn, rt, source, rtag, comm,         \
                                  status);                                                         \
        MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;                     \
        sendrecv_enter(fn, c, sn, st_, dest, stag, source, rtag);                                  \
        capture_buffers_used(fn, c, dest, sb, sn, st_, 0);                                         \
        capture_buffers_used(fn, c, source, rb, rn, rt, 1);                                        \
        int rc = mg_next_##name(sb, sn, st_, dest, stag, rb, rn, rt, source, rtag, comm, st);      \
        check_event ev = capture_emit_event(fn, CHECK_EVENT_EV_EXIT, c);                           \
        emit_status_exit(&ev, c, rc, st);                                                          \
        return rc;                                                                                 \
    }

#define SENDRECV_REPLACE(name, fn, F)                                                              \
    static int impl_##name(void *buf, MG_MPI_BINDING_COUNT_##F count, MPI_Datatype dt, int dest,   \
                           int stag, int source, int rtag, MPI_Comm comm, MPI_Status *status)      \
    {                                                                                              \
        const capture_comm *c = capture_comm_find(comm);                                           \
        if (capture_args_p2p(fn, INTERPOSE_HOOKS_CALL_ENTER, comm, c, buf, count, dt, dest, stag,  \
                             CAPTURE_ARGS_TO) ||                                                   \
            capture_args_p2p(fn, INTERPOSE_HOOKS_CALL_ENTER, comm, c, buf, count, dt, source,      \
                             rtag, CAPTURE_ARGS_FROM) ||                                           \
            !c)                                                                                    \
            return mg_next_##name(buf, count, dt, dest, stag, source, rtag, comm, status);         \
        MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;                     \
        sendrecv_enter(fn, c, count, dt, dest, stag, source, rtag);                                \
        capture_buffers_used(fn, c, source, buf, count, dt, 1);                                    \
        int rc = mg_next_##name(buf, count, dt, dest, stag, source, rtag, comm, st);               \
        check_event ev = capture_emit_event(fn, CHECK_EVENT_EV_EXIT, c);                           \
        emit_status_exit(&ev, c, rc, st);                                                          \
        return rc;                                                                                 \
    }

#define MRECV(name, fn, F)                                                                         \
    static int impl_##name(void *buf, MG_MPI_BINDING_COUNT_##F count, MPI_Datatype dt,             \
                           MPI_Message *message, MPI_Status *status)                               \
    {                                                                                              \
        if (capture_args_mrecv(fn, INTERPOSE_HOOKS_CALL_ENTER, buf, count, dt, message))           \
            return mg_next_##name(buf, count, dt, message, status);                                \
        MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;                     \
        check_event ev = capture_emit_event(fn, CHECK_EVENT_EV_ENTER, NULL);                       \
        ev.aux = capture_emit_message_take(*message);                                              \
        ev.count = count;                                                                          \
        capture_types_describe(&ev, dt, count);                                                    \
        capture_emit(&ev);                                                                         \
        int rc = mg_next_##name(buf, count, dt, message, st);                                      \
        ev = capture_emit_event(fn, CHECK_EVENT_EV_EXIT, NULL);                                    \
        emit_status_exit(&ev, NULL, rc, st);                                                       \
        return rc;                                                                                 \
    }

/* The exit finds the message handle set to MPI_MESSAGE_NULL: the entry's verdict stands. */
#define IMRECV(name, fn, F)                                                                        \
    static void obs_##name(int phase, int rc, void *buf, MG_MPI_BINDING_COUNT_##F count,           \
                           MPI_Datatype dt, MPI_Message *message, MPI_Request *request)            \
    {                                                                                              \
        static int rejected;                                                                       \
        if (phase == INTERPOSE_HOOKS_CALL_ENTER)                                                   \
            rejected = capture_args_mrecv(fn, phase, buf, count, dt, message);                     \
        if (rejected) {                                                                            \
            capture_call_untracked(phase, rc, request);                                            \
            return;                                                                                \
        }                                                                                          \
        check_event ev = capture_emit_event(fn, capture_call_kind(phase), NULL);                   \
        ev.request = capture_call_request(phase, rc, request, NULL, 0);                            \
        if (phase == INTERPOSE_HOOKS_CALL_ENTER)                                                   \
            ev.aux = capture_emit_message_take(*message);                                          \
        ev.count = count;                                                                          \
        capture_types_describe(&ev, dt, count);                                                    \
        capture_emit(&ev);                                                                         \
    }

/* Which hook a shape installs: an observer, or a replacement of the PMPI call. */
#define HOOK_SEND OBSERVE
#define HOOK_ISEND OBSERVE
#define HOOK_IRECV OBSERVE
#define HOOK_SEND_INIT OBSERVE
#define HOOK_RECV_INIT OBSERVE
#define HOOK_IMRECV OBSERVE
#define HOOK_RECV REPLACE
#define HOOK_SENDRECV REPLACE
#define HOOK_SENDRECV_REPLACE REPLACE
#define HOOK_MRECV REPLACE

/* The calls of family F, named with suffix c (empty, or _c): E(shape, name, fn, F) for each. */
#define P2P_CALLS(E, F, c)                                                                         \
    E(SEND, Send##c, CHECK_EVENT_FN_SEND, F)                                                       \
    E(SEND, Bsend##c, CHECK_EVENT_FN_BSEND, F)                                                     \
    E(SEND, Ssend##c, CHECK_EVENT_FN_SSEND, F)                                                     \
    E(SEND, Rsend##c, CHECK_EVENT_FN_RSEND, F)                                                     \
    E(ISEND, Isend##c, CHECK_EVENT_FN_ISEND, F)                                                    \
    E(ISEND, Ibsend##c, CHECK_EVENT_FN_IBSEND, F)                                                  \
    E(ISEND, Issend##c, CHECK_EVENT_FN_ISSEND, F)                                                  \
    E(ISEND, Irsend##c, CHECK_EVENT_FN_IRSEND, F)                                                  \
    E(IRECV, Irecv##c, CHECK_EVENT_FN_IRECV, F)                                                    \
    E(SEND_INIT, Send_init##c, CHECK_EVENT_FN_SEND_INIT, F)                                        \
    E(SEND_INIT, Bsend_init##c, CHECK_EVENT_FN_BSEND_INIT, F)                                      \
    E(SEND_INIT, Ssend_init##c, CHECK_EVENT_FN_SSEND_INIT, F)                                      \
    E(SEND_INIT, Rsend_init##c, CHECK_EVENT_FN_RSEND_INIT, F)                                      \
    E(RECV_INIT, Recv_init##c, CHECK_EVENT_FN_RECV_INIT, F)                                        \
    E(IMRECV, Imrecv##c, CHECK_EVENT_FN_IMRECV, F)                                                 \
    E(RECV, Recv##c, CHECK_EVENT_FN_RECV, F)                                                       \
    E(SENDRECV, Sendrecv##c, CHECK_EVENT_FN_SENDRECV, F)                                           \
    E(SENDRECV_REPLACE, Sendrecv_replace##c, CHECK_EVENT_FN_SENDRECV_REPLACE, F)                   \
    E(MRECV, Mrecv##c, CHECK_EVENT_FN_MRECV, F)

#define DEFINE(shape, name, fn, F) shape(name, fn, F)
#define INSTALL(shape, name, fn, F) INSTALL_(HOOK_##shape, name)
#define INSTALL_(hook, name) INSTALL__(hook, name)
#define INSTALL__(hook, name) CAPTURE_CALL_##hook(name)

P2P_CALLS(DEFINE, INT, )
#if MG_MPI_LARGE_COUNT
P2P_CALLS(DEFINE, LARGE, _c)
#endif

/* ---- probes (no `_c` form): they replace the PMPI call for the status ---- */

/* A probe's arguments, checked as a receive's (no message). */
static int probe_rejected(uint16_t fn, MPI_Comm comm, const capture_comm *c, int source, int tag)
{
    return capture_args_p2p(fn, INTERPOSE_HOOKS_CALL_ENTER, comm, c, NULL, 0, MPI_DATATYPE_NULL,
                            source, tag, CAPTURE_ARGS_FROM) ||
           !c;
}

static int impl_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    const capture_comm *c = capture_comm_find(comm);
    if (probe_rejected(CHECK_EVENT_FN_PROBE, comm, c, source, tag))
        return mg_next_Probe(source, tag, comm, status);
    MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
    emit_p2p(CHECK_EVENT_FN_PROBE, INTERPOSE_HOOKS_CALL_ENTER, MPI_SUCCESS, c, 0, MPI_DATATYPE_NULL,
             source, tag, 0);
    int rc = mg_next_Probe(source, tag, comm, st);
    check_event ev = capture_emit_event(CHECK_EVENT_FN_PROBE, CHECK_EVENT_EV_EXIT, c);
    emit_status_exit(&ev, c, rc, st);
    return rc;
}

static int impl_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    const capture_comm *c = capture_comm_find(comm);
    if (probe_rejected(CHECK_EVENT_FN_MPROBE, comm, c, source, tag))
        return mg_next_Mprobe(source, tag, comm, message, status);
    MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
    emit_p2p(CHECK_EVENT_FN_MPROBE, INTERPOSE_HOOKS_CALL_ENTER, MPI_SUCCESS, c, 0,
             MPI_DATATYPE_NULL, source, tag, 0);
    int rc = mg_next_Mprobe(source, tag, comm, message, st);
    check_event ev = capture_emit_event(CHECK_EVENT_FN_MPROBE, CHECK_EVENT_EV_EXIT, c);
    ev.aux = rc == MPI_SUCCESS ? capture_emit_message_bind(*message) : 0;
    emit_status_exit(&ev, c, rc, st);
    return rc;
}

/* Iprobe and Improbe never block, and one that finds nothing changes no matching state, while a
 * polling loop makes millions of them: only a probe that found a message (or failed) is recorded,
 * its entry written after the call (as a Test's, capture_wait.c). message: NULL for Iprobe. */
static int probe_nonblocking(uint16_t fn, int source, int tag, MPI_Comm comm, int *flag,
                             MPI_Message *message, MPI_Status *status)
{
    const capture_comm *c = capture_comm_find(comm);
    int rejected = probe_rejected(fn, comm, c, source, tag);
    MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
    int rc = message ? mg_next_Improbe(source, tag, comm, flag, message, st)
                     : mg_next_Iprobe(source, tag, comm, flag, st);
    if (rejected || (rc == MPI_SUCCESS && !*flag))
        return rc;
    emit_p2p(fn, INTERPOSE_HOOKS_CALL_ENTER, MPI_SUCCESS, c, 0, MPI_DATATYPE_NULL, source, tag, 0);
    check_event ev = capture_emit_event(fn, CHECK_EVENT_EV_EXIT, c);
    ev.result = rc == MPI_SUCCESS;
    ev.aux = ev.result && message ? capture_emit_message_bind(*message) : 0;
    emit_status_exit(&ev, c, rc, st);
    return rc;
}

static int impl_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    return probe_nonblocking(CHECK_EVENT_FN_IPROBE, source, tag, comm, flag, NULL, status);
}

static int impl_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                        MPI_Status *status)
{
    return probe_nonblocking(CHECK_EVENT_FN_IMPROBE, source, tag, comm, flag, message, status);
}

void capture_p2p_install(void)
{
    P2P_CALLS(INSTALL, INT, )
#if MG_MPI_LARGE_COUNT
    P2P_CALLS(INSTALL, LARGE, _c)
#endif
    CAPTURE_CALL_REPLACE(Probe)
    CAPTURE_CALL_REPLACE(Iprobe) CAPTURE_CALL_REPLACE(Mprobe) CAPTURE_CALL_REPLACE(Improbe)
}
