/* A finding of the deadlock detector, as data: its kind, the ranks involved with their calls, and
 * for deadlocks the wait-for graph of the deadlocked part (rendered as DOT by the reporter).
 * Spec: docs/design/check.md "What the user gets"; docs/design/check-detector.md §9. */
#ifndef DL_FINDING_H
#define DL_FINDING_H

#include <stddef.h>
#include <stdint.h>

#include "wait_graph.h"

enum dl_finding_kind {
    DL_FINDING_DEADLOCK = 1,        /* a knot of really blocked processes */
    DL_FINDING_POTENTIAL_DEADLOCK,  /* a knot under unbuffered standard sends that buffering hid */
    DL_FINDING_COLLECTIVE_MISMATCH, /* members of a communicator issued disagreeing collectives */
    DL_FINDING_STUCK_ON_TERMINATED, /* processes wait for a process that finalized, aborted or
                                       vanished */
    DL_FINDING_TYPE_MISMATCH,       /* a matched send and receive describe different basic types */
    DL_FINDING_TRUNCATION,          /* a matched receive is shorter than its send's message */
    DL_FINDING_INVALID_ARGUMENTS,   /* a call with invalid arguments (`problem`) */
    DL_FINDING_LIFECYCLE, /* an object's lifecycle broken (`problem`: dl_finding_lifecycle_problem)
                           */
    DL_FINDING_MESSAGE_RACE, /* a wildcard receive that more than one send could have matched:
                        calls[0] the receive, calls[1] the send MPI matched, then the other
                        candidates */
    DL_FINDING_MPI_ERROR     /* the MPI library raised an error (`problem`: its portable class,
                        check_event_mpi_error_name; `count`: its error code); calls[0] is the call */
};

/* A DL_FINDING_LIFECYCLE finding's `problem` (lifecycle.c decides them): append only. */
typedef enum dl_finding_lifecycle_problem {
    DL_FINDING_LIFECYCLE_REQUEST_PENDING =
        1,                                  /* a request neither completed nor freed at Finalize */
    DL_FINDING_LIFECYCLE_REQUEST_NOT_FREED, /* an inactive persistent request never freed */
    DL_FINDING_LIFECYCLE_REQUEST_RESTARTED, /* MPI_Start of a persistent request that is active */
    DL_FINDING_LIFECYCLE_COMM_LEAK,         /* a communicator never freed */
    DL_FINDING_LIFECYCLE_MESSAGE_LOST,      /* a send no receive matched by the last Finalize */
    DL_FINDING_LIFECYCLE_NO_FINALIZE,       /* the rank's process exited without MPI_Finalize */
    DL_FINDING_LIFECYCLE_WINDOW_LEAK,       /* a window never freed */
    DL_FINDING_LIFECYCLE_GROUP_LEAK, /* handles never freed, of each check_event_handle_kind */
    DL_FINDING_LIFECYCLE_DATATYPE_LEAK,
    DL_FINDING_LIFECYCLE_OP_LEAK,
    DL_FINDING_LIFECYCLE_INFO_LEAK,
    DL_FINDING_LIFECYCLE_CALL_AFTER_FINALIZE, /* an MPI call after the rank's MPI_Finalize */
    DL_FINDING_LIFECYCLE_ERRHANDLER_LEAK,     /* error handlers never freed
                                                 (CHECK_EVENT_HANDLE_ERRHANDLER) */
    DL_FINDING_LIFECYCLE_PROBLEM_END
} dl_finding_lifecycle_problem;

enum dl_finding_notes {
    DL_FINDING_NOTE_PROBED = 1u << 0, /* found by probing a wildcard decision (probe_* fields) */
    DL_FINDING_NOTE_DECISION_FORCED = 1u << 1, /* deciding mode forced a wildcard match earlier: the
                                          finding may be a false positive */
    DL_FINDING_NOTE_BUFFER_RELEASED = 1u << 2, /* standard sends that buffering completed were
                                          released before this deadlock was found */
    DL_FINDING_NOTE_ENDED_INSIDE = 1u
                                   << 3 /* DL_FINDING_INVALID_ARGUMENTS: MPI ended the rank inside
                                   the call (it never returned); the rank's missing Finalize and the
                                   ranks stuck on it are folded into this finding */
};

