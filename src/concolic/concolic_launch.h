/* One iteration's job of `mpiguard concolic`: the MPMD launch (light ranks, the heavy executable
 * at the focus, light ranks), the timeout, reading back every rank's log, and the classification
 * of the outcome (docs/concolic.md "3. Run the campaign"). */
#ifndef CONCOLIC_LAUNCH_H
#define CONCOLIC_LAUNCH_H

#include "concolic_campaign.h"
#include "path_log.h"

#include <stdint.h>

enum concolic_launch_outcome {
    CONCOLIC_LAUNCH_CLEAN = 0,
    CONCOLIC_LAUNCH_INPUT_REJECTED, /* a rank exited non-zero by itself: the program's own check */
    CONCOLIC_LAUNCH_SIGNAL,         /* a rank died of a signal other than SIGABRT */
    CONCOLIC_LAUNCH_ASSERTION,      /* a rank aborted (assert, abort) */
    CONCOLIC_LAUNCH_MPI_ERROR,      /* MPI_Abort, or the MPI library ended the job */
    CONCOLIC_LAUNCH_TIMEOUT, /* the job ran past --timeout (a hang or a livelock) and was stopped */
    CONCOLIC_LAUNCH_OVERFLOW, /* a signed integer operation of the focus wrapped, and the job ended
                          clean or rejected its input (a crash or hang after it is that) */
    CONCOLIC_LAUNCH_OUTCOME_END
};

/* The word used in reports and bug keys. */
const char *concolic_launch_outcome_name(int outcome);
/* 1 for the outcomes that are bugs. */
int concolic_launch_outcome_is_bug(int outcome);

typedef struct concolic_launch {
    const char *launcher; /* mpirun.openmpi or mpiexec.mpich */
    int openmpi;
    char *const *app_args; /* the program's own arguments (after its name) */
    int napp_args;
    double timeout_s; /* --timeout */
    const char *token;
    int one_way;    /* every rank runs the heavy executable (ablation of §2.4.2) */
    int no_reduce;  /* the runtime logs every branch (ablation of §2.4.3) */
    int uncapped;   /* the runtime ignores the marks' limits: the inputs are tuned (§3.3) */
    int floats_off; /* the runtime keeps floats concrete (--floats off) */
} concolic_launch;

typedef struct concolic_launch_result {
    int outcome;      /* enum concolic_launch_outcome */
    int status;       /* the launcher's status */
    int rank;         /* the rank the outcome comes from, -1 when none */
    int signal;       /* for CONCOLIC_LAUNCH_SIGNAL and CONCOLIC_LAUNCH_ASSERTION */
    char where[1024]; /* file:line of the fault, the assertion or the overflow, else "after
                         file:line" of the last branch the rank took; for a timeout, the distinct
                         such places of the ranks the stop found, "; "-separated; for an MPI error,
                         its rank's last branch; "" when unknown */
    uint32_t last_branch;
    char detail[512]; /* a line of the program's output that explains it, or "" */
    path_log heavy;   /* the focus's log (empty when it could not be read) */
    int have_heavy;
    size_t log_bytes;         /* bytes of every rank's log */
    char log_problem[256];    /* why the focus's log is missing or rejected, "" when fine */
    coverage_set cover;       /* every rank's arms */
    coverage_set *rank_cover; /* [rank]: each rank's arms (empty when its log was unreadable) */
    uint32_t nranks;          /* entries of rank_cover: the run's np, 0 when memory ran out */
    double seconds;           /* the whole job: spawning the launcher to its end */
    /* The split of seconds (docs/design/concolic.md "Cost"), from the ranks' TIME records: launch
     * is the launcher's spawn to the first rank's start, run from there to the last end a rank
     * logged (the job's end when none did), teardown the rest. split = 0 when a rank logged no
     * start (no log, a program built before the TIME record): then only seconds is known. */
    int split;
    double launch_s, run_s, teardown_s;
    char command[4096]; /* the launch as shell words, for reproducers */
    uint64_t run_id;
    uint32_t ranks_reported; /* ranks that wrote an outcome */
    int timed_out;           /* the job ran past the timeout it was given */
    int interrupted;         /* the signal mpiguard received during the job (0: none) */
    int refused;             /* the launcher ended with an error before any rank started:
                                a setup error (detail holds its message), not an outcome */
} concolic_launch_result;

/* Runs one job with the campaign's next inputs, np and focus, under run id run_id, stopped after
 * timeout_s (job_stop with stop_grace_s). Returns 0 (the job ran, whatever its outcome) or
 * MG_ERROR_ENOENT/MG_ERROR_ESYS when the launcher cannot start. */
int concolic_launch_run(const concolic_launch *l, concolic_campaign *c, uint64_t run_id,
                        double timeout_s, double stop_grace_s, concolic_launch_result *r, char *err,
                        size_t errlen);
void concolic_launch_result_free(concolic_launch_result *r);
/* Appends " WORD" to out, single-quoted when the shell would split or expand it; returns the
 * characters it wrote (snprintf's count: out is full when at or past len). */
size_t concolic_launch_shell_word(char *out, size_t len, const char *w);

#endif
