/* The wait-for analysis of the current state (paper 4.3, 5.2): build the graph, find the processes
 * that can never be released and the OR-knots among them, report deadlocks, and release the
 * standard sends that MPI buffered (a potential deadlock) before looking again.
 * docs/design/check-detector.md §8. */
#include "wait_analysis.h"

#include <stdlib.h>
#include <string.h>

#include "mg_error.h"
#include "wfg_build.h"
#include "wait_state.h"
#include "detector_settle.h"
#include "or_knot.h"

/* The deadlocked part worth reporting: non-released nodes reachable from the blocked live processes
 * that are not released and not reported yet (a finalized process nobody waits for is not part
 * of it, nor a knot reported by an earlier check); with `progressed`, only from those that have
 * records held behind their wait (they went on in reality: a potential deadlock). */
static int reach_deadlocked(const deadlock_detector *det, const wait_graph *g,
                            const or_knot_result *res, int progressed, uint8_t *keep)
{
    uint32_t *stack = malloc((g->n_nodes ? g->n_nodes : 1) * sizeof *stack);
    if (!stack) {
        return MG_ERROR_ENOMEM;
    }
    size_t sp = 0;
    memset(keep, 0, g->n_nodes);
    for (int32_t v = 0; v < det->world; v++) {
        if (res->status[v] != OR_KNOT_RELEASED && g->nodes[v].state == WAIT_GRAPH_BLOCKED &&
            !(det->ranks[v].flags & DETECTOR_STATE_RANK_REPORTED) &&
            (!progressed || record_backlog_has(&det->backlog, v))) {
            keep[v] = 1;
            stack[sp++] = (uint32_t)v;
        }
    }
    while (sp) {
        uint32_t v = stack[--sp];
        for (uint32_t i = g->out_start[v]; i < g->out_start[v + 1]; i++) {
            uint32_t w = g->arcs[i].to;
            if (!keep[w] && res->status[w] != OR_KNOT_RELEASED) {
                keep[w] = 1;
                stack[sp++] = w;
            }
        }
    }
    free(stack);
    return MG_ERROR_OK;
}

static int make_finding(deadlock_detector *det, const wait_graph *g, const or_knot_result *res,
                        const uint8_t *keep, uint8_t kind, uint32_t notes, uint64_t now)
{
    dl_finding f = {.kind = kind,
                    .notes = notes | det->notes,
                    .time = now,
                    .probe_rank = -1,
                    .probe_source = -1};
    int rc = MG_ERROR_OK;
    for (int pass = 0; pass < 2 && !rc; pass++) {
        for (int32_t v = 0; v < det->world && !rc; v++) {
            int in_knot = res->status[v] == OR_KNOT_IN_KNOT;
            if (!keep[v] || in_knot != (pass == 0)) {
                continue;
            }
            const wait_graph_node *x = &g->nodes[v];
            dl_finding_call c = {.rank = v,
                                 .func = x->func,
                                 .state = x->state,
                                 .in_knot = (uint8_t)in_knot,
                                 .comm = x->comm,
                                 .peer = x->peer,
                                 .tag = x->tag,
                                 .root = CHECK_EVENT_NO_ROOT,
                                 .callsite = x->callsite};
            uint32_t wi = det->ranks[v].wait;
            if (wi != DETECTOR_STATE_DL_NONE) {
                c.root = det->waits[wi].root;
                c.op = det->waits[wi].op;
            }
            rc = dl_finding_add_call(&f, &c);
            f.n_knot += in_knot;
        }
    }
    rc = rc ? rc : wait_graph_subgraph(g, keep, &f.graph);
    if (rc) {
        dl_finding_free(&f);
        return rc;
    }
    return detector_state_push_finding(det, &f);
}

/* Standard sends of deadlocked ranks that really went on (records held behind them) were
 * buffered by MPI: complete them. Returns how many. */
static size_t release_buffered(deadlock_detector *det, const or_knot_result *res)
{
    size_t released = 0;
    for (int32_t r = 0; r < det->world; r++) {
        uint32_t wi = det->ranks[r].wait;
        if (res->status[r] == OR_KNOT_RELEASED || wi == DETECTOR_STATE_DL_NONE ||
            !record_backlog_has(&det->backlog, r)) {
            continue;
        }
        for (uint32_t i = 0; i < det->waits[wi].n_items; i++) {
            detector_state_item *it = &det->waits[wi].items[i];
            if (it->type != DETECTOR_STATE_ITEM_P2P || it->done || it->ref == P2P_MATCH_NONE) {
                continue;
            }
            p2p_match_op *o = &det->p2p.ops[it->ref];
            if (o->kind == P2P_MATCH_SEND &&
                (o->p.mode == CHECK_EVENT_MODE_STANDARD || o->p.mode == CHECK_EVENT_MODE_READY)) {
                o->owner = P2P_MATCH_NONE;
                wait_state_item_done(det, wi, i);
                released++;
            }
        }
    }
    return released;
}

int wait_analysis_run(deadlock_detector *det, uint64_t now, uint32_t notes, int *found_deadlock)
{
    *found_deadlock = 0;
    uint32_t extra = 0;
    int rc = MG_ERROR_OK;
    for (uint32_t round = 0; round < det->prm.release_rounds && !rc; round++) {
        wait_graph g;
        or_knot_result res = {0};
        uint8_t *keep = NULL;
        rc = wfg_build(det, &g);
        rc = rc ? rc : or_knot_analyze(&g, &res);
        if (!rc) {
            keep = malloc(g.n_nodes ? g.n_nodes : 1);
            rc = keep ? reach_deadlocked(det, &g, &res, 0, keep) : MG_ERROR_ENOMEM;
        }
        size_t dead = 0, progressed = 0, reported = 0, terminated = 0;
        for (int32_t r = 0; !rc && r < det->world; r++) {
            if (!keep[r]) {
                continue;
            }
            if (g.nodes[r].state == WAIT_GRAPH_TERMINATED) {
                terminated++;
                continue;
            }
            dead++;
            progressed += record_backlog_has(&det->backlog, r);
        }
        for (int32_t r = 0; !rc && r < det->world; r++) {
            reported += res.status[r] != OR_KNOT_RELEASED &&
                        (det->ranks[r].flags & DETECTOR_STATE_RANK_REPORTED);
        }
        int again = 0;
        if (!rc && dead && progressed) {
            rc = reach_deadlocked(det, &g, &res, 1, keep);
            rc = rc ? rc
                    : make_finding(det, &g, &res, keep, DL_FINDING_POTENTIAL_DEADLOCK, notes, now);
            again = !rc && release_buffered(det, &res) > 0;
            extra = DL_FINDING_NOTE_BUFFER_RELEASED;
        } else if (!rc && dead) {
            rc = make_finding(det, &g, &res, keep,
                              terminated ? DL_FINDING_STUCK_ON_TERMINATED : DL_FINDING_DEADLOCK,
                              notes | extra, now);
            for (int32_t r = 0; !rc && r < det->world; r++) {
                if (keep[r]) {
                    det->ranks[r].flags |= DETECTOR_STATE_RANK_REPORTED;
                }
            }
            *found_deadlock = !rc;
        } else if (!rc && reported) {
            *found_deadlock = 1; /* reported by an earlier check */
        }
        free(keep);
        or_knot_result_free(&res);
        wait_graph_free(&g);
        if (!again) {
            break;
        }
        rc = detector_settle(det);
    }
    return rc;
}
