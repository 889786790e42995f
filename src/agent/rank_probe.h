/* One look at one rank for hang detection, from either backend (docs/design/hang.md "How it
 * samples"): `shm` reads the state the interposition library publishes without stopping anyone;
 * `ptrace` stops the process briefly and reads its stacks. Both answer the same questions. */
#ifndef MG_RANK_PROBE_H
#define MG_RANK_PROBE_H

#include "mpi_function_ids.h"
#include "rank_stack.h"
#include "sampler_ptrace.h"

#include <stdint.h>

typedef enum rank_probe_kind { RANK_PROBE_SHM, RANK_PROBE_PTRACE } rank_probe_kind;

typedef struct rank_probe_reading {
    int exited; /* the process is gone (or a zombie) */
    int in_mpi; /* a thread is inside MPI, or the rank polls (MPI_Test or MPI_Iprobe in a loop) */
    mpi_function_ids_fn fn; /* the MPI function it is in, or last called; MG_FN_NONE when unknown */
    int progressed;    /* made a non-polling MPI call since the previous reading (counter known) */
    int counter_known; /* counter is valid: shm always; ptrace when the process holds the
                          interposition library's counter (a job mpiguard started), else when the
                          rank was read inside MPI with its frames digested, or outside MPI
                          before any reading inside */
    uint64_t counter;  /* MPI calls completed (shm) or entered (ptrace); under ptrace without the
                          library, the times its frames were seen to change inside MPI, and its
                          first reading inside after readings outside (its stand-in,
                          sampler_ptrace_result.frames_digest): only its moves matter */
    int64_t held_ns;   /* ptrace (0 under shm): from the first seize to the release; a thread that
                          was not running when interrupted stops only once scheduled, so this
                          bounds the time the process lost from above */
    int64_t frozen_ns; /* ptrace: from every thread stopped to the release (the unwinding): the
                          time it lost for sure */
    int runnable;      /* both: it was running or waiting for a CPU (state R) when read */
    int stopped;       /* both: stopped from outside when read (state T: a stop signal; t: held
                          by another tracer), never by this reading's own ptrace stop */
    int64_t cpu_time_ns; /* both, when asked for (with_cpu_time): its main thread's CPU time so */
    int64_t cpu_slices;  /* far and the slices it came in (rank_scan_cpu_time); -1: unknown */
} rank_probe_reading;

/* A reading that knows nothing yet (no function, CPU time unknown): what a caller fills in. */
static inline rank_probe_reading mg_probe_reading_unknown(void)
{
    return (rank_probe_reading){.fn = MG_FN_NONE, .cpu_time_ns = -1, .cpu_slices = -1};
}

typedef struct rank_probe rank_probe;

/* Prepares to probe rank `rank` (process pid) of the job with the given token (shm needs it; under
 * ptrace, NULL or "" for a rank whose segment must not be read). Does not stop the process.
 * MG_ERROR_ENOENT when the process is gone or, for shm, has not published yet; MG_ERROR_EPERM when
 * ptrace is refused; MG_ERROR_ENOMEM. */
int rank_probe_open(rank_probe_kind kind, const char *token, int rank, int pid, rank_probe **out);

/* What a reading needs beyond the process's state (rank_probe_read's with_cpu_time, a set of
 * bits; a true value is RANK_PROBE_CPU_TIME): the CPU time; and GAP_ONLY, the CPU time and counter
 * alone, where the rank is being allowed to be the last seen (hang_watch_step.gap_only). */
enum { RANK_PROBE_CPU_TIME = 1, RANK_PROBE_GAP_ONLY = 2 | RANK_PROBE_CPU_TIME };

/* Reads the rank's state now, and with_cpu_time its CPU time too (one more /proc file: the
 * verification scans need it, the model's samples do not). With a counter, a rank whose last call
 * was a polling one and whose counter moved since the previous reading counts as in MPI
 * (ParaStack treats busy-wait polling as staying in MPI). Under ptrace, a reading without the CPU
 * time whose counter moved since the previous reading, the latest sample having caught the rank
 * out of any polling call, is answered by the counter alone, without stopping the rank (up to 3
 * in a row); a GAP_ONLY reading of a rank sampled before never stops it. Under ptrace a rank that
 * publishes its segment (this process's, under the probe's token) is read from it as under shm,
 * and stopped only for a scan (with the CPU time, not GAP_ONLY) that finds it outside MPI: its
 * stack's verdict then stands. Returns 0 (an exited process is a reading, not an error) or the
 * sampler's error. */
int rank_probe_read(rank_probe *p, int with_cpu_time, rank_probe_reading *out);

/* Reads the rank through *probe, opening it first when *probe is NULL (arguments as for
 * rank_probe_open and rank_probe_read). A rank with nothing to open reads as exited when its
 * process is gone, else as still starting (in MPI_Init: it has not published its state yet), with
 * what /proc says of the process (stopped, runnable, its CPU time). 0
 * with *out set, or the error of the open or the read. */
int rank_probe_read_opening(rank_probe_kind kind, const char *token, int rank, int pid,
                            rank_probe **probe, int with_cpu_time, rank_probe_reading *out);

/* The stack a report shows (stack_from_sample), through ptrace. A sample that caught no frame
 * of that thread is taken again, up to RANK_PROBE_STACK_TRIES samples in all: on a loaded node a
 * thread may not stop within the sampler's timeout (it is then late, and the next sample takes
 * it). An exited process or a refusal gives an empty stack at once. */
enum { RANK_PROBE_STACK_TRIES = 3 };
void rank_probe_stack(rank_probe *p, rank_stack *out);

/* Releases the process (detaching under ptrace) and frees p; NULL is accepted. */
void rank_probe_close(rank_probe *p);

/* Makes every ongoing and later ptrace sample of every open probe give up at once and release its
 * process. Async-signal-safe: for mpiguard's SIGINT/SIGTERM handler. */
void rank_probe_abort_all(void);

#endif
