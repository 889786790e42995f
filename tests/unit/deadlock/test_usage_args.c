/* The argument checks of issue 28 item 2 (usage_args.h): each problem, its precedence, the legal
 * edge values, and the names the report uses. */
#include <string.h>

#include "mg_test.h"
#include "usage_args.h"

/* A correct send of 4 committed elements to rank 1 of 2, tag 7 (MPI_TAG_UB 32767). */
static usage_args_call good_send(void)
{
    return (usage_args_call){.has_message = 1,
                        .type_state = USAGE_ARGS_TYPE_COMMITTED,
                        .count = 4,
                        .has_peer = 1,
                        .peer = 1,
                        .group_size = 2,
                        .has_tag = 1,
                        .tag = 7,
                        .tag_ub = 32767};
}

static void test_each_problem(void)
{
    usage_args_call c = good_send();
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_OK);
    c.comm_null = 1;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_COMM_NULL);
    c = good_send(), c.comm_freed = 1, c.count = -1; /* the communicator first */
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_COMM_FREED);
    c = good_send(), c.count = -1;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_COUNT_NEGATIVE);
    c = good_send(), c.buffer_null = 1;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_BUFFER_NULL);
    c.count = 0; /* a NULL buffer with count 0 is legal */
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_OK);
    c = good_send(), c.peer = 2;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_RANK_RANGE);
    c.peer = -7;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_RANK_RANGE);
    c.peer_is_root = 1;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_ROOT_RANGE);
    c = good_send(), c.tag = -5;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_TAG_RANGE);
    c.tag = 32768;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_TAG_RANGE);
    c.tag = 32767;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_OK);
    c = good_send(), c.type_state = USAGE_ARGS_TYPE_IS_NULL;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_TYPE_NULL);
    c.count = 0; /* no element: MPI_DATATYPE_NULL is legal */
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_OK);
    c.count = 4;
    c.type_state = USAGE_ARGS_TYPE_RELEASED;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_TYPE_FREED);
    c.type_state = USAGE_ARGS_TYPE_MADE;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_TYPE_UNCOMMITTED);
    c.type_state = USAGE_ARGS_TYPE_UNKNOWN; /* never seen made: not checked */
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_OK);
    c = good_send(), c.has_op = 1;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_OP_TYPE);
    c.op_allowed = 1;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_OK);
    c.op_freed = 1;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_OP_FREED);
    c.op_allowed = 0; /* a builtin op's wrong type is the first problem */
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_OP_TYPE);
}

static void test_special_values(void)
{
    usage_args_call c = good_send();
    c.peer_kind = USAGE_ARGS_RANK_PROC_NULL, c.peer = -2;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_OK);
    c.peer_kind = USAGE_ARGS_RANK_ANY_SOURCE;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_RANK_RANGE); /* a send's destination */
    c.any_source_allowed = 1;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_OK);
    c = good_send(), c.peer_is_root = 1, c.peer_kind = USAGE_ARGS_RANK_PROC_NULL;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_ROOT_RANGE); /* no MPI_PROC_NULL root on an intracomm */
    c = good_send(), c.tag_is_any = 1, c.tag = -1;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_TAG_RANGE);
    c.any_tag_allowed = 1;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_OK);
    /* the first problem wins: the communicator, then the message, the peer, the tag */
    c = good_send(), c.count = -1, c.peer = 9, c.tag = -1;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_COUNT_NEGATIVE);
    c.count = 1;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_RANK_RANGE);
}

