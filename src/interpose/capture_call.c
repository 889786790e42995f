/* What the capture module's families of calls share (capture_call.h). */
#include "capture_call.h"

#include "capture_emit.h"

/* Weak as mpi_handles_weak.h explains: the call only this file makes. */
#pragma weak PMPI_Error_class

/* The id handed out at the entry of the nonblocking call in progress, bound at its exit. */
static uint64_t pending_id;

uint8_t capture_call_kind(int phase)
{
    return phase == INTERPOSE_HOOKS_CALL_ENTER ? CHECK_EVENT_EV_ENTER : CHECK_EVENT_EV_EXIT;
}

uint16_t capture_call_refused(int rc)
{
    return rc == MPI_SUCCESS ? 0 : CHECK_EVENT_FLAG_REFUSED;
}

int capture_call_matched(int err)
{
    int err_class = MPI_ERR_OTHER;
    if (err == MPI_SUCCESS)
        return 1;
    return PMPI_Error_class(err, &err_class) == MPI_SUCCESS && err_class == MPI_ERR_TRUNCATE;
}

uint64_t capture_call_request(int phase, int rc, const MPI_Request *request,
                              const capture_comm *comm, int persistent)
{
    if (phase == INTERPOSE_HOOKS_CALL_ENTER)
        pending_id = capture_emit_request_new();
    else if (rc == MPI_SUCCESS)
        capture_emit_request_bind(*request, pending_id, comm, persistent);
    return pending_id;
}

int capture_call_untracked(int phase, int rc, const MPI_Request *request)
{
    if (phase != INTERPOSE_HOOKS_CALL_EXIT || rc != MPI_SUCCESS)
        return 0;
    capture_emit_request_untracked(*request);
    return 1;
}

check_event_status capture_call_status(const capture_comm *c, uint32_t index, const MPI_Status *st)
{
    check_event_status s = {
        .index = index, .source = CHECK_EVENT_PROC_NULL, .tag = CHECK_EVENT_ANY_TAG};
    if (st != MPI_STATUS_IGNORE) {
        s.source = c ? capture_comm_world(c, st->MPI_SOURCE) : st->MPI_SOURCE;
        s.tag = st->MPI_TAG;
    }
    return s;
}
