/* The ptrace backend of `mpiguard hang`: stops the main thread of one process, unwinds its stack,
 * lets it go, and the other threads likewise only when the main one does not answer; says whether
 * the process is inside MPI. Spec: docs/design/hang.md "How it
 * samples"; guarantees, the IN_MPI rule and measured costs: docs/sampler.md. */
#ifndef SAMPLER_PTRACE_H
#define SAMPLER_PTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ptrace_stop.h"
#include "stack_classify.h"
#include "stack_unwind.h"

typedef struct sampler_ptrace sampler_ptrace;

typedef struct sampler_ptrace_params {
    size_t max_frames;                       /* frames kept per thread; deeper stacks are cut */
    ptrace_stop_params stop;                 /* how threads are stopped and waited for */
    stack_unwind_params unwind;              /* caches of the unwinder */
    const char *const *mpi_library_prefixes; /* NULL-terminated base-name prefixes of MPI's files */
    /* A counter of MPI calls entered that the process may hold: the data object counter_symbol
     * (a uint64_t) in a module whose base name starts with counter_module_prefix. NULL for none. */
    const char *counter_module_prefix;
    const char *counter_symbol;
    /* Called once per sample while the main thread is held stopped, before it is unwound; NULL
     * for none. It lets a caller read /proc state of a held process, and lets tests kill the
     * sampler or the target, or end another thread, at the worst moment. It must not resume the
     * target. */
    void (*on_stopped)(pid_t pid, void *arg);
    void *on_stopped_arg;
    /* The SCHED_FIFO priority the sampling thread runs at from each seize to the release, 0 for
     * none: on a loaded node a thread of normal priority waits for a CPU after every poll and
     * before the detach, the target stopped all the while. Where the kernel refuses it (no
     * CAP_SYS_NICE), samples keep the thread's own policy. */
    int hold_priority;
} sampler_ptrace_params;

/* The default MPI file prefixes: Open MPI (libmpi., libmpi_, libopen-pal, libopen-rte,
 * libmca_common, mca_ plugins), MPICH (libmpich, libmpi.so.12 via libmpi.), PMIx (libpmix,
 * pmix_mca_), UCX (libucp, libucs, libuct, libucm), libfabric and PSM2. NULL-terminated, static. */
extern const char *const sampler_ptrace_default_mpi_prefixes[];

/* Defaults: 128 frames, ptrace_stop_params_default, stack_unwind_params_default, the prefixes
 * above, the counter of the interposition library ("mpiguard_calls_entered" in "libmpiguard-"),
 * no hook, hold priority 1. */
void sampler_ptrace_params_default(sampler_ptrace_params *p);

typedef enum sampler_ptrace_thread_state {
    SAMPLER_PTRACE_THREAD_SAMPLED = 0, /* stopped and unwound */
    SAMPLER_PTRACE_THREAD_LATE,    /* did not stop before the timeout (e.g. in an uninterruptible
                                    * sleep); no stack; it is detached once it stops */
    SAMPLER_PTRACE_THREAD_VANISHED /* exited during the sample */
} sampler_ptrace_thread_state;

typedef struct sampler_ptrace_thread {
    pid_t tid;
    sampler_ptrace_thread_state state;
    int64_t stop_ns; /* from its interrupt until it was seen stopped (waiting for a CPU); -1 when
                        it was not */
    bool in_mpi;     /* see stack_classify_thread */
    const char *mpi_function; /* outermost MPI entry ("MPI_Barrier") or NULL */
    size_t nframes;
    const stack_classify_frame *frames; /* innermost first */
} sampler_ptrace_thread;

typedef struct sampler_ptrace_result {
    pid_t pid;
    stack_classify_verdict verdict;
    const char *mpi_function; /* the process's MPI call (stack_classify_process) or NULL */
    bool counter_known;       /* the process holds the call counter and it was read while stopped */
    uint64_t counter;         /* MPI calls entered so far */
    uint64_t polls;           /* of which polling ones (MPI_Test*, MPI_Iprobe), with counter */
    /* Without the counter, a digest of the main thread's frames from the program's call of the
     * MPI function it is in outward: their call sites, their stack up to 4 KiB, and the registers
     * the calling frame keeps its locals in (frames_known says it was taken). While the call waits
     * none of it changes; a loop back to the same call has written its locals since (an iteration
     * count, a request handle), so a change between two samples says the program's own code ran in
     * between. */
    bool frames_known;
    uint64_t frames_digest;
    /* The threads stopped: the main thread first (unless it is gone), then, when it is not inside
     * MPI, the others but those seen before to be MPI's own (stack_classify_is_mpi_own_thread). */
    size_t nthreads;
    const sampler_ptrace_thread *threads;
    unsigned signals_reinjected; /* signals caught while stopping and delivered again */
    int64_t stop_ns;             /* from each PTRACE_SEIZE until its threads were stopped, summed
                                  * over the main thread's stop and the others' */
    int64_t held_ns;             /* how long threads were held (each stop's seize to its detach) */
    int64_t total_ns;            /* the whole call, wall clock */
    int64_t cpu_ns;              /* CPU time the calling thread spent in the call */
    /* Where held_ns went (the rest of it, stop_ns - wait_ns, is seizing and interrupting): */
    int64_t wait_ns;       /* from an interrupt until the last taken thread stopped, per stop */
    int64_t unwind_ns;     /* reading registers and memory and unwinding, the threads stopped */
    int64_t release_ns;    /* detaching them */
    const char *unsampled; /* MG_ERROR_ETIMEOUT: why no thread was sampled of the live process */
} sampler_ptrace_result;

