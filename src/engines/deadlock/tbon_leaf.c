/* A stage of the tree of detectors: local point-to-point matching, everything else passed up.
 * Design: docs/check-detector.md §14. */
#include "tbon_leaf.h"

#include <stdlib.h>
#include <string.h>

#include "check_event.h"
#include "mg_array.h"
#include "mg_error.h"
#include "p2p_match.h"

/* The one communicator the stage matches on: p2p_match's index for it. */
#define LEAF_WORLD_INDEX 0u

/* One rank of the share: the records held behind a call whose partner has not come yet. */
typedef struct leaf_rank {
    uint8_t *held; /* encoded records, in the rank's order, from held_start */
    size_t held_start, held_len, held_cap;
    uint32_t posted;   /* the matcher's op of the held call, or P2P_NONE */
    uint8_t skip_exit; /* the next record is the exit of a call resolved here */
    uint8_t tainted;   /* every record of the rank is passed up */
} leaf_rank;

struct tbon_leaf {
    int32_t first, count;
    tbon_leaf_pass_fn pass;
    void *ctx;
    leaf_rank *ranks;
    p2p_match matcher;
    tbon_leaf_counts counts;
};

static int in_share(const tbon_leaf *leaf, int32_t rank)
{
    return rank >= leaf->first && rank - leaf->first < leaf->count;
}

static leaf_rank *rank_of(tbon_leaf *leaf, int32_t rank)
{
    return &leaf->ranks[rank - leaf->first];
}

int tbon_leaf_create(int32_t world_size, int32_t first, int32_t count, tbon_leaf_pass_fn pass,
                     void *ctx, tbon_leaf **out)
{
    if (!out || !pass || world_size <= 0 || first < 0 || count <= 0 || first > world_size - count) {
        return MG_EINVAL;
    }
    tbon_leaf *leaf = calloc(1, sizeof *leaf);
    if (!leaf || !(leaf->ranks = calloc((size_t)count, sizeof *leaf->ranks))) {
        free(leaf);
        return MG_ENOMEM;
    }
    leaf->first = first;
    leaf->count = count;
    leaf->pass = pass;
    leaf->ctx = ctx;
    for (int32_t i = 0; i < count; i++) {
        leaf->ranks[i].posted = P2P_NONE;
    }
    p2p_match_init(&leaf->matcher);
    *out = leaf;
    return MG_OK;
}

void tbon_leaf_destroy(tbon_leaf *leaf)
{
    if (!leaf) {
        return;
    }
    for (int32_t i = 0; i < leaf->count; i++) {
        free(leaf->ranks[i].held);
    }
    free(leaf->ranks);
    p2p_match_free(&leaf->matcher);
    free(leaf);
}

/* The form of call the stage matches: a blocking send or receive on WORLD with valid arguments
 * and an explicit tag and peer, another rank of the share. */
static int local_blocking_p2p(const tbon_leaf *leaf, const check_event *ev)
{
    return ev->kind == CHECK_EV_ENTER && ev->comm == CHECK_COMM_WORLD &&
           !(ev->flags & ~CHECK_FLAG_TYPE_UNIFORM) && ev->tag != CHECK_ANY_TAG &&
           ev->peer != ev->rank && in_share(leaf, ev->peer) &&
           (ev->func == CHECK_FN_SEND || ev->func == CHECK_FN_SSEND || ev->func == CHECK_FN_RECV);
}

/* Another point-to-point call that could take or give a message of a rank of the share outside
 * the stage's matching order (a wildcard, a nonblocking or persistent call, a probe, another
 * communicator): its rank, and the peers in the share it names, are passed through from then on. */
static int taints(const tbon_leaf *leaf, const check_event *ev, int32_t peers[2])
{
    const check_func_info *info = check_func_describe(ev->func);
    peers[0] = ev->peer;
    peers[1] = CHECK_PROC_NULL;
    switch (info ? info->klass : CHECK_CLASS_OTHER) {
    case CHECK_CLASS_SENDRECV:
        peers[1] = ev->peer2;
        break;
    case CHECK_CLASS_SEND:
    case CHECK_CLASS_ISEND:
    case CHECK_CLASS_RECV:
    case CHECK_CLASS_IRECV:
    case CHECK_CLASS_PROBE:
    case CHECK_CLASS_IPROBE:
    case CHECK_CLASS_PINIT:
    case CHECK_CLASS_MRECV:
        break;
    default:
        return 0;
    }
    return peers[0] == CHECK_ANY_SOURCE || in_share(leaf, peers[0]) ||
           peers[1] == CHECK_ANY_SOURCE || in_share(leaf, peers[1]);
}

