/* Point-to-point matching of the detector, see p2p_match.h and docs/design/check-detector.md §3. */
#include "p2p_match.h"

#include <stdlib.h>
#include <string.h>

#include "check_event.h"
#include "mg_array.h"
#include "mg_error.h"

/* Key values of the wildcard queues and of the posting lists. */
#define KEY_ANY 0xFFFFFFFFu
#define KEY_POSTED 0xFFFFFFFEu

/* Link slots. A send sits in four queues: exact, any tag, any source, any/any. A receive sits in
 * the queue of its own key and in the posting list of its (comm, receiver). */
enum { SLOT_EXACT = 0, SLOT_ANY_TAG = 1, SLOT_ANY_SRC = 2, SLOT_ANY_ANY = 3, SLOT_POSTED = 1 };

void p2p_match_init(p2p_match *pm)
{
    memset(pm, 0, sizeof *pm);
    pm->free_head = P2P_MATCH_NONE;
    pm->free_queue = P2P_MATCH_NONE;
    key_map_init(&pm->send_queues);
    key_map_init(&pm->recv_queues);
    key_map_init(&pm->messages);
}

void p2p_match_free(p2p_match *pm)
{
    free(pm->ops);
    free(pm->queues);
    free(pm->completed);
    free(pm->type_issues);
    free(pm->pairings);
    key_map_free(&pm->send_queues);
    key_map_free(&pm->recv_queues);
    key_map_free(&pm->messages);
    p2p_match_init(pm);
}

static void *dup_array(const void *src, size_t n, size_t cap, size_t elem)
{
    if (cap == 0) {
        return NULL;
    }
    void *p = malloc(cap * elem);
    if (p && n) {
        memcpy(p, src, n * elem);
    }
    return p;
}

int p2p_match_clone(const p2p_match *src, p2p_match *dst)
{
    *dst = *src;
    dst->type_issues = NULL;
    dst->n_type_issues = dst->cap_type_issues = 0;
    dst->pairings = NULL;
    dst->n_pairings = dst->cap_pairings = 0;
    dst->log_pairings = 0;
    dst->ops = dup_array(src->ops, src->n_ops, src->cap_ops, sizeof *src->ops);
    dst->queues = dup_array(src->queues, src->n_queues, src->cap_queues, sizeof *src->queues);
    dst->completed = dup_array(src->completed, src->n_completed, src->cap_completed,
                               sizeof(uint32_t));
    int bad = (src->cap_ops && !dst->ops) || (src->cap_queues && !dst->queues) ||
              (src->cap_completed && !dst->completed);
    int rc1 = key_map_clone(&src->send_queues, &dst->send_queues);
    int rc2 = key_map_clone(&src->recv_queues, &dst->recv_queues);
    int rc3 = key_map_clone(&src->messages, &dst->messages);
    if (bad || rc1 || rc2 || rc3) {
        p2p_match_free(dst);
        return MG_ERROR_ENOMEM;
    }
    return MG_ERROR_OK;
}

static uint64_t key_a(uint32_t comm, uint32_t src)
{
    return (uint64_t)comm << 32 | src;
}

static uint64_t key_b(uint32_t dst, uint32_t tag)
{
    return (uint64_t)dst << 32 | tag;
}

/* The queue of a key, created when absent; P2P_MATCH_NONE when out of memory. */
static uint32_t queue_of(p2p_match *pm, key_map *map, uint32_t comm, uint32_t src, uint32_t dst,
                         uint32_t tag)
{
    uint32_t q;
    uint64_t a = key_a(comm, src), b = key_b(dst, tag);
    if (key_map_get(map, a, b, &q)) {
        return q;
    }
    q = pm->free_queue;
    if (q == P2P_MATCH_NONE && mg_array_reserve((void **)&pm->queues, &pm->cap_queues,
                                                pm->n_queues + 1, sizeof *pm->queues)) {
        return P2P_MATCH_NONE;
    }
    uint32_t slot = q == P2P_MATCH_NONE ? (uint32_t)pm->n_queues : q;
    if (key_map_put(map, a, b, slot)) {
        return P2P_MATCH_NONE;
    }
    if (q == P2P_MATCH_NONE) {
        pm->n_queues++;
    } else {
        pm->free_queue = pm->queues[q].head;
    }
    pm->queues[slot] = (p2p_match_queue){
        P2P_MATCH_NONE, P2P_MATCH_NONE, P2P_MATCH_NONE, (uint8_t)(map == &pm->send_queues), a, b};
    return slot;
}

