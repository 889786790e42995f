/* Diagnosis after a HANG verdict (ParaStack §3.3 "Transient slowdowns" and §4; docs/design/hang.md
 * "What the user gets"): from several scans of every rank, tell a transient slowdown from a hang,
 * name the faulty ranks and the hang type. Pure: reads the caller's arrays, writes the caller's
 * output; thread-safe. */
#ifndef HANG_DIAG_H
#define HANG_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One rank in one scan. func is the MPI function the rank is in (IN_MPI) or last called (OUT_MPI),
 * as a caller-defined id, or -1 when unknown. */
struct hang_diag_rank {
    bool out_mpi;       /* OUT_MPI (no thread inside MPI) */
    bool exited;        /* the process has exited: a rank exited in any scan is never faulty
                           and never progress */
    bool unreadable;    /* its process lives but could not be read (ptrace refused, a read timed
                           out, its agent lost): as silent for the verdict as an exited rank,
                           and reported as what it is */
    bool counter_known; /* counter is valid (shm backend); false under ptrace */
    bool stopped;       /* stopped from outside (a stop signal, another tracer): see
                           hang_diag_job_stopped */
    bool progressed;    /* made a non-polling MPI call since the previous scan, as its reader
                           counted them (func may name the poll it was caught in all the same) */
    int func;
    uint64_t counter;    /* MPI calls entered so far */
    uint64_t exit_order; /* exited: where the start of its exit came among the job's exits, in
                            the kernel's order (proc_exits_order: smaller began first; the exit
                            events' own times come at each exit's end, and the rank that died
                            first can be announced last); 0: not known */
};

/* Whether scan says nothing of the rank's progress: it exited, or could not be read. */
static inline bool hang_diag_rank_absent(const struct hang_diag_rank *scan)
{
    return scan->exited || scan->unreadable;
}

struct hang_diag_input {
    size_t nranks;
    size_t nscans;                      /* >= 2, in time order */
    const struct hang_diag_rank *scans; /* nscans * nranks, scan-major: scans[s * nranks + r] */
    const bool *polling;                /* polling[f]: function f is a busy-wait probe (MPI_Test*,
                                           MPI_Iprobe); ids >= npolling are not polling */
    size_t npolling;
    bool starved; /* some gap between the scans left a live rank short of the gap's length for
                     itself (the gap ended at its stretch limit: hang_diag_retake_after) */
};

enum hang_diag_kind {
    HANG_DIAG_PROGRESS,      /* some rank progressed: a transient slowdown, resume watching */
    HANG_DIAG_COMPUTATION,   /* a hang with ranks stuck OUT_MPI: those are the faulty ranks */
    HANG_DIAG_COMMUNICATION, /* a hang with every live rank inside MPI */
    HANG_DIAG_ALL_EXITED,    /* every rank has exited (or cannot be read): no hang */
    HANG_DIAG_SUSPENDED,     /* in some scan the whole job was stopped (hang_diag_job_stopped):
                                its silence says nothing, no verdict */
    HANG_DIAG_STARVED,       /* no progress seen, but a rank was kept from running (starved): a
                                rank that could not run cannot be told stuck, no verdict */
    HANG_DIAG_VANISHED       /* a rank read alive in a scan had exited in a later one: it died (or
                                the job ends) while the others were verified, and they wait for it
                                or are being ended after it; no hang verdict: the rank that
                                vanished first (vanished_rank) is for the dead-rank rule
                                (hang_dead.h) to name with its signal (run 81023 of issue 29) */
};

struct hang_diag_result {
    enum hang_diag_kind kind;
    int progress_rank;   /* the first rank that showed progress, or -1 */
    size_t nfaulty;      /* ranks OUT_MPI in every scan, or in one while the others place them
                            in a polling call at the same call count (may exceed the caller's
                            capacity) */
    size_t nexited;      /* ranks absent (exited or unreadable) in some scan */
    int vanished_rank;   /* VANISHED: the first rank to exit after it was read alive: the one
                            absent from the earliest scan, of those the one whose exit began
                            first where known (exit_order), then the lowest; read for VANISHED
                            only */
    bool vanished_first; /* VANISHED: vanished_rank is known to be the first: alone in that scan,
                            or every rank gone in it has its exit_order */
};

/* A rank that vanished during verification (VANISHED) takes precedence over a suspended job,
 * progress and starvation: its death explains the others' silence and ends the job.
 * Progress of a live rank between consecutive scans: the later scan's progressed; with both
 * counters known, a counter that moved unless every function seen in the two scans is a polling
 * one; in both cases (and as the only rules without counters, paper §3.3) a different non-polling
 * MPI function seen IN_MPI in the two scans, or a step into or out of a non-polling MPI function.
 * Unknown functions (-1) count as non-polling. Progress stands even when a rank was starved; a
 * hang needs every live rank to have had every gap for itself (else STARVED). The first
 * min(nfaulty, faulty_cap) faulty ranks go to faulty[] in rank order (nfaulty is 0 on PROGRESS and
 * STARVED). 0 ok; MG_ERROR_EINVAL on NULL input or scans, nranks == 0, nscans < 2, or faulty ==
 * NULL with faulty_cap > 0. */
