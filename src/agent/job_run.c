/* Running a helper command to its end through job_handle (job_run.h). */
#include "job_run.h"

#include "job.h"
#include "mg_error.h"
#include "mg_clock.h"

#include <stdlib.h>

/* argv prefixed with the sh wrapper that redirects both streams; the caller frees the array. */
static char **capture_argv(char *const *argv, const char *out_path)
{
    size_t n = 0;
    while (argv[n])
        n++;
    char **w = calloc(n + 5, sizeof *w);
    if (!w)
        return NULL;
    w[0] = "sh";
    w[1] = "-c";
    w[2] = "exec \"$@\" >\"$0\" 2>&1";
    w[3] = (char *)out_path;
    for (size_t i = 0; i < n; i++)
        w[4 + i] = argv[i];
    return w;
}

int job_run(char *const *argv, const char *token, const char *out_path, int timeout_ms,
            double stop_grace_s, int *status, int *timed_out, int *interrupted, char *err,
            size_t errlen)
{
    char **w = NULL;
    if (out_path && !(w = capture_argv(argv, out_path)))
        return MG_ERROR_ENOMEM;
    job_handle *job;
    int rc = job_start(w ? w : argv, token, &job, err, errlen);
    free(w);
    if (rc)
        return rc;
    double start = mg_clock_seconds();
    int finished = 0;
    *timed_out = 0;
    while (!finished) {
        /* job_wait returns at the job's end and handles signals itself, so one wait lasts to the
         * timeout: waits in steps would stop the job up to a step late. */
        double left_ms = timeout_ms > 0 ? timeout_ms - (mg_clock_seconds() - start) * 1e3 : 1000;
        if (left_ms <= 0) {
            *timed_out = 1;
            job_stop(job, stop_grace_s);
            break;
        }
        job_wait(job, (int)left_ms + 1, &finished);
    }
    *status = job_exit_status(job);
    if (interrupted)
        *interrupted = job_interrupting_signal(job);
    job_destroy(job);
    return 0;
}
