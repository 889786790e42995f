/* Unit tests of batched readings (src/wire/agent_reads.h) over real socketpairs: ranks grouped by
 * agent in their order, lost agents skipped; one round asks each agent once for all its ranks and
 * puts every answer back in place; the round's kind (plain, with CPU time, gap only) reaches the
 * agent's reader as sent; an agent that answers wrong, or not at all, leaves its ranks unseen and
 * the other agents' readings intact (a write to the gone one fails without SIGPIPE); a request of
 * an unknown kind, or whose count its payload does not hold, or past what a relay holds, or random
 * bytes, is refused without a crash. */
#include "agent_reads.h"
#include "mg_error.h"
#include "mg_rng.h"
#include "mg_test.h"

#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

enum { NAGENTS = 3, NRANKS = 9 };

/* An agent's reading of rank r: its counter is 100 r, its function r + 1, its held time 1000 r + 1
 * ns and its frozen time r, its slices the kind it was asked for. */
static void read_fake(void *ctx, int32_t rank, int kind, agent_proto_reading *out)
{
    (*(int *)ctx)++;
    *out = (agent_proto_reading){.rank = rank,
                           .in_mpi = 1,
                           .counter_known = 1,
                           .fn = (uint32_t)rank + 1,
                           .counter = 100u * (uint64_t)rank,
                           .cpu_time_ns = kind != AGENT_READS_PLAIN ? 7 : -1,
                           .cpu_slices = kind,
                           .held_ns = 1000 * (int64_t)rank + 1,
                           .frozen_ns = rank};
}

/* Answers one request on fd as an agent does (agent_reads_answer), counting ranks read. */
static void serve_once(int fd, int *reads)
{
    agent_proto_buf in = {0}, out = {0};
    agent_proto_msg_type type;
    agent_proto_cursor c;
    char err[160];
    MG_CHECK_INT(agent_proto_recv(fd, &in, &type, &c, err, sizeof err), MG_ERROR_OK);
    MG_CHECK_INT(agent_reads_answer(type, &c, read_fake, reads, &out, err, sizeof err), MG_ERROR_OK);
    MG_CHECK_INT(agent_proto_send(fd, &out), MG_ERROR_OK);
    agent_proto_buf_free(&in);
    agent_proto_buf_free(&out);
}

static void groups_by_agent_in_order(void)
{
    int owner[NRANKS] = {0, 0, 0, 1, 1, 1, -1, 2, 2};
    int ranks[] = {8, 1, 6, 3, 0, 7, 42};
    agent_reads_ask asks[NAGENTS] = {{.fd = 5}, {.fd = -1}, {.fd = 7}};
    int32_t grouped[NRANKS];
    agent_proto_reading out[NRANKS];
    agent_reads_group(asks, NAGENTS, owner, NRANKS, ranks, 7, grouped, out);
    MG_CHECK_INT((int)asks[0].count, 2);
    MG_CHECK_INT(asks[0].ranks[0], 1);
    MG_CHECK_INT(asks[0].ranks[1], 0);
    MG_CHECK_INT((int)asks[1].count, 0); /* lost */
    MG_CHECK_INT((int)asks[2].count, 2);
    MG_CHECK_INT(asks[2].ranks[0], 8);
    MG_CHECK_INT(asks[2].ranks[1], 7);
    MG_CHECK(asks[0].out != asks[2].out);
    agent_reads_group(asks, NAGENTS, owner, NRANKS, NULL, NRANKS, grouped, out);
    MG_CHECK_INT((int)(asks[0].count + asks[2].count), 5); /* 6 has no agent, 3-5 a lost one */
}

