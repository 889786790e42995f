/* Internal to src/engines/deadlock: no other folder includes it (docs/architecture.md). */
/* Point-to-point matching in O(1) per message: FIFO queues per (communicator, source,
 * destination, tag) with MPI's non-overtaking order, wildcards resolved by the decision the MPI
 * library reported (paper §6), and the deferral of later receives behind an undecided wildcard.
 * Spec: docs/design/check.md "Point-to-point matching"; design: docs/design/check-detector.md
 * §3. */
#ifndef P2P_MATCH_H
#define P2P_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "key_map.h"
#include "type_match.h"

#define P2P_MATCH_NONE UINT32_MAX

enum p2p_match_kind { P2P_MATCH_SEND = 1, P2P_MATCH_RECV = 2 };

enum p2p_match_state {
    P2P_MATCH_FREE = 0,
    P2P_MATCH_WAITING,   /* posted; no partner available */
    P2P_MATCH_UNDECIDED, /* wildcard receive with candidate sends but no reported decision */
    P2P_MATCH_DEFERRED,  /* receive posted after an undecided wildcard of the same (rank, comm) */
    P2P_MATCH_MATCHED,
    P2P_MATCH_CANCELLED
};

enum p2p_match_flags {
    P2P_MATCH_F_DECIDED = 1u << 0, /* a wildcard receive whose source and tag are known */
    P2P_MATCH_F_FORCED = 1u << 1,  /* ... and the detector chose them (deciding mode, probing) */
    P2P_MATCH_F_DETACHED = 1u
                           << 2 /* nobody refers to it: freed once matched and its partner is too */
};

/* What an operation is posted with. */
typedef struct p2p_match_post {
    int32_t rank;  /* owner: sender of a send, receiver of a receive */
    int32_t peer;  /* destination, or source / CHECK_EVENT_ANY_SOURCE */
    int32_t tag;   /* tag, or CHECK_EVENT_ANY_TAG for receives */
    uint32_t comm; /* communicator index (comm_table) */
    uint16_t func;
    uint8_t mode; /* check_event_send_mode of a send */
    uint64_t seq; /* the owner's sequence number of the posting call */
    uint64_t callsite;
    uint64_t request;
    int64_t count;
    /* the message's signature as the record carries it (check_event.h); period 0: not compared */
    uint64_t type_hash, type_elems, type_period;
    uint8_t type_uniform;
    /* a send: the latest sequence number of its destination the sender had heard of when it
     * posted it (message_race.h); 0 when races are not checked */
    uint64_t dest_seen;
} p2p_match_post;

/* A matched pair whose messages disagree (docs/design/check-detector.md §13): verdict is
 * TYPE_MATCH_TRUNCATED or TYPE_MATCH_MISMATCH. */
typedef struct p2p_match_type_issue {
    uint8_t verdict;
    p2p_match_post send, recv;
} p2p_match_type_issue;

/* A send and the receive it matched, in the order the matcher paired them (message_race.h). */
typedef struct p2p_match_pairing {
    p2p_match_post send, recv;
    uint8_t wildcard; /* the receive was MPI_ANY_SOURCE, decided by the MPI library */
} p2p_match_pairing;

typedef struct p2p_match_op {
    p2p_match_post p;
    int32_t dec_source, dec_tag; /* the decision of a wildcard receive (P2P_MATCH_F_DECIDED) */
    uint32_t partner;            /* matched op, or P2P_MATCH_NONE */
    uint32_t owner, owner_item;  /* opaque to the matcher: the detector's back reference */
    uint32_t link_prev[4], link_next[4], queue[4];
    uint8_t kind, state, flags;
} p2p_match_op;

typedef struct p2p_match_queue {
    uint32_t head, tail; /* head links the free list while the queue is unused */
    uint32_t barrier; /* posting lists only: the earliest undecided wildcard, or P2P_MATCH_NONE */
    uint8_t is_send;  /* which map holds the key */
    uint64_t key_a, key_b; /* the key, so an emptied queue leaves the map */
} p2p_match_queue;

typedef struct p2p_match {
    p2p_match_op *ops;
    size_t n_ops, cap_ops;
    uint32_t free_head;
    p2p_match_queue *queues; /* a queue exists while it holds ops: memory follows live traffic */
    size_t n_queues, cap_queues;
    uint32_t free_queue;
    key_map send_queues; /* (comm|src, dst|tag) -> queue, four per send */
    key_map recv_queues; /* same keys for receives, plus one posting list per (comm, dst) */
    key_map messages;    /* (rank, message id) -> the receive a matched probe posted */
    uint32_t *completed; /* ops matched or cancelled since the last drain */
    size_t n_completed, cap_completed;
    p2p_match_type_issue *type_issues; /* pairs matched whose messages disagree, not drained yet
                                    (the detector takes each once MPI can no longer refuse its
                                    calls); a copy starts without them */
    size_t n_type_issues, cap_type_issues;
    p2p_match_pairing
        *pairings; /* pairs matched since the last drain, kept only when log_pairings */
    size_t n_pairings, cap_pairings;
    uint8_t log_pairings; /* a copy starts without it */
    size_t queued_sends, pending_recvs, undecided;
} p2p_match;

void p2p_match_init(p2p_match *pm);
void p2p_match_free(p2p_match *pm);
/* Deep copy (probing explores a decision on a copy). Errors: MG_ERROR_ENOMEM (dst left freed). */
int p2p_match_clone(const p2p_match *src, p2p_match *dst);