static int taint(tbon_leaf *leaf, int32_t rank);
static int drain(tbon_leaf *leaf, int32_t rank);

static int pass_up(tbon_leaf *leaf, const uint8_t *record, size_t len)
{
    leaf->counts.passed++;
    return leaf->pass(leaf->ctx, record, len);
}

static void pop_held(leaf_rank *r, size_t len)
{
    r->held_start += len;
    if (r->held_start == r->held_len) {
        r->held_start = r->held_len = 0;
    }
}

static int hold(leaf_rank *r, const uint8_t *record, size_t len)
{
    if (r->held_start > 0 && r->held_start >= r->held_len / 2) {
        memmove(r->held, r->held + r->held_start, r->held_len - r->held_start);
        r->held_len -= r->held_start;
        r->held_start = 0;
    }
    int rc = mg_array_reserve((void **)&r->held, &r->held_cap, r->held_len + len, 1);
    if (rc) {
        return rc;
    }
    memcpy(r->held + r->held_len, record, len);
    r->held_len += len;
    return MG_OK;
}

/* Empties the matcher's lists of what it matched or cancelled: the stage reads matches from the
 * ops themselves. */
static void forget_completed(p2p_match *pm)
{
    const uint32_t *done;
    const p2p_type_issue *issues;
    size_t n;
    p2p_match_drain(pm, &done, &n);
    p2p_match_drain_type_issues(pm, &issues, &n);
}

/* Takes the rank's held call out of the matcher and decides its held records again. */
static int unpost(tbon_leaf *leaf, int32_t rank)
{
    leaf_rank *r = rank_of(leaf, rank);
    if (r->posted == P2P_NONE) {
        return MG_OK;
    }
    p2p_match_cancel(&leaf->matcher, r->posted);
    p2p_match_release(&leaf->matcher, r->posted);
    forget_completed(&leaf->matcher);
    r->posted = P2P_NONE;
    leaf->counts.held--;
    return drain(leaf, rank);
}

static int taint(tbon_leaf *leaf, int32_t rank)
{
    leaf_rank *r = rank_of(leaf, rank);
    if (r->tainted) {
        return MG_OK;
    }
    r->tainted = 1;
    leaf->counts.tainted++;
    int rc = unpost(leaf, rank);
    for (int32_t i = 0; !rc && i < leaf->count; i++) {
        uint32_t op = leaf->ranks[i].posted;
        if (op != P2P_NONE && leaf->matcher.ops[op].p.peer == rank) {
            rc = unpost(leaf, leaf->first + i);
        }
    }
    return rc;
}

static size_t held_head_size(const leaf_rank *r)
{
    check_event ev;
    size_t used = 0;
    (void)check_event_decode(r->held + r->held_start, r->held_len - r->held_start, &ev, &used);
    return used;
}

/* The held calls op (of rank) and its partner were matched: neither is passed up, nor are their
 * exits, unless their messages disagree (the stage above reports that: both go up as they are). */
static int resolve(tbon_leaf *leaf, int32_t rank, uint32_t op)
{
    p2p_match *pm = &leaf->matcher;
    uint32_t partner_op = pm->ops[op].partner;
    int32_t partner = (int32_t)pm->ops[partner_op].owner;
    const p2p_op *send = &pm->ops[op], *recv = &pm->ops[partner_op];
    if (send->kind == P2P_RECV) {
        send = &pm->ops[partner_op];
        recv = &pm->ops[op];
    }
    int agree = p2p_match_compare_types(&send->p, &recv->p) <= TYPE_MATCH_PREFIX;
    forget_completed(pm);
    p2p_match_release(pm, op);
    p2p_match_release(pm, partner_op);
    leaf_rank *mine = rank_of(leaf, rank), *theirs = rank_of(leaf, partner);
    mine->posted = theirs->posted = P2P_NONE;
    leaf->counts.held -= 2;
    if (!agree) {
        int rc = taint(leaf, rank);
        rc = rc ? rc : taint(leaf, partner);
        rc = rc ? rc : drain(leaf, rank);
        return rc ? rc : drain(leaf, partner);
    }
    leaf->counts.resolved += 2;
    mine->skip_exit = theirs->skip_exit = 1;
    pop_held(mine, held_head_size(mine));
    pop_held(theirs, held_head_size(theirs));
    int rc = drain(leaf, rank);
    return rc ? rc : drain(leaf, partner);
}