static void one_frame_each_way_per_agent(void)
{
    int pairs[NAGENTS][2], owner[NRANKS], sampled[] = {4, 0, 8, 2, 5};
    agent_reads_ask asks[NAGENTS];
    int32_t grouped[NRANKS];
    agent_proto_reading out[NRANKS];
    for (int r = 0; r < NRANKS; r++)
        owner[r] = r / 3;
    for (int a = 0; a < NAGENTS; a++) {
        MG_CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, pairs[a]) == 0);
        asks[a].fd = pairs[a][0];
    }
    agent_reads_group(asks, NAGENTS, owner, NRANKS, sampled, 5, grouped, out);
    /* each agent answers a request like the round's before the round: its socket holds the
     * answer, as a fast agent's, and the round's own request waits unread */
    int reads = 0;
    agent_proto_buf scratch = {0};
    agent_reads_stats stats = {0};
    char err[160];
    for (int a = 0; a < NAGENTS; a++) {
        agent_proto_buf req = {0};
        MG_CHECK_INT(agent_proto_frame_begin(&req, AGENT_PROTO_MSG_READ), MG_ERROR_OK);
        MG_CHECK_INT(agent_proto_put_u32(&req, AGENT_READS_CPU_TIME), MG_ERROR_OK);
        MG_CHECK_INT(agent_proto_put_u32(&req, (uint32_t)asks[a].count), MG_ERROR_OK);
        for (size_t i = 0; i < asks[a].count; i++)
            MG_CHECK_INT(agent_proto_put_u32(&req, (uint32_t)asks[a].ranks[i]), MG_ERROR_OK);
        agent_proto_frame_finish(&req);
        MG_CHECK_INT(agent_proto_send(pairs[a][0], &req), MG_ERROR_OK);
        serve_once(pairs[a][1], &reads);
        agent_proto_buf_free(&req);
    }
    MG_CHECK_INT(reads, 5);
    MG_CHECK_INT(agent_reads_round(asks, NAGENTS, AGENT_READS_CPU_TIME, &scratch, &stats, err,
                                   sizeof err),
                 MG_ERROR_OK);
    MG_CHECK_INT((int)stats.rounds, 1);
    MG_CHECK_INT((int)stats.frames, 6);
    for (int a = 0; a < NAGENTS; a++) {
        MG_CHECK_INT(asks[a].rc, MG_ERROR_OK);
        for (size_t i = 0; i < asks[a].count; i++) {
            MG_CHECK_INT(asks[a].out[i].rank, asks[a].ranks[i]);
            MG_CHECK(asks[a].out[i].counter == 100u * (uint64_t)asks[a].ranks[i]);
            MG_CHECK(asks[a].out[i].cpu_time_ns == 7);
            MG_CHECK(asks[a].out[i].held_ns == 1000 * (int64_t)asks[a].ranks[i] + 1);
            MG_CHECK(asks[a].out[i].frozen_ns == asks[a].ranks[i]);
            MG_CHECK(!asks[a].out[i].unseen);
        }
        close(pairs[a][0]);
        close(pairs[a][1]);
    }
    agent_proto_buf_free(&scratch);
}

