/* The "capture" module of `mpiguard check`: one check event record per call entry and exit
 * (docs/design/check-detector.md §1) into the rank's shared-memory ring, the entry written before
 * the call can block. Calls whose status decides a wildcard (receives, probes, Wait/Test) replace
 * the PMPI call (mg_impl_*) so a status the application ignores is still seen; the others observe
 * (mg_observe_*). This file starts and stops the module; the records of each family of calls are
 * built in capture_p2p, capture_coll, capture_ctor, capture_wait and capture_rma; capture_types
 * keeps the datatypes' signatures, capture_handles the live handles whose leaks MPI_Finalize
 * reports. Spec: docs/design/check.md; design: docs/design/check.md "How it
 * is built". */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "capture_args.h"
#include "capture_buffers.h"
#include "capture_coll.h"
#include "capture_ctor.h"
#include "capture_handles.h"
#include "capture_neighbor.h"
#include "capture_objects.h"
#include "capture_emit.h"
#include "capture_errors.h"
#include "capture_finalized.h"
#include "capture_p2p.h"
#include "capture_pmpi.h"
#include "capture_rma.h"
#include "capture_types.h"
#include "capture_wait.h"
#include "event_ring.h"
#include "interpose_hooks.h"
#include "interpose_log.h"
#include "module.h"
#include "mg_env.h"

#include <stdlib.h>
#include <string.h>

/* The program's call of exit(), or NULL where it returned from main, which no call names (libc's
 * start code called exit). */
static void *exit_site(void)
{
    const char *called = NULL;
    void *site = capture_errors_program_site(&called);
    return called && strcmp(called, "exit") == 0 ? site : NULL;
}

/* At a normal process exit (exit(), a return from main): before MPI_Finalize the stream ends
 * with the record that says so, at the exit() call, which a crash never writes
 * (docs/design/check-classes.md "Lifecycles"); after it, with the MPI call the process ends in,
 * if any. After MPI_Abort the stream is closed already and nothing is written. */
static void process_exit(void)
{
    capture_finalized_exit();
    interpose_call_site = exit_site();
    capture_emit_close(CHECK_EVENT_FN_EXIT);
}

static int capture_init(const module_job *job)
{
    const char *token = getenv(MG_ENV_JOB_TOKEN);
    if (!token || !*token) {
        interpose_log("capture module off: MPIGUARD_JOB_TOKEN is not set", NULL);
        return -1;
    }
    if (job->thread_level == MPI_THREAD_MULTIPLE) {
        interpose_log("capture module off: MPI_THREAD_MULTIPLE is not supported by check", NULL);
        return -1;
    }
    const char *bytes = getenv(MG_ENV_RING_BYTES);
    size_t ring_bytes = bytes && *bytes ? strtoul(bytes, NULL, 10) : EVENT_RING_DEFAULT_BYTES;
    if (capture_emit_init(token, job->rank, job->size, ring_bytes) != 0 ||
        capture_comm_init(job->rank, job->size) != 0 || capture_types_init() != 0 ||
        capture_buffers_init() != 0 || capture_handles_init() != 0) {
        interpose_log("capture module off: cannot create its ring or tables", NULL);
        return -1;
    }
    check_event ev = capture_emit_event(CHECK_EVENT_FN_INIT, CHECK_EVENT_EV_ENTER, NULL);
    capture_emit(&ev);
    ev = capture_emit_event(CHECK_EVENT_FN_INIT, CHECK_EVENT_EV_EXIT, NULL);
    capture_emit(&ev);
    capture_p2p_install();
    capture_coll_install();
    capture_neighbor_install();
    capture_ctor_install();
    capture_wait_install();
    capture_rma_install();
    capture_types_install();
    capture_objects_install();
    capture_args_init();
    capture_errors_install();
    if (atexit(process_exit) != 0)
        interpose_log("capture module: an exit without MPI_Finalize will look like a crash", NULL);
    return 0;
}

static void capture_finalize(int aborting)
{
    if (aborting) {
        capture_emit_close(CHECK_EVENT_FN_ABORT);
        return;
    }
    capture_handles_report();
    capture_finalized_begin();
}

const module capture_module = {
    .name = "capture",
    .init = capture_init,
    .finalize = capture_finalize,
    .after_finalize = capture_finalized_call,
};
