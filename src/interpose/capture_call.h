/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* What the capture module's families of calls share (capture_p2p, capture_coll, capture_ctor,
 * capture_wait): each family builds the records of its calls in its observers (mg_observe_*) and
 * replacements (mg_impl_*), and installs them with the macros below when the module starts.
 * Needs mpi.h. One MPI thread at a time. */
#ifndef MG_CAPTURE_CALL_H
#define MG_CAPTURE_CALL_H

#include <mpi.h>
#include "mpi_handles_weak.h"

#include <stdint.h>

#include "capture_comm.h"
#include "check_event.h"
#include "interpose_hooks.h"

/* A family names its hooks obs_<Name> and impl_<Name>; its install function points the library's
 * hooks at them. */
#define CAPTURE_CALL_OBSERVE(Name) mg_observe_##Name = obs_##Name;
#define CAPTURE_CALL_REPLACE(Name) mg_impl_##Name = impl_##Name;

/* The record kind of a hook phase: CHECK_EVENT_EV_ENTER or CHECK_EVENT_EV_EXIT. */
uint8_t capture_call_kind(int phase);
/* The flag of a record of a call that returned rc: CHECK_EVENT_FLAG_REFUSED when MPI returned an
 * error (an entry's rc is MPI_SUCCESS), so that the detector ends the call's wait. */
uint16_t capture_call_refused(int rc);
/* Whether a call that ended with error err matched its message, so that its status's source and
 * tag are defined: on success, and on MPI_ERR_TRUNCATE, where MPI sets them as for a success. For
 * any other error the standard defines no field but MPI_ERROR (MPI 4.0 §3.2.5, §3.7.5): a source
 * read there could decide a wildcard receive the detector models wrongly. */
int capture_call_matched(int err);
/* The request id of a nonblocking call, for both its records: a new id at the entry, bound at a
 * successful exit to the handle MPI returned (comm: for translating its status source; NULL when
 * unknown). */
uint64_t capture_call_request(int phase, int rc, const MPI_Request *request,
                              const capture_comm *comm, int persistent);
/* At the exit of a call that returned a request the module does not track (its arguments were
 * reported invalid, its communicator is unknown, or the call is not modelled: Rput, Rget): when MPI
 * accepted the call, the handle it handed back names a live request, so it no longer reads as a
 * freed one (MPI may hand out a completed request's handle again: Open MPI's one empty request
 * of every receive from MPI_PROC_NULL). A refused call handed nothing back. Returns 1 then. */
int capture_call_untracked(int phase, int rc, const MPI_Request *request);
/* Completion `index` as the record carries it: source (a world rank through c; c NULL: as given)
 * and tag from st, unknown for MPI_STATUS_IGNORE. */
check_event_status capture_call_status(const capture_comm *c, uint32_t index, const MPI_Status *st);

#endif
