/* When `mpiguard check` analyses the job and when a deadlock it found is confirmed: the decisions
 * of the check watch (src/cli/check_watch.c drives them), over the detector's queues and what the
 * driver reads of the ranks. Pure: no I/O, times in nanoseconds passed in. docs/check.md. */
#ifndef CHECK_POLICY_H
#define CHECK_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "deadlock_detector.h"

/* What the policy remembers between calls; filled by check_policy_init, owned by the caller. */
typedef struct check_policy {
    uint64_t quiet_ns;         /* no record for this long triggers an analysis */
    uint64_t last_record;      /* when the last record came */
    uint64_t records_at_check; /* records fed when the detector last analysed */
    size_t held_at_check;      /* records held then */
    int stream_ended;          /* a rank's stream ended since the last analysis */
    /* A deadlock found but not confirmed yet: its index among the detector's findings, the
     * records its ranks had sent then (any new one means a rank moved on), and since when. */
    int pending;
    size_t pending_index;
    uint64_t pending_mark, pending_since;
    /* Since when a rank is in a call the root has no record of (check_policy_view); gave_up:
     * the wait for it ran out, and the analysis goes on without it until the view is whole. */
    int behind, gave_up;
    uint64_t behind_since;
} check_policy;

/* What the driver reads of each rank of a world of `world` ranks (arrays of world entries). */
typedef struct check_policy_readings {
    int32_t world;
    const uint64_t *in_call; /* nonzero: inside an MPI call with nothing left in its ring */
    const uint64_t *records; /* records received */
    const uint8_t *ended;    /* its stream ended */
    /* The sequence number of the last record the root has of each rank: with a tree of
     * detectors, a stage may hold a rank's later records (tbon_root_seen). NULL: the root has
     * every record a rank's in_call names (no stage between them). */
    const uint64_t *seen;
} check_policy_readings;

/* What becomes of a finding that stops the job. */
enum check_policy_confirmation {
    CHECK_POLICY_CONFIRMED = 1, /* act on it */
    CHECK_POLICY_UNCONFIRMED,   /* look again later; findings after it wait behind it */
    CHECK_POLICY_DROPPED        /* a rank of it moved on, or it stayed unconfirmed too long */
};

/* Starts the policy at `now` with the quiet time of --quiet-time (seconds). */
void check_policy_init(check_policy *p, double quiet_time, uint64_t now);
/* A record came at `now`. */
void check_policy_note_record(check_policy *p, uint64_t now);
/* A rank's record stream ended (it crashed or finalized): who waits for it? */
void check_policy_note_stream_end(check_policy *p);

/* 1 when the detector should analyse at `now` (the triggers: a stream ended, quiet time, every
 * live process blocked after a short settle, no live process, held records doubled). det may be
 * NULL (no detector yet: 0). */
int check_policy_due(const check_policy *p, const deadlock_detector *det, uint64_t now);
/* The detector analysed: the triggers start over from its queues now. */
void check_policy_analysed(check_policy *p, const deadlock_detector *det);

/* Whether the root knows every call the ranks are in (in_call against seen): an analysis while a
 * stage below holds the record of a rank's call would find a deadlock without that rank, or one
 * of others that the held call joins, and would confirm it (their knot is in calls). */
enum check_policy_view_kind {
    CHECK_POLICY_VIEW_WHOLE = 0, /* analyse */
    CHECK_POLICY_VIEW_ASK,    /* a rank is in a call the root has no record of: ask the stages below
                          for what they hold (once per wait), and wait */
    CHECK_POLICY_VIEW_BEHIND, /* still waiting for it */
    CHECK_POLICY_VIEW_GAVE_UP /* still missing after 3 s: analyse without it (once per wait) */
};
/* The view at `now`; *rank gets a rank whose call is missing (-1 when whole). */
enum check_policy_view_kind check_policy_view(check_policy *p, const check_policy_readings *rd,
                                              uint64_t now, int32_t *rank);

/* 1 when finding f stops the job once confirmed (a deadlock, or ranks stuck on a terminated one).
 */
int check_policy_stops(const dl_finding *f);
/* Whether finding `index` (f, one that stops) is confirmed at `now`: only when every blocked rank
 * of its knot is inside an MPI call with nothing left in its ring, since a rank whose next records
 * were still on their way (a standard send MPI buffered) would look deadlocked. An unconfirmed one
 * is looked at again while its ranks send nothing new, for at most 5 s (a rank caught between
 * writing its record and marking itself in the call, or preempted there on a loaded machine). */
enum check_policy_confirmation check_policy_confirm(check_policy *p, size_t index,
                                                    const dl_finding *f,
                                                    const check_policy_readings *rd, uint64_t now);

/* 1 when finding f is an error after which the MPI library may hang where the model goes on: a
 * mismatching collective counts as an arrival in the model, but the library never completes it;
 * a free of a window whose epoch is open (invalid arguments) waits for its accesses. What
 * check_policy_stuck's after_errors counts. */
int check_policy_hangs_after(const dl_finding *f);

/* 1 when, after reported errors (a collective mismatch, or a detector whose model is incomplete),
 * nothing will move again: no record for three quiet times (at least 3 s, so a long healthy
 * collective is not taken for a hang) and every live rank inside an MPI call. The job may hang
 * where the model does not: a mismatching call counts as an arrival in the model, but the MPI
 * library never completes it. */
int check_policy_stuck(const check_policy *p, int after_errors, const check_policy_readings *rd,
                       uint64_t now);

#endif