/* An emptied queue leaves its map and goes to the free list. */
static void release_queue(p2p_match *pm, uint32_t q)
{
    p2p_match_queue *qu = &pm->queues[q];
    key_map_remove(qu->is_send ? &pm->send_queues : &pm->recv_queues, qu->key_a, qu->key_b);
    qu->barrier = P2P_MATCH_NONE;
    qu->tail = P2P_MATCH_NONE;
    qu->head = pm->free_queue;
    pm->free_queue = q;
}

static uint32_t find_queue(const key_map *map, uint32_t comm, uint32_t src, uint32_t dst,
                           uint32_t tag)
{
    uint32_t q;
    return key_map_get(map, key_a(comm, src), key_b(dst, tag), &q) ? q : P2P_MATCH_NONE;
}

static uint32_t head_of(const p2p_match *pm, uint32_t q)
{
    return q == P2P_MATCH_NONE ? P2P_MATCH_NONE : pm->queues[q].head;
}

static void link_tail(p2p_match *pm, uint32_t q, uint32_t x, int slot)
{
    p2p_match_queue *qu = &pm->queues[q];
    p2p_match_op *o = &pm->ops[x];
    o->queue[slot] = q;
    o->link_prev[slot] = qu->tail;
    o->link_next[slot] = P2P_MATCH_NONE;
    if (qu->tail != P2P_MATCH_NONE) {
        pm->ops[qu->tail].link_next[slot] = x;
    } else {
        qu->head = x;
    }
    qu->tail = x;
}

/* Inserts x behind the last op its owner posted before it, so each owner's ops keep their posting
 * (seq) order, MPI's non-overtaking order: decided receives move into a queue that may already
 * hold later receives, and a message given back (p2p_match_withdraw) returns ahead of its owner's
 * later ones. */
static void link_sorted(p2p_match *pm, uint32_t q, uint32_t x, int slot)
{
    p2p_match_queue *qu = &pm->queues[q];
    const p2p_match_post *p = &pm->ops[x].p;
    uint32_t after = qu->tail;
    while (after != P2P_MATCH_NONE &&
           (pm->ops[after].p.rank != p->rank || pm->ops[after].p.seq > p->seq)) {
        after = pm->ops[after].link_prev[slot];
    }
    p2p_match_op *o = &pm->ops[x];
    o->queue[slot] = q;
    o->link_prev[slot] = after;
    o->link_next[slot] = after == P2P_MATCH_NONE ? qu->head : pm->ops[after].link_next[slot];
    if (after == P2P_MATCH_NONE) {
        qu->head = x;
    } else {
        pm->ops[after].link_next[slot] = x;
    }
    if (o->link_next[slot] == P2P_MATCH_NONE) {
        qu->tail = x;
    } else {
        pm->ops[o->link_next[slot]].link_prev[slot] = x;
    }
}

static void unlink_slot(p2p_match *pm, uint32_t x, int slot)
{
    p2p_match_op *o = &pm->ops[x];
    p2p_match_queue *qu = &pm->queues[o->queue[slot]];
    if (o->link_prev[slot] != P2P_MATCH_NONE) {
        pm->ops[o->link_prev[slot]].link_next[slot] = o->link_next[slot];
    } else {
        qu->head = o->link_next[slot];
    }
    if (o->link_next[slot] != P2P_MATCH_NONE) {
        pm->ops[o->link_next[slot]].link_prev[slot] = o->link_prev[slot];
    } else {
        qu->tail = o->link_prev[slot];
    }
    /* Posting lists (one per receiver and communicator) stay: they are few and always reused. */
    if (qu->head == P2P_MATCH_NONE && (qu->is_send || (uint32_t)qu->key_a != KEY_POSTED)) {
        release_queue(pm, o->queue[slot]);
    }
    o->queue[slot] = P2P_MATCH_NONE;
}

static void unlink_all(p2p_match *pm, uint32_t x)
{
    int slots = pm->ops[x].kind == P2P_MATCH_SEND ? 4 : 2;
    for (int s = 0; s < slots; s++) {
        if (pm->ops[x].queue[s] != P2P_MATCH_NONE) {
            unlink_slot(pm, x, s);
        }
    }
}

