/* A stage of the tree of detectors: local point-to-point matching, one summary per collective of
 * the share, everything else passed up. Design: docs/design/check-detector.md §14. */
#include "tbon_leaf.h"

#include <stdlib.h>
#include <string.h>

#include "check_event.h"
#include "mg_array.h"
#include "mg_error.h"
#include "p2p_match.h"

/* p2p_match's index for WORLD; another communicator is at 1 + its place in tbon_leaf.comms. */
#define LEAF_WORLD_INDEX 0u
/* Communicators besides WORLD that the stage matches on, at most: a job that makes more (a loop
 * of Comm_dup and Comm_free: ids are never reused) sends the calls on later ones up unmatched, so
 * the table stays small and its search short. */
#define COMMS_MAX 64u
/* Bytes a rank may hold behind its call: past them (a send MPI buffered whose receive never comes,
 * a Bcast or Reduce left early while another rank of the share never came) the rank is passed
 * through, so neither the stage's memory nor the root's view waits for the stream to go quiet. */
#define HOLD_MAX (64u << 10)

/* The matcher's owner_item of a nonblocking call's op (and of a call posted while its rank has
 * some): its pair is decided once both ranks report it complete (leaf_slot); a blocking call's op
 * keeps P2P_MATCH_NONE until it is matched, then joins its rank's window (resolve). */
#define LEAF_SLOT_OP 1u

/* NOT_SLOT: a record of no slot, decided as the stage decides any other (record_fate) */
enum leaf_fate { FATE_OPEN, FATE_DROP, FATE_UP, NOT_SLOT };

/* A point-to-point call of a rank with nonblocking calls outstanding (its window: the rank goes on
 * while the call waits for its partner, so several are held at once). Its records and the
 * completions that name only dropped requests are left out (FATE_DROP) once both ends were posted
 * in the stage's matching order, agree, and were reported complete by their ranks; the root then
 * never knew the requests, and ignores their ids in a Wait it sees. */
typedef struct leaf_slot {
    uint64_t request;             /* its request id; 0: blocking, complete at its exit */
    uint64_t entry_seq, exit_seq; /* exit_seq 0 until its exit came */
    uint32_t op;                  /* the matcher's, P2P_MATCH_NONE once the fate is decided */
    int32_t peer;
    uint16_t func; /* its exit's too */
    uint8_t done, fate;
} leaf_slot;

/* One rank of the share: the records held behind a call whose partner has not come yet. */
typedef struct leaf_rank {
    uint8_t *held; /* encoded records, in the rank's order, from held_start */
    size_t held_start, held_len, held_cap;
    uint64_t last_seq; /* of the rank's last record fed */
    /* exit of the last call passed up that the stage above may still hold the rank in (0: none):
     * while it waits for the answer (tbon_leaf_completed), the rank's later records are held */
    uint64_t awaited_exit;
    uint32_t posted;  /* the matcher's op of the held call, or P2P_MATCH_NONE */
    uint32_t awaited; /* calls of other ranks posted to the matcher with this rank as peer */
    uint8_t tainted;  /* its point-to-point calls go up unmatched (passed through) */
    uint8_t parked;   /* the held head is the entry of the collective the share is gathering */
    uint8_t ready;    /* ... and its exit came, agreeing or not with the first ready one */
    uint8_t coll_up;  /* the next collective entry goes up as it is */
    /* the window: the first win_len held bytes, read as they came (a slot's call, its exit, the
     * completions); read on while a slot is open, let go in order as far as fates are decided */
    leaf_slot *slots;
    size_t n_slots, cap_slots, win_len;
    uint32_t open;     /* slots of fate FATE_OPEN */
    uint8_t exit_owed; /* the next exit is the last slot's */
    uint8_t draining;  /* drain runs for it: a drain called inside leaves the records to it */
} leaf_rank;

struct tbon_leaf {
    /* the share: count world ranks, ascending, and per world rank its place in share[] (-1:
     * outside); any set, a block of consecutive ranks being one of them */
    int32_t world, count;
    int32_t *share, *place;
    tbon_leaf_pass_fn pass;
    void *ctx;
    leaf_rank *ranks;
    p2p_match matcher;
    /* the collective the share is gathering: ranks whose exit came, whether a ready rank's call
     * differs from the first ready one's (ref) */
    int32_t n_ready;
    uint8_t disagree, flushing;
    uint8_t unleft; /* ... whether a ready rank's next record is not the exit of its entry */
    check_event ref;
    /* ids of the intracommunicators whose constructors' exit records the stage read: their
     * point-to-point calls between ranks of the share are matched here as WORLD's are */
    uint64_t comms[COMMS_MAX];
    uint32_t n_comms;
    tbon_leaf_call *completed; /* for the stage below: tbon_leaf_take_completed */
    uint64_t *requests;        /* the arrays of the Wait/Test record read last (with_requests) */
    check_event_status *statuses;
    size_t cap_requests, cap_statuses;
    size_t n_completed, cap_completed;
    tbon_leaf_counts counts;
};

static int in_share(const tbon_leaf *leaf, int32_t rank)
{
    return rank >= 0 && rank < leaf->world && leaf->place[rank] >= 0;
}

static leaf_rank *rank_of(tbon_leaf *leaf, int32_t rank)
{
    return &leaf->ranks[leaf->place[rank]];
}

