/* The deadlock detector's state, shared by its parts: what each rank waits for, the matchers, the
 * held records and the findings; its creation, copy (for probing) and release, and the findings
 * list. The parts above it: lifecycle.c, message_race.c, rma_conflicts.c and coll_findings.c
 * (they append findings), call_model.c and wait_state.c (the model), detector_settle.c (held
 * records), wfg_build.c and wait_analysis.c (the analysis), wildcard_probe.c, and the public front
 * deadlock_detector.c. Internal to the detector; docs/design/check-detector.md §5-§8. */
#ifndef DETECTOR_STATE_H
#define DETECTOR_STATE_H

#include "check_event.h"
#include "coll_match.h"
#include "comm_table.h"
#include "dl_finding.h"
#include "dl_params.h"
#include "mpi_function_ids.h"
#include "p2p_match.h"
#include "record_backlog.h"
#include "rma_locks.h"
#include "request_table.h"
#include "wait_graph.h"

/* The same opaque handle as deadlock_detector.h declares (a typedef may be repeated). */
typedef struct deadlock_detector deadlock_detector;
/* The parts above the state that push findings into it; the front makes and frees them. */
typedef struct lifecycle lifecycle;
typedef struct message_race message_race;
typedef struct rma_conflicts rma_conflicts;

#define DETECTOR_STATE_DL_NONE UINT32_MAX

/* DETECTOR_STATE_ITEM_SELF: a generalized request whose MPI_Grequest_complete only the waiting rank
 * itself could still call (from its one MPI thread it never will). */
enum detector_state_item_type {
    DETECTOR_STATE_ITEM_P2P = 1,
    DETECTOR_STATE_ITEM_COLL,
    DETECTOR_STATE_ITEM_PROBE,
    DETECTOR_STATE_ITEM_LOCK,
    DETECTOR_STATE_ITEM_SELF
};

/* One thing a blocking call waits for. */
typedef struct detector_state_item {
    uint8_t type; /* detector_state_item_type */
    uint8_t done;
    uint32_t ref;      /* p2p op (DETECTOR_STATE_ITEM_P2P) or communicator index
                          (DETECTOR_STATE_ITEM_COLL, _PROBE, _LOCK) */
    uint64_t slot;     /* DETECTOR_STATE_ITEM_COLL */
    uint64_t request;  /* the request id the item came from (0 for blocking calls) */
    int32_t peer, tag; /* DETECTOR_STATE_ITEM_PROBE; DETECTOR_STATE_ITEM_LOCK: the target and 1 for
                          an exclusive lock */
} detector_state_item;

/* The blocking call a rank is in (entered, exit not analysed), when it waits for anything. */
typedef struct detector_state_wait {
    int32_t rank;
    uint16_t func;
    uint8_t any; /* satisfied by one item (Waitany/Waitsome) rather than all */
    uint8_t satisfied;
    uint32_t n_items, remaining;
    detector_state_item *items;
    uint64_t seq, callsite, comm_id;
    int32_t peer, tag, root;
    uint32_t op;
    uint32_t next_free;
} detector_state_wait;

/* A collective mismatch finding held while MPI may still refuse one of its calls
 * (coll_findings.h). */
typedef struct detector_state_held_mismatch {
    dl_finding f;
    coll_match_call *calls; /* f's calls as the matcher had them, in f's order (f.n_calls) */
    uint32_t comm;          /* comm_table index */
    uint64_t slot;
    uint64_t since; /* the detector's time when its last call arrived */
} detector_state_held_mismatch;

enum detector_state_life {
    DETECTOR_STATE_LIFE_LIVE = 0,
    DETECTOR_STATE_LIFE_FINALIZED,
    DETECTOR_STATE_LIFE_ABORTED,
    DETECTOR_STATE_LIFE_LOST
};

enum detector_state_rank_flags {
    DETECTOR_STATE_RANK_IN_CALL = 1u << 0,  /* entered a call whose exit was not analysed */
    DETECTOR_STATE_RANK_REPORTED = 1u << 1, /* its current wait was reported in a deadlock */
    DETECTOR_STATE_RANK_QUEUED = 1u << 2,   /* on the work list */
    /* its last record is the entry of its call with invalid arguments (invalid_site), which
     * writes no exit: the rank is in it until another record comes, and if the rank ends there,
     * MPI ended it inside that call */
    DETECTOR_STATE_RANK_IN_INVALID = 1u << 3,
    DETECTOR_STATE_RANK_INVALID_ENTERED =
        1u << 4, /* and the call's own (modelled) entry came after it */
    /* its process was lost inside a wait of the model's, or while records of it were held
     * behind one (or one of them is its MPI_Abort, or an error MPI raised): it ends once they are
     * analysed or the wait is over (detector_settle.c), or at the next analysis, which lets the
     * held ones out first (deadlock_detector_check_now) */
    DETECTOR_STATE_RANK_LOST_HELD = 1u << 5,
    /* MPI refused its collective whose invalid arguments were reported (invalid_site), and the
     * rank made no collective since: ranks it leaves waiting wait on that reported bug */
    DETECTOR_STATE_RANK_REFUSED_INVALID = 1u << 6
};