static int alloc_op(p2p_match *pm, uint32_t *x)
{
    if (pm->free_head != P2P_MATCH_NONE) {
        *x = pm->free_head;
        pm->free_head = pm->ops[*x].partner;
        return MG_ERROR_OK;
    }
    if (pm->n_ops >= P2P_MATCH_NONE - 1 ||
        mg_array_reserve((void **)&pm->ops, &pm->cap_ops, pm->n_ops + 1, sizeof *pm->ops)) {
        return MG_ERROR_ENOMEM;
    }
    *x = (uint32_t)pm->n_ops++;
    return MG_ERROR_OK;
}

static void free_op(p2p_match *pm, uint32_t x)
{
    pm->ops[x].state = P2P_MATCH_FREE;
    pm->ops[x].owner = P2P_MATCH_NONE;
    pm->ops[x].partner = pm->free_head;
    pm->free_head = x;
}

/* Frees x, which nobody refers to any more. A matched op stays (detached) while its partner is
 * referred to, as a call MPI may still refuse gives back what it matched (p2p_match_withdraw);
 * it goes with that partner. */
static void free_unreferenced(p2p_match *pm, uint32_t x)
{
    p2p_match_op *o = &pm->ops[x];
    uint32_t y = o->state == P2P_MATCH_MATCHED ? o->partner : P2P_MATCH_NONE;
    if (y != P2P_MATCH_NONE && !(pm->ops[y].flags & P2P_MATCH_F_DETACHED)) {
        o->flags |= P2P_MATCH_F_DETACHED;
        return;
    }
    free_op(pm, x);
    if (y != P2P_MATCH_NONE) {
        free_op(pm, y);
    }
}

static int note_completed(p2p_match *pm, uint32_t x)
{
    if (pm->ops[x].state == P2P_MATCH_FREE) {
        return MG_ERROR_OK; /* went with its detached partner */
    }
    if (pm->ops[x].flags & P2P_MATCH_F_DETACHED) {
        free_unreferenced(pm, x);
        return MG_ERROR_OK;
    }
    if (mg_array_reserve((void **)&pm->completed, &pm->cap_completed, pm->n_completed + 1,
                         sizeof(uint32_t))) {
        return MG_ERROR_ENOMEM;
    }
    pm->completed[pm->n_completed++] = x;
    return MG_ERROR_OK;
}

static void set_state(p2p_match *pm, uint32_t x, uint8_t state)
{
    p2p_match_op *o = &pm->ops[x];
    if (o->state == P2P_MATCH_UNDECIDED) {
        pm->undecided--;
    }
    if (state == P2P_MATCH_UNDECIDED) {
        pm->undecided++;
    }
    o->state = state;
}

uint8_t p2p_match_compare_types(const p2p_match_post *send, const p2p_match_post *recv)
{
    if (send->type_elems == recv->type_elems && send->type_hash == recv->type_hash) {
        return TYPE_MATCH_EQUAL;
    }
    if (!send->type_period || !recv->type_period || send->type_elems == 0) {
        return TYPE_MATCH_EQUAL;
    }
    if (send->type_period == recv->type_period) {
        return recv->type_elems < send->type_elems ? TYPE_MATCH_TRUNCATED : TYPE_MATCH_PREFIX;
    }
    if (send->type_elems == recv->type_elems || (send->type_uniform && recv->type_uniform)) {
        return TYPE_MATCH_MISMATCH;
    }
    return TYPE_MATCH_EQUAL;
}

static int note_types(p2p_match *pm, uint32_t r, uint32_t s)
{
    const p2p_match_op *recv = &pm->ops[r], *send = &pm->ops[s];
    uint8_t verdict = p2p_match_compare_types(&send->p, &recv->p);
    if (verdict < TYPE_MATCH_TRUNCATED || (recv->flags & P2P_MATCH_F_FORCED)) {
        return MG_ERROR_OK;
    }
    if (mg_array_reserve((void **)&pm->type_issues, &pm->cap_type_issues, pm->n_type_issues + 1,
                         sizeof *pm->type_issues)) {
        return MG_ERROR_ENOMEM;
    }
    pm->type_issues[pm->n_type_issues++] = (p2p_match_type_issue){verdict, send->p, recv->p};
    return MG_ERROR_OK;
}

