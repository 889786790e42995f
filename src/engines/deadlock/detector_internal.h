/* Internal state of the deadlock detector, shared by its translation units (deadlock_detector.c:
 * records and wait states; wfg_build.c: the wait-for graph; wildcard_probe.c: probing and
 * deciding). Not installed; see docs/check-detector.md §5-§8. */
#ifndef DETECTOR_INTERNAL_H
#define DETECTOR_INTERNAL_H

#include "coll_match.h"
#include "comm_table.h"
#include "deadlock_detector.h"
#include "p2p_match.h"
#include "record_backlog.h"
#include "request_table.h"
#include "wait_graph.h"

#define DL_NONE UINT32_MAX

enum dl_item_type { ITEM_P2P = 1, ITEM_COLL, ITEM_PROBE };

/* One thing a blocking call waits for. */
typedef struct dl_item {
    uint8_t type; /* dl_item_type */
    uint8_t done;
    uint32_t ref;      /* p2p op (ITEM_P2P) or communicator index (ITEM_COLL, ITEM_PROBE) */
    uint64_t slot;     /* ITEM_COLL */
    uint64_t request;  /* the request id the item came from (0 for blocking calls) */
    int32_t peer, tag; /* ITEM_PROBE */
} dl_item;

/* The blocking call a rank is in (entered, exit not analysed), when it waits for anything. */
typedef struct dl_wait {
    int32_t rank;
    uint16_t func;
    uint8_t any; /* satisfied by one item (Waitany/Waitsome) rather than all */
    uint8_t satisfied;
    uint32_t n_items, remaining;
    dl_item *items;
    uint64_t seq, callsite, comm_id;
    int32_t peer, tag, root;
    uint32_t op;
    uint32_t next_free;
} dl_wait;

enum dl_life { LIFE_LIVE = 0, LIFE_FINALIZED, LIFE_ABORTED, LIFE_LOST };

enum dl_rank_flags {
    RANK_IN_CALL = 1u << 0,  /* entered a call whose exit was not analysed */
    RANK_REPORTED = 1u << 1, /* its current wait was reported in a deadlock */
    RANK_QUEUED = 1u << 2    /* on the work list */
};

typedef struct dl_rank {
    uint64_t last_seq; /* last record fed (arrival order) */
    uint64_t callsite; /* of the terminal call */
    uint32_t wait;     /* dl_wait index or DL_NONE */
    uint16_t func;     /* current (or terminal) call */
    uint8_t life;      /* dl_life */
    uint8_t flags;     /* dl_rank_flags */
} dl_rank;

struct deadlock_detector {
    dl_params prm;
    int32_t world;
    dl_rank *ranks;
    dl_wait *waits;
    size_t n_waits, cap_waits;
    uint32_t free_wait;
    comm_table comms;
    p2p_match p2p;
    coll_match coll;
    request_table reqs;
    record_backlog backlog;
    uint32_t *work; /* FIFO of ranks whose wait was satisfied */
    size_t work_head, n_work, cap_work;
    dl_finding *findings;
    size_t n_findings, cap_findings;
    size_t live, blocked;
    uint64_t records, last_time, forced, probe_mark;
    uint32_t notes; /* dl_finding_notes every new finding carries (DECISION_FORCED) */
    uint8_t *held;  /* buffer a held record is built in and unpacked from */
    size_t cap_held;
    uint64_t *dec_req; /* decoding buffers for records fed as bytes */
    check_status *dec_st;
    int32_t *dec_ranks;
    size_t cap_dec_req, cap_dec_st, cap_dec_ranks;
};

/* deadlock_detector.c */
/* Applies pending p2p completions and analyses the held records of every rank whose wait was
 * satisfied, until every rank is blocked or idle. */
int deadlock_detector_settle(deadlock_detector *det);
/* A deep copy for probing; the copy has no findings. Errors: MG_ENOMEM. */
int deadlock_detector_clone(const deadlock_detector *src, deadlock_detector **out);
/* Appends a finding (ownership moves to det; freed on failure). Errors: MG_ENOMEM. */
int deadlock_detector_push_finding(deadlock_detector *det, dl_finding *f);

/* wait_state.c */
/* 1 when the model has rank blocked: in a wait not satisfied yet. */
int wait_state_blocked(const deadlock_detector *det, int32_t rank);
/* A new wait for the call of ev (any: satisfied by one item); *out gets its index. */
int wait_state_new(deadlock_detector *det, const check_event *ev, int any, uint32_t *out);
/* Appends an item; a pending p2p item points its op back at the wait. Errors: MG_ENOMEM. */
int wait_state_add(deadlock_detector *det, uint32_t wi, const dl_item *item);
/* Makes wi the rank's wait, counted blocked unless already satisfied. */
void wait_state_commit(deadlock_detector *det, uint32_t wi);
/* Drops wait wi; releases the ops the blocking call posted itself. */
void wait_state_free(deadlock_detector *det, uint32_t wi);
/* Marks an item complete; a wait that becomes satisfied puts its rank on the work list. */
void wait_state_item_done(deadlock_detector *det, uint32_t wi, uint32_t item);
/* Completes the items of the p2p ops matched or cancelled since the last call. */
void wait_state_wake_completed(deadlock_detector *det);
/* Completes the collective items of comm's members whose slot completed. */
void wait_state_wake_collective(deadlock_detector *det, uint32_t comm);
/* A send was queued: completes a probe of its destination that it satisfies. */
void wait_state_wake_probe(deadlock_detector *det, const p2p_post *send);
/* Takes the next rank of the work list: 1 and *rank, or 0 when empty. */
int wait_state_next_ready(deadlock_detector *det, int32_t *rank);

/* call_model.c */
/* Applies one record (in the rank's order) to the model. Errors: as deadlock_detector_feed. */
int call_model_process(deadlock_detector *det, const check_event *ev);
/* Applies the wildcard decisions of an exit record (see call_model.c). */
int call_model_apply_decisions(deadlock_detector *det, const check_event *ev,
                               const check_func_info *info, int current);
/* A record was held behind its rank's wait: a Start notes it in the requests it restarts, so the
 * decisions of held completions are not applied to their earlier incarnation. */
void call_model_note_held(deadlock_detector *det, const check_event *ev);
/* The rank finalized, aborted or vanished: it is no longer live nor blocked. */
void call_model_terminate(deadlock_detector *det, int32_t rank, uint8_t life, uint16_t func,
                          uint64_t callsite);

/* wait_analysis.c */
/* Analyses the current state: potential deadlocks (whose buffered sends are then released) and
 * deadlocks become findings carrying `notes`; *found_deadlock tells whether a deadlocked process
 * exists (reported now or by an earlier check). Errors: MG_ENOMEM. */
int wait_analysis_run(deadlock_detector *det, uint64_t now, uint32_t notes, int *found_deadlock);

/* wfg_build.c: the wait-for graph of the current state (finished; processes are nodes 0..P-1).
 * Errors: MG_ENOMEM (g left empty). */
int wfg_build(deadlock_detector *det, wait_graph *g);

/* wildcard_probe.c: paper 6. */
/* Explores decisions of undecided wildcards on copies (budgeted); the findings of the first
 * decision that deadlocks are copied into det with DL_NOTE_PROBED. *found tells whether one did. */
int wildcard_probe_run(deadlock_detector *det, uint64_t now, int *found);
/* Probes, then forces every undecided wildcard to its first candidate (deciding mode). */
int wildcard_probe_decide(deadlock_detector *det, uint64_t now);

#endif
