/* A job a tool runs or watches: its launcher, MPI flavour, interposition library and token, the
 * process mpiguard owns or attached to, and its ranks as they are found (pid, published state,
 * node). What the tool reports of it is the tool's (src/cli/cli.h, cli_session). */
#ifndef MG_JOB_SESSION_H
#define MG_JOB_SESSION_H

#include "job.h"
#include "launcher.h"
#include "mpi_flavor.h"
#include "rank_scan.h"
#include "rank_state_reader.h"

/* One rank as a tool sees it. */
typedef struct job_session_rank {
    int pid;                 /* 0 until found */
    const rank_state *state; /* NULL unless the state module published it */
    char host[64];           /* its node, when an agent there told of it; "": this one */
} job_session_rank;

typedef struct job_session {
    const char *tool; /* names the tool in messages */
    launcher launcher;
    mg_mpi_flavor flavor;
    char library[4096];
    char token[40];
    job_handle *process;         /* the launcher mpiguard started or attached to */
    rank_scan_selector selector; /* how this job's ranks are found */
    int attached;                /* --attach: the job is not ours to clean up after */
    job_session_rank *ranks;
    int nranks;           /* world size once known, else 0 */
    int found;            /* ranks discovered so far */
    double discovered_at; /* when job_session_discover last looked (mg_clock_seconds) */
    int ended_itself;     /* the job ended before its finding was made: not stopped by mpiguard */
} job_session;

/* Names the launcher of command, the MPI flavour (requested, or MG_MPI_FLAVOR_UNKNOWN to take the
 * launcher's), the interposition library (in $MPIGUARD_LIBDIR, else in library_dir) and a fresh
 * token. Returns 0, or the exit status to end with after printing why (usage 64, missing
 * application 66, unavailable launcher or library 69). */
int job_session_identify(job_session *js, const char *tool, mg_mpi_flavor requested,
                         const char *library_dir, char **command, int ncommand);

/* Adds NAME=VALUE to what the next job_session_launch passes to the ranks (and only to them), for
 * a tool's module settings. The strings must outlive the launch. Returns 0, or MG_ERROR_EFULL past
 * JOB_SESSION_EXTRA_ENV_MAX. */
enum { JOB_SESSION_EXTRA_ENV_MAX = 8 };
int job_session_add_env(const char *name, const char *value);

/* Starts the identified job with mpiguard's library preloaded and the given modules
 * ("state:protect", separated by ':' which every launcher can pass; "" for none); verbose prints
 * the command. Returns 0 or an exit status, having said why (69: a library missing; 70). */
int job_session_launch(job_session *js, const char *modules, char **command, int ncommand,
                       int verbose);

/* Takes charge of a running job instead of starting one (`--attach TARGET`): TARGET is a
 * launcher's pid, or else a Slurm job id. Ranks are found as the launcher's descendants or by
 * SLURM_JOB_ID; when they carry an mpiguard token (a job run under `mpiguard run`), js->token is
 * set and their published state can be read. *launcher_name receives what the report names as
 * launcher ("/proc/PID" or "slurm"; 64 bytes). Returns 0 or an exit status after printing why (66:
 * nothing to attach to). */
int job_session_attach(job_session *js, const char *tool, const char *target, char *launcher_name);

/* Scans for ranks not found yet and maps their published state; does nothing when it looked less
 * than 100 ms ago. Cheap when all are found. */
void job_session_discover(job_session *js);
/* Notes rank (of a world of size) as process pid, when no scan found it: the ranks a module said
 * it ran in, after a job that ended before a scan could see them. Returns 0, or MG_ERROR_ENOMEM. */
int job_session_note_rank(job_session *js, int rank, int size, int pid);
/* Waits up to timeout_ms for the job to end; returns 1 once it ended. */
int job_session_wait(job_session *js, int timeout_ms);
/* Waits for the job's end, discovering its ranks meanwhile: every 200 ms while a rank (or, with
 * states, a rank's published state) is still to be found, then in waits of a minute, which the
 * job's end and a signal still cut short at once. A long job costs mpiguard no wakeups once its
 * ranks are known. */
void job_session_wait_end(job_session *js, int with_states);

/* Unmaps the ranks' states, removes the segments of a job mpiguard started, and frees the job
 * (a started job still running is stopped first). */
void job_session_end(job_session *js);

#endif