static int note_pairing(p2p_match *pm, uint32_t r, uint32_t s)
{
    if (!pm->log_pairings) {
        return MG_ERROR_OK;
    }
    if (mg_array_reserve((void **)&pm->pairings, &pm->cap_pairings, pm->n_pairings + 1,
                         sizeof *pm->pairings)) {
        return MG_ERROR_ENOMEM;
    }
    const p2p_match_op *recv = &pm->ops[r];
    pm->pairings[pm->n_pairings++] = (p2p_match_pairing){
        pm->ops[s].p, recv->p,
        (uint8_t)(recv->p.peer == CHECK_EVENT_ANY_SOURCE && !(recv->flags & P2P_MATCH_F_FORCED))};
    return MG_ERROR_OK;
}

static int match(p2p_match *pm, uint32_t r, uint32_t s)
{
    int typed = note_types(pm, r, s);
    typed = typed ? typed : note_pairing(pm, r, s);
    unlink_all(pm, r);
    unlink_all(pm, s);
    set_state(pm, r, P2P_MATCH_MATCHED);
    set_state(pm, s, P2P_MATCH_MATCHED);
    pm->ops[r].partner = s;
    pm->ops[s].partner = r;
    pm->queued_sends--;
    pm->pending_recvs--;
    int rc = note_completed(pm, r);
    rc = rc ? rc : note_completed(pm, s);
    return rc ? rc : typed;
}

static uint32_t wild(int32_t v)
{
    return v < 0 ? KEY_ANY : (uint32_t)v;
}

static int is_open_wildcard(const p2p_match_op *o)
{
    return o->p.peer == CHECK_EVENT_ANY_SOURCE && !(o->flags & P2P_MATCH_F_DECIDED);
}

/* The send queue a receive takes its next message from. */
static uint32_t source_queue(const p2p_match *pm, const p2p_match_op *r)
{
    int decided = r->flags & P2P_MATCH_F_DECIDED;
    int32_t src = decided ? r->dec_source : r->p.peer;
    int32_t tag = decided ? r->dec_tag : r->p.tag;
    return find_queue(&pm->send_queues, r->p.comm, wild(src), (uint32_t)r->p.rank, wild(tag));
}

/* Tries to match receive r, which no undecided wildcard precedes. Returns the new state. */
static int try_recv(p2p_match *pm, uint32_t r, uint8_t *state)
{
    uint32_t s = head_of(pm, source_queue(pm, &pm->ops[r]));
    if (s == P2P_MATCH_NONE) {
        set_state(pm, r, P2P_MATCH_WAITING);
    } else if (is_open_wildcard(&pm->ops[r])) {
        set_state(pm, r, P2P_MATCH_UNDECIDED);
    } else {
        *state = P2P_MATCH_MATCHED;
        return match(pm, r, s);
    }
    *state = pm->ops[r].state;
    return MG_ERROR_OK;
}

/* After the barrier of posting list q was decided: retries the receives behind it in posting
 * order until one becomes the new barrier. */
static int walk(p2p_match *pm, uint32_t q, uint32_t x)
{
    pm->queues[q].barrier = P2P_MATCH_NONE;
    while (x != P2P_MATCH_NONE) {
        uint32_t next = pm->ops[x].link_next[SLOT_POSTED];
        uint8_t st;
        int rc = try_recv(pm, x, &st);
        if (rc) {
            return rc;
        }
        if (st == P2P_MATCH_UNDECIDED) {
            pm->queues[q].barrier = x;
            break;
        }
        x = next;
    }
    return MG_ERROR_OK;
}

/* Matches receive r, queued in posting list pl, unless an undecided wildcard posted before it
 * defers it. */
static int offer_recv(p2p_match *pm, uint32_t r, uint32_t pl)
{
    uint32_t barrier = pm->queues[pl].barrier;
    if (barrier != P2P_MATCH_NONE && pm->ops[barrier].p.seq < pm->ops[r].p.seq) {
        set_state(pm, r, P2P_MATCH_DEFERRED);
        return MG_ERROR_OK;
    }
    uint8_t st;
    int rc = try_recv(pm, r, &st);
    if (!rc && st == P2P_MATCH_UNDECIDED) {
        pm->queues[pl].barrier = r;
    }
    return rc;
}

