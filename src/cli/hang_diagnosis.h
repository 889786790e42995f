/* Internal to src/cli: no other folder includes it (docs/architecture.md). */
/* The ranks as the hang watch engine reads them (hang_watch.h), and after its verdict the finding:
 * roll-call, per-rank states and stacks, the merged stack prefix tree (docs/design/hang.md).
 * Ranks are looked at locally (rank_probe) or through per-node agents (hang_remote). */
#ifndef MG_HANG_DIAGNOSIS_H
#define MG_HANG_DIAGNOSIS_H

#include "cli.h"
#include "hang_diag.h"
#include "hang_watch.h"
#include "proc_exits.h"
#include "rank_probe.h"
#include "rank_stack.h"

typedef struct hang_remote hang_remote;

typedef struct hang_probes {
    cli_session *session;
    mg_probe_kind kind;
    hang_remote *remote;   /* agents own the ranks; NULL: this process looks at them itself */
    mg_rank_probe **probe; /* local: one per rank, opened on first use */
    char *warned;          /* one per rank: its sampling trouble was reported once */
    char *by_ptrace;       /* local shm: one per rank, read by ptrace instead (not interposed) */
    uint64_t readings;     /* rank readings taken (model samples and verification scans) */
    int64_t held_ns;       /* what those readings cost the ranks, local ptrace only: */
    int64_t frozen_ns;     /* bounds from above and below (mg_probe_reading) */
    double cpu_share;      /* local: each rank's CPU share on this node (0: not known yet) */
} hang_probes;

/* Reads rank r now (with_cpu_time as for mg_rank_probe_read); returns 0, or 1 when the rank cannot
 * be seen (ptrace refused: a debugger holds it; its agent gone), with one warning per rank. A rank
 * that has not published its state yet (still in MPI_Init) reads as inside MPI; a vanished one as
 * exited. A rank that cannot be seen is never evidence of a hang: the model counts it as active
 * and the diagnosis as absent. */
int hang_probes_read(hang_probes *p, int r, int with_cpu_time, mg_probe_reading *out);
/* Reads rank r by ptrace from now on, whatever p->kind: a rank the shm sampler cannot see (it is
 * not interposed, or its calls bypass the wrappers). Local probes only; 0, or MG_ENOMEM. */
int hang_probes_use_ptrace(hang_probes *p, int r);
/* Rank r's stack now (ptrace, whatever the sampler); an empty stack when it cannot be taken. */
void hang_probes_stack(hang_probes *p, int r, rank_stack *out);
void hang_probes_close(hang_probes *p);

/* Reads rank r now for the watch engine (hang_probes_read), with its CPU time and share when
 * with_cpu_time. A rank that cannot be seen reads as exited; one whose shm state is not published
 * yet as not known. */
void hang_probes_read_for_watch(hang_probes *p, int r, bool with_cpu_time,
                                struct hang_watch_reading *out);

/* Adds the hang finding to the session's report and prints its banner and the roll-call. Each
 * rank's state and function are those of the last verification scan (last), which the verdict
 * rests on, so that the report cannot contradict it; its stack is sampled now. detection_time is
 * seconds since the job started; model describes the model (the finding owns it). */
void hang_report(hang_probes *p, const struct hang_diag_result *result, const int *faulty,
                 const struct hang_diag_rank *last, double detection_time, json_object *model);

/* A rank that died (docs/hang.md "A rank that dies"): gone without MPI_Finalize, by its published
 * state (MPI_Abort is no death: it ends the job on purpose), or without one, killed by a signal;
 * the first to die when several did (a launcher ends the others after it). -1 when none. exits
 * may be NULL (no exit statuses: then only a published state tells). */
int hang_dead_rank(const cli_session *s, const proc_exits *exits);

/* Adds the finding for dead_rank and prints its banner: its signal or exit status (from exits,
 * NULL when not listening), its last MPI call and what the others were doing; job_ended says the
 * launcher ended the job after it (else the others were left waiting). */
void hang_report_dead_rank(cli_session *s, int dead_rank, const proc_exits *exits, bool job_ended,
                           double detection_time);

#endif