/* Prepares to sample process pid: reads its maps and prepares the unwinder (modules,
 * /proc/PID/mem). Does not stop the process. The sampler must then be used from the calling thread
 * only (ptrace ties a tracee to the thread that seized it). Returns MG_ERROR_EINVAL,
 * MG_ERROR_ENOENT (no such process), MG_ERROR_EPERM (the kernel refuses to let us trace or read
 * it), MG_ERROR_ENOMEM, MG_ERROR_EUNSUPPORTED (libdwfl cannot unwind it); *out is unchanged on
 * failure. */
int sampler_ptrace_open(pid_t pid, const sampler_ptrace_params *params, sampler_ptrace **out);

/* Takes one sample: seizes and interrupts the main thread, waits for it, unwinds it, detaches it
 * (re-injecting a caught signal), names and classifies its frames; when it is not inside MPI, does
 * the same with the other threads but MPI's own, all interrupted in one burst. *out points to
 * memory owned by the sampler, valid until the next sample or close. A process that exits before
 * or during the sample gives verdict STACK_CLASSIFY_EXITED and 0, not an error; after that every
 * sample says EXITED. Returns MG_ERROR_EPERM (tracing refused, e.g. another tracer),
 * MG_ERROR_ETIMEOUT (the process lives, /proc says, but no thread was sampled: none stopped before
 * the timeout, or its main thread is gone and the others are MPI's own; *out then says why in
 * unsampled, and its held time), MG_ERROR_ESTATE (aborted), MG_ERROR_ENOMEM or MG_ERROR_ESYS. On
 * every return no thread of the target is left stopped by us, except a LATE thread that stops after
 * the return: it stays in a ptrace-stop until the next sample or close (at most one sampling
 * interval), or until this process exits. */
int sampler_ptrace_sample(sampler_ptrace *s, const sampler_ptrace_result **out);

/* Lets go of a LATE thread of an earlier sample that has stopped since (sampler_ptrace_sample),
 * without waiting: a caller that reads the process's state in /proc first calls it, so that the
 * stop it sees is not ours. */
void sampler_ptrace_release_late(sampler_ptrace *s);

/* Reads the process's call counter and its count of polling calls now, without stopping anything
 * (one read of its memory), for a caller that skips the sample when the counter alone answers.
 * False when the process holds no counter or it cannot be read (the process is gone). */
bool sampler_ptrace_read_counter(sampler_ptrace *s, uint64_t *counter, uint64_t *polls);

/* Whether the main thread's stack above its MPI call (the bytes of frames_digest), read again
 * without a stop, changed since the latest sample or the latest call: 1 changed, 0 not, -1 when
 * the latest sample took no digest (the rank was outside MPI, or holds the counter) or the stack
 * cannot be read. A change says the program's own code ran since, as a moved counter does; no
 * change leaves it to a sample (the rank may have computed in its registers). */
int sampler_ptrace_frames_moved(sampler_ptrace *s);

/* Gives the frames of the last sample their source file and line (stack_classify_frame), where
 * debug information exists; a sample leaves them NULL, since the first lookup in a module loads its
 * line tables (tens of ms: docs/hang-measurements-stacks.md). For stacks shown to people.
 */
void sampler_ptrace_add_sources(sampler_ptrace *s);

/* Makes an ongoing sample stop waiting, release every stopped thread and return MG_ERROR_ESTATE,
 * and every later sample return MG_ERROR_ESTATE at once. Async-signal-safe (one atomic store), so a
 * SIGINT/SIGTERM handler may call it; the sampling thread then finishes within one poll pause.
 * A handler that ends the process instead needs nothing: the kernel detaches seized tracees of
 * an exiting tracer and resumes them. */
void sampler_ptrace_abort(sampler_ptrace *s);

/* Releases the process (waiting up to the stop timeout for late threads) and frees s; NULL is
 * accepted. Returns MG_ERROR_ETIMEOUT when a late thread could not be detached (the kernel does it
 * when this process exits), else 0. */
int sampler_ptrace_close(sampler_ptrace *s);

#endif