static void fill(p2p_match_op *o, const p2p_match_post *post, uint8_t kind)
{
    memset(o, 0, sizeof *o);
    o->p = *post;
    o->kind = kind;
    o->dec_source = CHECK_EVENT_ANY_SOURCE;
    o->dec_tag = CHECK_EVENT_ANY_TAG;
    o->partner = P2P_MATCH_NONE;
    o->owner = P2P_MATCH_NONE;
    o->owner_item = P2P_MATCH_NONE;
    for (int s = 0; s < 4; s++) {
        o->queue[s] = P2P_MATCH_NONE;
    }
    o->state = P2P_MATCH_WAITING;
}

static int valid_post(const p2p_match *pm, const p2p_match_post *post, int recv)
{
    return pm && post && post->rank >= 0 &&
           (post->peer >= 0 || (recv && post->peer == CHECK_EVENT_ANY_SOURCE)) &&
           (post->tag >= 0 || (recv && post->tag == CHECK_EVENT_ANY_TAG));
}

int p2p_match_post_recv(p2p_match *pm, const p2p_match_post *post, uint32_t *op)
{
    if (!valid_post(pm, post, 1) || !op) {
        return MG_ERROR_EINVAL;
    }
    uint32_t pl = queue_of(pm, &pm->recv_queues, post->comm, KEY_POSTED, (uint32_t)post->rank,
                           KEY_POSTED);
    uint32_t q = queue_of(pm, &pm->recv_queues, post->comm, wild(post->peer), (uint32_t)post->rank,
                          wild(post->tag));
    uint32_t r;
    if (pl == P2P_MATCH_NONE || q == P2P_MATCH_NONE || alloc_op(pm, &r)) {
        return MG_ERROR_ENOMEM;
    }
    fill(&pm->ops[r], post, P2P_MATCH_RECV);
    link_tail(pm, pl, r, SLOT_POSTED);
    link_tail(pm, q, r, SLOT_EXACT);
    pm->pending_recvs++;
    *op = r;
    return offer_recv(pm, r, pl);
}

/* The earliest posted receive that accepts a message (comm, src, dst, tag), or P2P_MATCH_NONE. */
static uint32_t earliest_recv(const p2p_match *pm, uint32_t comm, uint32_t src, uint32_t dst,
                              uint32_t tag)
{
    uint32_t keys[4][2] = {{src, tag}, {src, KEY_ANY}, {KEY_ANY, tag}, {KEY_ANY, KEY_ANY}};
    uint32_t best = P2P_MATCH_NONE;
    for (int k = 0; k < 4; k++) {
        uint32_t r = head_of(pm, find_queue(&pm->recv_queues, comm, keys[k][0], dst, keys[k][1]));
        if (r != P2P_MATCH_NONE &&
            (best == P2P_MATCH_NONE || pm->ops[r].p.seq < pm->ops[best].p.seq)) {
            best = r;
        }
    }
    return best;
}

/* The four queues a send sits in (link slots in order); MG_ERROR_ENOMEM when one could not be made.
 */
static int send_queues(p2p_match *pm, const p2p_match_post *post, uint32_t qs[4])
{
    uint32_t c = post->comm, s = (uint32_t)post->rank, d = (uint32_t)post->peer,
             t = (uint32_t)post->tag;
    qs[SLOT_EXACT] = queue_of(pm, &pm->send_queues, c, s, d, t);
    qs[SLOT_ANY_TAG] = queue_of(pm, &pm->send_queues, c, s, d, KEY_ANY);
    qs[SLOT_ANY_SRC] = queue_of(pm, &pm->send_queues, c, KEY_ANY, d, t);
    qs[SLOT_ANY_ANY] = queue_of(pm, &pm->send_queues, c, KEY_ANY, d, KEY_ANY);
    return qs[0] == P2P_MATCH_NONE || qs[1] == P2P_MATCH_NONE || qs[2] == P2P_MATCH_NONE ||
                   qs[3] == P2P_MATCH_NONE
               ? MG_ERROR_ENOMEM
               : MG_ERROR_OK;
}

/* Matches queued send x with the earliest receive posted for it, unless an undecided wildcard
 * comes first; an open wildcard it reaches becomes undecided. */
