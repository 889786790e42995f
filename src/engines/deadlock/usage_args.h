/* Argument checks of an MPI call before it reaches MPI (issue 28 item 2): pure decisions on what
 * the capture module saw, so that a bad call is reported with its call site even where MPI would
 * abort first. The capture module calls them in `mpiguard check` only (never on run/hang's path)
 * and writes a flagged record (CHECK_EVENT_FLAG_INVALID_ARGUMENTS, the problem in `aux`); the
 * detector turns it into a finding. Design: docs/design/check-classes.md "Argument checks". */
#ifndef USAGE_ARGS_H
#define USAGE_ARGS_H

#include <stdint.h>

/* Values are part of the capture stream (a record's aux): append only. */
typedef enum usage_args_problem {
    USAGE_ARGS_OK = 0,
    USAGE_ARGS_COMM_NULL,      /* MPI_COMM_NULL as the communicator */
    USAGE_ARGS_COUNT_NEGATIVE, /* a negative count */
    USAGE_ARGS_BUFFER_NULL,    /* a NULL buffer with a positive count */
    USAGE_ARGS_RANK_RANGE,     /* a destination or source outside the communicator */
    USAGE_ARGS_ROOT_RANGE,     /* a root outside the communicator */
    USAGE_ARGS_TAG_RANGE,  /* a tag negative (not MPI_ANY_TAG where allowed) or above MPI_TAG_UB */
    USAGE_ARGS_TYPE_NULL,  /* MPI_DATATYPE_NULL as the datatype of a positive count */
    USAGE_ARGS_TYPE_FREED, /* a datatype already freed */
    USAGE_ARGS_TYPE_UNCOMMITTED, /* a derived datatype never committed */
    USAGE_ARGS_OP_TYPE,          /* a builtin reduction op on a datatype it is not defined for */
    /* one-sided epochs, decided by rma_epochs_step (rma_epochs.h) */
    USAGE_ARGS_RMA_OUTSIDE_EPOCH,  /* a Put, Get, ... (or a flush) to a target no open epoch covers
                                    */
    USAGE_ARGS_RMA_EPOCH_TWICE,    /* an epoch opened while one that excludes it is open */
    USAGE_ARGS_RMA_EPOCH_UNCLOSED, /* a window freed with an epoch open or accesses not completed */
    USAGE_ARGS_RMA_CLOSE_UNOPENED, /* Unlock without Lock, Complete without Start, Wait without Post
                                    */
    USAGE_ARGS_SEND_BUFFER_CHANGED, /* a nonblocking send's buffer written before its completion */
    USAGE_ARGS_BUFFERS_OVERLAP,     /* a request's buffer shares bytes with a pending receive's */
    USAGE_ARGS_RMA_CONFLICT,  /* two accesses to the same window bytes in one epoch, one writing
                            (rma_conflicts.h: the detector's finding, never a record's) */
    USAGE_ARGS_COMM_FREED,    /* a communicator already freed (a copy of its handle) */
    USAGE_ARGS_OP_FREED,      /* a reduction op already freed (a copy of its handle) */
    USAGE_ARGS_REQUEST_FREED, /* a request already freed, or completed and freed by MPI */
    USAGE_ARGS_GROUP_FREED,   /* a group already freed (a copy of its handle) */
    USAGE_ARGS_WIN_FREED,     /* a window already freed (a copy of its handle) */
    USAGE_ARGS_MESSAGE_NULL,  /* MPI_MESSAGE_NULL to Mrecv/Imrecv (no probe, or received already) */
    /* a neighbourhood collective on a communicator without a process topology (MPI_ERR_TOPOLOGY) */
    USAGE_ARGS_TOPOLOGY_MISSING,
    USAGE_ARGS_PROBLEM_END
} usage_args_problem;

/* What a datatype is, as the capture module knows it. */
typedef enum usage_args_type_state {
    USAGE_ARGS_TYPE_UNKNOWN = 0, /* not seen made (not checked) */
    USAGE_ARGS_TYPE_COMMITTED,   /* predefined, or derived and committed */
    USAGE_ARGS_TYPE_MADE,        /* derived, not committed yet */
    USAGE_ARGS_TYPE_RELEASED,    /* freed */
    USAGE_ARGS_TYPE_IS_NULL      /* MPI_DATATYPE_NULL */
} usage_args_type_state;

/* How a peer or root argument reads: a rank, or one of MPI's special values. */
typedef enum usage_args_rank_kind {
    USAGE_ARGS_RANK = 0,
    USAGE_ARGS_RANK_ANY_SOURCE,
    USAGE_ARGS_RANK_PROC_NULL
} usage_args_rank_kind;

/* One call's arguments. Fields a call does not have stay zero (has_* 0). */
typedef struct usage_args_call {
    uint8_t comm_null, comm_freed;
    uint8_t message_null; /* Mrecv/Imrecv: the message handle is MPI_MESSAGE_NULL */
    /* the message: count x type in buffer (buffer_null: the pointer is NULL) */
    uint8_t has_message, buffer_null, type_state;
    int64_t count;
    /* a point-to-point peer or a collective's root, against group_size (the remote group's for
     * an intercommunicator's point-to-point) */
    uint8_t has_peer, peer_is_root, peer_kind, any_source_allowed;
    int64_t peer;
    int64_t group_size;
    /* a reduction: whether its op is defined for its datatype (type_match_op_allowed), and
     * whether the op was freed before */
    uint8_t has_op, op_allowed, op_freed;
    /* a tag, against tag_ub; tag_is_any: the tag is MPI_ANY_TAG */
    uint8_t has_tag, tag_is_any, any_tag_allowed;
    int64_t tag, tag_ub;
} usage_args_call;

/* The first problem of the call, in the order of the enum (the communicator first, then the
 * message handle), or
 * USAGE_ARGS_OK. A problem a rooted collective's non-root members cannot have (their root argument
 * still counts: MPI 3.1 §5.1 makes it significant everywhere) is checked on every member. O(1). */
usage_args_problem usage_args_check(const usage_args_call *call);

/* The rule of every datatype argument against the count of elements it describes: a message's,
 * each peer's of a v- or w-collective, a one-sided access's origin, result and target.
 * MPI_DATATYPE_NULL only where no element is described (count 0), a freed or an uncommitted
 * datatype never (type_state: a usage_args_type_state). USAGE_ARGS_OK, or the problem. O(1). */
usage_args_problem usage_args_check_type(uint32_t type_state, int64_t count);

/* The rule of a block of count elements of a datatype (type_state) in a buffer (buffer_null:
 * it starts at NULL, so no element can be there): a message's, or each peer's block of a v- or
 * w-collective. USAGE_ARGS_OK, or the first of negative count, usage_args_check_type's problem,
 * NULL buffer. O(1). */
usage_args_problem usage_args_check_block(uint32_t type_state, int64_t count, int buffer_null);

/* Stable lower-case name of a problem ("comm_null", "rank_out_of_range", ...), the report's
 * finding kind; "unknown" for another value. */
const char *usage_args_problem_name(uint32_t problem);

#endif
