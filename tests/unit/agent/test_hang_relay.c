/* Unit tests of hang's relay (src/agent/hang_relay.h) over socketpairs, the test playing the front
 * above it and its two agents below: a round asks each agent once for its own ranks only, with the
 * kind the front asked (a gap-only retake stays gap-only), and the answer comes back in the order
 * asked, each reading's held time as its agent said; a stack request reaches the rank's agent and
 * its answer, published wait and all, comes back byte for byte; an agent that went away has its
 * ranks read as unseen and lost (a rank no agent owns only as unseen), its stack as empty with
 * nothing published, and the other agent is still asked; bye reaches the agent left and the relay
 * ends cleanly. */
#include "agent_reads.h"
#include "agent_waits.h"
#include "hang_relay.h"
#include "mg_error.h"
#include "mg_test.h"

#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

/* Ranks 0 and 2 on agent 0, rank 1 on agent 1, rank 3 on neither. */
static const int child_of[4] = {0, 1, 0, -1};

typedef struct relay_run {
    int up, below[2], rc;
    pthread_t thread;
} relay_run;

static void *relay_main(void *arg)
{
    relay_run *run = arg;
    char err[160];
    run->rc = hang_relay_run(run->up, run->below, 2, child_of, 4, err, sizeof err);
    return NULL;
}

static void send_read(int fd, agent_proto_buf *b, int kind, const int32_t *ranks, uint32_t n)
{
    MG_CHECK_INT(agent_proto_frame_begin(b, AGENT_PROTO_MSG_READ), MG_ERROR_OK);
    MG_CHECK_INT(agent_proto_put_u32(b, (uint32_t)kind), MG_ERROR_OK);
    MG_CHECK_INT(agent_proto_put_u32(b, n), MG_ERROR_OK);
    for (uint32_t i = 0; i < n; i++)
        MG_CHECK_INT(agent_proto_put_u32(b, (uint32_t)ranks[i]), MG_ERROR_OK);
    agent_proto_frame_finish(b);
    MG_CHECK_INT(agent_proto_send(fd, b), MG_ERROR_OK);
}

/* An agent's reading: its slices say the kind it was asked for; its held time (50 ns per rank and
 * agent) is what the front counts in its monitor cost. */
static void read_as_agent(void *ctx, int32_t rank, int kind, agent_proto_reading *out)
{
    *out = (agent_proto_reading){.rank = rank,
                           .in_mpi = 1,
                           .counter = 100 + (uint64_t)rank + *(int *)ctx,
                           .cpu_time_ns = -1,
                           .cpu_slices = kind,
                           .held_ns = 50 * (1 + rank + *(int *)ctx),
                           .frozen_ns = 1 + rank};
}

/* Agent `agent` takes the relay's request, checks it asks for want[0..n) with the kind the front
 * asked, and answers it. */
static void agent_answers(int fd, int agent, int kind, const int32_t *want, uint32_t n,
                          agent_proto_buf *in, agent_proto_buf *out)
{
    agent_proto_msg_type type;
    agent_proto_cursor c;
    char err[160];
    MG_CHECK_INT(agent_proto_recv(fd, in, &type, &c, err, sizeof err), MG_ERROR_OK);
    int ranks[4], asked = -1;
    size_t count = 0;
    MG_CHECK_INT(agent_reads_ranks(type, &c, &asked, ranks, 4, &count, err, sizeof err), MG_ERROR_OK);
    MG_CHECK_INT(asked, kind);
    MG_CHECK_INT(count, n);
    for (uint32_t i = 0; i < n && i < count; i++)
        MG_CHECK_INT(ranks[i], want[i]);
    MG_CHECK_INT(agent_reads_answer(type, &c, read_as_agent, &agent, out, err, sizeof err), MG_ERROR_OK);
    MG_CHECK_INT(agent_proto_send(fd, out), MG_ERROR_OK);
}