static int offer_send(p2p_match *pm, uint32_t x)
{
    const p2p_match_post *post = &pm->ops[x].p;
    uint32_t c = post->comm, d = (uint32_t)post->peer;
    uint32_t r = earliest_recv(pm, c, (uint32_t)post->rank, d, (uint32_t)post->tag);
    if (r == P2P_MATCH_NONE) {
        return MG_ERROR_OK;
    }
    uint32_t pl = find_queue(&pm->recv_queues, c, KEY_POSTED, d, KEY_POSTED);
    uint32_t barrier = pm->queues[pl].barrier;
    if (barrier != P2P_MATCH_NONE && pm->ops[r].p.seq > pm->ops[barrier].p.seq) {
        return MG_ERROR_OK;
    }
    if (is_open_wildcard(&pm->ops[r])) {
        set_state(pm, r, P2P_MATCH_UNDECIDED);
        pm->queues[pl].barrier = r;
        return MG_ERROR_OK;
    }
    return match(pm, r, x);
}

int p2p_match_post_send(p2p_match *pm, const p2p_match_post *post, uint32_t *op)
{
    if (!valid_post(pm, post, 0) || !op) {
        return MG_ERROR_EINVAL;
    }
    uint32_t qs[4], x;
    if (send_queues(pm, post, qs) || alloc_op(pm, &x)) {
        return MG_ERROR_ENOMEM;
    }
    fill(&pm->ops[x], post, P2P_MATCH_SEND);
    for (int k = 0; k < 4; k++) {
        link_tail(pm, qs[k], x, k);
    }
    pm->queued_sends++;
    *op = x;
    return offer_send(pm, x);
}

int p2p_match_decide(p2p_match *pm, uint32_t op, int32_t source, int32_t tag, int forced)
{
    if (!pm || op >= pm->n_ops || pm->ops[op].kind != P2P_MATCH_RECV ||
        pm->ops[op].state == P2P_MATCH_FREE || source < 0 || tag < 0) {
        return MG_ERROR_EINVAL;
    }
    p2p_match_op *r = &pm->ops[op];
    if (r->p.peer != CHECK_EVENT_ANY_SOURCE) {
        return r->p.peer == source ? MG_ERROR_OK : MG_ERROR_ESTATE;
    }
    if (r->flags & P2P_MATCH_F_DECIDED) {
        return r->dec_source == source && r->dec_tag == tag ? MG_ERROR_OK : MG_ERROR_ESTATE;
    }
    if (r->state == P2P_MATCH_MATCHED || r->state == P2P_MATCH_CANCELLED) {
        return MG_ERROR_ESTATE;
    }
    uint32_t q = queue_of(pm, &pm->recv_queues, r->p.comm, (uint32_t)source, (uint32_t)r->p.rank,
                          (uint32_t)tag);
    if (q == P2P_MATCH_NONE) {
        return MG_ERROR_ENOMEM;
    }
    r = &pm->ops[op];
    r->flags |= P2P_MATCH_F_DECIDED | (forced ? P2P_MATCH_F_FORCED : 0);
    r->dec_source = source;
    r->dec_tag = tag;
    unlink_slot(pm, op, SLOT_EXACT);
    link_sorted(pm, q, op, SLOT_EXACT);
    uint32_t pl = r->queue[SLOT_POSTED];
    uint32_t barrier = pm->queues[pl].barrier;
    if (barrier != P2P_MATCH_NONE && barrier != op && pm->ops[barrier].p.seq < r->p.seq) {
        set_state(pm, op, P2P_MATCH_DEFERRED);
        return MG_ERROR_OK;
    }
    uint32_t next = r->link_next[SLOT_POSTED];
    uint8_t st;
    int rc = try_recv(pm, op, &st);
    if (rc || barrier != op) {
        return rc;
    }
    return walk(pm, pl, next);
}

