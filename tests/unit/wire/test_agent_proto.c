/* Unit tests of the agent protocol's reading: every field survives the trip, including an unknown
 * CPU time (-1) and the flags added with versions 2 (runnable) and 3 (stopped), and a cut frame is
 * refused. */
#include "agent_proto.h"
#include "mg_error.h"
#include "mg_test.h"

/* Puts r in a frame and returns a cursor over its payload (after length and type). */
static agent_cursor framed(agent_buf *b, const agent_reading *r)
{
    MG_CHECK_INT(agent_frame_begin(b, AGENT_MSG_READINGS), MG_OK);
    MG_CHECK_INT(agent_put_reading(b, r), MG_OK);
    agent_frame_finish(b);
    return (agent_cursor){b->data + 5, b->data + b->len};
}

static void reading_round_trip(void)
{
    const agent_reading sent[] = {
        {.rank = 7, .exited = 0, .in_mpi = 1, .progressed = 1, .counter_known = 1, .unseen = 0,
         .runnable = 1, .fn = 42, .counter = 0x123456789abcULL, .cpu_time_ns = 1234567890123LL,
         .cpu_slices = 98765},
        {.rank = 0, .exited = 1, .unseen = 1, .stopped = 1, .fn = 0, .counter = 0, .cpu_time_ns = -1,
         .cpu_slices = -1},
    };
    for (size_t i = 0; i < sizeof sent / sizeof *sent; i++) {
        agent_buf b = {0};
        agent_cursor c = framed(&b, &sent[i]);
        agent_reading got;
        MG_CHECK_INT(agent_get_reading(&c, &got), MG_OK);
        MG_CHECK_INT(got.rank, sent[i].rank);
        MG_CHECK_INT(got.exited, sent[i].exited);
        MG_CHECK_INT(got.in_mpi, sent[i].in_mpi);
        MG_CHECK_INT(got.progressed, sent[i].progressed);
        MG_CHECK_INT(got.counter_known, sent[i].counter_known);
        MG_CHECK_INT(got.unseen, sent[i].unseen);
        MG_CHECK_INT(got.runnable, sent[i].runnable);
        MG_CHECK_INT(got.stopped, sent[i].stopped);
        MG_CHECK_INT((long long)got.fn, (long long)sent[i].fn);
        MG_CHECK(got.counter == sent[i].counter);
        MG_CHECK(got.cpu_time_ns == sent[i].cpu_time_ns);
        MG_CHECK(got.cpu_slices == sent[i].cpu_slices);
        MG_CHECK(c.p == c.end);
        agent_buf_free(&b);
    }
}

static void cut_reading_is_refused(void)
{
    agent_reading r = {.rank = 3, .cpu_time_ns = 5}, got;
    agent_buf b = {0};
    agent_cursor whole = framed(&b, &r);
    for (const uint8_t *end = whole.p; end < whole.end; end++) {
        agent_cursor c = {whole.p, end};
        MG_CHECK_INT(agent_get_reading(&c, &got), MG_EFORMAT);
    }
    agent_buf_free(&b);
}

int main(void)
{
    MG_RUN(reading_round_trip);
    MG_RUN(cut_reading_is_refused);
    MG_TEST_END();
}
