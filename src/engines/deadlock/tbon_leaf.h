/* A stage of the tree of detectors (MUST's tree-based overlay network, paper §3; design:
 * docs/check-detector.md §14): fed the records of its share of ranks, it matches
 * the blocking point-to-point calls whose both ends are in the share with the detector's own
 * matcher (p2p_match) and keeps those pairs from the stage above; a blocking collective on WORLD
 * that every rank of the share entered and left alike goes up as one summary; every other record
 * goes up unchanged. The stage above (another tbon_leaf, or the deadlock detector at the root:
 * deadlock_detector_feed_summary) consumes what it passes as it consumes records. No MPI, no I/O.
 * Not thread-safe. */
#ifndef TBON_LEAF_H
#define TBON_LEAF_H

#include <stddef.h>
#include <stdint.h>

typedef struct tbon_leaf tbon_leaf;

/* Receives one encoded record passed up, in the order of its rank (summary_ranks 0), or a summary
 * (summary_ranks n > 0): world ranks [record's rank, + n) each entered and left the collective
 * whose entry record it is. The bytes are borrowed for the call only. A non-zero return stops the
 * feed and comes back from it. */
typedef int (*tbon_leaf_pass_fn)(void *ctx, const uint8_t *record, size_t len,
                                 int32_t summary_ranks);

typedef struct tbon_leaf_counts {
    uint64_t records;    /* fed */
    uint64_t passed;     /* passed up */
    uint64_t resolved;   /* matched here and not passed up (entries and exits of both ends) */
    uint64_t summaries;  /* collective summaries passed up */
    uint64_t summarized; /* records a summary stands for */
    uint64_t held;       /* held now: ranks waiting in a call whose partner has not come yet */
    uint64_t tainted;    /* ranks passed through: their point-to-point calls go up unmatched */
} tbon_leaf_counts;

/* A stage for world ranks [first, first + count) of a job of world_size ranks, passing up through
 * pass(ctx, ...). Errors: MG_EINVAL (a share outside the world, pass NULL), MG_ENOMEM. */
int tbon_leaf_create(int32_t world_size, int32_t first, int32_t count, tbon_leaf_pass_fn pass,
                     void *ctx, tbon_leaf **out);
/* Frees the stage and the records it holds. NULL is accepted. */
void tbon_leaf_destroy(tbon_leaf *leaf);

/* Feeds the encoded record at buf[0..len) (check_event_decode rules); *consumed gets its size.
 * Records of one rank come in their order. Errors: MG_EFORMAT/MG_EVERSION (decoding), MG_EINVAL (a
 * rank outside the share), MG_ENOMEM, or what pass returned. */
int tbon_leaf_feed_bytes(tbon_leaf *leaf, const uint8_t *buf, size_t len, size_t *consumed);
/* Feeds a summary of a stage below (the pass function's summary_ranks): its ranks' entries and
 * exits, numbered after each rank's last record. Errors: as feed; MG_EINVAL for ranks outside the
 * share. */
int tbon_leaf_feed_summary(tbon_leaf *leaf, const uint8_t *buf, size_t len, int32_t ranks,
                           size_t *consumed);
/* Passes up every record held (the stream went quiet or ended, so the stage above can decide on
 * the waits in them); their ranks are passed through from then on. Errors: as feed. */
int tbon_leaf_flush(tbon_leaf *leaf);

void tbon_leaf_counts_get(const tbon_leaf *leaf, tbon_leaf_counts *out);

#endif
