/* Owning a job: start its launcher, forward SIGINT/SIGTERM/SIGHUP so Ctrl-C stops the whole job,
 * wait for it, stop it on request, and make sure no rank outlives it. The one process launcher of
 * mpiguard: every tool starts jobs through here. */
#ifndef MG_JOB_H
#define MG_JOB_H

#include <stddef.h>

typedef struct job_handle job_handle;

/* Seconds between asking the launcher to stop (SIGTERM) and killing it and every rank (SIGKILL). */
#define JOB_STOP_GRACE_SECONDS 5.0

/* Installs mpiguard's handlers for SIGINT, SIGTERM, SIGHUP and SIGQUIT. A signal sent by the
 * terminal reaches the launcher directly (same process group) and is only recorded; one sent to
 * mpiguard alone (kill, a batch system) is forwarded to the launcher. A job attached to is neither
 * signalled nor stopped: the signal ends the wait for it (job_wait), and it runs on. Call once,
 * before job_start. Not thread-safe. */
void job_install_signal_handlers(void);

/* A function the handler calls on every signal it receives, before returning; it must be
 * async-signal-safe (hang detection passes rank_probe_abort_all, so a sample in progress lets
 * its process go at once). NULL for none. */
void job_set_signal_hook(void (*hook)(void));

/* Starts argv (argv[0] is looked up in PATH). token is the MPIGUARD_JOB_TOKEN the ranks carry, used
 * to find and kill leftover ranks; it may be NULL. The launcher gets it as MPIGUARD_JOB_TREE, so
 * that its daemons (hydra_pmi_proxy), which are no ranks, are found and killed by it too. On
 * failure returns MG_ERROR_ENOENT (exec failed), MG_ERROR_ESYS or MG_ERROR_ENOMEM with a message in
 * err. */
int job_start(char *const *argv, const char *token, job_handle **out, char *err, size_t errlen);

/* Takes charge of a job mpiguard did not start (`--attach`): a launcher's pid, or a Slurm job id.
 * Such a job cannot be reaped: it has ended when the launcher (or, for Slurm, every process of the
 * job on this node) is gone, and its exit status is unknown (reported as 0). Stopping it signals
 * the launcher, or runs `scancel JOBID`. MG_ERROR_ENOENT when neither the pid nor any process of
 * the Slurm job exists. */
int job_attach(int launcher_pid, const char *slurm_job_id, job_handle **out, char *err,
               size_t errlen);

/* Waits up to timeout_ms (0: just poll) for the launcher to end, handling received signals
 * meanwhile. *finished becomes 1 once it ended (leftover ranks of the job are then killed), or, for
 * a job attached to, once a signal let go of it (its exit status stays -1). */
int job_wait(job_handle *job, int timeout_ms, int *finished);

/* Asks the launcher to stop (SIGTERM) and, grace_s later, kills it and every rank of the job that
 * is still there (SIGKILL; stopped ranks included). Returns once the launcher ended. A caller that
 * reads what the job leaves (a report, the ranks' last words) gives JOB_STOP_GRACE_SECONDS: Open
 * MPI's mpirun alone takes a second to end its ranks. grace_s <= 0 kills at once, for a job whose
 * end nobody reads. */
int job_stop(job_handle *job, double grace_s);

int job_launcher_pid(const job_handle *job);
/* The job's status as a shell reports it: the exit code, or 128 + N when killed by signal N.
 * -1 while it runs. */
int job_exit_status(const job_handle *job);
/* The signal mpiguard received and acted on (0 if none): the tool then exits 128 + that signal. */
int job_interrupting_signal(const job_handle *job);
/* Processes of the job (ranks, the launcher's daemons) killed for outliving the launcher. */
int job_leftovers_killed(const job_handle *job);

/* Frees the job; a job mpiguard started that still runs is stopped first (an attached one is left
 * as it is). */
void job_destroy(job_handle *job);

#endif
