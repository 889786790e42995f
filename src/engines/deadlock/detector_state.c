/* The deadlock detector's state: creation, deep copy for probing, release, and the findings list
 * (detector_state.h). docs/design/check-detector.md §5. */
#include "detector_state.h"

#include <stdlib.h>
#include <string.h>

#include "mg_array.h"
#include "mg_error.h"

int detector_state_create(const dl_params *params, int32_t world_size, deadlock_detector **out)
{
    deadlock_detector *det = calloc(1, sizeof *det);
    if (!det) {
        return MG_ERROR_ENOMEM;
    }
    det->prm = *params;
    det->world = world_size;
    det->live = (size_t)world_size;
    det->free_wait = DETECTOR_STATE_DL_NONE;
    p2p_match_init(&det->p2p);
    /* A new mismatch finding lists the first call, the agreeing ones and the disagreeing one. */
    coll_match_init(&det->coll, det->prm.mismatch_ranks > 2 ? det->prm.mismatch_ranks - 2 : 0);
    request_table_init(&det->reqs);
    det->ranks = calloc((size_t)world_size, sizeof *det->ranks);
    det->work = malloc((size_t)world_size * sizeof *det->work);
    int rc = det->ranks && det->work ? comm_table_init(&det->comms, world_size) : MG_ERROR_ENOMEM;
    if (!rc) {
        rc = record_backlog_init(&det->backlog, world_size);
    }
    if (rc) {
        free(det->ranks);
        free(det->work);
        comm_table_free(&det->comms);
        free(det);
        return rc;
    }
    for (int32_t r = 0; r < world_size; r++) {
        det->ranks[r].wait = DETECTOR_STATE_DL_NONE;
    }
    *out = det;
    return MG_ERROR_OK;
}

static void free_state(deadlock_detector *det)
{
    for (size_t i = 0; i < det->n_waits; i++) {
        free(det->waits[i].items);
    }
    free(det->waits);
    free(det->ranks);
    comm_table_free(&det->comms);
    p2p_match_free(&det->p2p);
    coll_match_free(&det->coll);
    request_table_free(&det->reqs);
    rma_locks_free(&det->locks);
    record_backlog_free(&det->backlog);
    free(det->work);
    for (size_t i = 0; i < det->n_findings; i++) {
        dl_finding_free(&det->findings[i]);
    }
    free(det->findings);
    for (size_t i = 0; i < det->n_held_mismatches; i++) {
        dl_finding_free(&det->held_mismatches[i].f);
        free(det->held_mismatches[i].calls);
    }
    free(det->held_mismatches);
    free(det->held);
    free(det->dec_req);
    free(det->dec_st);
    free(det->dec_ranks);
}

void detector_state_destroy(deadlock_detector *det)
{
    if (det) {
        free_state(det);
        free(det);
    }
}

