/* MPI calls after MPI_Finalize (capture_finalized.h). The ring stays open past the Finalize record
 * until the process ends, so a call made too late is a record like any other; the wrapped calls
 * reach the hook because interpose.c routes every call through the module's after_finalize hook
 * once check's capture module has stopped, and only then: run and hang keep every route direct.
 * A call mpiguard does not wrap is seen only when the MPI library ends the process in it, as both
 * MPIs here do (MPICH with exit, Open MPI with _exit, which check's own preloaded object defines:
 * check_exit.c): the stack then names its call site. */
#include "capture_finalized.h"

#include "capture_emit.h"
#include "capture_errors.h"
#include "check_event.h"
#include "interpose_hooks.h"

#include <stdint.h>
#include <stdlib.h>
#include <strings.h>
#include <unistd.h>

static int finalized;
/* The call site of the last call reported: the process's end inside that call is not reported
 * twice. Taken from the stack for every call, as the hand-written MPI_Finalize and MPI_Abort set
 * no call site and a Fortran binding's is not the program's. */
static void *last_reported;

static void report(mpi_function_ids_fn fn, void *site)
{
    check_event ev = capture_emit_event(CHECK_EVENT_FN_AFTER_FINALIZE, CHECK_EVENT_EV_ENTER, NULL);
    ev.result = (int32_t)fn;
    interpose_call_site = site;
    capture_emit(&ev);
    last_reported = site;
}

void capture_finalized_begin(void)
{
    capture_emit_finalize();
    finalized = 1;
}

void capture_finalized_call(mpi_function_ids_fn fn)
{
    /* the only wrapped ones of MPI-4.0 Table 11.1, "MPI functions that can be called at any
     * time" (§11.4.1): MPI_Initialized, MPI_Finalized, MPI_Get_version, ... are not wrapped.
     * MPICH's Fortran MPI_FINALIZE frees its error handlers after PMPI_Finalize. */
    if (fn != MG_FN_Info_create && fn != MG_FN_Info_dup && fn != MG_FN_Info_free &&
        fn != MG_FN_Errhandler_free)
        report(fn, capture_errors_program_site(NULL));
}

/* The C and Fortran names of an MPI function, profiling or not: MPI_Comm_rank, PMPI_Comm_rank,
 * mpi_comm_rank_. */
static int is_mpi_function(const char *name)
{
    if (name && (name[0] == 'P' || name[0] == 'p'))
        name++;
    return name && strncasecmp(name, "MPI_", 4) == 0;
}

void capture_finalized_exit(void)
{
    if (!finalized)
        return;
    const char *called = NULL;
    void *site = capture_errors_program_site(&called);
    if (site && site != last_reported && is_mpi_function(called))
        report(mpi_function_ids_lookup(called), site);
    if (last_reported)
        capture_emit_wait_read(); /* read before the job is torn down */
    capture_emit_close(CHECK_EVENT_FN_FINALIZE);
}