/* What disagrees in a collective mismatch (bits). */
enum dl_finding_mismatch {
    DL_FINDING_MISMATCH_KIND = 1u << 0,     /* different collectives */
    DL_FINDING_MISMATCH_BLOCKING = 1u << 1, /* the same collective, blocking vs nonblocking */
    DL_FINDING_MISMATCH_ROOT = 1u << 2,
    DL_FINDING_MISMATCH_OP = 1u << 3,
    DL_FINDING_MISMATCH_TYPE = 1u << 4 /* the blocks' type signatures (count x datatype) differ */
};

/* One process involved, with the call it is in. */
typedef struct dl_finding_call {
    int32_t rank;
    uint16_t func;   /* check_event_func of the blocked (or terminal, or mismatching) call */
    uint8_t state;   /* wait_graph_state: blocked, running, terminated */
    uint8_t in_knot; /* deadlocks: member of the OR-knot (else waiting for it) */
    uint64_t comm;
    int32_t peer, tag; /* p2p calls */
    int32_t root;      /* collectives */
    uint32_t op;
    uint64_t callsite;
    uint16_t maker;  /* func CHECK_EVENT_FN_HANDLE_LEAK, _HANDLE_MADE: the mpi_function_ids_fn
                        (mpi_function_ids.h) of  the call that made the handles;
                        CHECK_EVENT_FN_AFTER_FINALIZE: of the call made  too late */
    uint8_t made_it; /* this call created the object the finding is about (a leak's constructor,
                        a pending request's Isend): the report names it as its creation site */
} dl_finding_call;

typedef struct dl_finding {
    uint8_t kind;      /* dl_finding_kind */
    uint32_t notes;    /* dl_finding_notes */
    uint32_t mismatch; /* collective mismatches: dl_finding_mismatch bits */
    /* DL_FINDING_TYPE_MISMATCH, DL_FINDING_TRUNCATION: basic elements of the send's and the
     * receive's message; calls[0] is the send, calls[1] the receive */
    uint64_t send_elems, recv_elems;
    uint32_t problem; /* DL_FINDING_INVALID_ARGUMENTS: the usage_args_problem; calls[0] is the call
                       * (a freed group's creation after it). DL_FINDING_LIFECYCLE: the
                       * dl_finding_lifecycle_problem; calls[0] is the object's creation (or the
                       * call at fault) */
    uint64_t count;   /* DL_FINDING_LIFECYCLE: the objects of that rank and creation site */
    uint64_t time;    /* the caller's clock when found */
    dl_finding_call *calls; /* knot members first (sorted by rank), then the waiting ones */
    size_t n_calls, n_knot;
    wait_graph graph; /* deadlocks: nodes that cannot be released and the arcs among them */
    /* DL_FINDING_NOTE_PROBED: the wildcard receive (rank, request id; 0 for a blocking receive)
     * whose explored match led to the finding, and the source it was matched with (the innermost
     * decision when probing nested several); -1 otherwise. */
    int32_t probe_rank;
    uint64_t probe_request;
    int32_t probe_source;
} dl_finding;

/* Frees what a finding owns; the struct is zeroed. */
void dl_finding_free(dl_finding *f);
/* Appends a call. Errors: MG_ERROR_ENOMEM (unchanged). */
int dl_finding_add_call(dl_finding *f, const dl_finding_call *call);
/* Whether call i's rank is that of an earlier call of f: a finding lists each rank once (both
 * accesses of an rma_conflicting_access may be one rank's). */
int dl_finding_rank_listed_before(const dl_finding *f, size_t i);
/* What makes two findings one, hashed: the kind, and each call's rank, function and call site. The
 * detector may find a potential deadlock again in a later analysis once the buffered sends were
 * released: the same signature says it is not a new one. */
uint64_t dl_finding_signature(const dl_finding *f);
/* Whether the detector may still change f after it was found: a collective mismatch that later
 * callers join, an invalid call that MPI then ends its rank inside (its calls and notes grow). */
int dl_finding_may_change(const dl_finding *f);
/* Stable upper-case name of a kind ("DEADLOCK", "POTENTIAL_DEADLOCK", ...), or "UNKNOWN". */
const char *dl_finding_kind_name(int kind);

#endif
