/* The `_exit` of `mpiguard check` alone: a small object that check preloads beside the
 * interposition library (job_session.c), so that under run, hang and protect the application's
 * `_exit` is libc's own. Open MPI ends a rank that calls MPI after MPI_Finalize with `_exit`,
 * which runs no atexit handler: this one lets the capture module write the call the rank ends in
 * first (docs/design/check-classes.md, "Lifecycles"). Needs no MPI: one object for both. */
#include <stdlib.h>

/* Exported by the interposition library (capture_finalized.h); weak, so that a process that
 * inherits LD_PRELOAD without it still ends. */
extern void capture_finalized_exit(void) __attribute__((weak));

void _exit(int status)
{
    if (capture_finalized_exit)
        capture_finalized_exit();
    _Exit(status);
}
