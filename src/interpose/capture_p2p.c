/* The capture module's point-to-point calls (capture_call.h): sends, nonblocking and persistent
 * initiations (observed), and receives and probes, which replace the PMPI call so that a status
 * the application ignores still tells the detector which send a wildcard matched
 * (docs/check-detector.md §1, docs/check.md "The runtime"). */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "capture_p2p.h"

#include "capture_call.h"
#include "capture_emit.h"
#include "capture_pmpi.h"

static int32_t tag_of(int tag)
{
    return tag == MPI_ANY_TAG ? CHECK_ANY_TAG : tag;
}

static void emit_p2p(uint16_t fn, int phase, const capture_comm *c, int count, int peer, int tag,
                     uint64_t request)
{
    check_event ev = capture_event(fn, capture_call_kind(phase), c);
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
    uint64_t id = capture_call_request(phase, rc, request, c, persistent);
    emit_p2p(fn, phase, c, count, peer, tag, id);
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

/* ---- calls whose status matters: they replace the PMPI call ---- */

static void emit_status_exit(check_event *ev, const capture_comm *c, int rc, const MPI_Status *st)
{
    check_status s = capture_call_status(c, 0, st);
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
    check_event ev = capture_event(CHECK_FN_IMRECV, capture_call_kind(phase), NULL);
    ev.request = capture_call_request(phase, rc, request, NULL, 0);
    if (phase == MG_CALL_ENTER)
        ev.aux = capture_message_take(*message);
    ev.count = count;
    capture_emit(&ev);
}

void capture_p2p_install(void)
{
    CAPTURE_OBSERVE(Send) CAPTURE_OBSERVE(Bsend) CAPTURE_OBSERVE(Ssend) CAPTURE_OBSERVE(Rsend)
    CAPTURE_OBSERVE(Isend) CAPTURE_OBSERVE(Ibsend) CAPTURE_OBSERVE(Issend) CAPTURE_OBSERVE(Irsend)
    CAPTURE_OBSERVE(Irecv) CAPTURE_OBSERVE(Send_init) CAPTURE_OBSERVE(Bsend_init)
    CAPTURE_OBSERVE(Ssend_init) CAPTURE_OBSERVE(Rsend_init) CAPTURE_OBSERVE(Recv_init)
    CAPTURE_OBSERVE(Imrecv)
    CAPTURE_REPLACE(Recv) CAPTURE_REPLACE(Sendrecv) CAPTURE_REPLACE(Sendrecv_replace)
    CAPTURE_REPLACE(Probe) CAPTURE_REPLACE(Iprobe) CAPTURE_REPLACE(Mprobe) CAPTURE_REPLACE(Improbe)
    CAPTURE_REPLACE(Mrecv)
}
