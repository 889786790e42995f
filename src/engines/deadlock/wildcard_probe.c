/* Wildcard receives without completion information (paper §6): probing explores the possible
 * matches of undecided wildcards on copies of the detector and reports a deadlock one of them
 * leads to; deciding forces a match when held records pile up. docs/design/check-detector.md
 * §10. */
#include "wildcard_probe.h"

#include <stdint.h>
#include <stdlib.h>

#include "coll_findings.h"
#include "mg_error.h"
#include "wait_analysis.h"
#include "detector_settle.h"

/* An undecided wildcard receive of a live rank (the lowest op index, so runs are reproducible), or
 * P2P_MATCH_NONE. */
static uint32_t first_undecided(const deadlock_detector *det)
{
    for (size_t i = 0; i < det->p2p.n_ops; i++) {
        const p2p_match_op *o = &det->p2p.ops[i];
        if (o->state == P2P_MATCH_UNDECIDED &&
            det->ranks[o->p.rank].life == DETECTOR_STATE_LIFE_LIVE) {
            return (uint32_t)i;
        }
    }
    return P2P_MATCH_NONE;
}

/* Moves the findings of a probe copy into the detector, stamped with the decision explored; the
 * copy's analysis ends the hold of every collective mismatch it made, from records read already
 * (their refusals, if any, with them). */
static int adopt(deadlock_detector *det, deadlock_detector *copy, const p2p_match_op *wild,
                 int32_t source)
{
    int rc = coll_findings_release(copy, 1, UINT64_MAX);
    for (size_t i = 0; i < copy->n_findings; i++) {
        dl_finding f = copy->findings[i];
        copy->findings[i] = (dl_finding){0};
        f.notes |= DL_FINDING_NOTE_PROBED;
        f.probe_rank = wild->p.rank;
        f.probe_request = wild->p.request;
        f.probe_source = source;
        int r2 = detector_state_push_finding(det, &f);
        rc = rc ? rc : r2;
    }
    return rc;
}

static int explore(deadlock_detector *det, deadlock_detector *root, uint64_t now, uint32_t depth,
                   uint32_t *budget, int *found)
{
    uint32_t op = first_undecided(det);
    if (op == P2P_MATCH_NONE) {
        return MG_ERROR_OK;
    }
    uint32_t cap = det->prm.probe_candidates;
    int32_t *sources = malloc((cap ? cap : 1) * sizeof *sources);
    int32_t *tags = malloc((cap ? cap : 1) * sizeof *tags);
    if (!sources || !tags) {
        free(sources);
        free(tags);
        return MG_ERROR_ENOMEM;
    }
    size_t n = p2p_match_candidates(&det->p2p, op, sources, tags, cap);
    int rc = MG_ERROR_OK;
    for (size_t i = 0; i < n && !*found && !rc; i++) {
        if (*budget == 0) {
            break;
        }
        (*budget)--;
        deadlock_detector *copy;
        rc = detector_state_clone(det, &copy);
        if (rc) {
            break;
        }
        int dead = 0;
        rc = p2p_match_decide(&copy->p2p, op, sources[i], tags[i], 1);
        rc = rc ? rc : detector_settle(copy);
        rc = rc ? rc : wait_analysis_run(copy, now, DL_FINDING_NOTE_PROBED, &dead);
        if (!rc && dead) {
            *found = 1;
            rc = adopt(root, copy, &det->p2p.ops[op], sources[i]);
        } else if (!rc && depth + 1 < det->prm.probe_depth) {
            rc = explore(copy, root, now, depth + 1, budget, found);
        }
        detector_state_destroy(copy);
    }
    free(sources);
    free(tags);
    return rc;
}

int wildcard_probe_run(deadlock_detector *det, uint64_t now, int *found)
{
    uint32_t budget = det->prm.probe_budget;
    *found = 0;
    return explore(det, det, now, 0, &budget, found);
}

int wildcard_probe_decide(deadlock_detector *det, uint64_t now)
{
    int found = 0;
    int rc = det->prm.probing ? wildcard_probe_run(det, now, &found) : MG_ERROR_OK;
    uint32_t op;
    while (!rc && (op = first_undecided(det)) != P2P_MATCH_NONE) {
        int32_t source, tag;
        if (p2p_match_candidates(&det->p2p, op, &source, &tag, 1) == 0) {
            break;
        }
        rc = p2p_match_decide(&det->p2p, op, source, tag, 1);
        det->forced++;
        det->notes |= DL_FINDING_NOTE_DECISION_FORCED;
        rc = rc ? rc : detector_settle(det);
    }
    return rc;
}
