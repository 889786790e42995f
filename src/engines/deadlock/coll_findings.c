/* Collective mismatch findings (coll_findings.h). */
#include "coll_findings.h"

#include <stdlib.h>
#include <string.h>

#include "mg_array.h"
#include "mg_error.h"

static detector_state_held_mismatch *held_of(deadlock_detector *det, uint32_t comm, uint64_t k)
{
    for (size_t i = 0; i < det->n_held_mismatches; i++) {
        if (det->held_mismatches[i].comm == comm && det->held_mismatches[i].slot == k) {
            return &det->held_mismatches[i];
        }
    }
    return NULL;
}

static void held_free(detector_state_held_mismatch *h)
{
    dl_finding_free(&h->f);
    free(h->calls);
}

static int add_call(dl_finding *f, const coll_match_call *call, uint64_t comm_id)
{
    dl_finding_call c = {.rank = call->rank,
                         .func = call->func,
                         .state = WAIT_GRAPH_RUNNING,
                         .comm = comm_id,
                         .peer = CHECK_EVENT_PROC_NULL,
                         .root = call->root,
                         .op = call->op,
                         .callsite = call->callsite};
    return dl_finding_add_call(f, &c);
}

/* Appends call to h (its finding's calls and the matcher's), room permitting (mismatch_ranks). */
static int held_add(const deadlock_detector *det, detector_state_held_mismatch *h,
                    const coll_match_call *call, uint64_t comm_id)
{
    if (h->f.n_calls >= det->prm.mismatch_ranks) {
        return MG_ERROR_OK;
    }
    coll_match_call *calls = realloc(h->calls, (h->f.n_calls + 1) * sizeof *calls);
    if (!calls) {
        return MG_ERROR_ENOMEM;
    }
    h->calls = calls;
    h->calls[h->f.n_calls] = *call;
    h->since = det->last_time;
    return add_call(&h->f, call, comm_id);
}

/* A held finding for slot k of comm, from its first and agreeing calls, then call (mismatch: its
 * disagreement with the first). Errors: MG_ERROR_ENOMEM (nothing held). */
static int hold_new(deadlock_detector *det, uint32_t comm, uint64_t comm_id, uint64_t k,
                    coll_match_entry *slot, const coll_match_call *call, unsigned mismatch)
{
    if (mg_array_reserve((void **)&det->held_mismatches, &det->cap_held_mismatches,
                         det->n_held_mismatches + 1, sizeof *det->held_mismatches)) {
        return MG_ERROR_ENOMEM;
    }
    detector_state_held_mismatch h = {.f = {.kind = DL_FINDING_COLLECTIVE_MISMATCH,
                                            .mismatch = mismatch,
                                            .time = det->last_time,
                                            .notes = det->notes},
                                      .comm = comm,
                                      .slot = k};
    int rc = held_add(det, &h, &slot->first, comm_id);
    for (uint32_t i = 0; i < slot->n_agreed && !rc; i++) {
        rc = held_add(det, &h, &slot->agreed[i], comm_id);
    }
    rc = rc ? rc : held_add(det, &h, call, comm_id);
    if (rc) {
        held_free(&h);
        return rc;
    }
    slot->finding = COLL_MATCH_HELD;
    det->held_mismatches[det->n_held_mismatches++] = h;
    return MG_ERROR_OK;
}

int coll_findings_arrive(deadlock_detector *det, uint32_t comm, uint64_t comm_id,
                         const coll_match_arrival *arr, const coll_match_call *call)
{
    coll_match_entry *slot = (coll_match_entry *)arr->ref;
    /* a probing copy starts holding nothing, and has none of the findings the slots name */
    detector_state_held_mismatch *h = slot->finding == COLL_MATCH_HELD
                                          ? held_of(det, comm, arr->slot)
                                          : NULL;
    if (h) {
        h->f.mismatch |= arr->mismatch;
        return held_add(det, h, call, comm_id);
    }
    if (slot->finding < det->n_findings) {
        dl_finding *f = &det->findings[slot->finding];
        f->mismatch |= arr->mismatch;
        return f->n_calls < det->prm.mismatch_ranks ? add_call(f, call, comm_id) : MG_ERROR_OK;
    }
    return arr->mismatch ? hold_new(det, comm, comm_id, arr->slot, slot, call, arr->mismatch)
                         : MG_ERROR_OK;
}