static void a_failing_agent_leaves_the_others_intact(void)
{
    int pairs[NAGENTS][2], owner[NRANKS], reads = 0;
    agent_reads_ask asks[NAGENTS];
    int32_t grouped[NRANKS];
    agent_proto_reading out[NRANKS];
    for (int r = 0; r < NRANKS; r++)
        owner[r] = r / 3;
    for (int a = 0; a < NAGENTS; a++) {
        MG_CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, pairs[a]) == 0);
        asks[a].fd = pairs[a][0];
    }
    agent_reads_group(asks, NAGENTS, owner, NRANKS, NULL, NRANKS, grouped, out);
    /* agent 0 answers rank 0 only (a wrong count), agent 1 is gone, agent 2 answers right */
    agent_proto_buf bad = {0};
    agent_proto_reading r0 = {.rank = 0};
    MG_CHECK_INT(agent_proto_frame_begin(&bad, AGENT_PROTO_MSG_READINGS), MG_ERROR_OK);
    MG_CHECK_INT(agent_proto_put_u32(&bad, 1) || agent_proto_put_reading(&bad, &r0), MG_ERROR_OK);
    agent_proto_frame_finish(&bad);
    MG_CHECK_INT(agent_proto_send(pairs[0][1], &bad), MG_ERROR_OK);
    close(pairs[1][1]);
    agent_proto_buf req = {0};
    MG_CHECK_INT(agent_proto_frame_begin(&req, AGENT_PROTO_MSG_READ), MG_ERROR_OK);
    MG_CHECK_INT(agent_proto_put_u32(&req, AGENT_READS_PLAIN) || agent_proto_put_u32(&req, 3) ||
                     agent_proto_put_u32(&req, 6) || agent_proto_put_u32(&req, 7) ||
                     agent_proto_put_u32(&req, 8),
                 MG_ERROR_OK);
    agent_proto_frame_finish(&req);
    MG_CHECK_INT(agent_proto_send(pairs[2][0], &req), MG_ERROR_OK);
    serve_once(pairs[2][1], &reads);
    agent_proto_buf scratch = {0};
    char err[160];
    MG_CHECK_INT(agent_reads_round(asks, NAGENTS, AGENT_READS_PLAIN, &scratch, NULL, err, sizeof err),
                 MG_ERROR_OK);
    MG_CHECK_INT(asks[0].rc, MG_ERROR_EFORMAT);
    MG_CHECK(strstr(err, "another frame") != NULL);
    MG_CHECK(asks[1].rc == MG_ERROR_EIO);
    MG_CHECK_INT(asks[2].rc, MG_ERROR_OK);
    for (int i = 0; i < 3; i++) {
        MG_CHECK(asks[0].out[i].unseen && asks[1].out[i].unseen);
        MG_CHECK(!asks[2].out[i].unseen && asks[2].out[i].counter == 100u * (uint64_t)(6 + i));
    }
    for (int a = 0; a < NAGENTS; a++)
        close(pairs[a][0]);
    close(pairs[0][1]);
    close(pairs[2][1]);
    agent_proto_buf_free(&bad);
    agent_proto_buf_free(&req);
    agent_proto_buf_free(&scratch);
}

/* A round of each kind: the request the round sent (left unread behind an answer sent before it)
 * gives the agent's reader that kind, and a relay that kind with its ranks. */
static void the_kind_reaches_the_agent(void)
{
    static const int kinds[] = {AGENT_READS_PLAIN, AGENT_READS_CPU_TIME, AGENT_READS_GAP_ONLY};
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        int pair[2], reads = 0, kind = -1, ranks[2];
        size_t count = 0;
        MG_CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0);
        const int32_t asked[1] = {4};
        agent_proto_reading got;
        agent_reads_ask ask = {.fd = pair[0], .ranks = asked, .count = 1, .out = &got};
        agent_proto_buf b = {0}, in = {0};
        agent_proto_reading early = {.rank = 4};
        MG_CHECK_INT(agent_proto_frame_begin(&b, AGENT_PROTO_MSG_READINGS), MG_ERROR_OK);
        MG_CHECK_INT(agent_proto_put_u32(&b, 1) || agent_proto_put_reading(&b, &early), MG_ERROR_OK);
        agent_proto_frame_finish(&b);
        MG_CHECK_INT(agent_proto_send(pair[1], &b), MG_ERROR_OK);
        char err[160];
        MG_CHECK_INT(agent_reads_round(&ask, 1, kinds[k], &b, NULL, err, sizeof err), MG_ERROR_OK);
        MG_CHECK_INT(ask.rc, MG_ERROR_OK);
        agent_proto_msg_type type;
        agent_proto_cursor c;
        MG_CHECK_INT(agent_proto_recv(pair[1], &in, &type, &c, err, sizeof err), MG_ERROR_OK);
        MG_CHECK_INT(agent_reads_ranks(type, &c, &kind, ranks, 2, &count, err, sizeof err), MG_ERROR_OK);
        MG_CHECK_INT(kind, kinds[k]);
        MG_CHECK(count == 1 && ranks[0] == 4);
        MG_CHECK_INT(agent_reads_answer(type, &c, read_fake, &reads, &b, err, sizeof err), MG_ERROR_OK);
        MG_CHECK_INT(reads, 1);
        agent_proto_cursor answer = {b.data + AGENT_PROTO_FRAME_HEADER, b.data + b.len};
        uint32_t n;
        MG_CHECK(agent_proto_get_u32(&answer, &n) == MG_ERROR_OK && n == 1);
        MG_CHECK_INT(agent_proto_get_reading(&answer, &got), MG_ERROR_OK);
        MG_CHECK_INT(got.cpu_slices, kinds[k]);
        close(pair[0]);
        close(pair[1]);
        agent_proto_buf_free(&b);
        agent_proto_buf_free(&in);
    }
}

