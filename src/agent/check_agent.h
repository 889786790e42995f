/* The check agent: finds the event rings of the ranks it owns on this node (share k of N: the
 * block of world ranks check_agent_share_range gives), drains them, validates each record, resolves
 * call sites while the rank lives, and hands everything to a sink: the detector in the same
 * process, or a TCP stream to the detector (record_stream.h). Spec: docs/design/check.md "Transport
 * and scale"; docs/design/check.md "How it is built". */
#ifndef MG_CHECK_AGENT_H
#define MG_CHECK_AGENT_H

#include <stddef.h>
#include <stdint.h>

#include "check_event.h"
#include "site_resolver.h"

/* How a rank's stream ended (rank_end): the ring's life, or lost when the writer vanished
 * without MPI_Finalize or MPI_Abort (a crash, a kill), or unreadable when the ring was corrupt. */
enum check_agent_end {
    CHECK_AGENT_FINALIZED = 1,
    CHECK_AGENT_ABORTED = 2,
    CHECK_AGENT_LOST = 3,
    CHECK_AGENT_CORRUPT = 4
};

typedef struct check_agent_sink {
    void *ctx;
    /* One valid record: decoded (arrays valid for the call) and its encoded bytes. */
    void (*record)(void *ctx, const check_event *ev, const uint8_t *bytes, size_t len);
    /* A call site seen for the first time, resolved. */
    void (*site)(void *ctx, int rank, uint64_t addr, const site_resolver_info *site);
    /* The rank's stream ended; lost = records its writer had to drop. */
    void (*rank_end)(void *ctx, int rank, int end, uint64_t lost);
} check_agent_sink;

typedef struct check_agent check_agent;

/* An agent for the rings of `token` of share `share` of `shares`. Errors: MG_ERROR_EINVAL,
 * MG_ERROR_ENOMEM. */
int check_agent_create(const char *token, int share, int shares, check_agent **out);
/* Share k of n of a world of world_size ranks: the contiguous block [*first, *end), so that a
 * stage of the tree of detectors fed by one agent holds whole runs of ranks (tbon_leaf.h); empty
 * when n > world_size for some k. */
void check_agent_share_range(int world_size, int share, int shares, int *first, int *end);
/* Detaches every ring and removes the names still in /dev/shm. NULL is accepted. */
void check_agent_destroy(check_agent *a);
/* Removes every ring of the token still in /dev/shm (what a crashed job left); returns how many. */
int check_agent_remove_rings(const char *token);

/* Attaches new rings, drains every ring (up to max_records records in all, 0 for no limit),
 * reports ended streams. *records gets how many records were handed to the sink. Records that
 * fail validation are counted (check_agent_stats) and skipped; a ring whose framing is corrupt
 * is abandoned with CHECK_AGENT_CORRUPT. Errors: MG_ERROR_ENOMEM. */
int check_agent_poll(check_agent *a, const check_agent_sink *sink, size_t max_records,
                     size_t *records);

typedef struct check_agent_stats {
    int world_size;      /* from the rings' headers; 0 until one is attached */
    int attached;        /* rings attached so far */
    int ended;           /* streams ended */
    uint64_t lost;       /* records the writers dropped (full ring, dead reader) */
    uint64_t full_waits; /* records that waited for room */
    uint64_t invalid;    /* records that failed validation */
    /* records that carried their caller's site (CHECK_EVENT_FLAG_CALLER_SITE: a rank with the MPI's
     * C++ bindings) */
    uint64_t caller_sites;
} check_agent_stats;

void check_agent_stats_get(const check_agent *a, check_agent_stats *out);

/* The sequence number of the call rank is blocked in, when the rank's ring is drained and the
 * rank is inside a call (the entry record written, no exit yet); 0 otherwise or unknown. Used to
 * confirm a deadlock: the ranks are really still in the calls the detector analysed. */
uint64_t check_agent_blocked_seq(const check_agent *a, int rank);
/* The pid of a rank's writer, 0 when its ring is not attached. */
int check_agent_pid(const check_agent *a, int rank);
/* 1 once a rank's stream ended (its end was handed to the sink). */
int check_agent_ended(const check_agent *a, int rank);

#endif
