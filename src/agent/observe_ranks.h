/* Never blind in silence: which ranks of a job a tool observes, decided per rank while the job
 * starts (rank_observe.h over rank_sight.h readings), said on stderr as soon as a rank is found
 * blind, and given for the report's `observation` section (docs/report-schema.md). */
#ifndef MG_OBSERVE_RANKS_H
#define MG_OBSERVE_RANKS_H

#include "job_session.h"
#include "rank_observe.h"

typedef struct observe_ranks observe_ranks;

/* How a tool knows a rank's interposition library started: 1 when rank `rank` has published (its
 * state segment, its event ring); -1 when that may still be learnt later (records on their way
 * through agents and leaves): a rank whose process is gone is then judged at the job's end, not at
 * once. */
typedef int (*observe_ranks_published_fn)(void *ctx, int rank);

/* Published through the state module (js->ranks[r].state): run, and hang's shm sampler. ctx is
 * the job_session. */
int observe_ranks_by_state(void *ctx, int rank);

/* An observer of the job's ranks. published NULL: the tool reads them by their stacks alone
 * (hang's ptrace sampler on a job it attached to or reads through agents on this machine), and a
 * rank is blind when nothing in it is MPI. NULL when out of memory (the caller says so and exits
 * 70). */
observe_ranks *observe_ranks_create(job_session *js, observe_ranks_published_fn published,
                                    void *ctx);
void observe_ranks_destroy(observe_ranks *o);

/* Looks at the ranks again (at most every OBSERVE_RANKS_PERIOD_S unless job_ended) and prints
 * "mpiguard: <tool>: rank R (pid P) is not observed: <why>" once for each rank found blind.
 * job_ended: decide every rank still pending on what was seen. Returns how many ranks still running
 * were found blind by this call (one whose process ended is named but not counted). */
#define OBSERVE_RANKS_PERIOD_S 0.5
int observe_ranks_update(observe_ranks *o, int job_ended);

/* Across nodes, a rank this node sees on another node (a container, a namespace) is left to its
 * node's agent (observe_ranks_remote), however late it comes, not judged OTHER_NODE here; one still
 * unjudged at the job's end is NOT_FOUND. */
void observe_ranks_node_agents(observe_ranks *o);

/* The tool stops the job: a rank still pending that never published is then judged by
 * rank_observe_stopped, here and when its node's verdict comes (observe_ranks_remote). */
void observe_ranks_job_stopped(observe_ranks *o);

/* Where a rank's verdicts go when not to stderr: a node agent of check sends each to the detector,
 * the observed ones too, whenever a rank's verdict changes, and the first one even while pending
 * (the detector then knows which agent owns the rank). */
typedef void (*observe_ranks_verdict_fn)(void *ctx, int rank, int pid, rank_observe_cause cause,
                                         const char *detail);
void observe_ranks_on_verdict(observe_ranks *o, observe_ranks_verdict_fn fn, void *ctx);

/* Takes a verdict on rank r given on its node (by check's node agent, or the loss of that agent),
 * which this observer then never judges itself; a blind one is printed as a local one is, with the
 * node's name. A blind verdict stays. Returns 1 when r was found blind by this call. */
int observe_ranks_remote(observe_ranks *o, int r, int pid, const char *node,
                         rank_observe_cause cause, const char *detail);

/* The verdict on rank r so far (RANK_OBSERVE_PENDING for a rank not known). */
rank_observe_cause observe_ranks_cause(const observe_ranks *o, int r);
/* Ranks with a blind verdict; ranks with the verdict "observed". */
int observe_ranks_blind(const observe_ranks *o);
int observe_ranks_observed(const observe_ranks *o);
/* Whether every rank has a verdict and the job is past the time a silent rank is judged in: the
 * tool may stop looking until the job's end. */
int observe_ranks_settled(const observe_ranks *o);
/* Whether a rank found and still running, with no verdict yet, was found less than
 * OBSERVE_RANKS_SETTLING_S ago: a tool that stops the job now leaves it only "stopped before its
 * MPI_Init", where a moment more of /proc would have told its own cause (a program that is not MPI,
 * a replaced LD_PRELOAD). The bound lets one look (every OBSERVE_RANKS_PERIOD_S) come after the
 * rank's readings settled, with a period to spare for a loaded node. */
#define OBSERVE_RANKS_SETTLING_S (RANK_OBSERVE_SETTLE_S + 2 * OBSERVE_RANKS_PERIOD_S)
int observe_ranks_settling(const observe_ranks *o);

/* Rank r's verdict as the report gives it: *cause, its name ("not_found" for a rank never found);
 * *detail, why it is not observed (NULL when it is). Returns 0, touching neither, when r is past
 * the ranks this observer knows. */
int observe_ranks_verdict(const observe_ranks *o, int r, const char **cause, const char **detail);

#endif