/* The datatype rule alone, as the calls with several datatype arguments apply it to each */
static void test_type_rule(void)
{
    MG_CHECK_INT(usage_args_check_type(USAGE_ARGS_TYPE_IS_NULL, 1), USAGE_ARGS_TYPE_NULL);
    MG_CHECK_INT(usage_args_check_type(USAGE_ARGS_TYPE_IS_NULL, 0), USAGE_ARGS_OK);
    MG_CHECK_INT(usage_args_check_type(USAGE_ARGS_TYPE_RELEASED, 0), USAGE_ARGS_TYPE_FREED);
    MG_CHECK_INT(usage_args_check_type(USAGE_ARGS_TYPE_MADE, 3), USAGE_ARGS_TYPE_UNCOMMITTED);
    MG_CHECK_INT(usage_args_check_type(USAGE_ARGS_TYPE_COMMITTED, 3), USAGE_ARGS_OK);
    MG_CHECK_INT(usage_args_check_type(USAGE_ARGS_TYPE_UNKNOWN, 3), USAGE_ARGS_OK);
}

/* A v- or w-collective's block of one peer, and a matched receive's message handle */
static void test_block_rule(void)
{
    MG_CHECK_INT(usage_args_check_block(USAGE_ARGS_TYPE_COMMITTED, -1, 0), USAGE_ARGS_COUNT_NEGATIVE);
    MG_CHECK_INT(usage_args_check_block(USAGE_ARGS_TYPE_MADE, -1, 1), USAGE_ARGS_COUNT_NEGATIVE);
    MG_CHECK_INT(usage_args_check_block(USAGE_ARGS_TYPE_MADE, 2, 1), USAGE_ARGS_TYPE_UNCOMMITTED);
    MG_CHECK_INT(usage_args_check_block(USAGE_ARGS_TYPE_COMMITTED, 2, 1), USAGE_ARGS_BUFFER_NULL);
    MG_CHECK_INT(usage_args_check_block(USAGE_ARGS_TYPE_COMMITTED, 0, 1), USAGE_ARGS_OK);
    MG_CHECK_INT(usage_args_check_block(USAGE_ARGS_TYPE_IS_NULL, 0, 1), USAGE_ARGS_OK);
    usage_args_call c = {.message_null = 1, .has_message = 1, .count = -1};
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_MESSAGE_NULL); /* the handle before the message */
    c.message_null = 0;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_COUNT_NEGATIVE);
    c.comm_null = 1, c.message_null = 1;
    MG_CHECK_INT(usage_args_check(&c), USAGE_ARGS_COMM_NULL);
}

static void test_names(void)
{
    MG_CHECK(strcmp(usage_args_problem_name(USAGE_ARGS_TYPE_UNCOMMITTED), "datatype_uncommitted") == 0);
    MG_CHECK(strcmp(usage_args_problem_name(USAGE_ARGS_ROOT_RANGE), "root_out_of_range") == 0);
    MG_CHECK(strcmp(usage_args_problem_name(USAGE_ARGS_COMM_FREED), "comm_freed") == 0);
    MG_CHECK(strcmp(usage_args_problem_name(USAGE_ARGS_OP_FREED), "op_freed") == 0);
    MG_CHECK(strcmp(usage_args_problem_name(USAGE_ARGS_REQUEST_FREED), "request_freed") == 0);
    MG_CHECK(strcmp(usage_args_problem_name(USAGE_ARGS_GROUP_FREED), "group_freed") == 0);
    MG_CHECK(strcmp(usage_args_problem_name(USAGE_ARGS_WIN_FREED), "win_freed") == 0);
    MG_CHECK(strcmp(usage_args_problem_name(USAGE_ARGS_MESSAGE_NULL), "message_null") == 0);
    MG_CHECK(strcmp(usage_args_problem_name(USAGE_ARGS_TOPOLOGY_MISSING), "topology_missing") == 0);
    MG_CHECK(strcmp(usage_args_problem_name(USAGE_ARGS_PROBLEM_END), "unknown") == 0);
    for (uint32_t p = USAGE_ARGS_OK; p < USAGE_ARGS_PROBLEM_END; p++)
        MG_CHECK(usage_args_problem_name(p) != NULL && strcmp(usage_args_problem_name(p), "unknown") != 0);
}

int main(void)
{
    MG_RUN(test_each_problem);
    MG_RUN(test_special_values);
    MG_RUN(test_type_rule);
    MG_RUN(test_block_rule);
    MG_RUN(test_names);
    MG_TEST_END();
}