int tbon_leaf_create(int32_t world_size, const int32_t *ranks, int32_t count,
                     tbon_leaf_pass_fn pass, void *ctx, tbon_leaf **out)
{
    if (!out || !pass || !ranks || world_size <= 0 || count <= 0 || count > world_size) {
        return MG_ERROR_EINVAL;
    }
    for (int32_t i = 0; i < count; i++) {
        if (ranks[i] < (i ? ranks[i - 1] + 1 : 0) || ranks[i] >= world_size) {
            return MG_ERROR_EINVAL;
        }
    }
    tbon_leaf *leaf = calloc(1, sizeof *leaf);
    if (!leaf || !(leaf->ranks = calloc((size_t)count, sizeof *leaf->ranks)) ||
        !(leaf->share = malloc((size_t)count * sizeof *leaf->share)) ||
        !(leaf->place = malloc((size_t)world_size * sizeof *leaf->place))) {
        tbon_leaf_destroy(leaf);
        return MG_ERROR_ENOMEM;
    }
    leaf->world = world_size;
    leaf->count = count;
    leaf->pass = pass;
    leaf->ctx = ctx;
    memcpy(leaf->share, ranks, (size_t)count * sizeof *leaf->share);
    for (int32_t r = 0; r < world_size; r++) {
        leaf->place[r] = -1;
    }
    for (int32_t i = 0; i < count; i++) {
        leaf->ranks[i].posted = P2P_MATCH_NONE;
        leaf->place[ranks[i]] = i;
    }
    p2p_match_init(&leaf->matcher);
    *out = leaf;
    return MG_ERROR_OK;
}

int32_t tbon_leaf_share_place(const int32_t *ranks, int32_t n, int32_t rank)
{
    int32_t lo = 0, hi = n;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (ranks[mid] < rank) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < n && ranks[lo] == rank ? lo : -1;
}

void tbon_leaf_destroy(tbon_leaf *leaf)
{
    if (!leaf) {
        return;
    }
    for (int32_t i = 0; leaf->ranks && i < leaf->count; i++) {
        free(leaf->ranks[i].held);
        free(leaf->ranks[i].slots);
    }
    free(leaf->ranks);
    free(leaf->share);
    free(leaf->place);
    free(leaf->completed);
    free(leaf->requests);
    free(leaf->statuses);
    p2p_match_free(&leaf->matcher);
    free(leaf);
}

/* Whether the stage matches on comm: WORLD, or an intracommunicator it read the constructor of;
 * *index gets p2p_match's index for it. */
static int known_comm(const tbon_leaf *leaf, uint64_t comm, uint32_t *index)
{
    *index = LEAF_WORLD_INDEX;
    for (uint32_t i = 0; comm != CHECK_EVENT_COMM_WORLD && i < leaf->n_comms; i++) {
        if (leaf->comms[i] == comm) {
            *index = i + 1;
            return 1;
        }
    }
    return comm == CHECK_EVENT_COMM_WORLD;
}

/* The exit record of a constructor (ev) of an intracommunicator whose members it lists: the stage
 * matches on it from then on, wherever its members are. Any member's exit names it (its id is the
 * same for all); the members' calls on it come after their own exits. The peers of its calls are
 * world ranks already (the capture module translates them: capture_comm_world), so one that names
 * a rank of the share names that rank, and a pair is matched by the same (communicator, sender,
 * receiver, tag) order as on WORLD. An intercommunicator, or one whose members the record does not
 * carry, is not noted: its calls go up as before. */
static void note_comm(tbon_leaf *leaf, const check_event *ev)
{
    uint32_t known;
    const check_event_func_info *info = check_event_func_describe(ev->func);
    if (ev->kind == CHECK_EVENT_EV_EXIT && info && info->creates_comm &&
        ev->aux != CHECK_EVENT_COMM_NULL && !(ev->flags & ~CHECK_EVENT_FLAG_TYPE_UNIFORM) &&
        ev->n_ranks && ev->n_local == ev->n_ranks && leaf->n_comms < COMMS_MAX &&
        !known_comm(leaf, ev->aux, &known)) {
        leaf->comms[leaf->n_comms++] = ev->aux;
    }
}

/* The form of call the stage matches: a send or receive, blocking or not, on WORLD or on an
 * intracommunicator it knows (*comm_index: the matcher's index for it), with valid arguments and
 * an explicit tag and peer, another rank of the share. A send to a rank of the share can only be
 * taken by that rank's receives, all of which the stage reads (a wildcard one passes the rank
 * through: taints), and a receive from a named rank of the share only by that rank's sends to it,
 * in their order: the stage alone decides such a pair, whatever ranks of other shares the
 * communicator holds. */
static int local_p2p(const tbon_leaf *leaf, const check_event *ev, uint32_t *comm_index)
{
    return ev->kind == CHECK_EVENT_EV_ENTER && known_comm(leaf, ev->comm, comm_index) &&
           !(ev->flags & ~CHECK_EVENT_FLAG_TYPE_UNIFORM) && ev->tag != CHECK_EVENT_ANY_TAG &&
           ev->peer != ev->rank && in_share(leaf, ev->peer) &&
           (ev->func == CHECK_EVENT_FN_SEND || ev->func == CHECK_EVENT_FN_SSEND ||
            ev->func == CHECK_EVENT_FN_RECV || ev->func == CHECK_EVENT_FN_ISEND ||
            ev->func == CHECK_EVENT_FN_ISSEND || ev->func == CHECK_EVENT_FN_IRECV);
}

static int nonblocking(const check_event *ev)
{
    return ev->func == CHECK_EVENT_FN_ISEND || ev->func == CHECK_EVENT_FN_ISSEND ||
           ev->func == CHECK_EVENT_FN_IRECV;
}

/* A collective the share can stand for in one summary: blocking, on WORLD, valid arguments, no new
 * communicator. */
static int summarizable(const check_event *ev)
{
    const check_event_func_info *info = check_event_func_describe(ev->func);
    return ev->kind == CHECK_EVENT_EV_ENTER && ev->comm == CHECK_EVENT_COMM_WORLD && info &&
           info->klass == CHECK_EVENT_CLASS_COLL && !info->creates_comm &&
           !(ev->flags & ~CHECK_EVENT_FLAG_TYPE_UNIFORM) && !ev->n_requests && !ev->n_statuses &&
           !ev->n_ranks;
}