void p2p_match_cancel(p2p_match *pm, uint32_t op)
{
    p2p_match_op *o = &pm->ops[op];
    if (o->state == P2P_MATCH_MATCHED || o->state == P2P_MATCH_CANCELLED ||
        o->state == P2P_MATCH_FREE) {
        return;
    }
    uint32_t pl = o->kind == P2P_MATCH_RECV ? o->queue[SLOT_POSTED] : P2P_MATCH_NONE;
    uint32_t next = o->kind == P2P_MATCH_RECV ? o->link_next[SLOT_POSTED] : P2P_MATCH_NONE;
    unlink_all(pm, op);
    set_state(pm, op, P2P_MATCH_CANCELLED);
    if (pm->ops[op].kind == P2P_MATCH_SEND) {
        pm->queued_sends--;
    } else {
        pm->pending_recvs--;
    }
    /* Cancelling the barrier lifts it; a failed retry leaves the later receives deferred, which
     * only delays their matching. */
    if (pl != P2P_MATCH_NONE && pm->queues[pl].barrier == op) {
        (void)walk(pm, pl, next);
    }
    (void)note_completed(pm, op);
}

/* Puts matched op x back in its queues at its posting position, unmatched, and matches it again. */
static int requeue(p2p_match *pm, uint32_t x)
{
    p2p_match_op *o = &pm->ops[x];
    uint32_t qs[4];
    int slots = o->kind == P2P_MATCH_SEND ? 4 : 2;
    if (o->kind == P2P_MATCH_SEND) {
        if (send_queues(pm, &o->p, qs)) {
            return MG_ERROR_ENOMEM;
        }
    } else {
        int decided = o->flags & P2P_MATCH_F_DECIDED;
        qs[SLOT_EXACT] = queue_of(pm, &pm->recv_queues, o->p.comm,
                                  wild(decided ? o->dec_source : o->p.peer), (uint32_t)o->p.rank,
                                  wild(decided ? o->dec_tag : o->p.tag));
        qs[SLOT_POSTED] = queue_of(pm, &pm->recv_queues, o->p.comm, KEY_POSTED, (uint32_t)o->p.rank,
                                   KEY_POSTED);
        if (qs[SLOT_EXACT] == P2P_MATCH_NONE || qs[SLOT_POSTED] == P2P_MATCH_NONE) {
            return MG_ERROR_ENOMEM;
        }
    }
    o = &pm->ops[x];
    set_state(pm, x, P2P_MATCH_WAITING);
    for (int k = 0; k < slots; k++) {
        link_sorted(pm, qs[k], x, k);
    }
    if (o->kind == P2P_MATCH_SEND) {
        pm->queued_sends++;
        return offer_send(pm, x);
    }
    pm->pending_recvs++;
    return offer_recv(pm, x, qs[SLOT_POSTED]);
}

/* MPI refused the call of op: its message was never transferred, so a disagreement noted on its
 * pair is no finding. A call posts one send and one receive at most per request, so the rank, the
 * call's sequence number and the request name op's side of the pair. */
static void forget_type_issues(p2p_match *pm, const p2p_match_op *o)
{
    size_t kept = 0;
    for (size_t i = 0; i < pm->n_type_issues; i++) {
        const p2p_match_type_issue *t = &pm->type_issues[i];
        const p2p_match_post *p = o->kind == P2P_MATCH_SEND ? &t->send : &t->recv;
        if (p->rank != o->p.rank || p->seq != o->p.seq || p->request != o->p.request) {
            pm->type_issues[kept++] = *t;
        }
    }
    pm->n_type_issues = kept;
}

int p2p_match_withdraw(p2p_match *pm, uint32_t op, uint32_t *given_back)
{
    p2p_match_op *o = &pm->ops[op];
    *given_back = P2P_MATCH_NONE;
    if (o->state != P2P_MATCH_MATCHED) {
        p2p_match_cancel(pm, op);
        return MG_ERROR_OK;
    }
    forget_type_issues(pm, o);
    uint32_t partner = o->partner;
    o->partner = P2P_MATCH_NONE;
    pm->ops[partner].partner = P2P_MATCH_NONE;
    set_state(pm, op, P2P_MATCH_CANCELLED);
    *given_back = partner;
    return requeue(pm, partner);
}

void p2p_match_release(p2p_match *pm, uint32_t op)
{
    p2p_match_op *o = &pm->ops[op];
    if (o->state == P2P_MATCH_MATCHED || o->state == P2P_MATCH_CANCELLED) {
        free_unreferenced(pm, op);
    } else {
        o->flags |= P2P_MATCH_F_DETACHED;
    }
}

int p2p_match_keep_message(p2p_match *pm, int32_t rank, uint64_t message, uint32_t op)
{
    return key_map_put(&pm->messages, (uint32_t)rank, message, op);
}

