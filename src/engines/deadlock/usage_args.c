/* Argument checks (usage_args.h). */
#include "usage_args.h"

usage_args_problem usage_args_check_type(uint32_t type_state, int64_t count)
{
    /* a message of no element may name MPI_DATATYPE_NULL (MPICH accepts it, pmodels/mpich#4659) */
    if (type_state == USAGE_ARGS_TYPE_IS_NULL && count > 0) {
        return USAGE_ARGS_TYPE_NULL;
    }
    if (type_state == USAGE_ARGS_TYPE_RELEASED) {
        return USAGE_ARGS_TYPE_FREED;
    }
    return type_state == USAGE_ARGS_TYPE_MADE ? USAGE_ARGS_TYPE_UNCOMMITTED : USAGE_ARGS_OK;
}

usage_args_problem usage_args_check_block(uint32_t type_state, int64_t count, int buffer_null)
{
    if (count < 0) {
        return USAGE_ARGS_COUNT_NEGATIVE;
    }
    usage_args_problem p = usage_args_check_type(type_state, count);
    if (p != USAGE_ARGS_OK) {
        return p;
    }
    return buffer_null && count > 0 ? USAGE_ARGS_BUFFER_NULL : USAGE_ARGS_OK;
}

static usage_args_problem check_peer(const usage_args_call *c)
{
    usage_args_problem out_of_range = c->peer_is_root ? USAGE_ARGS_ROOT_RANGE
                                                      : USAGE_ARGS_RANK_RANGE;
    switch (c->peer_kind) {
    case USAGE_ARGS_RANK_ANY_SOURCE:
        return c->any_source_allowed ? USAGE_ARGS_OK : out_of_range;
    case USAGE_ARGS_RANK_PROC_NULL:
        return c->peer_is_root ? out_of_range : USAGE_ARGS_OK;
    default:
        return c->peer < 0 || c->peer >= c->group_size ? out_of_range : USAGE_ARGS_OK;
    }
}

static usage_args_problem check_tag(const usage_args_call *c)
{
    if (c->tag_is_any) {
        return c->any_tag_allowed ? USAGE_ARGS_OK : USAGE_ARGS_TAG_RANGE;
    }
    return c->tag < 0 || c->tag > c->tag_ub ? USAGE_ARGS_TAG_RANGE : USAGE_ARGS_OK;
}

usage_args_problem usage_args_check(const usage_args_call *call)
{
    if (call->comm_null) {
        return USAGE_ARGS_COMM_NULL;
    }
    if (call->comm_freed) {
        return USAGE_ARGS_COMM_FREED;
    }
    if (call->message_null) {
        return USAGE_ARGS_MESSAGE_NULL;
    }
    usage_args_problem p = call->has_message ? usage_args_check_block(call->type_state, call->count,
                                                                      call->buffer_null)
                                             : USAGE_ARGS_OK;
    if (p == USAGE_ARGS_OK && call->has_peer) {
        p = check_peer(call);
    }
    if (p == USAGE_ARGS_OK && call->has_tag) {
        p = check_tag(call);
    }
    if (p == USAGE_ARGS_OK && call->has_op && !call->op_allowed) {
        p = USAGE_ARGS_OP_TYPE;
    }
    if (p == USAGE_ARGS_OK && call->op_freed) {
        p = USAGE_ARGS_OP_FREED;
    }
    return p;
}

const char *usage_args_problem_name(uint32_t problem)
{
    static const char *const names[USAGE_ARGS_PROBLEM_END] = {
        [USAGE_ARGS_OK] = "ok",
        [USAGE_ARGS_COMM_NULL] = "comm_null",
        [USAGE_ARGS_COUNT_NEGATIVE] = "negative_count",
        [USAGE_ARGS_BUFFER_NULL] = "null_buffer",
        [USAGE_ARGS_RANK_RANGE] = "rank_out_of_range",
        [USAGE_ARGS_ROOT_RANGE] = "root_out_of_range",
        [USAGE_ARGS_TAG_RANGE] = "tag_out_of_range",
        [USAGE_ARGS_TYPE_NULL] = "datatype_null",
        [USAGE_ARGS_TYPE_FREED] = "datatype_freed",
        [USAGE_ARGS_TYPE_UNCOMMITTED] = "datatype_uncommitted",
        [USAGE_ARGS_OP_TYPE] = "op_type_mismatch",
        [USAGE_ARGS_RMA_OUTSIDE_EPOCH] = "rma_access_outside_epoch",
        [USAGE_ARGS_RMA_EPOCH_TWICE] = "rma_epoch_twice",
        [USAGE_ARGS_RMA_EPOCH_UNCLOSED] = "rma_epoch_unclosed",
        [USAGE_ARGS_RMA_CLOSE_UNOPENED] = "rma_close_without_open",
        [USAGE_ARGS_SEND_BUFFER_CHANGED] = "send_buffer_modified",
        [USAGE_ARGS_BUFFERS_OVERLAP] = "pending_buffers_overlap",
        [USAGE_ARGS_RMA_CONFLICT] = "rma_conflicting_access",
        [USAGE_ARGS_COMM_FREED] = "comm_freed",
        [USAGE_ARGS_OP_FREED] = "op_freed",
        [USAGE_ARGS_REQUEST_FREED] = "request_freed",
        [USAGE_ARGS_GROUP_FREED] = "group_freed",
        [USAGE_ARGS_WIN_FREED] = "win_freed",
        [USAGE_ARGS_MESSAGE_NULL] = "message_null",
        [USAGE_ARGS_TOPOLOGY_MISSING] = "topology_missing",
    };
    return problem < USAGE_ARGS_PROBLEM_END ? names[problem] : "unknown";
}
