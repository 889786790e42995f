/* The blocking call each rank is in and what satisfies it: waits made of items (a point-to-point
 * op, a collective slot, a probe), wake-ups when items complete, and the work list of ranks whose
 * wait was satisfied (paper 5.1: a blocked process's later calls are not analysed).
 * docs/design/check-detector.md §5. */
#include "wait_state.h"

#include <stdlib.h>
#include <string.h>

#include "mg_array.h"
#include "mg_error.h"

int wait_state_blocked(const deadlock_detector *det, int32_t rank)
{
    uint32_t w = det->ranks[rank].wait;
    return w != DETECTOR_STATE_DL_NONE && !det->waits[w].satisfied;
}

/* ---- work list and wake-ups ---- */

/* The work list is a ring of P slots: a rank is on it at most once (DETECTOR_STATE_RANK_QUEUED), so
 * it never overflows and a wake-up cannot fail. */
static void push_work(deadlock_detector *det, int32_t rank)
{
    if (det->ranks[rank].flags & DETECTOR_STATE_RANK_QUEUED) {
        return;
    }
    det->work[(det->work_head + det->n_work) % (size_t)det->world] = (uint32_t)rank;
    det->n_work++;
    det->ranks[rank].flags |= DETECTOR_STATE_RANK_QUEUED;
}

int wait_state_next_ready(deadlock_detector *det, int32_t *rank)
{
    if (det->n_work == 0) {
        return 0;
    }
    *rank = (int32_t)det->work[det->work_head];
    det->work_head = (det->work_head + 1) % (size_t)det->world;
    det->n_work--;
    det->ranks[*rank].flags &= (uint8_t)~DETECTOR_STATE_RANK_QUEUED;
    return 1;
}

static int wait_satisfied(const detector_state_wait *w)
{
    return w->any ? w->remaining < w->n_items || w->n_items == 0 : w->remaining == 0;
}

void wait_state_item_done(deadlock_detector *det, uint32_t wi, uint32_t item)
{
    detector_state_wait *w = &det->waits[wi];
    if (w->items[item].done) {
        return;
    }
    w->items[item].done = 1;
    w->remaining--;
    if (!w->satisfied && wait_satisfied(w)) {
        w->satisfied = 1;
        det->blocked--;
        push_work(det, w->rank);
    }
}

void wait_state_item_undone(deadlock_detector *det, uint32_t wi, uint32_t item)
{
    detector_state_wait *w = &det->waits[wi];
    if (!w->items[item].done) {
        return;
    }
    w->items[item].done = 0;
    w->remaining++;
    if (w->satisfied && !wait_satisfied(w) &&
        det->ranks[w->rank].life == DETECTOR_STATE_LIFE_LIVE) {
        w->satisfied = 0;
        det->blocked++;
    }
}

void wait_state_wake_completed(deadlock_detector *det)
{
    const uint32_t *ops;
    size_t n;
    while (det->p2p.n_completed) {
        p2p_match_drain(&det->p2p, &ops, &n);
        for (size_t i = 0; i < n; i++) {
            p2p_match_op *o = &det->p2p.ops[ops[i]];
            if (o->owner != P2P_MATCH_NONE) {
                wait_state_item_done(det, o->owner, o->owner_item);
            }
        }
    }
}

/* Slots of comm up to the completed base: wake the members waiting for them; a member whose slot
 * was opened again (a refused call's arrival withdrawn, coll_match_withdraw) waits again. */
void wait_state_wake_collective(deadlock_detector *det, uint32_t comm)
{
    uint32_t size = comm_table_size(&det->comms, comm);
    for (uint32_t j = 0; j < size; j++) {
        int32_t r = comm_table_member(&det->comms, comm, j);
        uint32_t wi = det->ranks[r].wait;
        if (wi == DETECTOR_STATE_DL_NONE) {
            continue;
        }
        for (uint32_t i = 0; i < det->waits[wi].n_items; i++) {
            detector_state_item *it = &det->waits[wi].items[i];
            if (it->type != DETECTOR_STATE_ITEM_COLL || it->ref != comm) {
                continue;
            }
            if (coll_match_complete(&det->coll, comm, it->slot)) {
                wait_state_item_done(det, wi, i);
            } else {
                wait_state_item_undone(det, wi, i);
            }
        }
    }
}