int detector_state_clone(const deadlock_detector *src, deadlock_detector **out)
{
    deadlock_detector *d = calloc(1, sizeof *d);
    if (!d) {
        return MG_ERROR_ENOMEM;
    }
    d->prm = src->prm;
    d->world = src->world;
    d->free_wait = src->free_wait;
    d->live = src->live;
    d->blocked = src->blocked;
    d->records = src->records;
    d->last_time = src->last_time;
    d->forced = src->forced;
    d->notes = src->notes;
    d->probe_mark = src->probe_mark;
    d->ranks = malloc((size_t)src->world * sizeof *d->ranks);
    d->work = malloc((size_t)src->world * sizeof *d->work);
    d->waits = src->cap_waits ? calloc(src->cap_waits, sizeof *d->waits) : NULL;
    int rc = !d->ranks || !d->work || (src->cap_waits && !d->waits) ? MG_ERROR_ENOMEM : MG_ERROR_OK;
    if (!rc) {
        memcpy(d->ranks, src->ranks, (size_t)src->world * sizeof *d->ranks);
        memcpy(d->work, src->work, (size_t)src->world * sizeof *d->work);
        d->work_head = src->work_head;
        d->n_work = src->n_work;
        d->cap_waits = src->cap_waits;
        for (size_t i = 0; i < src->n_waits && !rc; i++, d->n_waits++) {
            d->waits[i] = src->waits[i];
            d->waits[i].items = NULL;
            if (src->waits[i].n_items) {
                d->waits[i].items = malloc(src->waits[i].n_items * sizeof(detector_state_item));
                rc = d->waits[i].items ? MG_ERROR_OK : MG_ERROR_ENOMEM;
                if (!rc) {
                    memcpy(d->waits[i].items, src->waits[i].items,
                           src->waits[i].n_items * sizeof(detector_state_item));
                }
            }
        }
    }
    rc = rc ? rc : comm_table_clone(&src->comms, &d->comms);
    rc = rc ? rc : p2p_match_clone(&src->p2p, &d->p2p);
    rc = rc ? rc : coll_match_clone(&src->coll, &d->coll);
    rc = rc ? rc : request_table_clone(&src->reqs, &d->reqs);
    rc = rc ? rc : record_backlog_clone(&src->backlog, &d->backlog);
    rc = rc ? rc : rma_locks_clone(&src->locks, &d->locks);
    if (rc) {
        free_state(d);
        free(d);
        return rc;
    }
    *out = d;
    return MG_ERROR_OK;
}

dl_finding_call detector_state_post_call(const p2p_match_post *p, uint64_t comm)
{
    return (dl_finding_call){.rank = p->rank,
                             .func = p->func,
                             .state = WAIT_GRAPH_RUNNING,
                             .comm = comm,
                             .peer = p->peer,
                             .tag = p->tag,
                             .root = CHECK_EVENT_NO_ROOT,
                             .callsite = p->callsite};
}

/* Whether f only follows from MPI ending ranks inside their calls with invalid arguments: a
 * missing Finalize, or ranks stuck on terminated ones (or, a potential deadlock, stuck on them
 * only if their standard sends had not been buffered: the sends MPI ended the receiver before
 * it received), where each terminated rank it names ended so, or (stuck ones only) ended after
 * MPI refused such a collective of theirs, which the others then wait for in vain (MPICH's
 * MPI_Win_free with an epoch open), and no live rank is in a knot (a cycle of its own).
 * Reporting it would cry wolf twice about the bug the invalid call's finding names. */
static int ended_inside_invalid(const deadlock_detector *det, const dl_finding *f)
{
    int stuck = f->kind == DL_FINDING_STUCK_ON_TERMINATED ||
                f->kind == DL_FINDING_POTENTIAL_DEADLOCK;
    if (!(f->kind == DL_FINDING_LIFECYCLE && f->problem == DL_FINDING_LIFECYCLE_NO_FINALIZE) &&
        !stuck) {
        return 0;
    }
    uint8_t invalid = DETECTOR_STATE_RANK_IN_INVALID |
                      (stuck ? DETECTOR_STATE_RANK_REFUSED_INVALID : 0);
    size_t ended = 0;
    for (size_t i = 0; i < f->n_calls; i++) {
        const detector_state_rank *rs = &det->ranks[f->calls[i].rank];
        if (f->calls[i].state != WAIT_GRAPH_TERMINATED) {
            if (f->calls[i].in_knot) {
                return 0;
            }
            continue;
        }
        if (rs->life == DETECTOR_STATE_LIFE_LIVE || !(rs->flags & invalid)) {
            return 0;
        }
        ended++;
    }
    return ended > 0;
}

int detector_state_push_finding(deadlock_detector *det, dl_finding *f)
{
    if (ended_inside_invalid(det, f)) {
        dl_finding_free(f);
        return MG_ERROR_OK;
    }
    if (mg_array_reserve((void **)&det->findings, &det->cap_findings, det->n_findings + 1,
                         sizeof *det->findings)) {
        dl_finding_free(f);
        return MG_ERROR_ENOMEM;
    }
    det->findings[det->n_findings++] = *f;
    return MG_ERROR_OK;
}