/* Writes a READ payload (kind, count, then ranks) into p; its length. */
static size_t read_payload(uint8_t *p, uint32_t kind, uint32_t count, const uint32_t *ranks,
                           size_t nranks)
{
    agent_proto_buf b = {0};
    MG_CHECK_INT(agent_proto_frame_begin(&b, AGENT_PROTO_MSG_READ), MG_ERROR_OK);
    MG_CHECK_INT(agent_proto_put_u32(&b, kind) || agent_proto_put_u32(&b, count), MG_ERROR_OK);
    for (size_t i = 0; i < nranks; i++)
        MG_CHECK_INT(agent_proto_put_u32(&b, ranks[i]), MG_ERROR_OK);
    size_t n = b.len - AGENT_PROTO_FRAME_HEADER;
    memcpy(p, b.data + AGENT_PROTO_FRAME_HEADER, n);
    agent_proto_buf_free(&b);
    return n;
}

static void bad_requests_are_refused(void)
{
    uint8_t payload[64];
    agent_proto_buf reply = {0};
    int reads = 0, kind;
    char err[160];
    mg_rng rng;
    mg_rng_seed(&rng, 31);
    /* a count past what the payload holds: refused before anything is read */
    size_t n = read_payload(payload, AGENT_READS_PLAIN, 3, (const uint32_t[]){9}, 1);
    agent_proto_cursor c = {payload, payload + n};
    MG_CHECK_INT(agent_reads_answer(AGENT_PROTO_MSG_READ, &c, read_fake, &reads, &reply, err, sizeof err),
                 MG_ERROR_EFORMAT);
    MG_CHECK_INT(reads, 0);
    c = (agent_proto_cursor){payload, payload + n};
    MG_CHECK_INT(
        agent_reads_answer(AGENT_PROTO_MSG_STACKS, &c, read_fake, &reads, &reply, err, sizeof err),
        MG_ERROR_EFORMAT);
    /* a kind no version has (2 is GAP_ONLY without CPU_TIME): refused, named, nothing read */
    static const uint32_t unknown[] = {2, 4, 8, 0xffffffffu};
    for (size_t k = 0; k < sizeof unknown / sizeof *unknown; k++) {
        n = read_payload(payload, unknown[k], 1, (const uint32_t[]){9}, 1);
        c = (agent_proto_cursor){payload, payload + n};
        MG_CHECK_INT(
            agent_reads_answer(AGENT_PROTO_MSG_READ, &c, read_fake, &reads, &reply, err, sizeof err),
            MG_ERROR_EFORMAT);
        MG_CHECK(strstr(err, "unknown kind") != NULL);
        MG_CHECK_INT(reads, 0);
        int ranks[2];
        size_t count;
        c = (agent_proto_cursor){payload, payload + n};
        err[0] = '\0';
        MG_CHECK_INT(agent_reads_ranks(AGENT_PROTO_MSG_READ, &c, &kind, ranks, 2, &count, err, sizeof err),
                     MG_ERROR_EFORMAT);
        MG_CHECK(strstr(err, "unknown kind") != NULL);
    }
    /* a relay peeks at the ranks, past max refused, the request left for the answer */
    int ranks[2];
    size_t count;
    n = read_payload(payload, AGENT_READS_GAP_ONLY, 1, (const uint32_t[]){9}, 1);
    c = (agent_proto_cursor){payload, payload + n};
    MG_CHECK_INT(agent_reads_ranks(AGENT_PROTO_MSG_READ, &c, &kind, ranks, 2, &count, err, sizeof err),
                 MG_ERROR_OK);
    MG_CHECK_INT((int)count, 1);
    MG_CHECK_INT(ranks[0], 9);
    MG_CHECK_INT(kind, AGENT_READS_GAP_ONLY);
    MG_CHECK(c.p == payload);
    n = read_payload(payload, AGENT_READS_PLAIN, 3, (const uint32_t[]){9, 1, 2}, 3);
    c = (agent_proto_cursor){payload, payload + n};
    MG_CHECK_INT(agent_reads_ranks(AGENT_PROTO_MSG_READ, &c, &kind, ranks, 2, &count, err, sizeof err),
                 MG_ERROR_EFORMAT);
    for (int k = 0; k < 20000; k++) {
        n = (size_t)mg_rng_below(&rng, sizeof payload + 1);
        for (size_t i = 0; i < n; i++)
            payload[i] = (uint8_t)mg_rng_next(&rng);
        /* half of them of a known kind, for the count and ranks to be read */
        if (k % 2 && n >= 4)
            memset(payload, 0, 4);
        c = (agent_proto_cursor){payload, payload + n};
        int rc =
            agent_reads_answer(AGENT_PROTO_MSG_READ, &c, read_fake, &reads, &reply, err, sizeof err);
        MG_CHECK(rc == MG_ERROR_OK || rc == MG_ERROR_EFORMAT);
    }
    agent_proto_buf_free(&reply);
}