/* The front takes the relay's READINGS and checks each rank's reading: agent's counter, unseen
 * where expect_agent is UNSEEN, unseen and lost where it is LOST. */
enum { UNSEEN = -1, LOST = -2 };

static void front_takes(int fd, int kind, const int32_t *ranks, const int *expect_agent,
                        uint32_t n, agent_proto_buf *in)
{
    agent_proto_msg_type type;
    agent_proto_cursor c;
    char err[160];
    uint32_t count;
    MG_CHECK_INT(agent_proto_recv(fd, in, &type, &c, err, sizeof err), MG_ERROR_OK);
    MG_CHECK_INT(type, AGENT_PROTO_MSG_READINGS);
    MG_CHECK(agent_proto_get_u32(&c, &count) == MG_ERROR_OK && count == n);
    for (uint32_t i = 0; i < n; i++) {
        agent_proto_reading r;
        MG_CHECK_INT(agent_proto_get_reading(&c, &r), MG_ERROR_OK);
        MG_CHECK_INT(r.rank, ranks[i]);
        MG_CHECK_INT(r.unseen, expect_agent[i] < 0);
        MG_CHECK_INT(r.lost, expect_agent[i] == LOST);
        if (expect_agent[i] >= 0) {
            MG_CHECK_INT(r.counter, 100 + ranks[i] + expect_agent[i]);
            MG_CHECK_INT(r.cpu_slices, kind);
            MG_CHECK_INT(r.held_ns, 50 * (1 + ranks[i] + expect_agent[i]));
            MG_CHECK_INT(r.frozen_ns, 1 + ranks[i]);
        } else {
            MG_CHECK_INT(r.held_ns, 0);
        }
    }
}

static void send_stacks(int fd, agent_proto_buf *b, int32_t rank)
{
    MG_CHECK_INT(agent_proto_frame_begin(b, AGENT_PROTO_MSG_STACKS), MG_ERROR_OK);
    MG_CHECK(agent_proto_put_u32(b, 1) == MG_ERROR_OK && agent_proto_put_u32(b, (uint32_t)rank) == MG_ERROR_OK);
    agent_proto_frame_finish(b);
    MG_CHECK_INT(agent_proto_send(fd, b), MG_ERROR_OK);
}