/* The calls a summary stands for must agree in everything the root compares or reports. */
static int same_collective(const check_event *a, const check_event *b)
{
    return a->func == b->func && a->root == b->root && a->op == b->op && a->count == b->count &&
           a->type_hash == b->type_hash && a->type_elems == b->type_elems &&
           a->type_period == b->type_period && a->flags == b->flags && a->callsite == b->callsite;
}

/* Another point-to-point call that could take or give a message of a rank of the share outside
 * the stage's matching order (a wildcard, a nonblocking or persistent call, a probe, a
 * communicator the stage does not know): its rank, and the peers in the share it names, are passed
 * through from then on. */
static int taints(const tbon_leaf *leaf, const check_event *ev, int32_t peers[2])
{
    const check_event_func_info *info = check_event_func_describe(ev->func);
    peers[0] = ev->peer;
    peers[1] = CHECK_EVENT_PROC_NULL;
    switch (info ? info->klass : CHECK_EVENT_CLASS_OTHER) {
    case CHECK_EVENT_CLASS_SENDRECV:
        peers[1] = ev->peer2;
        break;
    case CHECK_EVENT_CLASS_SEND:
    case CHECK_EVENT_CLASS_ISEND:
    case CHECK_EVENT_CLASS_RECV:
    case CHECK_EVENT_CLASS_IRECV:
    case CHECK_EVENT_CLASS_PROBE:
    case CHECK_EVENT_CLASS_IPROBE:
    case CHECK_EVENT_CLASS_PINIT:
    case CHECK_EVENT_CLASS_MRECV:
        break;
    default:
        return 0;
    }
    return peers[0] == CHECK_EVENT_ANY_SOURCE || in_share(leaf, peers[0]) ||
           peers[1] == CHECK_EVENT_ANY_SOURCE || in_share(leaf, peers[1]);
}

static int taint(tbon_leaf *leaf, int32_t rank);
static int drain(tbon_leaf *leaf, int32_t rank);
static int join_window(tbon_leaf *leaf, int32_t rank);
static int scan_held(tbon_leaf *leaf, int32_t rank);
static int to_window(tbon_leaf *leaf, int32_t rank);

int tbon_leaf_awaits_answer(const check_event *ev)
{
    const check_event_func_info *info = check_event_func_describe(ev->func);
    return ev->kind == CHECK_EVENT_EV_EXIT && info &&
           ((info->klass == CHECK_EVENT_CLASS_SEND && info->mode != CHECK_EVENT_MODE_SYNC) ||
            info->klass == CHECK_EVENT_CLASS_SENDRECV || info->klass == CHECK_EVENT_CLASS_WAIT ||
            info->klass == CHECK_EVENT_CLASS_COLL);
}

/* The rank's records wait for the stage above to leave its call: not when the rank is passed
 * through (nothing of it is matched here then). */
static int waits_above(const leaf_rank *r)
{
    return r->awaited_exit && !r->tainted;
}

static int tell_below(tbon_leaf *leaf, int32_t rank, uint64_t exit_seq)
{
    int rc = mg_array_reserve((void **)&leaf->completed, &leaf->cap_completed,
                              leaf->n_completed + 1, sizeof *leaf->completed);
    if (!rc) {
        leaf->completed[leaf->n_completed++] = (tbon_leaf_call){rank, exit_seq};
    }
    return rc;
}

static int pass_up(tbon_leaf *leaf, const uint8_t *record, size_t len)
{
    leaf->counts.passed++;
    return leaf->pass(leaf->ctx, record, len, NULL, 0);
}

static void pop_held(leaf_rank *r, size_t len)
{
    r->win_len -= len < r->win_len ? len : r->win_len;
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
    return MG_ERROR_OK;
}

/* Empties the matcher's lists of what it matched or cancelled: the stage reads matches from the
 * ops themselves. */
static void forget_completed(p2p_match *pm)
{
    const uint32_t *done;
    const p2p_match_type_issue *issues;
    size_t n;
    p2p_match_drain(pm, &done, &n);
    p2p_match_drain_type_issues(pm, &issues, &n);
}

/* Takes the rank's held call out of the matcher and decides its held records again. */
static int unpost(tbon_leaf *leaf, int32_t rank)
{
    leaf_rank *r = rank_of(leaf, rank);
    if (r->posted == P2P_MATCH_NONE) {
        return MG_ERROR_OK;
    }
    p2p_match_cancel(&leaf->matcher, r->posted);
    rank_of(leaf, leaf->matcher.ops[r->posted].p.peer)->awaited--;
    p2p_match_release(&leaf->matcher, r->posted);
    forget_completed(&leaf->matcher);
    r->posted = P2P_MATCH_NONE;
    leaf->counts.held--;
    return drain(leaf, rank);
}

static leaf_slot *slot_of_op(leaf_rank *r, uint32_t op)
{
    for (size_t i = 0; i < r->n_slots; i++) {
        if (r->slots[i].op == op) {
            return &r->slots[i];
        }
    }
    return NULL;
}

/* Decides a slot's fate, the matcher done with its op. */
static void settle_slot(tbon_leaf *leaf, leaf_slot *s, uint8_t fate)
{
    p2p_match_release(&leaf->matcher, s->op);
    forget_completed(&leaf->matcher);
    rank_of(leaf, s->peer)->awaited--;
    s->op = P2P_MATCH_NONE;
    s->fate = fate;
}

/* The slot's call goes up as it is, and so does its partner's, if matched: the stage above must
 * see both to pair them. */
