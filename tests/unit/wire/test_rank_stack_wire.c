/* Unit tests of a rank's stack over the agent protocol (src/wire/rank_stack.h): what a hang agent
 * puts, the front takes back byte for byte, frames past the room are dropped while what follows
 * them stays readable, and a payload cut anywhere is refused without a crash. */
#include "rank_stack.h"

#include "mg_error.h"
#include "mg_test.h"

#include <stdio.h>
#include <stdlib.h>

/* A stack of n frames, frame i naming fn_i in lib_i.so at i.c:10+i, 0x100+i from its start. */
static rank_stack *make_stack(size_t n)
{
    rank_stack *st = calloc(1, sizeof *st);
    snprintf(st->mpi_function, sizeof st->mpi_function, "MPI_Waitall");
    st->nframes = n;
    for (size_t i = 0; i < n; i++) {
        rank_stack_frame *f = &st->frames[i];
        snprintf(f->function, sizeof f->function, "fn_%zu", i);
        snprintf(f->module, sizeof f->module, "lib_%zu.so", i);
        snprintf(f->file, sizeof f->file, "%zu.c", i);
        f->offset = 0x100 + i;
        f->line = 10 + (int)i;
    }
    return st;
}

static agent_proto_cursor payload(const agent_proto_buf *b)
{
    return (agent_proto_cursor){b->data + AGENT_PROTO_FRAME_HEADER, b->data + b->len};
}

/* What was put after the stack is read next. */
static void what_follows_is(agent_proto_cursor *c, uint32_t expected)
{
    uint32_t after;
    MG_CHECK_INT(agent_proto_get_u32(c, &after), 0);
    MG_CHECK_INT((int)after, (int)expected);
}

static void a_stack_comes_back_whole(void)
{
    rank_stack *st = make_stack(3), *back = malloc(sizeof *back);
    st->frames[1].function[0] = '\0'; /* an unnamed frame stays unnamed */
    agent_proto_buf b = {0};
    MG_CHECK_INT(agent_proto_frame_begin(&b, AGENT_PROTO_MSG_STACK), 0);
    MG_CHECK_INT(rank_stack_put(&b, st), MG_ERROR_OK);
    MG_CHECK_INT(agent_proto_put_u32(&b, 77), 0);
    agent_proto_cursor c = payload(&b);
    MG_CHECK_INT(rank_stack_take(&c, back), MG_ERROR_OK);
    MG_CHECK_STR(back->mpi_function, "MPI_Waitall");
    MG_CHECK_INT((int)back->nframes, 3);
    MG_CHECK_STR(back->frames[0].function, "fn_0");
    MG_CHECK_STR(back->frames[1].function, "");
    MG_CHECK_STR(back->frames[2].module, "lib_2.so");
    MG_CHECK_STR(back->frames[2].file, "2.c");
    MG_CHECK_INT(back->frames[2].line, 12);
    MG_CHECK_INT((int)back->frames[2].offset, 0x102);
    what_follows_is(&c, 77);
    agent_proto_buf_free(&b);
    free(st);
    free(back);
}

/* More frames than a rank_stack holds (a peer built with a larger room): the first ones are kept,
 * the rest read past, so the published wait after them is not lost. */
static void frames_past_the_room_are_dropped(void)
{
    rank_stack *st = make_stack(RANK_STACK_MAX_FRAMES), *back = malloc(sizeof *back);
    agent_proto_buf b = {0};
    MG_CHECK_INT(agent_proto_frame_begin(&b, AGENT_PROTO_MSG_STACK), 0);
    MG_CHECK_INT(agent_proto_put_str(&b, "MPI_Recv"), 0);
    MG_CHECK_INT(agent_proto_put_u32(&b, RANK_STACK_MAX_FRAMES + 2), 0);
    for (size_t i = 0; i < RANK_STACK_MAX_FRAMES + 2; i++) {
        const rank_stack_frame *f = &st->frames[i % RANK_STACK_MAX_FRAMES];
        MG_CHECK_INT(agent_proto_put_u64(&b, f->offset) || agent_proto_put_str(&b, f->function) ||
                         agent_proto_put_str(&b, f->module) || agent_proto_put_str(&b, f->file) ||
                         agent_proto_put_u32(&b, (uint32_t)f->line),
                     0);
    }
    MG_CHECK_INT(agent_proto_put_u32(&b, 5), 0);
    agent_proto_cursor c = payload(&b);
    MG_CHECK_INT(rank_stack_take(&c, back), MG_ERROR_OK);
    MG_CHECK_INT((int)back->nframes, RANK_STACK_MAX_FRAMES);
    MG_CHECK_STR(back->frames[RANK_STACK_MAX_FRAMES - 1].function, "fn_47");
    what_follows_is(&c, 5);
    agent_proto_buf_free(&b);
    free(st);
    free(back);
}

/* Every cut of the payload short of its end is MG_ERROR_EFORMAT, with the frames read whole kept. */
static void a_truncated_stack_is_refused(void)
{
    rank_stack *st = make_stack(4), *back = malloc(sizeof *back);
    agent_proto_buf b = {0};
    MG_CHECK_INT(agent_proto_frame_begin(&b, AGENT_PROTO_MSG_STACK), 0);
    MG_CHECK_INT(rank_stack_put(&b, st), MG_ERROR_OK);
    size_t whole = b.len - AGENT_PROTO_FRAME_HEADER;
    for (size_t cut = 0; cut < whole; cut++) {
        agent_proto_cursor c = {b.data + AGENT_PROTO_FRAME_HEADER, b.data + AGENT_PROTO_FRAME_HEADER + cut};
        MG_CHECK_INT(rank_stack_take(&c, back), MG_ERROR_EFORMAT);
        MG_CHECK(back->nframes < 4);
    }
    agent_proto_buf_free(&b);
    free(st);
    free(back);
}

static void public_names_follow_the_table(void)
{
    MG_CHECK_STR(rank_stack_public_name("PMPI_Allreduce"), "MPI_Allreduce");
    MG_CHECK_STR(rank_stack_public_name("mpi_recv_"), "MPI_Recv");
    MG_CHECK_STR(rank_stack_public_name("PMPIX_Unknown"), "MPIX_Unknown");
}

/* The application's innermost frame names the rank's own function; stripped, by its offset. */
static void the_user_function_is_the_applications(void)
{
    rank_stack *st = make_stack(3);
    char buf[64];
    snprintf(st->frames[1].module, sizeof st->frames[1].module, "stencil");
    MG_CHECK_STR(rank_stack_user_function(st, "/apps/stencil", buf, sizeof buf), "fn_1");
    st->frames[1].function[0] = '\0';
    MG_CHECK_STR(rank_stack_user_function(st, "/apps/stencil", buf, sizeof buf), "stencil+0x101");
    MG_CHECK_STR(rank_stack_user_function(st, "/apps/other", buf, sizeof buf), "fn_0");
    free(st);
}

int main(void)
{
    MG_RUN(a_stack_comes_back_whole);
    MG_RUN(frames_past_the_room_are_dropped);
    MG_RUN(a_truncated_stack_is_refused);
    MG_RUN(public_names_follow_the_table);
    MG_RUN(the_user_function_is_the_applications);
    MG_TEST_END();
}
