/* A hang watch's readings of a job's ranks (hang_watch.h): each rank looked at locally (its
 * published state or ptrace: rank_probe) or through the per-node agents that own it (hang_remote),
 * with what the readings cost the ranks. */
#ifndef MG_HANG_PROBES_H
#define MG_HANG_PROBES_H

#include "hang_watch.h"
#include "job_session.h"
#include "rank_probe.h"
#include "rank_stack.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct hang_remote hang_remote;

/* What the readings of one rank cost it (hang_probes.rank_cost). */
typedef struct hang_probes_cost {
    uint64_t readings;
    int64_t held_ns;
} hang_probes_cost;

typedef struct hang_probes {
    job_session *job;
    rank_probe_kind kind;
    hang_remote *remote; /* agents own the ranks; NULL: this process looks at them itself */
    rank_probe **probe;  /* local: one per rank, opened on first use */
    char *warned;        /* one per rank: its sampling trouble was reported once */
    char *by_ptrace;     /* local shm: one per rank, read by ptrace instead (not interposed) */
    uint64_t readings;   /* rank readings taken (model samples and verification scans) */
    int64_t held_ns;     /* what those readings cost the ranks under ptrace, here or through
                            agents (every observed rank): */
    int64_t frozen_ns;   /* bounds from above and below (rank_probe_reading) */
    hang_probes_cost *rank_cost; /* one per rank, or NULL: held_ns and readings by rank, so that
                                    the report says what each rank it observed paid */
    double cpu_share;            /* local: each rank's CPU share on this node (0: not known yet) */
} hang_probes;

/* How rank r is read: p->kind, or ptrace for a rank handed to it (hang_probes_use_ptrace). */
rank_probe_kind hang_probes_kind(const hang_probes *p, int r);
/* Reads rank r now (with_cpu_time as for rank_probe_read); returns 0, or 1 when the rank cannot
 * be seen (ptrace refused: a debugger holds it; its agent gone), with one warning per rank. A rank
 * that has not published its state yet (still in MPI_Init) reads as inside MPI; a vanished one as
 * exited. A rank that cannot be seen is never evidence of a hang: the model counts it as active
 * and the diagnosis names it unreadable. */
int hang_probes_read(hang_probes *p, int r, int with_cpu_time, rank_probe_reading *out);
/* Reads rank r by ptrace from now on, whatever p->kind: a rank the shm sampler cannot see (it is
 * not interposed, or its calls bypass the wrappers). Local probes only; 0, or MG_ERROR_ENOMEM. */
int hang_probes_use_ptrace(hang_probes *p, int r);
/* Rank r's stack now (ptrace, whatever the sampler); an empty stack when it cannot be taken. */
void hang_probes_stack(hang_probes *p, int r, rank_stack *out);
void hang_probes_close(hang_probes *p);

/* What a rank read as `reading` waits on, from the state it publishes (NULL: none here), in world
 * ranks: a communicator not known to be the world's leaves it unknown. A send or receive whose
 * wait is not published, or was published by a call other than the reading's (the segment says
 * another function, or no call in progress), is known by its function's direction alone, enough to
 * tell that a blocked sender may have a blocked receiver (hang_watch.c in_flight). */
struct hang_watch_wait hang_probes_wait(const rank_state *state, const rank_probe_reading *reading);

/* Reads rank r now for the watch engine (hang_probes_read), with its CPU time and share when
 * with_cpu_time. A rank that cannot be seen reads as exited only when its process is gone (on this
 * node: no such pid, or a zombie), else as unreadable; one whose shm state is not published yet as
 * not known. */
void hang_probes_read_for_watch(hang_probes *p, int r, int with_cpu_time,
                                struct hang_watch_reading *out);

#endif
