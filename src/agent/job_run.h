/* Running a helper command to its end through the one process launcher (job.h), optionally with
 * its output captured in a file: the compiler steps of mpiguard-cc, `pkg-config`, `addr2line`,
 * the runs of a concolic campaign and the tests of `mpiguard collectives`. */
#ifndef MG_JOB_RUN_H
#define MG_JOB_RUN_H

#include "job.h"

#include <stddef.h>

/* Runs argv (argv[0] looked up in PATH) under job_start with the given token (may be NULL).
 * out_path non-NULL: the command's stdout and stderr go to that file (created or truncated), by
 * running it through `sh -c 'exec "$@" >"$0" 2>&1'`. timeout_ms > 0: the job is stopped
 * (job_stop, with stop_grace_s) once it has run that long and *timed_out is set to 1. *status
 * receives the shell status (exit code, or 128 + signal); *interrupted, unless NULL, the signal
 * mpiguard received and passed to the job meanwhile (job_interrupting_signal; 0: none). Returns 0,
 * or the job_start failure with a message in err (MG_ERROR_ENOENT: the command does not exist). */
int job_run(char *const *argv, const char *token, const char *out_path, int timeout_ms,
            double stop_grace_s, int *status, int *timed_out, int *interrupted, char *err,
            size_t errlen);

#endif