int p2p_match_receive_message(p2p_match *pm, int32_t rank, uint64_t message,
                              const p2p_match_post *call)
{
    uint32_t op;
    if (!key_map_get(&pm->messages, (uint32_t)rank, message, &op)) {
        return MG_ERROR_OK;
    }
    key_map_remove(&pm->messages, (uint32_t)rank, message);
    p2p_match_post *p = &pm->ops[op].p;
    p->func = call->func;
    p->seq = call->seq;
    p->callsite = call->callsite;
    p->count = call->count;
    p->type_hash = call->type_hash;
    p->type_elems = call->type_elems;
    p->type_period = call->type_period;
    p->type_uniform = call->type_uniform;
    int rc = pm->ops[op].state == P2P_MATCH_MATCHED ? note_types(pm, op, pm->ops[op].partner)
                                                    : MG_ERROR_OK;
    p2p_match_release(pm, op);
    return rc;
}

void p2p_match_drain_type_issues(p2p_match *pm, const p2p_match_type_issue **issues, size_t *n)
{
    *issues = pm->type_issues;
    *n = pm->n_type_issues;
    pm->n_type_issues = 0;
}

void p2p_match_drain_pairings(p2p_match *pm, const p2p_match_pairing **pairings, size_t *n)
{
    *pairings = pm->pairings;
    *n = pm->n_pairings;
    pm->n_pairings = 0;
}

void p2p_match_each_queued_send(const p2p_match *pm, uint32_t comm, int32_t dest, int32_t tag,
                                void (*visit)(void *ctx, const p2p_match_post *send), void *ctx)
{
    int slot = tag == CHECK_EVENT_ANY_TAG ? SLOT_ANY_ANY : SLOT_ANY_SRC;
    uint32_t q = find_queue(&pm->send_queues, comm, KEY_ANY, (uint32_t)dest, wild(tag));
    for (uint32_t s = head_of(pm, q); s != P2P_MATCH_NONE; s = pm->ops[s].link_next[slot]) {
        visit(ctx, &pm->ops[s].p);
    }
}

void p2p_match_drain(p2p_match *pm, const uint32_t **ops, size_t *n)
{
    *ops = pm->completed;
    *n = pm->n_completed;
    pm->n_completed = 0;
}

int p2p_match_may_complete(const p2p_match *pm, uint32_t op)
{
    const p2p_match_op *o = &pm->ops[op];
    switch (o->state) {
    case P2P_MATCH_MATCHED:
    case P2P_MATCH_CANCELLED:
    case P2P_MATCH_UNDECIDED:
        return 1;
    case P2P_MATCH_DEFERRED:
        return head_of(pm, source_queue(pm, o)) != P2P_MATCH_NONE;
    case P2P_MATCH_WAITING:
        return o->kind == P2P_MATCH_SEND &&
               earliest_recv(pm, o->p.comm, (uint32_t)o->p.rank, (uint32_t)o->p.peer,
                             (uint32_t)o->p.tag) != P2P_MATCH_NONE;
    default:
        return 0;
    }
}

int p2p_match_has_send(const p2p_match *pm, uint32_t comm, int32_t source, int32_t dest,
                       int32_t tag)
{
    return head_of(pm, find_queue(&pm->send_queues, comm, wild(source), (uint32_t)dest,
                                  wild(tag))) != P2P_MATCH_NONE;
}

size_t p2p_match_candidates(const p2p_match *pm, uint32_t op, int32_t *sources, int32_t *tags,
                            size_t cap)
{
    const p2p_match_op *r = &pm->ops[op];
    int slot = r->p.tag == CHECK_EVENT_ANY_TAG ? SLOT_ANY_ANY : SLOT_ANY_SRC;
    size_t n = 0;
    for (uint32_t s = head_of(pm, source_queue(pm, r)); s != P2P_MATCH_NONE && n < cap;
         s = pm->ops[s].link_next[slot]) {
        int seen = 0;
        for (size_t i = 0; i < n && !seen; i++) {
            seen = sources[i] == pm->ops[s].p.rank;
        }
        if (!seen) {
            sources[n] = pm->ops[s].p.rank;
            tags[n++] = pm->ops[s].p.tag;
        }
    }
    return n;
}