int coll_findings_refused(deadlock_detector *det, uint32_t comm, uint64_t k, int32_t rank)
{
    detector_state_held_mismatch *h = held_of(det, comm, k);
    if (!h) {
        return MG_ERROR_OK;
    }
    detector_state_held_mismatch was = *h;
    size_t i = (size_t)(h - det->held_mismatches);
    memmove(h, h + 1, (--det->n_held_mismatches - i) * sizeof *h);
    uint32_t n = 0;
    for (size_t c = 0; c < was.f.n_calls; c++) {
        if (was.calls[c].rank != rank) {
            was.calls[n++] = was.calls[c];
        }
    }
    uint64_t comm_id = was.f.calls[0].comm;
    unsigned *mismatch = malloc((n ? n : 1) * sizeof *mismatch);
    int rc = mismatch ? coll_match_recompare(&det->coll, comm, k, rank, was.calls, n, mismatch)
                      : MG_ERROR_ENOMEM;
    for (uint32_t c = 0; c < n && mismatch && rc != MG_ERROR_EINVAL; c++) {
        if (mismatch[c]) {
            coll_match_arrival again = {
                .slot = k, .mismatch = mismatch[c], .ref = coll_match_slot(&det->coll, comm, k)};
            int rc2 = coll_findings_arrive(det, comm, comm_id, &again, &was.calls[c]);
            rc = rc ? rc : rc2;
        }
    }
    free(mismatch);
    held_free(&was);
    return rc;
}

/* Whether MPI can no longer refuse any call of h: its exit was analysed, or its rank went on or
 * ended. Unlike a point-to-point pair's, a collective's call blocked in the model may still be
 * refused (its slot waits for members MPI never waited for), so an analysis, at a whole view,
 * takes the calls still inside MPI a while after their entries as accepted instead. */
static int refusal_past(const deadlock_detector *det, const detector_state_held_mismatch *h)
{
    for (size_t c = 0; c < h->f.n_calls; c++) {
        const detector_state_rank *rs = &det->ranks[h->calls[c].rank];
        if (rs->life == DETECTOR_STATE_LIFE_LIVE && (rs->flags & DETECTOR_STATE_RANK_IN_CALL) &&
            rs->call_seq == h->calls[c].seq) {
            return 0;
        }
    }
    return 1;
}

int coll_findings_release(deadlock_detector *det, int analysis, uint64_t now)
{
    size_t kept = 0;
    int first = MG_ERROR_OK;
    for (size_t i = 0; i < det->n_held_mismatches; i++) {
        detector_state_held_mismatch *h = &det->held_mismatches[i];
        int taken = analysis && now >= h->since + COLL_FINDINGS_REFUSAL_NS;
        if (!taken && !refusal_past(det, h)) {
            det->held_mismatches[kept++] = *h;
            continue;
        }
        coll_match_entry *slot = coll_match_find(&det->coll, h->comm, h->slot);
        size_t index = det->n_findings;
        int rc = detector_state_push_finding(det, &h->f);
        if (slot) {
            slot->finding = rc ? COLL_MATCH_NONE : (uint32_t)index;
        }
        free(h->calls);
        first = first ? first : rc;
    }
    det->n_held_mismatches = kept;
    return first;
}

uint64_t coll_findings_due(const deadlock_detector *det)
{
    uint64_t due = 0;
    for (size_t i = 0; i < det->n_held_mismatches; i++) {
        uint64_t at = det->held_mismatches[i].since + COLL_FINDINGS_REFUSAL_NS;
        due = due && due <= at ? due : at;
    }
    return due;
}