/* Decides one record of a rank with nothing held before it: resolved, passed up, or (*posted = 1)
 * posted to the matcher, to be held until its partner comes. */
static int decide(tbon_leaf *leaf, const check_event *ev, const uint8_t *record, size_t len,
                  int *posted)
{
    leaf_rank *r = rank_of(leaf, ev->rank);
    *posted = 0;
    if (r->skip_exit) {
        r->skip_exit = 0;
        if (ev->kind == CHECK_EV_EXIT) {
            leaf->counts.resolved++;
            return MG_OK;
        }
    }
    if (local_blocking_p2p(leaf, ev)) {
        if (!r->tainted && !rank_of(leaf, ev->peer)->tainted) {
            p2p_post post = {.rank = ev->rank,
                             .peer = ev->peer,
                             .tag = ev->tag,
                             .comm = LEAF_WORLD_INDEX,
                             .func = ev->func,
                             .mode = check_func_describe(ev->func)->mode,
                             .seq = ev->seq,
                             .callsite = ev->callsite,
                             .count = ev->count,
                             .type_hash = ev->type_hash,
                             .type_elems = ev->type_elems,
                             .type_period = ev->type_period,
                             .type_uniform = (ev->flags & CHECK_FLAG_TYPE_UNIFORM) != 0};
            uint32_t op;
            int rc = ev->func == CHECK_FN_RECV ? p2p_match_post_recv(&leaf->matcher, &post, &op)
                                               : p2p_match_post_send(&leaf->matcher, &post, &op);
            if (rc) {
                return rc;
            }
            leaf->matcher.ops[op].owner = (uint32_t)ev->rank;
            r->posted = op;
            leaf->counts.held++;
            *posted = 1;
            return MG_OK;
        }
    } else {
        int32_t peers[2];
        if (taints(leaf, ev, peers)) {
            int rc = taint(leaf, ev->rank);
            for (int i = 0; !rc && i < 2; i++) {
                rc = in_share(leaf, peers[i]) ? taint(leaf, peers[i]) : MG_OK;
            }
            if (rc) {
                return rc;
            }
        }
    }
    return pass_up(leaf, record, len);
}

/* The rank's call was just posted: resolves it when the matcher paired it. */
static int settle(tbon_leaf *leaf, int32_t rank)
{
    uint32_t op = rank_of(leaf, rank)->posted;
    return leaf->matcher.ops[op].state == P2P_MATCHED ? resolve(leaf, rank, op) : MG_OK;
}

/* Decides the rank's held records in order until one waits for its partner. */
static int drain(tbon_leaf *leaf, int32_t rank)
{
    leaf_rank *r = rank_of(leaf, rank);
    while (r->posted == P2P_NONE && r->held_len > r->held_start) {
        const uint8_t *record = r->held + r->held_start;
        check_event ev;
        size_t used;
        int posted;
        int rc = check_event_decode(record, r->held_len - r->held_start, &ev, &used);
        rc = rc ? rc : decide(leaf, &ev, record, used, &posted);
        if (rc || posted) {
            return rc ? rc : settle(leaf, rank);
        }
        pop_held(r, used);
    }
    return MG_OK;
}

int tbon_leaf_feed_bytes(tbon_leaf *leaf, const uint8_t *buf, size_t len, size_t *consumed)
{
    check_event ev;
    int rc = check_event_decode(buf, len, &ev, consumed);
    if (rc) {
        return rc;
    }
    if (!in_share(leaf, ev.rank)) {
        return MG_EINVAL;
    }
    leaf->counts.records++;
    leaf_rank *r = rank_of(leaf, ev.rank);
    if (r->held_len > r->held_start) {
        return hold(r, buf, *consumed);
    }
    int posted;
    rc = decide(leaf, &ev, buf, *consumed, &posted);
    if (rc || !posted) {
        return rc;
    }
    rc = hold(r, buf, *consumed);
    return rc ? rc : settle(leaf, ev.rank);
}

int tbon_leaf_flush(tbon_leaf *leaf)
{
    int rc = MG_OK;
    for (int32_t i = 0; !rc && i < leaf->count; i++) {
        if (leaf->ranks[i].posted != P2P_NONE) {
            rc = taint(leaf, leaf->first + i);
        }
    }
    return rc;
}

void tbon_leaf_counts_get(const tbon_leaf *leaf, tbon_leaf_counts *out)
{
    *out = leaf->counts;
}
