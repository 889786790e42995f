/* One process of the tree of detectors (docs/design/check-detector.md §14): it reads the
 * record streams of its children (record_stream.h frames: WORLD first, then RECORD, END and the
 * others), feeds their records to a tbon_leaf stage for its share of ranks, and writes one stream
 * of the same frames to its parent: what the stage passes up, and every other frame unchanged. */
#ifndef MG_TBON_STAGE_H
#define MG_TBON_STAGE_H

#include <stddef.h>
#include <stdint.h>

#include "check_agent.h"
#include "tbon_leaf.h"

typedef struct tbon_stage_params {
    const int *inputs; /* the children's streams (read ends), closed by the caller */
    /* the ranks each child streams: input_count[i] world ranks input_ranks[i][], ascending; a
     * child's summary stands for all of them */
    const int32_t *const *input_ranks;
    const int32_t *input_count;
    int n_inputs;
    int output; /* the parent's stream; closed when the stage ends */
    /* the parent's answers (COMPLETED frames, tbon_leaf_completed), or -1; and per child where
     * this stage's go (-1: an agent, which waits for none); closed by the caller */
    int answers_in;
    const int *answers_out;
    /* the share: count world ranks ranks[], ascending (any set), or, ranks NULL and shares > 0,
     * share `share` of `shares` of the world (check_agent_share_range), known at the WORLD frame;
     * with shares > 0 the one input streams the share */
    const int32_t *ranks;
    int32_t count;
    int share, shares;
    /* a live job's stage (check's leaf): when its inputs stayed quiet this long, its held calls go
     * up; 0 for a replay, whose streams always end */
    int quiet_ms;
    /* a node's leaf under `check --agent-launcher`, whose one input is its node's agent: that
     * agent lost, the stage ends at once (MG_ERROR_ECHILD), its output closed without DONE, so that
     * the parent names the share's ranks not observed as it does a lost agent's, instead of taking
     * them for ended ranks while they run on */
    int agent_bound;
} tbon_stage_params;

typedef struct tbon_stage_result {
    tbon_leaf_counts counts;
    int broken_inputs;          /* children whose stream ended inside a frame or was malformed */
    int32_t first, last, count; /* the share's lowest and highest ranks, and its size */
} tbon_stage_result;

/* Runs the stage until every child's stream ended; when nothing came for quiet_ms, the held
 * calls go up (tbon_leaf_flush: a deadlock inside the share then reaches the root of a job that
 * never ends), and the END frames behind them. Tells its children the calls they wait on as
 * its stage or its parent leaves them (tbon_stage_tell_children): then the held calls go up
 * (tbon_leaf_flush), then the END frames of its ranks (held back until then, so each follows its
 * rank's last record), and the output is closed. A child that breaks off (killed, or a malformed
 * stream) is counted and the others go on: each of its ranks that had no END frame gets one saying
 * CHECK_AGENT_LOST, so the root learns which ranks it lost (deadlock_detector_process_lost). The
 * caller ignores SIGPIPE. Errors, with err naming the problem: MG_ERROR_EIO (the parent went away),
 * MG_ERROR_EFORMAT (a record the stage refused), MG_ERROR_ECHILD (agent_bound: the agent was lost),
 * MG_ERROR_ENOMEM.
 */
/* Writes each answer (rank, exit seq) as a COMPLETED frame to the child streaming its rank: child
 * i streams the count[i] ranks ranks[i][] (ascending) and reads answers from outputs[i]; -1 (an
 * agent) waits for none, and a child that went away is set to -1. answered (or NULL) counts the
 * frames written to each child: a child has ended after its last answer only when its ENDED frame
 * says it read them all (agent_proto.h), since an ENDED it wrote before reading one may arrive
 * after it left. The caller ignores SIGPIPE. */
void tbon_stage_tell_children(const tbon_leaf_call *calls, size_t n, int n_children,
                              const int32_t *const *ranks, const int32_t *count, int *outputs,
                              uint64_t *answered);

int tbon_stage_run(const tbon_stage_params *p, tbon_stage_result *out, char *err, size_t errlen);

#endif
