/* One watch of a job by `mpiguard hang` on the process side (docs/design/hang.md): finds the
 * ranks (locally, or through per-node agents), opens the probes, drives the watch engine
 * (hang_watch.h) with readings taken when it asks, follows the ranks' exits for a rank that dies
 * (hang_dead.h), and acts after a verdict. What is said and reported is the caller's, through
 * hooks: this code waits, reads and decides nothing itself. */
#ifndef MG_HANG_WATCHER_H
#define MG_HANG_WATCHER_H

#include "hang_dead.h"
#include "hang_model.h"
#include "hang_probes.h"
#include "hang_watch.h"
#include "observe_ranks.h"
#include "proc_exits.h"

#include <stdbool.h>

/* What `--on-hang` does after a verdict. */
typedef enum hang_watcher_action {
    HANG_WATCHER_ACTION_KILL,
    HANG_WATCHER_ACTION_REPORT,
    HANG_WATCHER_ACTION_SIGNAL,
    HANG_WATCHER_ACTION_EXEC
} hang_watcher_action;

typedef struct hang_watcher_params {
    struct hang_model_params model;
    long seed;                  /* of the random sampling; negative: from the clock */
    long verify_scans;          /* scans of every rank that confirm a hang */
    double verify_gap;          /* seconds between them */
    rank_probe_kind kind;       /* the sampler */
    long agents;                /* > 0: that many local agents */
    const char *agent_launcher; /* else, when set: one agent per node */
    long agent_fanout;
    hang_watcher_action action;
    int sig;                 /* HANG_WATCHER_ACTION_SIGNAL */
    const char *cmd;         /* HANG_WATCHER_ACTION_EXEC: a shell command */
    const char *report_path; /* HANG_WATCHER_ACTION_EXEC: passed to cmd; may be NULL */
} hang_watcher_params;

/* What the caller says and reports, called from within hang_watcher_run and _finish. */
typedef struct hang_watcher_hooks {
    void *ctx;
    /* the engine's step just fed at now (its events) */
    void (*step)(void *ctx, const struct hang_watch_step *step, double now);
    /* a verdict: the finding is made before the action */
    void (*verdict)(void *ctx, const struct hang_watch_step *step, double now);
    /* rank died without MPI_Finalize: the job ran on (job_ended false) or ended after it */
    void (*dead_rank)(void *ctx, int rank, bool job_ended, double now);
} hang_watcher_hooks;

/* How many ranks the watch read through each sampler, for the closing line. */
typedef struct hang_watcher_seen {
    int by_shm, by_ptrace;
    int lost;      /* ranks whose node's agent stopped answering: not observed to the end */
    int dead_rank; /* a rank that died while the job ran on to its launcher's end, or -1 */
    bool ended_in_discovery; /* the job ended before every rank was found */
} hang_watcher_seen;

typedef struct hang_watcher {
    job_session *job;
    const hang_watcher_params *p;
    hang_watcher_hooks hooks;
    hang_remote *remote;
    proc_exits *exits;
    struct hang_model *model;
    struct hang_watch *engine;
    struct hang_watch_reading *readings;
    hang_probes probes;
    observe_ranks *observer;
    int by_state; /* the observer judges the ranks by their published state (else by stack) */
    double start; /* mg_clock_seconds when watching began */
    struct hang_dead_watch dead;
} hang_watcher;

/* Finds the ranks (starting the agents), creates the model and the engine, opens the probes.
 * 0; 1 when the job ended before every rank was found (seen->ended_in_discovery); else an exit
 * status after saying why (MG_EXIT_NOINPUT, MG_EXIT_USAGE, MG_EXIT_SOFTWARE, the agents'). */
int hang_watcher_open(hang_watcher *w, job_session *job, const hang_watcher_params *p,
                      const hang_watcher_hooks *hooks, hang_watcher_seen *seen);

/* Drives the engine until the job ends, a hang is found or the watch fails. Returns
 * MG_EXIT_HANG on a verdict or a dead rank holding the job (reported through the hooks, then
 * acted on), else 0; *rc is the engine's error, MG_ERROR_OK when none. */
int hang_watcher_run(hang_watcher *w, int *rc);

/* After the run: a rank that died before the job's end (reported through the hook, in
 * seen->dead_rank) unless status or rc says otherwise, the failure of the watch said; counts the
 * ranks by sampler into seen and records each rank's observation with sampler (n of room: NULL
 * for a rank not observed). Returns the status. */
int hang_watcher_finish(hang_watcher *w, int status, int rc, hang_watcher_seen *seen,
                        const char **sampler);

/* Frees what the watcher holds (any of it may be missing). */
void hang_watcher_free(hang_watcher *w);

/* Runs the action after a finding naming the faulty ranks; returns 1 when it stopped the job. */
int hang_watcher_act(job_session *job, const hang_watcher_params *p, const int *faulty,
                     size_t nfaulty);

#endif