static void relay_round_stack_loss_and_bye(void)
{
    int up[2], a0[2], a1[2];
    MG_CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, up) == 0 &&
             socketpair(AF_UNIX, SOCK_STREAM, 0, a0) == 0 &&
             socketpair(AF_UNIX, SOCK_STREAM, 0, a1) == 0);
    relay_run run = {.up = up[1], .below = {a0[1], a1[1]}, .rc = -1};
    MG_CHECK_INT(pthread_create(&run.thread, NULL, relay_main, &run), 0);
    agent_proto_buf in = {0}, out = {0}, answer = {0};
    /* a round of every rank: each agent asked for its own, rank 3 unseen */
    static const int32_t all[4] = {2, 1, 0, 3}, of0[2] = {2, 0}, of1[1] = {1};
    send_read(up[0], &out, AGENT_READS_PLAIN, all, 4);
    agent_answers(a0[0], 0, AGENT_READS_PLAIN, of0, 2, &in, &answer);
    agent_answers(a1[0], 1, AGENT_READS_PLAIN, of1, 1, &in, &answer);
    front_takes(up[0], AGENT_READS_PLAIN, all, (const int[]){0, 1, 0, UNSEEN}, 4, &in);
    /* a verification retake: gap only below the relay too, so that no agent stops its ranks */
    send_read(up[0], &out, AGENT_READS_GAP_ONLY, all, 4);
    agent_answers(a0[0], 0, AGENT_READS_GAP_ONLY, of0, 2, &in, &answer);
    agent_answers(a1[0], 1, AGENT_READS_GAP_ONLY, of1, 1, &in, &answer);
    front_takes(up[0], AGENT_READS_GAP_ONLY, all, (const int[]){0, 1, 0, UNSEEN}, 4, &in);
    /* rank 1's stack: its agent's answer, with its published wait, passed through whole */
    send_stacks(up[0], &out, 1);
    agent_proto_msg_type type;
    agent_proto_cursor c;
    char err[160];
    MG_CHECK_INT(agent_proto_recv(a1[0], &in, &type, &c, err, sizeof err), MG_ERROR_OK);
    MG_CHECK_INT(type, AGENT_PROTO_MSG_STACKS);
    rank_state st = {.magic = RANK_STATE_MAGIC, .version = RANK_STATE_VERSION, .size = 4};
    atomic_store(&st.wait_on, RANK_STATE_WAIT_PEER);
    atomic_store(&st.wait_peer, 3);
    MG_CHECK(agent_proto_frame_begin(&answer, AGENT_PROTO_MSG_STACK) == MG_ERROR_OK &&
             agent_proto_put_str(&answer, "MPI_Recv") == MG_ERROR_OK && agent_proto_put_u32(&answer, 0) == MG_ERROR_OK &&
             agent_waits_put(&answer, &st) == MG_ERROR_OK);
    agent_proto_frame_finish(&answer);
    MG_CHECK_INT(agent_proto_send(a1[0], &answer), MG_ERROR_OK);
    MG_CHECK_INT(agent_proto_recv(up[0], &in, &type, &c, err, sizeof err), MG_ERROR_OK);
    MG_CHECK_INT(type, AGENT_PROTO_MSG_STACK);
    MG_CHECK(in.len == answer.len - AGENT_PROTO_FRAME_HEADER &&
             memcmp(in.data, answer.data + AGENT_PROTO_FRAME_HEADER, in.len) == 0);
    /* agent 0 goes away: its ranks unseen and lost, in the round that finds it gone and in the
     * next, its stacks empty, agent 1 still asked */
    close(a0[0]);
    for (int round = 0; round < 2; round++) {
        send_read(up[0], &out, AGENT_READS_CPU_TIME, all, 4);
        agent_answers(a1[0], 1, AGENT_READS_CPU_TIME, of1, 1, &in, &answer);
        front_takes(up[0], AGENT_READS_CPU_TIME, all, (const int[]){LOST, 1, LOST, UNSEEN}, 4, &in);
    }
    send_stacks(up[0], &out, 0);
    MG_CHECK_INT(agent_proto_recv(up[0], &in, &type, &c, err, sizeof err), MG_ERROR_OK);
    char fn[64];
    uint32_t nframes;
    rank_state copy;
    bool published = true;
    MG_CHECK(type == AGENT_PROTO_MSG_STACK && agent_proto_get_str(&c, fn, sizeof fn) == MG_ERROR_OK && !fn[0] &&
             agent_proto_get_u32(&c, &nframes) == MG_ERROR_OK && nframes == 0 &&
             agent_waits_get(&c, &copy, &published) == MG_ERROR_OK && !published);
    /* bye: passed to agent 1, and the relay ends */
    MG_CHECK_INT(agent_proto_frame_begin(&out, AGENT_PROTO_MSG_BYE), MG_ERROR_OK);
    agent_proto_frame_finish(&out);
    MG_CHECK_INT(agent_proto_send(up[0], &out), MG_ERROR_OK);
    MG_CHECK_INT(agent_proto_recv(a1[0], &in, &type, &c, err, sizeof err), MG_ERROR_OK);
    MG_CHECK_INT(type, AGENT_PROTO_MSG_BYE);
    pthread_join(run.thread, NULL);
    MG_CHECK_INT(run.rc, MG_ERROR_OK);
    close(up[0]);
    close(a1[0]);
    agent_proto_buf_free(&in);
    agent_proto_buf_free(&out);
    agent_proto_buf_free(&answer);
}

int main(void)
{
    MG_RUN(relay_round_stack_loss_and_bye);
    MG_TEST_END();
}
