/* The capture module's argument checks (capture_args.h). */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "capture_args.h"

#include "capture_call.h"
#include "capture_emit.h"
#include "capture_handles.h"
#include "capture_types.h"
#include "usage_args.h"

#pragma weak PMPI_Comm_get_attr

static int64_t tag_ub = 32767; /* the least MPI_TAG_UB the standard allows, until MPI says */

void capture_args_init(void)
{
    int *value, flag = 0;
    if (PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &flag) == MPI_SUCCESS && flag)
        tag_ub = *value;
}

int capture_args_reject(uint16_t fn, int phase, const capture_comm *c, usage_args_problem problem,
                        int peer, int tag, int64_t count)
{
    if (problem == USAGE_ARGS_OK)
        return 0;
    if (phase == INTERPOSE_HOOKS_CALL_ENTER) {
        check_event ev = capture_emit_event(fn, CHECK_EVENT_EV_ENTER, c);
        ev.comm = c ? c->id : CHECK_EVENT_COMM_NULL;
        ev.flags |= CHECK_EVENT_FLAG_INVALID_ARGUMENTS;
        ev.aux = problem;
        ev.peer = peer;
        ev.tag = tag;
        ev.count = count;
        capture_emit(&ev);
        /* MPI may end the process in the call (Open MPI crashes freeing a freed window): the
         * record is read, and its site resolved, before the call goes on */
        capture_emit_wait_read();
    }
    return 1;
}

/* The communicator's own problem: MPI_COMM_NULL, or a handle freed since (one MPI has not handed
 * out again: a new communicator with the same handle is known, c not NULL). */
static usage_args_call describe_comm(MPI_Comm comm, const capture_comm *c)
{
    return (usage_args_call){.comm_null = comm == MPI_COMM_NULL,
                             .comm_freed = !c && comm != MPI_COMM_NULL && capture_comm_freed(comm)};
}

static void describe_message(usage_args_call *u, const void *buf, int64_t count, MPI_Datatype type)
{
    u->has_message = 1;
    u->count = count;
    u->type_state = (uint8_t)capture_types_state(type);
    /* with a derived type, NULL may be MPI_BOTTOM and the displacements absolute addresses */
    u->buffer_null = buf == NULL && capture_types_predefined(type);
}

static void describe_rank(usage_args_call *u, int rank, int group_size)
{
    u->has_peer = 1;
    u->peer = rank;
    u->group_size = group_size;
    u->peer_kind = rank == MPI_ANY_SOURCE  ? USAGE_ARGS_RANK_ANY_SOURCE
                   : rank == MPI_PROC_NULL ? USAGE_ARGS_RANK_PROC_NULL
                                           : USAGE_ARGS_RANK;
}

int capture_args_p2p(uint16_t fn, int phase, MPI_Comm comm, const capture_comm *c, const void *buf,
                     int64_t count, MPI_Datatype type, int peer, int tag, int role)
{
    usage_args_call u = describe_comm(comm, c);
    if (c) {
        describe_message(&u, buf, count, type);
        describe_rank(&u, peer, c->remote_size ? c->remote_size : c->size);
        u.any_source_allowed = role == CAPTURE_ARGS_FROM;
        u.has_tag = 1;
        u.tag = tag;
        u.tag_ub = tag_ub;
        u.tag_is_any = tag == MPI_ANY_TAG;
        u.any_tag_allowed = role == CAPTURE_ARGS_FROM;
    }
    return capture_args_reject(fn, phase, c, usage_args_check(&u), peer, tag, count);
}

int capture_args_mrecv(uint16_t fn, int phase, const void *buf, int64_t count, MPI_Datatype type,
                       const MPI_Message *message)
{
    usage_args_call u = {.message_null = *message == MPI_MESSAGE_NULL};
    describe_message(&u, buf, count, type);
    return capture_args_reject(fn, phase, NULL, usage_args_check(&u), CHECK_EVENT_PROC_NULL, 0,
                               count);
}

/* Whether block i starts at NULL (with a derived type, NULL may be MPI_BOTTOM and the type's
 * displacements absolute addresses; a displacement other than 0 may be one too). */
static int block_at_null(const capture_args_place *at, int i, MPI_Datatype type)
{
    if (at->buf != NULL || !capture_types_predefined(type))
        return 0;
    if (!at->displs)
        return 1;
    return at->displ_size == sizeof(int) ? ((const int *)at->displs)[i] == 0
                                         : ((const MPI_Aint *)at->displs)[i] == 0;
}

usage_args_problem capture_args_blocks_check(const capture_args_typed *typed,
                                             const capture_args_place *places, int n)
{
    for (int k = 0; k < n; k++) {
        const capture_args_typed *t = &typed[k];
        for (int i = 0; i < t->n; i++) {
            MPI_Datatype type = t->types[t->per_count ? i : 0];
            int64_t count = t->count_size == sizeof(int) ? ((const int *)t->counts)[i]
                                                         : ((const MPI_Count *)t->counts)[i];
            usage_args_problem p = places
                                       ? usage_args_check_block(capture_types_state(type), count,
                                                                block_at_null(&places[k], i, type))
                                       : usage_args_check_type(capture_types_state(type), count);
            if (p != USAGE_ARGS_OK)
                return p;
        }
    }
    return USAGE_ARGS_OK;
}

usage_args_problem capture_args_typed_check(const capture_args_typed *typed, int n)
{
    return capture_args_blocks_check(typed, NULL, n);
}

int capture_args_coll(uint16_t fn, int phase, MPI_Comm comm, const capture_comm *c, int has_root,
                      int root, const void *buf, int64_t count, MPI_Datatype type, uint32_t op_id,
                      const capture_args_typed sides[2], const capture_args_place places[2])
{
    usage_args_call u = describe_comm(comm, c);
    u.op_freed = (op_id & CAPTURE_EMIT_OP_FREED) != 0;
    op_id &= ~CAPTURE_EMIT_OP_FREED;
    /* a shape with no common block passes MPI_DATATYPE_NULL with count 0, which is legal */
    if (c) {
        describe_message(&u, buf, count, type);
        u.has_op = op_id != 0 && type != MPI_DATATYPE_NULL;
        u.op_allowed = !u.has_op || capture_types_op_allowed(op_id, type);
    }
    if (c && has_root && !c->remote_size) {
        describe_rank(&u, root, c->size);
        u.peer_is_root = 1;
    }
    usage_args_problem p = usage_args_check(&u);
    if (p == USAGE_ARGS_OK && c && sides)
        p = capture_args_blocks_check(sides, places, 2);
    return capture_args_reject(fn, phase, c, p, has_root ? root : CHECK_EVENT_NO_ROOT, 0, count);
}

int capture_args_group(uint16_t fn, int phase, const capture_comm *c, MPI_Group group)
{
    int freed = capture_handles_was_freed(CHECK_EVENT_HANDLE_GROUP, &group, sizeof group);
    if (freed && phase == INTERPOSE_HOOKS_CALL_ENTER)
        capture_handles_name_creation(CHECK_EVENT_HANDLE_GROUP, &group, sizeof group);
    return capture_args_reject(fn, phase, c, freed ? USAGE_ARGS_GROUP_FREED : USAGE_ARGS_OK,
                               CHECK_EVENT_PROC_NULL, 0, 0);
}