static void slot_up(tbon_leaf *leaf, leaf_rank *r, leaf_slot *s)
{
    p2p_match_op *o = &leaf->matcher.ops[s->op];
    if (o->state == P2P_MATCH_MATCHED) {
        leaf_rank *pr = rank_of(leaf, (int32_t)leaf->matcher.ops[o->partner].owner);
        settle_slot(leaf, slot_of_op(pr, o->partner), FATE_UP);
        pr->open--;
    } else {
        p2p_match_cancel(&leaf->matcher, s->op);
    }
    settle_slot(leaf, s, FATE_UP);
    r->open--;
}

static int taint(tbon_leaf *leaf, int32_t rank)
{
    leaf_rank *r = rank_of(leaf, rank);
    if (r->tainted) {
        return MG_ERROR_OK;
    }
    r->tainted = 1;
    leaf->counts.tainted++;
    int rc = unpost(leaf, rank);
    for (int32_t i = 0; !rc && i < leaf->count; i++) {
        uint32_t op = leaf->ranks[i].posted;
        if (op != P2P_MATCH_NONE && leaf->matcher.ops[op].p.peer == rank) {
            rc = unpost(leaf, leaf->share[i]);
        }
    }
    /* its open slots, and those of the share waiting for it, are given up */
    for (int32_t i = 0; i < leaf->count; i++) {
        leaf_rank *o = &leaf->ranks[i];
        for (size_t k = 0; k < o->n_slots; k++) {
            if (o->slots[k].fate == FATE_OPEN && (o == r || o->slots[k].peer == rank)) {
                slot_up(leaf, o, &o->slots[k]);
            }
        }
    }
    for (int32_t i = 0; !rc && i < leaf->count; i++) {
        rc = leaf->ranks[i].n_slots ? drain(leaf, leaf->share[i]) : MG_ERROR_OK;
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

/* The held calls op (of rank) and its partner were matched: both become slots of their ranks'
 * windows, so the pair is decided on both ends' exits (decide_pair), not at once: MPI may still
 * refuse either call (its exit taints, and the pair goes up for the stage above to give back). */
static int resolve(tbon_leaf *leaf, int32_t rank, uint32_t op)
{
    uint32_t partner_op = leaf->matcher.ops[op].partner;
    if (leaf->matcher.ops[partner_op].owner_item == LEAF_SLOT_OP) {
        return to_window(leaf, rank);
    }
    /* both slots exist before either rank's exit is read: a refused one gives both up (taint) */
    int32_t partner = (int32_t)leaf->matcher.ops[partner_op].owner;
    int rc = join_window(leaf, partner);
    rc = rc ? rc : join_window(leaf, rank);
    rc = rc ? rc : scan_held(leaf, partner);
    return rc ? rc : scan_held(leaf, rank);
}

/* Taints the rank of ev and the peers in the share it names when it takes or gives a message
 * outside the stage's matching order (taints). */
static int taint_by(tbon_leaf *leaf, const check_event *ev)
{
    int32_t peers[2];
    if (!taints(leaf, ev, peers)) {
        return MG_ERROR_OK;
    }
    int rc = taint(leaf, ev->rank);
    for (int i = 0; !rc && i < 2; i++) {
        if (in_share(leaf, peers[i]) && peers[i] != ev->rank) {
            /* its records held for the stage above are free to go up now */
            rc = taint(leaf, peers[i]);
            rc = rc ? rc : drain(leaf, peers[i]);
        }
    }
    return rc;
}

/* Posts the call of ev to the matcher for its rank, *op. */
static int post(tbon_leaf *leaf, const check_event *ev, uint32_t comm_index, uint32_t *op)
{
    p2p_match_post post = {.rank = ev->rank,
                           .peer = ev->peer,
                           .tag = ev->tag,
                           .comm = comm_index,
                           .func = ev->func,
                           .mode = check_event_func_describe(ev->func)->mode,
                           .seq = ev->seq,
                           .callsite = ev->callsite,
                           .count = ev->count,
                           .type_hash = ev->type_hash,
                           .type_elems = ev->type_elems,
                           .type_period = ev->type_period,
                           .type_uniform = (ev->flags & CHECK_EVENT_FLAG_TYPE_UNIFORM) != 0};
    int rc = check_event_func_describe(ev->func)->klass == CHECK_EVENT_CLASS_RECV ||
                     check_event_func_describe(ev->func)->klass == CHECK_EVENT_CLASS_IRECV
                 ? p2p_match_post_recv(&leaf->matcher, &post, op)
                 : p2p_match_post_send(&leaf->matcher, &post, op);
    if (rc) {
        return rc;
    }
    leaf->matcher.ops[*op].owner = (uint32_t)ev->rank;
    rank_of(leaf, ev->peer)->awaited++;
    return MG_ERROR_OK;
}

/* The call of ev becomes a slot of its rank's window; a blocking call its op met is taken into its
 * own rank's window, so that the pair is decided on both ends' completions. */
static int open_slot(tbon_leaf *leaf, const check_event *ev, uint32_t comm_index)
{
    leaf_rank *r = rank_of(leaf, ev->rank);
    int rc = mg_array_reserve((void **)&r->slots, &r->cap_slots, r->n_slots + 1, sizeof *r->slots);
    leaf_slot *s = &r->slots[r->n_slots];
    rc = rc ? rc : post(leaf, ev, comm_index, &s->op);
    if (rc) {
        return rc;
    }
    p2p_match_op *o = &leaf->matcher.ops[s->op];
    o->owner_item = LEAF_SLOT_OP;
    s->request = nonblocking(ev) ? ev->request : 0;
    s->exit_seq = 0;
    s->entry_seq = ev->seq;
    s->peer = ev->peer;
    s->func = ev->func;
    s->done = 0;
    s->fate = FATE_OPEN;
    r->n_slots++;
    r->open++;
    r->exit_owed = 1;
    forget_completed(&leaf->matcher);
    if (o->state == P2P_MATCH_MATCHED && leaf->matcher.ops[o->partner].owner_item != LEAF_SLOT_OP) {
        return to_window(leaf, (int32_t)leaf->matcher.ops[o->partner].owner);
    }
    return MG_ERROR_OK;
}

/* Decides one record of a rank with nothing held before it: resolved, passed up, or (*held = 1)
 * held: posted to the matcher until its partner comes, or parked in the collective the share is
 * gathering. */
static int decide(tbon_leaf *leaf, const check_event *ev, const uint8_t *record, size_t len,
                  int *held)
{
    leaf_rank *r = rank_of(leaf, ev->rank);
    *held = 0;
    uint32_t comm_index;
    if (local_p2p(leaf, ev, &comm_index)) {
        if (!r->tainted && !rank_of(leaf, ev->peer)->tainted) {
            *held = 1;
            if (nonblocking(ev)) {
                return open_slot(leaf, ev, comm_index);
            }
            int rc = post(leaf, ev, comm_index, &r->posted);
            leaf->counts.held += !rc;
            return rc;
        }
    } else if (summarizable(ev) && !r->coll_up && !leaf->flushing) {
        r->parked = 1;
        *held = 1;
        return MG_ERROR_OK;
    } else {
        int rc = taint_by(leaf, ev);
        if (rc) {
            return rc;
        }
    }
    if (summarizable(ev)) {
        r->coll_up = 0;
    }
    note_comm(leaf, ev);
    if (tbon_leaf_awaits_answer(ev)) {
        r->awaited_exit = ev->seq;
    }
    return pass_up(leaf, record, len);
}

static int release_collective(tbon_leaf *leaf);
static int release_parked(tbon_leaf *leaf, int pass_through);
static int settle(tbon_leaf *leaf, int32_t rank);

/* The request ids a Wait/Test family record names, request_at(i) as the root reads them. */
static uint64_t request_at(const check_event *ev, uint32_t i)
{
    return ev->n_requests ? ev->requests[i] : (i == 0 ? ev->request : 0);
}

static uint32_t request_count(const check_event *ev)
{
    return ev->n_requests ? ev->n_requests : 1;
}

/* Points ev's request and status arrays (a record check_event_decode accepted) at the stage's
 * buffers, valid until the next call. */
static int with_requests(tbon_leaf *leaf, const uint8_t *record, check_event *ev)
{
    int rc = mg_array_reserve((void **)&leaf->requests, &leaf->cap_requests, ev->n_requests,
                              sizeof *leaf->requests);
    rc = rc ? rc
            : mg_array_reserve((void **)&leaf->statuses, &leaf->cap_statuses, ev->n_statuses,
                               sizeof *leaf->statuses);
    return rc ? rc : check_event_decode_arrays(record, ev, leaf->requests, leaf->statuses, NULL);
}

/* The latest slot of the rank whose request is id, made before the record of sequence seq. */
static leaf_slot *slot_of_request(leaf_rank *r, uint64_t id, uint64_t seq)
{
    for (size_t i = r->n_slots; id && i-- > 0;) {
        if (r->slots[i].request == id && r->slots[i].entry_seq < seq) {
            return &r->slots[i];
        }
    }
    return NULL;
}

/* Both ends of slot k's pair are complete: the pair is dropped when its messages agree, else both
 * go up (the stage above reports the disagreement). */
static int decide_pair(tbon_leaf *leaf, int32_t rank, size_t k)
{
    leaf_rank *r = rank_of(leaf, rank);
    if (k >= r->n_slots) {
        return MG_ERROR_OK;
    }
    leaf_slot *s = &r->slots[k];
    p2p_match *pm = &leaf->matcher;
    if (s->fate != FATE_OPEN || !s->done || pm->ops[s->op].state != P2P_MATCH_MATCHED) {
        return MG_ERROR_OK;
    }
    uint32_t partner_op = pm->ops[s->op].partner;
    int32_t partner = (int32_t)pm->ops[partner_op].owner;
    leaf_rank *pr = rank_of(leaf, partner);
    leaf_slot *ps = slot_of_op(pr, partner_op);
    if (!ps || !ps->done) {
        return MG_ERROR_OK;
    }
    const p2p_match_post *send = &pm->ops[s->op].p, *recv = &pm->ops[partner_op].p;
    if (pm->ops[s->op].kind == P2P_MATCH_RECV) {
        send = &pm->ops[partner_op].p;
        recv = &pm->ops[s->op].p;
    }
    uint8_t fate = p2p_match_compare_types(send, recv) <= TYPE_MATCH_PREFIX ? FATE_DROP : FATE_UP;
    settle_slot(leaf, ps, fate);
    settle_slot(leaf, s, fate);
    r->open--;
    pr->open--;
    int rc = drain(leaf, rank);
    return rc ? rc : drain(leaf, partner);
}

/* A Wait/Test family exit in the window: the slots whose requests it completed. */
static int note_completions(tbon_leaf *leaf, int32_t rank, const check_event *ev,
                            const uint8_t *record)
{
    const check_event_func_info *info = check_event_func_describe(ev->func);
    if (info->klass == CHECK_EVENT_CLASS_TEST && ev->result == 0 &&
        info->completion != CHECK_EVENT_COMPLETE_SOME) {
        return MG_ERROR_OK;
    }
    check_event full = *ev;
    int rc = with_requests(leaf, record, &full);
    leaf_rank *r = rank_of(leaf, rank);
    int all = !check_event_completes_listed(ev, info);
    uint32_t n = all ? request_count(&full) : full.n_statuses;
    for (uint32_t i = 0; !rc && i < n; i++) {
        uint32_t index = all ? i : full.statuses[i].index;
        leaf_slot *s = index < request_count(&full)
                           ? slot_of_request(r, request_at(&full, index), ev->seq)
                           : NULL;
        if (s && s->exit_seq) {
            s->done = 1;
        }
    }
    for (size_t k = 0; !rc && k < r->n_slots; k++) {
        rc = decide_pair(leaf, rank, k);
    }
    return rc;
}

/* Reads one more record of a rank's window (ev, record): the calls of the share it posts, the
 * exits and completions of its slots; a call that makes the stage's order wrong taints. */
static int scan(tbon_leaf *leaf, int32_t rank, const check_event *ev, const uint8_t *record)
{
    leaf_rank *r = rank_of(leaf, rank);
    const check_event_func_info *info = check_event_func_describe(ev->func);
    uint32_t comm_index;
    if (ev->kind == CHECK_EVENT_EV_EXIT && r->exit_owed &&
        ev->func == r->slots[r->n_slots - 1].func) {
        size_t k = r->n_slots - 1;
        r->exit_owed = 0;
        r->slots[k].exit_seq = ev->seq;
        if (ev->flags & ~CHECK_EVENT_FLAG_TYPE_UNIFORM) {
            return taint(leaf, rank); /* refused: MPI made no request */
        }
        r->slots[k].done = !r->slots[k].request;
        return decide_pair(leaf, rank, k);
    }
    if (local_p2p(leaf, ev, &comm_index)) {
        if (r->tainted || rank_of(leaf, ev->peer)->tainted) {
            return MG_ERROR_OK;
        }
        int rc = open_slot(leaf, ev, comm_index);
        return rc || !rank_of(leaf, ev->peer)->parked ? rc : release_collective(leaf);
    }
    if (ev->kind == CHECK_EVENT_EV_EXIT && info &&
        (info->klass == CHECK_EVENT_CLASS_WAIT || info->klass == CHECK_EVENT_CLASS_TEST)) {
        return note_completions(leaf, rank, ev, record);
    }
    if (ev->func == CHECK_EVENT_FN_CANCEL || ev->func == CHECK_EVENT_FN_REQUEST_FREE) {
        return taint(leaf, rank);
    }
    return taint_by(leaf, ev);
}

/* Reads the rank's held records past its window while a slot of it is open, up to the entry of a
 * collective the share gathers. */
static int scan_held(tbon_leaf *leaf, int32_t rank)
{
    leaf_rank *r = rank_of(leaf, rank);
    int rc = MG_ERROR_OK;
    while (!rc && r->open && r->win_len < r->held_len - r->held_start) {
        const uint8_t *record = r->held + r->held_start + r->win_len;
        check_event ev;
        size_t used;
        rc = check_event_decode(record, r->held_len - r->held_start - r->win_len, &ev, &used);
        /* the rank parks there once its head comes to it; read past it, the window would post
         * calls after the collective on ranks already parked in it and give the collective up
         * (scan), passing the share through, while the answers let its ranks go one by one */
        if (!rc && summarizable(&ev) && !r->coll_up && !leaf->flushing) {
            break;
        }
        if (!rc) {
            r->win_len += used;
            rc = scan(leaf, rank, &ev, record);
        }
    }
    return rc;
}

/* The rank's blocking call becomes the first slot of its window, its records not read yet. */
static int join_window(tbon_leaf *leaf, int32_t rank)
{
    leaf_rank *r = rank_of(leaf, rank);
    check_event head;
    size_t used;
    int rc = check_event_decode(r->held + r->held_start, r->held_len - r->held_start, &head, &used);
    rc = rc ? rc
            : mg_array_reserve((void **)&r->slots, &r->cap_slots, r->n_slots + 1, sizeof *r->slots);
    if (rc) {
        return rc;
    }
    leaf->matcher.ops[r->posted].owner_item = LEAF_SLOT_OP;
    r->slots[r->n_slots++] = (leaf_slot){.entry_seq = head.seq,
                                         .op = r->posted,
                                         .peer = leaf->matcher.ops[r->posted].p.peer,
                                         .func = head.func,
                                         .fate = FATE_OPEN};
    r->posted = P2P_MATCH_NONE;
    leaf->counts.held--;
    r->open++;
    r->exit_owed = 1;
    r->win_len = used;
    return MG_ERROR_OK;
}

/* The rank's blocking call, its op met by a slot's, becomes the first slot of its window. */
static int to_window(tbon_leaf *leaf, int32_t rank)
{
    int rc = join_window(leaf, rank);
    return rc ? rc : scan_held(leaf, rank);
}

/* What becomes of a record at the head of a window: a slot's record (its entry or exit) or a
 * completion naming only dropped requests follows the fate; FATE_OPEN: it waits; NOT_SLOT: it is
 * decided as any other record. */
static int record_fate(tbon_leaf *leaf, leaf_rank *r, const check_event *ev, const uint8_t *record,
                       int *fate)
{
    *fate = NOT_SLOT;
    for (size_t i = 0; i < r->n_slots; i++) {
        if (r->slots[i].entry_seq == ev->seq || r->slots[i].exit_seq == ev->seq) {
            *fate = r->slots[i].fate;
            return MG_ERROR_OK;
        }
    }
    const check_event_func_info *info = check_event_func_describe(ev->func);
    if (!info || (info->klass != CHECK_EVENT_CLASS_WAIT && info->klass != CHECK_EVENT_CLASS_TEST)) {
        return MG_ERROR_OK;
    }
    check_event full = *ev;
    int rc = with_requests(leaf, record, &full);
    uint32_t dropped = 0, n = request_count(&full);
    for (uint32_t i = 0; !rc && i < n; i++) {
        leaf_slot *s = slot_of_request(r, request_at(&full, i), ev->seq);
        if (s && s->fate == FATE_OPEN) {
            *fate = FATE_OPEN;
            break;
        }
        dropped += s && s->fate == FATE_DROP;
    }
    if (!rc && dropped == n) {
        *fate = FATE_DROP;
    }
    return rc;
}

/* Lets the head record of the rank's window go, as far as fates are decided (*stop: not now). */
static int release_head(tbon_leaf *leaf, int32_t rank, int *stop)
{
    leaf_rank *r = rank_of(leaf, rank);
    const uint8_t *record = r->held + r->held_start;
    check_event ev;
    size_t used;
    int fate, held;
    int rc = check_event_decode(record, r->held_len - r->held_start, &ev, &used);
    rc = rc ? rc : record_fate(leaf, r, &ev, record, &fate);
    if (rc || fate == FATE_OPEN) {
        *stop = 1;
        return rc;
    }
    if (fate == FATE_DROP) {
        leaf->counts.resolved++;
        pop_held(r, used);
        return tbon_leaf_awaits_answer(&ev) ? tell_below(leaf, rank, ev.seq) : MG_ERROR_OK;
    }
    if (fate == FATE_UP) {
        if (tbon_leaf_awaits_answer(&ev)) {
            r->awaited_exit = ev.seq;
        }
        rc = pass_up(leaf, record, used);
    } else {
        rc = decide(leaf, &ev, record, used, &held);
        if (rc || held) {
            return rc ? rc : settle(leaf, rank);
        }
    }
    pop_held(r, used);
    return rc;
}

/* The collective cannot be summarized (a ready rank's next record is not its exit, a rank of the
 * share waits for a parked one, the stage flushes): every parked rank's records go up as they are,
 * and its ranks are passed through from then on: the stage above may hold one of them in that
 * collective (a Bcast's root that left early), and a pair matched here would hide from it the
 * partner waiting behind. */
static int release_collective(tbon_leaf *leaf)
{
    return release_parked(leaf, 1);
}

/* Every rank of the share entered and left the collective, but their calls differ (each process
 * has its own call sites: a position-independent program loaded at other addresses): the records
 * go up as they are, and each rank's exit waits for the answer from above (tbon_leaf_awaits_answer)
 * as a collective's on another communicator does, so the ranks need not be passed through. */
static int release_parked(tbon_leaf *leaf, int pass_through)
{
    int rc = MG_ERROR_OK;
    leaf->n_ready = 0;
    leaf->disagree = leaf->unleft = 0;
    for (int32_t i = 0; i < leaf->count; i++) {
        leaf_rank *r = &leaf->ranks[i];
        if (r->parked) {
            r->parked = r->ready = 0;
            r->coll_up = 1;
        }
    }
    for (int32_t i = 0; !rc && pass_through && i < leaf->count; i++) {
        rc = leaf->ranks[i].coll_up ? taint(leaf, leaf->share[i]) : MG_ERROR_OK;
    }
    for (int32_t i = 0; !rc && i < leaf->count; i++) {
        rc = leaf->ranks[i].coll_up ? drain(leaf, leaf->share[i]) : MG_ERROR_OK;
    }
    return rc;
}

/* Every rank of the share entered and left the collective alike: one summary goes up for them
 * all (the entry of the share's first rank, standing for the share), none of their records. */
static int summarize(tbon_leaf *leaf)
{
    leaf_rank *first = &leaf->ranks[0];
    int rc = leaf->pass(leaf->ctx, first->held + first->held_start, held_head_size(first),
                        leaf->share, leaf->count);
    leaf->counts.summaries++;
    leaf->n_ready = 0;
    for (int32_t i = 0; i < leaf->count; i++) {
        leaf_rank *r = &leaf->ranks[i];
        r->parked = r->ready = 0;
        pop_held(r, held_head_size(r));
        pop_held(r, held_head_size(r));
        leaf->counts.summarized += 2;
    }
    for (int32_t i = 0; !rc && i < leaf->count; i++) {
        rc = drain(leaf, leaf->share[i]);
    }
    return rc;
}

/* A parked rank whose exit is held behind its entry is ready; the last one completes the
 * collective. */
static int check_ready(tbon_leaf *leaf, int32_t rank)
{
    leaf_rank *r = rank_of(leaf, rank);
    size_t entry_len = held_head_size(r);
    check_event entry, exit;
    size_t used;
    if (r->ready || r->held_start + entry_len >= r->held_len ||
        check_event_decode(r->held + r->held_start, entry_len, &entry, &used) ||
        check_event_decode(r->held + r->held_start + entry_len,
                           r->held_len - r->held_start - entry_len, &exit, &used)) {
        return MG_ERROR_OK;
    }
    r->ready = 1;
    if (leaf->n_ready++ == 0) {
        leaf->ref = entry;
    }
    leaf->unleft |= exit.kind != CHECK_EVENT_EV_EXIT || exit.func != entry.func;
    /* a call MPI refused took no part: the root withdraws it from its slot, so it goes up alone */
    leaf->disagree |= leaf->unleft || (exit.flags & CHECK_EVENT_FLAG_REFUSED) ||
                      !same_collective(&entry, &leaf->ref);
    if (leaf->n_ready < leaf->count) {
        return MG_ERROR_OK;
    }
    return leaf->disagree ? release_parked(leaf, leaf->unleft) : summarize(leaf);
}

/* The rank's head was just held: a posted call is resolved when the matcher paired it; a parked
 * one may complete the collective. Waiting for a parked rank would hold the share's records until
 * the stream ends (its calls after the collective are behind it), so the collective goes up as it
 * is then. */
static int settle(tbon_leaf *leaf, int32_t rank)
{
    leaf_rank *r = rank_of(leaf, rank);
    if (r->n_slots && !r->win_len) { /* a window opens at the head */
        r->win_len = held_head_size(r);
        int32_t peer = r->slots[r->n_slots - 1].peer;
        int rc = rank_of(leaf, peer)->parked ? release_collective(leaf) : MG_ERROR_OK;
        return rc ? rc : scan_held(leaf, rank);
    }
    if (r->parked) {
        return r->awaited ? release_collective(leaf) : check_ready(leaf, rank);
    }
    uint32_t op = r->posted;
    if (leaf->matcher.ops[op].state == P2P_MATCH_MATCHED) {
        return resolve(leaf, rank, op);
    }
    return rank_of(leaf, leaf->matcher.ops[op].p.peer)->parked ? release_collective(leaf)
                                                               : MG_ERROR_OK;
}

/* Decides the rank's held records in order until one waits for its partner. */
static int drain(tbon_leaf *leaf, int32_t rank)
{
    leaf_rank *r = rank_of(leaf, rank);
    if (r->draining) {
        return MG_ERROR_OK;
    }
    r->draining = 1;
    int rc = MG_ERROR_OK, stop = 0;
    while (!rc && !stop && r->posted == P2P_MATCH_NONE && !r->parked && !waits_above(r) &&
           r->held_len > r->held_start) {
        if (r->win_len) {
            rc = release_head(leaf, rank, &stop);
            continue;
        }
        if (!r->open) {
            r->n_slots = 0;
            r->exit_owed = 0;
        }
        const uint8_t *record = r->held + r->held_start;
        check_event ev;
        size_t used;
        int held;
        rc = check_event_decode(record, r->held_len - r->held_start, &ev, &used);
        rc = rc ? rc : decide(leaf, &ev, record, used, &held);
        if (!rc && held) {
            rc = settle(leaf, rank);
        } else if (!rc) {
            pop_held(r, used);
        }
    }
    if (!rc && !r->open && !r->win_len) {
        r->n_slots = 0;
        r->exit_owed = 0;
    }
    r->draining = 0;
    return rc;
}

int tbon_leaf_feed_bytes(tbon_leaf *leaf, const uint8_t *buf, size_t len, size_t *consumed)
{
    check_event ev;
    int rc = check_event_decode(buf, len, &ev, consumed);
    if (rc) {
        return rc;
    }
    if (!in_share(leaf, ev.rank)) {
        return MG_ERROR_EINVAL;
    }
    leaf->counts.records++;
    leaf_rank *r = rank_of(leaf, ev.rank);
    r->last_seq = ev.seq;
    if (r->held_len > r->held_start || waits_above(r)) {
        rc = hold(r, buf, *consumed);
        if (!rc && r->held_len - r->held_start > HOLD_MAX) {
            if (r->parked) {
                return release_collective(leaf);
            }
            rc = taint(leaf, ev.rank);
            return rc ? rc : drain(leaf, ev.rank);
        }
        rc = rc || !r->open ? rc : scan_held(leaf, ev.rank);
        return rc || !r->parked ? rc : check_ready(leaf, ev.rank);
    }
    int held;
    rc = decide(leaf, &ev, buf, *consumed, &held);
    if (rc || !held) {
        return rc;
    }
    rc = hold(r, buf, *consumed);
    return rc ? rc : settle(leaf, ev.rank);
}

int tbon_leaf_feed_summary(tbon_leaf *leaf, const uint8_t *buf, size_t len, const int32_t *ranks,
                           int32_t n, size_t *consumed)
{
    check_event ev;
    int rc = check_event_decode(buf, len, &ev, consumed);
    if (rc) {
        return rc;
    }
    if (!ranks || n <= 0) {
        return MG_ERROR_EINVAL;
    }
    for (int32_t i = 0; i < n; i++) {
        if (!in_share(leaf, ranks[i])) {
            return MG_ERROR_EINVAL;
        }
    }
    uint8_t record[CHECK_EVENT_HEADER_SIZE];
    for (int32_t i = 0; !rc && i < n; i++) {
        ev.rank = ranks[i];
        for (int kind = CHECK_EVENT_EV_ENTER; !rc && kind <= CHECK_EVENT_EV_EXIT; kind++) {
            size_t used;
            ev.kind = (uint8_t)kind;
            ev.seq = rank_of(leaf, ranks[i])->last_seq + 1;
            rc = check_event_encode(&ev, record, sizeof record, &used);
            rc = rc ? rc : tbon_leaf_feed_bytes(leaf, record, used, &used);
        }
    }
    return rc;
}

int tbon_leaf_flush(tbon_leaf *leaf)
{
    leaf->flushing = 1;
    int rc = release_collective(leaf);
    /* what a held call let go may post another: until none is held (each rank once) */
    for (int again = 1; !rc && again;) {
        again = 0;
        for (int32_t i = 0; !rc && i < leaf->count; i++) {
            if (leaf->ranks[i].posted != P2P_MATCH_NONE || waits_above(&leaf->ranks[i]) ||
                (leaf->ranks[i].n_slots && !leaf->ranks[i].tainted)) {
                rc = taint(leaf, leaf->share[i]);
                rc = rc ? rc : drain(leaf, leaf->share[i]);
                again = 1;
            }
        }
    }
    leaf->flushing = 0;
    return rc;
}

int tbon_leaf_completed(tbon_leaf *leaf, int32_t rank, uint64_t exit_seq)
{
    if (!in_share(leaf, rank)) {
        return MG_ERROR_EINVAL;
    }
    leaf_rank *r = rank_of(leaf, rank);
    if (!exit_seq || r->awaited_exit != exit_seq) {
        return MG_ERROR_OK;
    }
    r->awaited_exit = 0;
    int rc = tell_below(leaf, rank, exit_seq);
    return rc ? rc : drain(leaf, rank);
}

const tbon_leaf_call *tbon_leaf_take_completed(tbon_leaf *leaf, size_t *n)
{
    *n = leaf->n_completed;
    leaf->n_completed = 0;
    return leaf->completed;
}

void tbon_leaf_counts_get(const tbon_leaf *leaf, tbon_leaf_counts *out)
{
    *out = leaf->counts;
    for (int32_t i = 0; i < leaf->count; i++) {
        out->awaiting += (uint64_t)waits_above(&leaf->ranks[i]);
    }
}