int hang_diag_classify(const struct hang_diag_input *in, int *faulty, size_t faulty_cap,
                       struct hang_diag_result *out);

/* Whether a scan of the n ranks shows the whole job stopped from outside: at least one rank alive
 * and every live rank stopped. A scheduler suspends a job so (Slurm's `scontrol suspend`, SIGSTOP
 * to every process), and so does Ctrl-Z; such a job is not hung, and watching waits for it. One
 * stopped rank among running ones (a frozen node) is a hang, as before. */
bool hang_diag_job_stopped(const struct hang_diag_rank *scan, size_t n);

/* How much of elapsed_s seconds between two scans a rank had for itself. A rank that was runnable
 * (running or waiting for a CPU) at both scans had the CPU time it got (ran_s) over the share of a
 * CPU its own job leaves it (cpu_share: c / k on a node whose c CPUs run k busy ranks of the job,
 * 1 when c >= k), at most elapsed_s: all of it when it had its share, down to 0 when the node
 * never let it run (other work, a CPU quota: a stall). Any other rank (asleep, stopped, in the
 * kernel) did not need the CPU to be seen waiting, and had all of it; so had a rank whose CPU time
 * came in slices (the times it was put on a CPU; negative: unknown) shorter on average than
 * HANG_DIAG_YIELD_SLICE_S: it gives the CPU away itself (Open MPI's waiting ranks yield: about
 * 2 us a slice, against 3-4 ms for MPICH's busy-polling ones). Verification waits for this time
 * rather than the clock's, so that no stall can outlast it. A negative ran_s (unknown) counts as
 * all of it; a cpu_share above 1, or not above 0 (unknown), counts as 1. The result is in
 * [0, elapsed_s]. */
#define HANG_DIAG_YIELD_SLICE_S 100e-6
double hang_diag_own_time(double elapsed_s, double ran_s, double slices, bool runnable,
                          double cpu_share);

/* What one rank did with the CPU between two scans, for hang_diag_least_own_time. */
struct hang_diag_cpu {
    bool alive;    /* alive at both scans (an exited rank needs no time) */
    bool runnable; /* runnable at both */
    double ran_s;  /* CPU time it got in between; negative: unknown */
    double slices; /* in how many slices; negative: unknown */
    double share;  /* its share of a CPU on its node (hang_diag_own_time) */
};

/* Against which share of a CPU a rank's CPU time is weighed (hang_diag_least_own_time). */
enum hang_diag_share {
    HANG_DIAG_SHARE_NODE,     /* each rank's own share: its node's cores over ranks */
    HANG_DIAG_SHARE_SIBLINGS, /* that, or HANG_DIAG_SIBLING_SHARE of the CPU time per second the
                               * most-served runnable rank got, whichever is less */
};

/* The least time any live rank had for itself (hang_diag_own_time) between two scans elapsed_s
 * apart, its CPU time weighed against the share `against` says, and which rank that was (*who;
 * SIZE_MAX, with elapsed_s returned, when none is alive).
 * Why the siblings: the scheduler shares a node between sessions (autogroup) and cgroups before
 * threads. Under srun every rank of a job is in one session (slurmstepd's) and on a loaded node
 * gets far less than cores over ranks however long the gap lasts (docs/hang-measurements.md
 * "Under srun"); a rank that ran half as much as its best-served sibling was not kept from
 * running by anything that waiting would end, while a rank throttled alone (a cpu cgroup of its
 * own) still falls far below. */
#define HANG_DIAG_SIBLING_SHARE 0.5
double hang_diag_least_own_time(const struct hang_diag_cpu *ranks, size_t n, double elapsed_s,
                                enum hang_diag_share against, size_t *who);

/* Verification's scans are gap_s apart in every live rank's own time: after a scan elapsed_s after
 * the one before, in which the most deprived live rank had least_own_s for itself, how much longer
 * to wait before taking that scan again; 0 when the gap is complete (least_own_s >= gap_s) or has
 * lasted max_stretch gaps (a node that never lets a rank run must not hold verification forever).
 * Never less than HANG_DIAG_MIN_RETAKE_S otherwise: a retake costs a reading of every rank. */
#define HANG_DIAG_MIN_RETAKE_S 0.05
double hang_diag_retake_after(double gap_s, double elapsed_s, double least_own_s,
                              double max_stretch);

#endif