/* Posts a send or receive and matches it if possible. *op gets its index. A send to / receive
 * from CHECK_EVENT_PROC_NULL must not be posted (the caller completes it). Errors: MG_ERROR_EINVAL,
 * MG_ERROR_ENOMEM (nothing posted). */
int p2p_match_post_send(p2p_match *pm, const p2p_match_post *post, uint32_t *op);
int p2p_match_post_recv(p2p_match *pm, const p2p_match_post *post, uint32_t *op);
/* Applies the decision the MPI library made for receive op (status source/tag); forced marks a
 * decision the detector took itself. A repeated identical decision is accepted. Errors:
 * MG_ERROR_EINVAL (not a receive, bad source), MG_ERROR_ESTATE (contradicts an earlier decision),
 * MG_ERROR_ENOMEM. */
int p2p_match_decide(p2p_match *pm, uint32_t op, int32_t source, int32_t tag, int forced);
/* Removes an unmatched op from the queues (MPI_Cancel); a matched op is left alone. */
void p2p_match_cancel(p2p_match *pm, uint32_t op);
/* MPI refused the call that posted op: op leaves the queues (cancelled) whether or not it was
 * matched, and the op it matched, *given_back (else P2P_MATCH_NONE), returns to its queues at its
 * posting position, unmatched, and is matched again (MPI's non-overtaking order: it goes before
 * its owner's later messages); the pair's type issue, if still listed, goes too. The owner's
 * references stay valid. Errors: MG_ERROR_ENOMEM (a queue could not be made: *given_back stays
 * matched, to nothing). */
int p2p_match_withdraw(p2p_match *pm, uint32_t op, uint32_t *given_back);
/* The owner drops its reference: frees a cancelled op now, a matched one once its partner is
 * unreferenced too (a refused partner may still give it back), else when it is matched. */
void p2p_match_release(p2p_match *pm, uint32_t op);

/* Matched probes (issue 28 item 1): receive op, posted by rank's Mprobe or Improbe, matched the
 * message MPI calls message (the capture module's id); the matcher takes over the caller's
 * reference to op until the message's Mrecv or Imrecv. Errors: MG_ERROR_ENOMEM (the caller keeps
 * its reference). */
int p2p_match_keep_message(p2p_match *pm, int32_t rank, uint64_t message, uint32_t op);
/* The Mrecv or Imrecv call of rank's message: its probe's receive takes the call's function,
 * sequence number, call site, count and signature, is compared with its send (now, or once it
 * is matched; a type issue names the call), and its reference is dropped. A message not kept
 * (its probe was refused or not recorded) is ignored. Errors: MG_ERROR_ENOMEM. */
int p2p_match_receive_message(p2p_match *pm, int32_t rank, uint64_t message,
                              const p2p_match_post *call);

/* Ops matched or cancelled since the last call: *ops stays valid until the next mutation. */
void p2p_match_drain(p2p_match *pm, const uint32_t **ops, size_t *n);
/* Pairs whose messages disagree, matched since the last call (matches the detector forced are
 * left out: MPI may have matched otherwise); valid until the next mutation. */
void p2p_match_drain_type_issues(p2p_match *pm, const p2p_match_type_issue **issues, size_t *n);

/* Pairs matched since the last call, in matching order (only while log_pairings is set); valid
 * until the next mutation. */
void p2p_match_drain_pairings(p2p_match *pm, const p2p_match_pairing **pairings, size_t *n);
/* Calls visit(ctx, send) for every send queued for (comm, dest) that a receive with tag (or
 * CHECK_EVENT_ANY_TAG) from any source could match, oldest first. */
void p2p_match_each_queued_send(const p2p_match *pm, uint32_t comm, int32_t dest, int32_t tag,
                                void (*visit)(void *ctx, const p2p_match_post *send), void *ctx);

/* How the message a send describes compares with the one its matched receive describes, from the
 * records' signatures alone: TYPE_MATCH_EQUAL (also when either side is not compared),
 * TYPE_MATCH_PREFIX (a longer receive, legal), TYPE_MATCH_TRUNCATED or TYPE_MATCH_MISMATCH.
 * Two integer comparisons for equal messages. A pair whose repeating units differ and are not
 * both basic types, with different lengths, cannot be decided from the records and counts as
 * equal (docs/design/check-detector.md §13). */
uint8_t p2p_match_compare_types(const p2p_match_post *send, const p2p_match_post *recv);

/* Optimistic view of a pending op used by the wait-for analysis: 1 when the op can complete
 * once the undecided wildcards ahead of it are decided (an undecided receive; a deferred receive
 * with a matching send queued; a send with a matching receive posted), else 0. */
int p2p_match_may_complete(const p2p_match *pm, uint32_t op);
/* 1 when a send matching (comm, source|ANY, dest, tag|ANY) is queued (a blocked Probe). */
int p2p_match_has_send(const p2p_match *pm, uint32_t comm, int32_t source, int32_t dest,
                       int32_t tag);
/* The distinct sources (with the tag of the earliest send from each) that undecided receive op
 * could match, up to cap. */
size_t p2p_match_candidates(const p2p_match *pm, uint32_t op, int32_t *sources, int32_t *tags,
                            size_t cap);

#endif