/* Four agents that never answer, each socket with a 300 ms receive timeout: the round gives up
 * on all of them about 300 ms after asking, not 1.2 s (one timeout after another). */
static void silent_agents_cost_one_timeout(void)
{
    enum { SILENT = 4 };
    int pairs[SILENT][2];
    agent_reads_ask asks[SILENT];
    int32_t ranks[SILENT];
    agent_proto_reading out[SILENT];
    struct timeval wait = {.tv_usec = 300000};
    for (int a = 0; a < SILENT; a++) {
        MG_CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, pairs[a]) == 0);
        MG_CHECK(setsockopt(pairs[a][0], SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait) == 0);
        ranks[a] = a;
        asks[a] = (agent_reads_ask){
            .fd = pairs[a][0], .ranks = &ranks[a], .out = &out[a], .count = 1};
    }
    agent_proto_buf scratch = {0};
    char err[160];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    MG_CHECK_INT(agent_reads_round(asks, SILENT, AGENT_READS_PLAIN, &scratch, NULL, err, sizeof err),
                 MG_ERROR_OK);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double took = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    MG_CHECK(took >= 0.29 && took < 0.9); /* one after another: 1.2 s */
    for (int a = 0; a < SILENT; a++) {
        MG_CHECK_INT(asks[a].rc, MG_ERROR_EIO);
        MG_CHECK(out[a].unseen);
        close(pairs[a][0]);
        close(pairs[a][1]);
    }
    agent_proto_buf_free(&scratch);
}

int main(void)
{
    MG_RUN(silent_agents_cost_one_timeout);
    MG_RUN(groups_by_agent_in_order);
    MG_RUN(one_frame_each_way_per_agent);
    MG_RUN(a_failing_agent_leaves_the_others_intact);
    MG_RUN(the_kind_reaches_the_agent);
    MG_RUN(bad_requests_are_refused);
    MG_TEST_END();
}
