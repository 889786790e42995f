/* A stage of the tree of detectors (MUST's tree-based overlay network, paper §3; design:
 * docs/design/check-detector.md §14): fed the records of its share of ranks, it matches
 * the point-to-point calls, blocking or not, whose both ends are in the share, on WORLD or on an
 * intracommunicator whose constructor's exit record it read (members in other shares too), with
 * the detector's own matcher (p2p_match) and keeps those pairs from the stage above (a nonblocking
 * pair, and a completion naming only such pairs, once both ranks completed it); a blocking
 * collective on WORLD that every rank of the share entered and left alike goes up as one summary;
 * every other record goes up unchanged. The stage above (another tbon_leaf, or the deadlock
 * detector at the root: deadlock_detector_feed_summary) consumes what it passes as it consumes
 * records. No MPI, no I/O. Not thread-safe. */
#ifndef TBON_LEAF_H
#define TBON_LEAF_H

#include <stddef.h>
#include <stdint.h>

#include "check_event.h"

typedef struct tbon_leaf tbon_leaf;

/* Receives one encoded record passed up, in the order of its rank (n_summary 0), or a summary
 * (n_summary > 0): the stage's whole share, the n_summary world ranks summary[] (ascending; the
 * record's rank is the first), each entered and left the collective whose entry record it is. The
 * bytes and the ranks are borrowed for the call only. A non-zero return stops the feed and comes
 * back from it. */
typedef int (*tbon_leaf_pass_fn)(void *ctx, const uint8_t *record, size_t len,
                                 const int32_t *summary, int32_t n_summary);

/* A rank's call by the sequence number of its exit record. */
typedef struct tbon_leaf_call {
    int32_t rank;
    uint64_t exit_seq;
} tbon_leaf_call;

typedef struct tbon_leaf_counts {
    uint64_t records;    /* fed */
    uint64_t passed;     /* passed up */
    uint64_t resolved;   /* matched here and not passed up (entries and exits of both ends, and
                          * completions naming only such calls) */
    uint64_t summaries;  /* collective summaries passed up */
    uint64_t summarized; /* records a summary stands for */
    uint64_t held;       /* held now: ranks waiting in a call whose partner has not come yet */
    uint64_t tainted;    /* ranks passed through: their point-to-point calls go up unmatched */
    uint64_t awaiting;   /* ranks held now until the stage above answers (tbon_leaf_completed) */
} tbon_leaf_counts;

/* A stage for the count world ranks ranks[] (ascending: any set, e.g. the ranks a node holds
 * round robin; a block of consecutive ranks is one such set) of a job of world_size ranks,
 * passing up through pass(ctx, ...). O(world_size) memory. Errors: MG_ERROR_EINVAL (a rank outside
 * the world, ranks not ascending or repeated, pass NULL), MG_ERROR_ENOMEM. */
int tbon_leaf_create(int32_t world_size, const int32_t *ranks, int32_t count,
                     tbon_leaf_pass_fn pass, void *ctx, tbon_leaf **out);
/* The place of rank in the ascending set ranks[0..n) (a share), -1 if it is not in it. O(log n). */
int32_t tbon_leaf_share_place(const int32_t *ranks, int32_t n, int32_t rank);
/* Frees the stage and the records it holds. NULL is accepted. */
void tbon_leaf_destroy(tbon_leaf *leaf);

/* Feeds the encoded record at buf[0..len) (check_event_decode rules); *consumed gets its size.
 * Records of one rank come in their order. Errors: MG_ERROR_EFORMAT/MG_ERROR_EVERSION (decoding),
 * MG_ERROR_EINVAL (a rank outside the share), MG_ERROR_ENOMEM, or what pass returned. */
int tbon_leaf_feed_bytes(tbon_leaf *leaf, const uint8_t *buf, size_t len, size_t *consumed);
/* Feeds a summary of a stage below (the pass function's summary[0..n)): those ranks' entries and
 * exits, numbered after each rank's last record. Errors: as feed; MG_ERROR_EINVAL for a rank
 * outside the share. */
int tbon_leaf_feed_summary(tbon_leaf *leaf, const uint8_t *buf, size_t len, const int32_t *ranks,
                           int32_t n, size_t *consumed);
/* Passes up every record held (the stream went quiet or ended, so the stage above can decide on
 * the waits in them, also those held for the stage above: tbon_leaf_completed); their ranks are
 * passed through from then on. Errors: as feed. */
int tbon_leaf_flush(tbon_leaf *leaf);

/* Whether ev is the exit of a call whose partner it does not prove (a send MPI may have buffered,
 * a Sendrecv, a Wait, a blocking collective, which MPI may let a rank leave before the other
 * members came): the stage above may hold the rank in that call after it, for good if the
 * receive never comes, so a stage that passes it up holds the rank's later records (a pair matched
 * behind it would hide the partner waiting on it) until the stage above answers. */
int tbon_leaf_awaits_answer(const check_event *ev);
/* The answer: the stage above left the call of rank whose exit record was exit_seq. A call the
 * stage is not waiting for is ignored. Errors: MG_ERROR_EINVAL (a rank outside the share), as feed.
 */
int tbon_leaf_completed(tbon_leaf *leaf, int32_t rank, uint64_t exit_seq);
/* The calls of that kind fed to this stage (from the stage below) that its own model left since
 * the last call: matched here, or told completed from above. The stage below waits for each
 * (tbon_leaf_completed); a stage fed by agents drops them. The array is the stage's, valid until
 * the next call into it. */
const tbon_leaf_call *tbon_leaf_take_completed(tbon_leaf *leaf, size_t *n);

/* What the stage did so far; O(ranks of the share). */
void tbon_leaf_counts_get(const tbon_leaf *leaf, tbon_leaf_counts *out);

#endif