typedef struct detector_state_rank {
    uint64_t last_seq;     /* last record fed (arrival order) */
    uint64_t callsite;     /* of its current (or last, or terminal) call */
    uint64_t invalid_site; /* of its last call with invalid arguments (reported already) */
    uint64_t made_site; /* CHECK_EVENT_FN_HANDLE_MADE: the creation its next invalid call names */
    uint16_t made_fn;   /* and the mpi_function_ids_fn that made the handle */
    uint64_t call_seq;  /* seq of the entry of its current (or last) modelled call */
    uint32_t wait;      /* detector_state_wait index or DETECTOR_STATE_DL_NONE */
    uint16_t func;      /* current (or terminal) call */
    uint8_t life;       /* detector_state_life */
    uint8_t flags;      /* detector_state_rank_flags */
} detector_state_rank;

struct deadlock_detector {
    dl_params prm;
    int32_t world;
    detector_state_rank *ranks;
    detector_state_wait *waits;
    size_t n_waits, cap_waits;
    uint32_t free_wait;
    comm_table comms;
    p2p_match p2p;
    coll_match coll;
    request_table reqs;
    lifecycle *life;     /* NULL in a probing copy, or when it could not be made */
    message_race *races; /* NULL in a probing copy, past its world limit or out of memory */
    rma_conflicts *rma;  /* NULL in a probing copy or out of memory */
    rma_locks locks;     /* passive-target locks held */
    record_backlog backlog;
    uint32_t *work; /* FIFO of ranks whose wait was satisfied */
    size_t work_head, n_work, cap_work;
    dl_finding *findings;
    size_t n_findings, cap_findings;
    detector_state_held_mismatch *held_mismatches; /* none in a probing copy */
    size_t n_held_mismatches, cap_held_mismatches;
    size_t live, blocked;
    uint64_t records, last_time, forced, probe_mark;
    uint32_t notes; /* dl_finding_notes every new finding carries (DECISION_FORCED) */
    /* the mpi_function_ids_fn ids of the CHECK_EVENT_FN_UNMODELLED records fed */
    uint8_t unmodelled[MG_FN_COUNT];
    uint8_t *held; /* buffer a held record is built in and unpacked from */
    size_t cap_held;
    uint64_t *dec_req; /* decoding buffers for records fed as bytes */
    check_event_status *dec_st;
    int32_t *dec_ranks;
    size_t cap_dec_req, cap_dec_st, cap_dec_ranks;
};

/* A detector for world ranks with params (defaults filled by the caller); *out on success.
 * Errors: MG_ERROR_ENOMEM (nothing left allocated). */
int detector_state_create(const dl_params *params, int32_t world, deadlock_detector **out);
/* A deep copy for probing; the copy has no findings. Errors: MG_ERROR_ENOMEM. */
int detector_state_clone(const deadlock_detector *src, deadlock_detector **out);
/* Frees det, its state and its findings. NULL is accepted. */
void detector_state_destroy(deadlock_detector *det);
/* A posted send or receive as a finding lists it (running, on communicator id comm). */
dl_finding_call detector_state_post_call(const p2p_match_post *p, uint64_t comm);
/* Appends a finding (ownership moves to det; freed on failure), unless it is only a consequence
 * of MPI ending ranks inside calls with invalid arguments (a no_finalize, or a stuck_on_terminated
 * whose terminated ranks all ended so): that one is dropped, its invalid-argument findings carry
 * DL_FINDING_NOTE_ENDED_INSIDE already (call_model_terminate). So is a stuck_on_terminated whose
 * terminated ranks ended after MPI refused such a collective of theirs
 * (DETECTOR_STATE_RANK_REFUSED_INVALID). Errors: MG_ERROR_ENOMEM. */
int detector_state_push_finding(deadlock_detector *det, dl_finding *f);

#endif