/* A send to dest was queued: a Probe of dest waiting for it completes. */
void wait_state_wake_probe(deadlock_detector *det, const p2p_match_post *send)
{
    uint32_t wi = det->ranks[send->peer].wait;
    if (wi == DETECTOR_STATE_DL_NONE) {
        return;
    }
    detector_state_wait *w = &det->waits[wi];
    for (uint32_t i = 0; i < w->n_items; i++) {
        detector_state_item *it = &w->items[i];
        if (it->type == DETECTOR_STATE_ITEM_PROBE && !it->done && it->ref == send->comm &&
            (it->peer == CHECK_EVENT_ANY_SOURCE || it->peer == send->rank) &&
            (it->tag == CHECK_EVENT_ANY_TAG || it->tag == send->tag)) {
            wait_state_item_done(det, wi, i);
            return;
        }
    }
}

/* ---- waits ---- */

int wait_state_new(deadlock_detector *det, const check_event *ev, int any, uint32_t *out)
{
    uint32_t wi = det->free_wait;
    if (wi == DETECTOR_STATE_DL_NONE) {
        if (mg_array_reserve((void **)&det->waits, &det->cap_waits, det->n_waits + 1,
                             sizeof *det->waits)) {
            return MG_ERROR_ENOMEM;
        }
        wi = (uint32_t)det->n_waits++;
    } else {
        det->free_wait = det->waits[wi].next_free;
    }
    detector_state_wait *w = &det->waits[wi];
    memset(w, 0, sizeof *w);
    w->rank = ev->rank;
    w->func = ev->func;
    w->any = (uint8_t)any;
    w->seq = ev->seq;
    w->callsite = ev->callsite;
    w->comm_id = ev->comm;
    w->peer = ev->peer;
    w->tag = ev->tag;
    w->root = ev->root;
    w->op = ev->op;
    w->next_free = DETECTOR_STATE_DL_NONE;
    *out = wi;
    return MG_ERROR_OK;
}

int wait_state_add(deadlock_detector *det, uint32_t wi, const detector_state_item *item)
{
    detector_state_wait *w = &det->waits[wi];
    detector_state_item *p = realloc(w->items, (w->n_items + 1) * sizeof *p);
    if (!p) {
        return MG_ERROR_ENOMEM;
    }
    w->items = p;
    w->items[w->n_items] = *item;
    /* a done op too: a refused call may give it back (p2p_match_withdraw) */
    if (item->type == DETECTOR_STATE_ITEM_P2P && item->ref != P2P_MATCH_NONE) {
        det->p2p.ops[item->ref].owner = wi;
        det->p2p.ops[item->ref].owner_item = w->n_items;
    }
    w->n_items++;
    w->remaining += !item->done;
    return MG_ERROR_OK;
}

/* Drops wait wi: the ops a blocking call posted itself (request 0) are released. */
void wait_state_free(deadlock_detector *det, uint32_t wi)
{
    detector_state_wait *w = &det->waits[wi];
    for (uint32_t i = 0; i < w->n_items; i++) {
        detector_state_item *it = &w->items[i];
        if (it->type != DETECTOR_STATE_ITEM_P2P || it->ref == P2P_MATCH_NONE) {
            continue;
        }
        p2p_match_op *o = &det->p2p.ops[it->ref];
        if (o->owner == wi) {
            o->owner = P2P_MATCH_NONE;
            o->owner_item = P2P_MATCH_NONE;
        }
        if (it->request == 0) {
            p2p_match_release(&det->p2p, it->ref);
        }
    }
    if (!w->satisfied) {
        det->blocked--;
    }
    free(w->items);
    w->items = NULL;
    w->n_items = 0;
    det->ranks[w->rank].wait = DETECTOR_STATE_DL_NONE;
    w->next_free = det->free_wait;
    det->free_wait = wi;
}

void wait_state_satisfy(deadlock_detector *det, int32_t rank)
{
    if (wait_state_blocked(det, rank)) {
        det->waits[det->ranks[rank].wait].satisfied = 1;
        det->blocked--;
    }
}

/* Makes wi the rank's current wait and counts it blocked unless already satisfied. */
void wait_state_commit(deadlock_detector *det, uint32_t wi)
{
    detector_state_wait *w = &det->waits[wi];
    w->satisfied = (uint8_t)wait_satisfied(w);
    if (!w->satisfied) {
        det->blocked++;
    }
    det->ranks[w->rank].wait = wi;
    det->ranks[w->rank].flags &= (uint8_t)~DETECTOR_STATE_RANK_REPORTED;
}
