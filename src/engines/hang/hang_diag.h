/* Diagnosis after a HANG verdict (ParaStack §3.3 "Transient slowdowns" and §4; design/hang.md
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
    bool counter_known; /* counter is valid (shm backend); false under ptrace */
    int func;
    uint64_t counter; /* MPI calls entered so far */
};

struct hang_diag_input {
    size_t nranks;
    size_t nscans;                      /* >= 2, in time order */
    const struct hang_diag_rank *scans; /* nscans * nranks, scan-major: scans[s * nranks + r] */
    const bool *polling;                /* polling[f]: function f is a busy-wait probe (MPI_Test*,
                                           MPI_Iprobe); ids >= npolling are not polling */
    size_t npolling;
};

enum hang_diag_kind {
    HANG_DIAG_PROGRESS,      /* some rank progressed: a transient slowdown, resume watching */
    HANG_DIAG_COMPUTATION,   /* a hang with ranks stuck OUT_MPI: those are the faulty ranks */
    HANG_DIAG_COMMUNICATION, /* a hang with every live rank inside MPI */
    HANG_DIAG_ALL_EXITED     /* every rank has exited: no hang */
};

struct hang_diag_result {
    enum hang_diag_kind kind;
    int progress_rank; /* the first rank that showed progress, or -1 */
    size_t nfaulty;    /* ranks OUT_MPI in every scan (may exceed the caller's capacity) */
    size_t nexited;    /* ranks exited in some scan */
};

/* Progress of a live rank between consecutive scans: with both counters known, a counter that
 * moved unless every function seen in the two scans is a polling one; in both cases (and as the
 * only rules without counters, paper §3.3) a different non-polling MPI function seen IN_MPI in the
 * two scans, or a step into or out of a non-polling MPI function. Unknown functions (-1) count as
 * non-polling. The first min(nfaulty, faulty_cap) faulty ranks go to faulty[] in rank order
 * (nfaulty is 0 on PROGRESS). 0 ok; MG_EINVAL on NULL input or scans, nranks == 0, nscans < 2, or
 * faulty == NULL with faulty_cap > 0. */
int hang_diag_classify(const struct hang_diag_input *in, int *faulty, size_t faulty_cap,
                       struct hang_diag_result *out);

#endif
