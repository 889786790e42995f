/* MUST's deadlock detector as a pure library: fed check event records one at a time (time passed
 * in), it matches point-to-point and collective operations, tracks requests and wait states,
 * and on demand builds the AND⊕OR wait-for graph and searches it for OR-knots.
 * Spec: docs/design/check.md "The detector"; paper: Hilbrich et al. 2013, "MPI runtime error
 * detection with MUST" §3-§6; design and measurements: docs/design/check-detector.md. Not
 * thread-safe: one thread per detector. */
#ifndef DEADLOCK_DETECTOR_H
#define DEADLOCK_DETECTOR_H

#include <stddef.h>
#include <stdint.h>

#include "check_event.h"
#include "dl_finding.h"
#include "dl_params.h"
#include "mpi_function_ids.h"

typedef struct deadlock_detector deadlock_detector;

/* Creates a detector for a job of world_size ranks; MPI_COMM_WORLD has id CHECK_EVENT_COMM_WORLD.
 * params may be NULL (defaults). Errors: MG_ERROR_EINVAL, MG_ERROR_ENOMEM. */
int deadlock_detector_create(const dl_params *params, int32_t world_size, deadlock_detector **out);
/* Frees the detector and its findings. NULL is accepted. */
void deadlock_detector_destroy(deadlock_detector *det);

/* Feeds one record (decoded; arrays borrowed for the call only) observed at caller time `now`.
 * Records of one rank must come in sequence order; ranks interleave freely. Request ids are
 * non-zero (0 stands for MPI_REQUEST_NULL). Records of a rank the model has blocked are held
 * (copied) and analysed when it can go on.
 * Errors: MG_ERROR_EINVAL (NULL, rank, peer or function out of range, unknown kind, an array
 * missing), MG_ERROR_ESTATE (sequence number not increasing: the record is ignored),
 * MG_ERROR_ENOENT (unknown communicator), MG_ERROR_EFORMAT (the record contradicts the stream: a
 * communicator of another size, an unknown or zero request id), MG_ERROR_ENOMEM. After
 * MG_ERROR_EINVAL/MG_ERROR_ESTATE/MG_ERROR_ENOENT/MG_ERROR_EFORMAT the record is dropped; after
 * MG_ERROR_ENOMEM it may be partly applied (the detector stays usable, its later findings may miss
 * or misplace that call). */
int deadlock_detector_feed(deadlock_detector *det, const check_event *ev, uint64_t now);
/* Feeds one encoded record (check_event_decode rules). Errors: as above plus MG_ERROR_EFORMAT and
 * MG_ERROR_EVERSION from decoding. *consumed gets the record size on success. */
int deadlock_detector_feed_bytes(deadlock_detector *det, const uint8_t *buf, size_t len,
                                 uint64_t now, size_t *consumed);
/* Feeds a collective summary of a stage of the tree of detectors (tbon_leaf.h): the n world ranks
 * ranks[] (the stage's share) each entered and left the blocking collective whose entry record ev
 * is, as if each rank's entry and exit came, numbered after the rank's last record. Errors: as
 * deadlock_detector_feed (the first one stops the summary); MG_ERROR_EINVAL also for a rank outside
 * the world. */
int deadlock_detector_feed_summary(deadlock_detector *det, const check_event *ev,
                                   const int32_t *ranks, int32_t n, uint64_t now);
/* Records that a rank's process vanished (crash, kill) without Finalize or Abort; a rank that
 * vanished inside a blocking wait is analysed as it was then first (its findings join the list).
 * Errors: MG_ERROR_EINVAL, MG_ERROR_ENOMEM. */
int deadlock_detector_process_lost(deadlock_detector *det, int32_t rank, uint64_t now);

/* Runs the wait-for analysis now (the caller's triggers: quiet time, every live process blocked,
 * the last Finalize, queue growth). New findings are appended; *n_new (may be NULL) gets their
 * number. Errors: MG_ERROR_ENOMEM (findings found before the failure are kept). */
int deadlock_detector_check_now(deadlock_detector *det, uint64_t now, size_t *n_new);
/* Every record of the job is in (it ended, or mpiguard was interrupted): no refusal can come any
 * more, so the collective mismatches still held for one (COLL_FINDINGS_REFUSAL_NS) are appended to
 * the findings. Errors: MG_ERROR_EINVAL (det NULL), MG_ERROR_ENOMEM (that one dropped). */
int deadlock_detector_end(deadlock_detector *det);

/* Trigger inputs. */
int deadlock_detector_is_every_live_process_blocked(const deadlock_detector *det);
/* Whether the model still holds the rank in a call (entered, exit not analysed): the root of the
 * tree of detectors tells a stage below when a call it passed up was left (tbon_leaf.h). 0 for a
 * rank outside the world. */
int deadlock_detector_rank_in_call(const deadlock_detector *det, int32_t rank);
/* The functions ranks called whose effect the detector does not model (their
 * CHECK_EVENT_FN_UNMODELLED records), once each in mpi_function_ids_fn order, in out[0..cap);
 * returns how many it wrote (0 for a NULL det). */
size_t deadlock_detector_unmodelled(const deadlock_detector *det, mpi_function_ids_fn *out,
                                    size_t cap);

typedef struct deadlock_detector_queues {
    size_t queued_sends;  /* sends waiting for a receive */
    size_t pending_recvs; /* receives waiting for a send */
    size_t undecided;     /* wildcard receives with candidates and no reported decision */
    size_t held_records;  /* records of model-blocked ranks not analysed yet */
    size_t held_bytes;
    size_t live_requests;
    size_t live_processes;     /* neither finalized, aborted nor lost */
    size_t blocked_processes;  /* live processes the model has blocked */
    uint64_t records;          /* records fed so far */
    uint64_t last_record_time; /* `now` of the last record */
    uint64_t forced_decisions;
    /* When an analysis reports the collective mismatch it holds while MPI may still refuse one of
     * its calls (the earliest; 0: none held), though no record comes meanwhile. */
    uint64_t mismatch_due;
} deadlock_detector_queues;

void deadlock_detector_queue_sizes(const deadlock_detector *det, deadlock_detector_queues *out);

/* The findings so far, oldest first; the pointer is valid until the next feed/check/destroy.
 * The detector owns them. */
const dl_finding *deadlock_detector_findings(const deadlock_detector *det, size_t *n);

#endif
