/* Finding a job's rank processes on this node from /proc, and each one's rank, by environment
 * first (OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK, SLURM_PROCID), never by name or PID order. */
#ifndef MG_RANK_SCAN_H
#define MG_RANK_SCAN_H

#include <stddef.h>
#include <stdint.h>

/* Which job: exactly one of the three fields is set. */
typedef struct rank_scan_selector {
    const char *token;        /* MPIGUARD_JOB_TOKEN injected by mpiguard into the ranks */
    int any_process;          /* with token: every process that carries it, as MPIGUARD_JOB_TOKEN
                                 or MPIGUARD_JOB_TREE, with a rank variable or not (rank -1), none
                                 merged: what of a job may be left (a launcher's daemons) */
    int ancestor_pid;         /* a launcher's pid: the ranks are its descendants (attach) */
    const char *slurm_job_id; /* SLURM_JOB_ID (ranks are children of slurmstepd, not of srun) */
} rank_scan_selector;

typedef struct rank_scan_proc {
    int pid;
    int rank;
    int size; /* world size from the environment, or -1 when it does not say */
} rank_scan_proc;

/* Scans /proc and returns the rank processes of the selected job, sorted by rank, in a malloc'd
 * array (*out, *count; free with free()). A process that vanishes while being read is skipped.
 * When several processes carry the same rank (a wrapper such as `timeout ./app`, or a child the
 * rank forked), the one that maps an MPI library wins, and among those the deepest descendant
 * (with any_process, every one is kept).
 * proc_root is "/proc" except in tests. Returns MG_ERROR_ENOMEM or MG_ERROR_EIO (proc_root
 * unreadable). */
int rank_scan(const char *proc_root, const rank_scan_selector *sel, rank_scan_proc **out,
              size_t *count);

/* The state letter of a process from /proc/PID/stat ('R', 'S', 'D', 'T', 't', 'Z', ...), or 0 when
 * the process does not exist. */
char rank_scan_process_state(int pid);

/* What a state letter says, read the same way everywhere. Gone: no process, or a zombie (nothing of
 * it can be read any more). Stopped from outside: by a signal ('T': SIGSTOP, scontrol suspend,
 * Ctrl-Z) or under a tracer ('t'). Sleeping: waiting in the kernel. */
static inline int mg_process_state_gone(char state)
{
    return state == 0 || state == 'Z' || state == 'X';
}

static inline int mg_process_state_stopped(char state)
{
    return state == 'T' || state == 't';
}

static inline int mg_process_state_sleeping(char state)
{
    return state == 'S' || state == 'D';
}

/* How long the process's main thread has run on a CPU since it started (*cpu_ns) and in how many
 * slices (*slices: times it was put on a CPU), from /proc/PID/schedstat. Both -1, and
 * MG_ERROR_ENOENT, when the process does not exist or the kernel keeps no such count; else 0. */
int rank_scan_cpu_time(int pid, int64_t *cpu_ns, int64_t *slices);

/* The share of a CPU each of nranks busy ranks gets on this node when it runs nothing else: the
 * CPUs this process may run on (its affinity: a batch system's allocation) over nranks, at most
 * 1. */
double rank_scan_cpu_share(size_t nranks);

/* The rank the launcher gave process pid (the first rank variable of its environment it holds)
 * and its parent's pid. MG_ERROR_ENOENT when the process is gone or holds no rank variable,
 * MG_ERROR_ENOMEM. */
int rank_scan_identity(const char *proc_root, int pid, int *rank, int *ppid);

/* Reads one variable from /proc/PID/environ into value. MG_ERROR_ENOENT when the process or the
 * variable does not exist. */
int rank_scan_environ_get(const char *proc_root, int pid, const char *name, char *value,
                          size_t valuelen);

#endif
