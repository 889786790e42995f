/* The check agent -> detector TCP stream without MPI: frames round-trip; a stream with a bad magic,
 * another version, an unknown frame type, an absurd length or a truncated frame is refused with a
 * clear error (never a crash, never a read past the data); thousands of randomly mutated, truncated
 * and random streams go through every decoder the same way; the listener admits only connections
 * that open with the run's secret, keeps what was valid and closes only the bad connection, and a
 * stranger takes no agent's place; answers to a leaf whose socket is full arrive whole, in order;
 * a rank a stream ended with its agent's verdict is a rank the front found (docs/design/check.md).
 */
#include "agent_waits.h"
#include "check_feed.h"
#include "check_remote.h"
#include "mg_clock.h"
#include "mg_error.h"
#include "mg_rng.h"
#include "mg_test.h"
#include "record_decoder.h"
#include "record_stream.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

static size_t encode_recv(uint8_t *buf, size_t cap)
{
    check_event ev = {.kind = CHECK_EVENT_EV_ENTER,
                      .func = CHECK_EVENT_FN_RECV,
                      .rank = 1,
                      .seq = 1,
                      .comm = CHECK_EVENT_COMM_WORLD,
                      .peer = 0,
                      .root = CHECK_EVENT_NO_ROOT};
    size_t n = 0;
    MG_CHECK_INT(check_event_encode(&ev, buf, cap, &n), MG_ERROR_OK);
    return n;
}

/* A hang agent's STACK answer of an empty stack and a rank's published wait (agent_waits.h). */
static size_t stack_with_wait(uint8_t *buf, size_t cap)
{
    rank_state st = {.magic = RANK_STATE_MAGIC, .version = RANK_STATE_VERSION, .size = 4};
    atomic_store(&st.wait_on, RANK_STATE_WAIT_REQUESTS);
    atomic_store(&st.posted, 2);
    atomic_store(&st.posted_peer[1], 3);
    atomic_store(&st.world_like_count, 1);
    agent_proto_buf b = {0};
    MG_CHECK(agent_proto_frame_begin(&b, AGENT_PROTO_MSG_STACK) == MG_ERROR_OK &&
             agent_proto_put_str(&b, "MPI_Waitall") == MG_ERROR_OK &&
             agent_proto_put_u32(&b, 0) == MG_ERROR_OK && agent_waits_put(&b, &st) == MG_ERROR_OK);
    agent_proto_frame_finish(&b);
    MG_CHECK(b.len <= cap);
    memcpy(buf, b.data, b.len);
    size_t n = b.len;
    agent_proto_buf_free(&b);
    return n;
}

/* A HELLO of share `share` of `shares` from node, naming the n ranks ranks[] (none: NULL, 0) and
 * node_ranks ranks started on its node. */
static size_t hello(uint8_t *buf, size_t cap, uint32_t share, uint32_t shares, const char *node,
                    const int32_t *ranks, uint32_t n, uint32_t node_ranks)
{
    record_stream_hello_fields h = {.share = share,
                                    .shares = shares,
                                    .node_ranks = node_ranks,
                                    .ranks = (int32_t *)ranks,
                                    .n = n};
    snprintf(h.node, sizeof h.node, "%s", node);
    return record_stream_hello(buf, cap, &h);
}

/* hello + world + record + site + state + end + a node agent's verdict into buf; returns its
 * size. */
static size_t good_stream(uint8_t *buf, size_t cap)
{
    uint8_t rec[256];
    size_t n = hello(buf, cap, 1, 2, "node1", NULL, 0, 3);
    size_t rn = encode_recv(rec, sizeof rec);
    n += record_stream_pair(buf + n, cap - n, AGENT_PROTO_MSG_WORLD, -1, 2, 0);
    n += record_stream_frame(buf + n, cap - n, AGENT_PROTO_MSG_RECORD, rec, (uint32_t)rn);
    n += record_stream_site(buf + n, cap - n, 1, 0x401234, "main", "app.c", 12,
                            RECORD_STREAM_SITE_PROCEDURE_LINE);
    n += record_stream_pair(buf + n, cap - n, AGENT_PROTO_MSG_STATE, 1, 0, 1);
    n += record_stream_pair(buf + n, cap - n, AGENT_PROTO_MSG_END, 1, 3, 7);
    record_stream_verdict v = {.rank = 1, .pid = 42, .world = 2, .cause = 3};
    snprintf(v.detail, sizeof v.detail, "not interposed");
    n += record_stream_observe(buf + n, cap - n, &v);
    return n;
}

static void test_round_trip_byte_by_byte(void)
{
    uint8_t buf[1024];
    size_t n = good_stream(buf, sizeof buf);
    agent_proto_reader r;
    agent_proto_reader_init(&r);
    int frames = 0;
    record_stream_hello_fields h = {0};
    char err[128];
    record_stream_verdict verdict = {0};
    for (size_t i = 0; i < n; i++) { /* frames split anywhere still come out whole */
        MG_CHECK_INT(agent_proto_reader_push(&r, buf + i, 1), MG_ERROR_OK);
        agent_proto_frame f;
        int rc;
        while ((rc = agent_proto_reader_next(&r, &f, err, sizeof err)) == 1) {
            frames++;
            if (f.type == AGENT_PROTO_MSG_HELLO)
                MG_CHECK_INT(record_stream_parse_hello(&f, &h, 1), MG_ERROR_OK);
            if (f.type == AGENT_PROTO_MSG_OBSERVE)
                MG_CHECK_INT(record_stream_parse_observe(&f, &verdict), MG_ERROR_OK);
            if (f.type == AGENT_PROTO_MSG_SITE) {
                int32_t rank, line;
                uint64_t addr;
                char fn[64], file[64];
                uint8_t flags;
                MG_CHECK_INT(record_stream_parse_site(&f, &rank, &addr, fn, sizeof fn, file,
                                                      sizeof file, &line, &flags),
                             MG_ERROR_OK);
                MG_CHECK_INT(flags, RECORD_STREAM_SITE_PROCEDURE_LINE);
                MG_CHECK_STR(fn, "main");
                MG_CHECK_STR(file, "app.c");
                MG_CHECK_INT(line, 12);
                MG_CHECK(addr == 0x401234);
            }
        }
        MG_CHECK_INT(rc, 0);
    }
    MG_CHECK_INT(frames, 7);
    MG_CHECK_INT(h.share, 1);
    MG_CHECK_INT(h.shares, 2);
    MG_CHECK_INT(h.node_ranks, 3); /* the ranks its launcher started on its node */
    MG_CHECK(h.ranks == NULL && h.n == 0);
    MG_CHECK_STR(h.node, "node1");
    MG_CHECK_INT(verdict.rank, 1);
    MG_CHECK_INT(verdict.pid, 42);
    MG_CHECK_INT(verdict.world, 2);
    MG_CHECK_INT((int)verdict.cause, 3);
    MG_CHECK_STR(verdict.detail, "not interposed");
    MG_CHECK(!agent_proto_reader_partial(&r));
    agent_proto_reader_free(&r);
}

static int first_error(const uint8_t *buf, size_t n, char *err, size_t errlen)
{
    agent_proto_reader r;
    agent_proto_reader_init(&r);
    agent_proto_reader_push(&r, buf, n);
    agent_proto_frame f;
    int rc;
    while ((rc = agent_proto_reader_next(&r, &f, err, errlen)) == 1)
        ;
    int partial = agent_proto_reader_partial(&r);
    agent_proto_reader_free(&r);
    return rc == 0 && partial ? 1 : rc;
}

static void test_malformed_streams(void)
{
    uint8_t buf[1024], bad[1024];
    size_t n = good_stream(buf, sizeof buf);
    char err[128] = "";
    memcpy(bad, buf, n);
    bad[0] ^= 0xff;
    MG_CHECK_INT(first_error(bad, n, err, sizeof err), MG_ERROR_EFORMAT);
    MG_CHECK(strstr(err, "magic") != NULL);
    memcpy(bad, buf, n);
    bad[4] = 99;
    MG_CHECK_INT(first_error(bad, n, err, sizeof err), MG_ERROR_EVERSION);
    MG_CHECK(strstr(err, "version 99") != NULL);
    memcpy(bad, buf, n);
    bad[RECORD_STREAM_HELLO_SIZE + 6] = 77; /* the second frame's type */
    MG_CHECK_INT(first_error(bad, n, err, sizeof err), MG_ERROR_EFORMAT);
    MG_CHECK(strstr(err, "type 77") != NULL);
    memcpy(bad, buf, n);
    bad[RECORD_STREAM_HELLO_SIZE + 11] = 0x7f; /* a length of about 2 GB */
    MG_CHECK_INT(first_error(bad, n, err, sizeof err), MG_ERROR_EFORMAT);
    MG_CHECK(strstr(err, "announces") != NULL);
    MG_CHECK_INT(first_error(buf, n - 3, err, sizeof err), 1); /* truncated: bytes left over */
}

static const uint8_t run_secret[AGENT_PROTO_SECRET_BYTES] = "0123456789abcdef0123456789abcdef";

static void test_secret(void)
{
    uint8_t secret[AGENT_PROTO_SECRET_BYTES], other[AGENT_PROTO_SECRET_BYTES], frame[AGENT_PROTO_AUTH_SIZE];
    char hex[2 * AGENT_PROTO_SECRET_BYTES + 1];
    MG_CHECK_INT(agent_proto_secret_new(secret), MG_ERROR_OK);
    MG_CHECK_INT(agent_proto_secret_new(other), MG_ERROR_OK);
    MG_CHECK(memcmp(secret, other, sizeof secret) != 0);
    agent_proto_secret_format(secret, hex);
    MG_CHECK_INT((int)strlen(hex), 2 * AGENT_PROTO_SECRET_BYTES);
    MG_CHECK_INT(agent_proto_secret_parse(hex, other), MG_ERROR_OK);
    MG_CHECK(memcmp(secret, other, sizeof secret) == 0);
    MG_CHECK_INT(agent_proto_secret_parse(NULL, other), MG_ERROR_EFORMAT);
    MG_CHECK_INT(agent_proto_secret_parse("abcd", other), MG_ERROR_EFORMAT);
    hex[7] = 'g';
    MG_CHECK_INT(agent_proto_secret_parse(hex, other), MG_ERROR_EFORMAT);
    agent_proto_auth_put(frame, secret);
    MG_CHECK_INT(agent_proto_auth_check(frame, secret), MG_ERROR_OK);
    for (unsigned i = 0; i < AGENT_PROTO_AUTH_SIZE; i++) { /* any byte wrong, header or secret */
        frame[i] ^= 0x20;
        MG_CHECK_INT(agent_proto_auth_check(frame, secret), MG_ERROR_EPERM);
        frame[i] ^= 0x20;
    }
    uint8_t first[AGENT_PROTO_AUTH_SIZE] = {0}; /* an agent without the secret starts with its hello */
    hello(first, sizeof first, 0, 1, "node0", NULL, 0, 0);
    MG_CHECK_INT(agent_proto_auth_check(first, secret), MG_ERROR_EPERM);
}

/* Every decoder a received frame meets, as the detector and the hang front call them. Returns
 * the frames that came out whole; a refused stream must have said why in err. */
static int decode_all(const uint8_t *buf, size_t n)
{
    agent_proto_reader r;
    agent_proto_reader_init(&r);
    MG_CHECK_INT(agent_proto_reader_push(&r, buf, n), MG_ERROR_OK);
    int frames = 0, rc = agent_proto_reader_auth(&r, run_secret);
    MG_CHECK(rc == 1 || rc == 0 || rc == MG_ERROR_EPERM);
    record_decoder dec = {0};
    agent_proto_frame f;
    char err[256] = "";
    while (rc == 1 && (rc = agent_proto_reader_next(&r, &f, err, sizeof err)) == 1) {
        frames++;
        int32_t rank, value, line;
        uint64_t wide;
        uint8_t flags;
        char fn[64], file[64];
        record_stream_hello_fields h;
        check_event ev;
        agent_proto_reading reading;
        record_stream_verdict verdict;
        agent_proto_cursor c = {f.payload, f.payload + f.length};
        int prc = record_stream_parse_hello(&f, &h, 0);
        prc |= record_stream_parse_observe(&f, &verdict);
        prc |= record_stream_parse_site(&f, &rank, &wide, fn, sizeof fn, file, sizeof file, &line,
                                        &flags);
        prc |= record_stream_parse_pair(&f, &rank, &value, &wide);
        prc |= record_decoder_decode(&dec, f.payload, f.length, &ev);
        agent_proto_cursor stack = c;
        rank_state copy;
        bool published;
        uint32_t nframes;
        if (agent_proto_get_str(&stack, fn, sizeof fn) == MG_ERROR_OK &&
            agent_proto_get_u32(&stack, &nframes) == MG_ERROR_OK && nframes == 0)
            prc |= agent_waits_get(&stack, &copy, &published);
        MG_CHECK(stack.p <= stack.end);
        while (agent_proto_get_reading(&c, &reading) == MG_ERROR_OK ||
               agent_proto_get_str(&c, fn, sizeof fn) == MG_ERROR_OK)
            MG_CHECK(c.p <= c.end);
        (void)prc; /* a frame may be malformed for every parser but the one of its type */
    }
    MG_CHECK(rc == 0 || rc == MG_ERROR_EPERM || ((rc == MG_ERROR_EFORMAT || rc == MG_ERROR_EVERSION) && err[0]));
    record_decoder_free(&dec);
    agent_proto_reader_free(&r);
    return frames;
}

static void test_fuzzed_frames(void)
{
    uint8_t good[1800], buf[1800];
    agent_proto_auth_put(good, run_secret);
    size_t n = AGENT_PROTO_AUTH_SIZE + good_stream(good + AGENT_PROTO_AUTH_SIZE, sizeof good - AGENT_PROTO_AUTH_SIZE);
    n += stack_with_wait(good + n, sizeof good - n);
    MG_CHECK_INT(decode_all(good, n), 8);
    mg_rng rng;
    mg_rng_seed(&rng, 31);
    for (int i = 0; i < 20000; i++) {
        size_t len = n;
        memcpy(buf, good, n);
        switch (i % 4) {
        case 0: /* a few bytes flipped after the secret */
            for (uint64_t k = 1 + mg_rng_below(&rng, 4); k > 0; k--)
                buf[AGENT_PROTO_AUTH_SIZE + mg_rng_below(&rng, n - AGENT_PROTO_AUTH_SIZE)] ^=
                    (uint8_t)(1 + mg_rng_below(&rng, 255));
            break;
        case 1: /* truncated anywhere */
            len = mg_rng_below(&rng, n);
            break;
        case 2: /* random bytes after the secret */
            for (size_t k = AGENT_PROTO_AUTH_SIZE; k < n; k++)
                buf[k] = (uint8_t)mg_rng_next(&rng);
            break;
        default: /* random bytes from the start: refused before any frame is read */
            for (size_t k = 0; k < n; k++)
                buf[k] = (uint8_t)mg_rng_next(&rng);
            MG_CHECK_INT(decode_all(buf, len), 0);
            continue;
        }
        decode_all(buf, len);
    }
}

typedef struct got {
    int records, sites, ends, world, states, verdicts, closed;
    int shares, share_n, share_first, share_last; /* the streams' shares told, the last one's */
    char node[RECORD_STREAM_NODE_NAME];
} got;

static void g_record(void *c, const check_event *ev, const uint8_t *b, size_t l)
{
    (void)b, (void)l;
    ((got *)c)->records += ev->func == CHECK_EVENT_FN_RECV;
}
static void g_site(void *c, int rank, uint64_t addr, const site_resolver_info *s)
{
    (void)rank, (void)addr, (void)s;
    ((got *)c)->sites++;
}
static void g_end(void *c, int rank, int end, uint64_t lost)
{
    (void)rank, (void)end, (void)lost;
    ((got *)c)->ends++;
}
static void g_world(void *c, int size)
{
    ((got *)c)->world = size;
}
static void g_state(void *c, int rank, uint64_t seq)
{
    (void)rank, (void)seq;
    ((got *)c)->states++;
}

static void g_observe(void *c, int agent, const char *node, const record_stream_verdict *v)
{
    (void)agent;
    got *g = c;
    g->verdicts += v->rank == 1 && v->pid == 42;
    snprintf(g->node, sizeof g->node, "%s", node);
}
static void g_closed(void *c, int agent, const char *node, const check_remote_end *end)
{
    (void)agent, (void)node, (void)end;
    ((got *)c)->closed++;
}

static void g_share(void *c, int agent, const char *node, const int32_t *ranks, int32_t n)
{
    got *g = c;
    (void)agent, (void)node;
    g->shares++;
    g->share_n = n;
    g->share_first = n ? ranks[0] : -1;
    g->share_last = n ? ranks[n - 1] : -1;
}

static int connect_port(int port)
{
    struct sockaddr_in sa = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)port),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    MG_CHECK(fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0);
    return fd;
}

/* A listener on a loopback port of its own for check_remote_create; its port in *port. */
static int listen_loopback(int *port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t salen = sizeof sa;
    MG_CHECK(fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0 && listen(fd, 8) == 0 &&
             getsockname(fd, (struct sockaddr *)&sa, &salen) == 0);
    *port = ntohs(sa.sin_port);
    return fd;
}

/* Three agents: one sends a good stream, one a good record then a corrupt frame, one a frame
 * announcing 2 GB; three strangers connect first: a wrong secret, none (a hello first), random
 * bytes. The detector side refuses the strangers without giving them an agent's place, keeps both
 * records and the good stream's facts, closes the bad connections. */
static void test_listener_survives_a_corrupt_agent(void)
{
    check_remote *rem;
    int port, fd = listen_loopback(&port);
    MG_CHECK_INT(check_remote_create(fd, 3, run_secret, &rem), MG_ERROR_OK);
    uint8_t buf[1024], rec[256], wrong[AGENT_PROTO_SECRET_BYTES];
    memcpy(wrong, run_secret, sizeof wrong);
    wrong[31] ^= 1;
    int strangers[3];
    for (int i = 0; i < 3; i++) {
        strangers[i] = connect_port(port);
        agent_proto_auth_put(buf, wrong);
        size_t len = i == 0 ? AGENT_PROTO_AUTH_SIZE : i == 1 ? good_stream(buf, sizeof buf) : sizeof buf;
        MG_CHECK(write(strangers[i], buf, len) == (ssize_t)len);
    }
    agent_proto_auth_put(buf, run_secret);
    size_t n = AGENT_PROTO_AUTH_SIZE + good_stream(buf + AGENT_PROTO_AUTH_SIZE, sizeof buf - AGENT_PROTO_AUTH_SIZE);
    int a = connect_port(port), b = connect_port(port), huge = connect_port(port);
    MG_CHECK(write(a, buf, n) == (ssize_t)n);
    MG_CHECK(write(huge, buf, AGENT_PROTO_AUTH_SIZE + RECORD_STREAM_HELLO_SIZE) ==
             (ssize_t)(AGENT_PROTO_AUTH_SIZE + RECORD_STREAM_HELLO_SIZE));
    agent_proto_frame_header_put(rec, AGENT_PROTO_MSG_RECORD, 0x7fffffffU);
    MG_CHECK(write(huge, rec, AGENT_PROTO_FRAME_HEADER) == AGENT_PROTO_FRAME_HEADER);
    size_t m = AGENT_PROTO_AUTH_SIZE, rn = encode_recv(rec, sizeof rec);
    agent_proto_auth_put(buf, run_secret);
    m += hello(buf + m, sizeof buf - m, 0, 2, "node0", NULL, 0, 0);
    m += record_stream_frame(buf + m, sizeof buf - m, AGENT_PROTO_MSG_RECORD, rec, (uint32_t)rn);
    memcpy(buf + m, "\x09garbage-garbage", 16);
    MG_CHECK(write(b, buf, m + 16) == (ssize_t)(m + 16));
    close(a);
    close(b);
    close(huge);
    got g = {0};
    check_remote_sink sink = {
        {&g, g_record, g_site, g_end}, g_world, g_state, g_observe, NULL, g_closed, NULL};
    for (int i = 0; i < 50 && !check_remote_done(rem); i++) {
        size_t records;
        MG_CHECK_INT(check_remote_poll(rem, &sink, 100, &records), MG_ERROR_OK);
    }
    MG_CHECK(check_remote_done(rem));
    MG_CHECK_INT(g.records, 2);
    MG_CHECK_INT(g.sites, 1);
    MG_CHECK_INT(g.ends, 1);
    MG_CHECK_INT(g.states, 1);
    MG_CHECK_INT(g.world, 2);
    MG_CHECK_INT(g.verdicts, 1);
    MG_CHECK_STR(g.node, "node1");
    MG_CHECK_INT(g.closed, 3); /* the three agents that joined, the corrupt ones too */
    check_remote_destroy(rem);
    for (int i = 0; i < 3; i++) {
        char c;
        MG_CHECK(read(strangers[i], &c, 1) <= 0); /* refused: closed */
        close(strangers[i]);
    }
}

/* Whether the front closed its end of fd (a read sees the end, or a reset), without waiting. */
static int closed_by_peer(int fd)
{
    char c;
    ssize_t n = recv(fd, &c, 1, MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

/* Connections that send 10 bytes of the AUTH frame and then nothing, one in each of the
 * listener's 256 places, are closed once AGENT_PROTO_AUTH_WAIT_MS passed, not before and not
 * long after; the run's one agent, which connected while every place was taken, waits in the
 * backlog, joins then, and the stream ends as it should (check_remote_done). Before the deadline
 * existed, the strangers held their places for good and the agent's connection was closed. */
static void test_short_auth_closed_in_time(void)
{
    int port, fd = listen_loopback(&port);
    check_remote *rem;
    MG_CHECK_INT(check_remote_create(fd, 1, run_secret, &rem), MG_ERROR_OK);
    got g = {0};
    check_remote_sink sink = {
        {&g, g_record, g_site, g_end}, g_world, g_state, g_observe, NULL, g_closed, NULL};
    uint8_t buf[1024];
    size_t records;
    agent_proto_auth_put(buf, run_secret);
    static int strangers[CHECK_REMOTE_MAX_AGENTS];
    double start = mg_clock_seconds();
    for (int i = 0; i < CHECK_REMOTE_MAX_AGENTS; i++) {
        strangers[i] = connect_port(port);
        MG_CHECK(write(strangers[i], buf, 10) == 10);
        MG_CHECK_INT(check_remote_poll(rem, &sink, 0, &records), MG_ERROR_OK);
    }
    size_t n = AGENT_PROTO_AUTH_SIZE +
               good_stream(buf + AGENT_PROTO_AUTH_SIZE, sizeof buf - AGENT_PROTO_AUTH_SIZE);
    int agent = connect_port(port);
    MG_CHECK(write(agent, buf, n) == (ssize_t)n);
    close(agent);
    double first_closed = 0, all_closed = 0, wait = AGENT_PROTO_AUTH_WAIT_MS / 1000.0;
    while (!(all_closed && check_remote_done(rem)) && mg_clock_seconds() - start < wait + 5) {
        MG_CHECK_INT(check_remote_poll(rem, &sink, 50, &records), MG_ERROR_OK);
        int open = 0;
        for (int i = 0; i < CHECK_REMOTE_MAX_AGENTS; i++)
            open += !closed_by_peer(strangers[i]);
        if (open < CHECK_REMOTE_MAX_AGENTS && !first_closed)
            first_closed = mg_clock_seconds() - start;
        if (!open && !all_closed)
            all_closed = mg_clock_seconds() - start;
    }
    /* the last stranger connected a moment after the first: each had its whole time */
    MG_CHECK(first_closed >= wait);
    MG_CHECK(all_closed > 0 && all_closed <= wait + 1.5);
    MG_CHECK(check_remote_done(rem));
    MG_CHECK_INT(g.records, 1);
    MG_CHECK_INT(g.closed, 1); /* the agent; a stranger never counts as one */
    check_remote_destroy(rem);
    for (int i = 0; i < CHECK_REMOTE_MAX_AGENTS; i++)
        close(strangers[i]);
}

/* The root answers a leaf whose socket is full (a tiny buffer, a reader that takes a little at a
 * time): every COMPLETED frame arrives whole and in order, none dropped or cut, the rest written
 * as the leaf drains its socket. */
static void test_answers_wait_for_a_full_socket(void)
{
    enum { ANSWERS = 5000, WORLD = 4 };
    int sv[2], small = 4096;
    MG_CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0 &&
             setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof small) == 0 &&
             setsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &small, sizeof small) == 0);
    check_remote *rem;
    MG_CHECK_INT(check_remote_create(-1, 1, run_secret, &rem), MG_ERROR_OK);
    MG_CHECK_INT(check_remote_adopt_leaf(rem, sv[0], 0, 1), MG_ERROR_OK);
    uint8_t buf[1024];
    agent_proto_auth_put(buf, run_secret);
    size_t n = AGENT_PROTO_AUTH_SIZE;
    n += hello(buf + n, sizeof buf - n, 0, 1, "leaf", NULL, 0, 0);
    /* the leaf's share, which the answers go by, is known with the world's size */
    n += record_stream_pair(buf + n, sizeof buf - n, AGENT_PROTO_MSG_WORLD, -1, WORLD, 0);
    MG_CHECK(write(sv[1], buf, n) == (ssize_t)n);
    got g = {0};
    check_remote_sink sink = {
        {&g, g_record, g_site, g_end}, g_world, g_state, g_observe, NULL, g_closed, g_share};
    size_t records;
    MG_CHECK_INT(check_remote_poll(rem, &sink, 1000, &records), MG_ERROR_OK);
    /* share 0 of 1: the block of the whole world, told once the world size came */
    MG_CHECK_INT(g.shares, 1);
    MG_CHECK_INT(g.share_n, WORLD);
    static tbon_leaf_call calls[ANSWERS];
    for (int k = 0; k < ANSWERS; k++)
        calls[k] = (tbon_leaf_call){.rank = k % WORLD, .exit_seq = (uint64_t)k};
    check_remote_answer(rem, calls, ANSWERS);
    agent_proto_reader reader;
    agent_proto_reader_init(&reader);
    int heard = 0, in_order = 1;
    for (int rounds = 0; heard < ANSWERS && rounds < 1000000; rounds++) {
        ssize_t got_bytes = recv(sv[1], buf, 700, MSG_DONTWAIT);
        if (got_bytes > 0)
            MG_CHECK_INT(agent_proto_reader_push(&reader, buf, (size_t)got_bytes), MG_ERROR_OK);
        agent_proto_frame f;
        char err[200];
        int rc;
        while ((rc = agent_proto_reader_next(&reader, &f, err, sizeof err)) == 1) {
            int32_t rank, reserved;
            uint64_t seq;
            MG_CHECK_INT(record_stream_parse_pair(&f, &rank, &reserved, &seq), MG_ERROR_OK);
            in_order &= f.type == AGENT_PROTO_MSG_COMPLETED && seq == (uint64_t)heard &&
                        rank == heard % WORLD;
            heard++;
        }
        MG_CHECK_INT(rc, 0); /* no cut frame */
        MG_CHECK_INT(check_remote_poll(rem, &sink, 0, &records), MG_ERROR_OK);
    }
    MG_CHECK_INT(heard, ANSWERS);
    MG_CHECK(in_order);
    agent_proto_reader_free(&reader);
    check_remote_destroy(rem);
    close(sv[1]);
}

/* Writes to fd, as a node's leaf opens its stream, the run's secret, the HELLO of share of shares
 * (ranks[0..n) named, or none) and the world's size; then polls rem until the root told the share
 * to g. */
static void open_leaf(check_remote *rem, int fd, uint32_t share, uint32_t shares,
                      const int32_t *ranks, uint32_t n, int32_t world, got *g)
{
    uint8_t buf[512];
    agent_proto_auth_put(buf, run_secret);
    size_t len = AGENT_PROTO_AUTH_SIZE;
    len += hello(buf + len, sizeof buf - len, share, shares, "n2", ranks, n, n);
    len += record_stream_pair(buf + len, sizeof buf - len, AGENT_PROTO_MSG_WORLD, -1, world, 0);
    MG_CHECK(write(fd, buf, len) == (ssize_t)len);
    check_remote_sink sink = {
        {g, g_record, g_site, g_end}, g_world, g_state, g_observe, NULL, g_closed, g_share};
    size_t records;
    for (int i = 0; i < 50 && !g->shares; i++)
        MG_CHECK_INT(check_remote_poll(rem, &sink, 20, &records), MG_ERROR_OK);
}

/* The next frame the leaf's end of a socket holds: its type, or -1 when none is there. */
static int next_answer(int fd, agent_proto_reader *reader)
{
    uint8_t buf[256];
    ssize_t n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    if (n > 0)
        MG_CHECK_INT(agent_proto_reader_push(reader, buf, (size_t)n), MG_ERROR_OK);
    agent_proto_frame f;
    char err[200];
    return agent_proto_reader_next(reader, &f, err, sizeof err) == 1 ? (int)f.type : -1;
}

/* The root asks a leaf for what it holds (RELEASE) while the job runs, but not once it said
 * NO_MORE: the leaf then sends all it holds and ends, and a RELEASE written to its closed socket
 * failed, warning at a clean job's end that the leaf had stopped taking its answers. */
static void test_no_release_after_no_more(void)
{
    int sv[2];
    MG_CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    check_remote *rem;
    MG_CHECK_INT(check_remote_create(-1, 1, run_secret, &rem), MG_ERROR_OK);
    MG_CHECK_INT(check_remote_adopt_leaf(rem, sv[0], 0, 1), MG_ERROR_OK);
    got g = {0};
    open_leaf(rem, sv[1], 0, 1, NULL, 0, 2, &g);
    agent_proto_reader reader;
    agent_proto_reader_init(&reader);
    check_remote_release(rem);
    MG_CHECK_INT(next_answer(sv[1], &reader), AGENT_PROTO_MSG_RELEASE);
    /* the leaf's children ended, with no answer written to it: the root says NO_MORE */
    uint8_t buf[64];
    size_t n = record_stream_pair(buf, sizeof buf, AGENT_PROTO_MSG_ENDED, -1, 0, 0);
    MG_CHECK(write(sv[1], buf, n) == (ssize_t)n);
    check_remote_sink sink = {
        {&g, g_record, g_site, g_end}, g_world, g_state, g_observe, NULL, g_closed, g_share};
    size_t records;
    MG_CHECK_INT(check_remote_poll(rem, &sink, 1000, &records), MG_ERROR_OK);
    check_remote_answer(rem, NULL, 0);
    MG_CHECK_INT(next_answer(sv[1], &reader), AGENT_PROTO_MSG_NO_MORE);
    check_remote_release(rem);
    MG_CHECK_INT(next_answer(sv[1], &reader), -1);
    agent_proto_reader_free(&reader);
    check_remote_destroy(rem);
    close(sv[1]);
}

/* A job on this node whose ranks came and went between the front's scans of /proc: the rank a
 * share agent's stream ended with its verdict (pid and world) is found all the same, so the run
 * is not taken for one that ended before any rank was found. */
static void test_ranks_found_from_streams(void)
{
    int sv[2];
    MG_CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    job_session job = {.tool = "check"};
    check_feed f = {.job = &job};
    MG_CHECK_INT(site_resolver_create(&f.sites), MG_ERROR_OK);
    MG_CHECK_INT(check_remote_create(-1, 1, run_secret, &f.remote), MG_ERROR_OK);
    MG_CHECK_INT(check_remote_adopt_leaf(f.remote, sv[0], 0, 1), MG_ERROR_OK);
    uint8_t buf[2048], rec[256];
    agent_proto_auth_put(buf, run_secret);
    size_t n = AGENT_PROTO_AUTH_SIZE, rn = encode_recv(rec, sizeof rec);
    n += hello(buf + n, sizeof buf - n, 0, 1, "leaf", NULL, 0, 0);
    n += record_stream_pair(buf + n, sizeof buf - n, AGENT_PROTO_MSG_WORLD, -1, 2, 0);
    n += record_stream_frame(buf + n, sizeof buf - n, AGENT_PROTO_MSG_RECORD, rec, (uint32_t)rn);
    n += record_stream_pair(buf + n, sizeof buf - n, AGENT_PROTO_MSG_END, 1, CHECK_AGENT_FINALIZED, 0);
    record_stream_verdict v = {.rank = 1, .pid = 4242, .world = 2, .cause = RANK_OBSERVE_OK};
    n += record_stream_observe(buf + n, sizeof buf - n, &v);
    MG_CHECK(write(sv[1], buf, n) == (ssize_t)n);
    for (int round = 0; round < 50 && job.found == 0; round++)
        check_feed_drain(&f, 20);
    MG_CHECK(!f.failed);
    MG_CHECK_INT(job.nranks, 2);
    MG_CHECK_INT(job.found, 1);
    MG_CHECK_INT(job.ranks[1].pid, 4242);
    MG_CHECK_INT(job.ranks[0].pid, 0);
    check_remote_destroy(f.remote);
    check_feed_destroy(&f);
    free(job.ranks);
    close(sv[1]);
}

/* A node's leaf names its ranks in its HELLO, whichever they are (round robin: 1 and 4 of 6): the
 * root is told that set once the world size came, and answers a call of rank 4 on that stream; a
 * HELLO whose ranks are not ascending is refused. */
static void test_share_of_a_node(void)
{
    static const int32_t mine[] = {1, 4}, unordered[] = {4, 1};
    uint8_t buf[1024];
    agent_proto_frame f;
    record_stream_hello_fields h;
    size_t len = hello(buf, sizeof buf, 1, 3, "n2", unordered, 2, 2);
    char why[200];
    MG_CHECK_INT(agent_proto_frame_header_get(buf, &f.type, &f.length, why, sizeof why), MG_ERROR_OK);
    f.payload = buf + AGENT_PROTO_FRAME_HEADER;
    MG_CHECK_INT(f.length + AGENT_PROTO_FRAME_HEADER, len);
    MG_CHECK_INT(record_stream_parse_hello(&f, &h, 1), MG_ERROR_EFORMAT);

    int sv[2];
    MG_CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    check_remote *rem;
    MG_CHECK_INT(check_remote_create(-1, 1, run_secret, &rem), MG_ERROR_OK);
    MG_CHECK_INT(check_remote_adopt(rem, sv[0]), MG_ERROR_OK);
    got g = {0};
    open_leaf(rem, sv[1], 1, 3, mine, 2, 6, &g);
    MG_CHECK_INT(g.shares, 1);
    MG_CHECK_INT(g.share_n, 2);
    MG_CHECK_INT(g.share_first, 1);
    MG_CHECK_INT(g.share_last, 4);
    const tbon_leaf_call calls[] = {{3, 7}, {4, 9}}; /* rank 3 is another node's: not told here */
    check_remote_answer(rem, calls, 2);
    agent_proto_reader reader;
    agent_proto_reader_init(&reader);
    ssize_t got_bytes = recv(sv[1], buf, sizeof buf, 0);
    MG_CHECK(got_bytes > 0);
    MG_CHECK_INT(agent_proto_reader_push(&reader, buf, (size_t)got_bytes), MG_ERROR_OK);
    char err[200];
    MG_CHECK_INT(agent_proto_reader_next(&reader, &f, err, sizeof err), 1);
    int32_t rank, reserved;
    uint64_t seq;
    MG_CHECK_INT(record_stream_parse_pair(&f, &rank, &reserved, &seq), MG_ERROR_OK);
    MG_CHECK_INT(f.type, AGENT_PROTO_MSG_COMPLETED);
    MG_CHECK_INT(rank, 4);
    MG_CHECK_INT(seq, 9);
    MG_CHECK_INT(recv(sv[1], buf, sizeof buf, MSG_DONTWAIT), -1); /* nothing for rank 3 */
    agent_proto_reader_free(&reader);
    check_remote_destroy(rem);
    close(sv[1]);
}

/* Two leaves that both name rank 1 in their HELLOs: the root refuses the second claim and the feed
 * stops (a rank streamed twice would be matched twice), with an error naming the rank. */
static void test_rank_claimed_twice(void)
{
    static const int32_t first[] = {0, 1}, second[] = {1, 2};
    const int32_t *shares[] = {first, second};
    int sv[2][2];
    job_session job = {.tool = "check"};
    check_feed f = {.job = &job, .leaves = 2};
    MG_CHECK_INT(site_resolver_create(&f.sites), MG_ERROR_OK);
    MG_CHECK_INT(check_remote_create(-1, 2, run_secret, &f.remote), MG_ERROR_OK);
    for (int k = 0; k < 2; k++) {
        MG_CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv[k]) == 0);
        MG_CHECK_INT(check_remote_adopt(f.remote, sv[k][0]), MG_ERROR_OK);
        uint8_t buf[512];
        agent_proto_auth_put(buf, run_secret);
        size_t n = AGENT_PROTO_AUTH_SIZE;
        n += hello(buf + n, sizeof buf - n, (uint32_t)k, 2, k ? "n2" : "n1", shares[k], 2, 2);
        n += record_stream_pair(buf + n, sizeof buf - n, AGENT_PROTO_MSG_WORLD, -1, 3, 0);
        MG_CHECK(write(sv[k][1], buf, n) == (ssize_t)n);
    }
    for (int round = 0; round < 50 && !f.failed; round++)
        check_feed_drain(&f, 20);
    MG_CHECK(f.failed);
    MG_CHECK_INT(tbon_root_owner(f.answers, 0), 0);
    MG_CHECK_INT(tbon_root_owner(f.answers, 1), 0);
    MG_CHECK_INT(tbon_root_owner(f.answers, 2), -1); /* the refused claim took none */
    check_remote_destroy(f.remote);
    check_feed_destroy(&f);
    free(job.ranks);
    close(sv[0][1]);
    close(sv[1][1]);
}

/* Each node agent's HELLO says how many ranks its launcher started on its node: the detector keeps
 * each joined agent's count (0: not said) and whether its stream closed, from which it knows how
 * many of the job's ranks are still to come (rank_observe_to_come); a count past any job's size is
 * refused. */
static void test_node_counts(void)
{
    uint8_t buf[512];
    agent_proto_frame f;
    record_stream_hello_fields h;
    size_t len = hello(buf, sizeof buf, 0, 0, "n1", NULL, 0, AGENT_PROTO_MAX_WORLD + 1);
    char why[200];
    MG_CHECK_INT(agent_proto_frame_header_get(buf, &f.type, &f.length, why, sizeof why), MG_ERROR_OK);
    f.payload = buf + AGENT_PROTO_FRAME_HEADER;
    MG_CHECK_INT(f.length + AGENT_PROTO_FRAME_HEADER, len);
    MG_CHECK_INT(record_stream_parse_hello(&f, &h, 1), MG_ERROR_EFORMAT);

    int sv[2][2];
    check_remote *rem;
    MG_CHECK_INT(check_remote_create(-1, 0, run_secret, &rem), MG_ERROR_OK);
    for (int k = 0; k < 2; k++) {
        MG_CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv[k]) == 0);
        MG_CHECK_INT(check_remote_adopt(rem, sv[k][0]), MG_ERROR_OK);
        agent_proto_auth_put(buf, run_secret);
        len = AGENT_PROTO_AUTH_SIZE + hello(buf + AGENT_PROTO_AUTH_SIZE, sizeof buf - AGENT_PROTO_AUTH_SIZE, 0, 0,
                                      k ? "n2" : "n1", NULL, 0, k ? 0 : 2);
        MG_CHECK(write(sv[k][1], buf, len) == (ssize_t)len);
    }
    got g = {0};
    check_remote_sink sink = {
        {&g, g_record, g_site, g_end}, g_world, g_state, g_observe, NULL, g_closed, g_share};
    rank_observe_agent agents[CHECK_REMOTE_MAX_AGENTS] = {{0}};
    size_t records;
    for (int i = 0; i < 50 && !agents[0].announced; i++) {
        MG_CHECK_INT(check_remote_poll(rem, &sink, 20, &records), MG_ERROR_OK);
        check_remote_agents(rem, agents);
    }
    MG_CHECK_INT(check_remote_agents(rem, agents), 2);
    MG_CHECK_INT(agents[0].announced, 2);
    MG_CHECK_INT(agents[1].announced, 0); /* its launcher did not say */
    MG_CHECK(!agents[0].gone && !agents[1].gone);
    close(sv[0][1]);
    for (int i = 0; i < 50 && !g.closed; i++)
        MG_CHECK_INT(check_remote_poll(rem, &sink, 20, &records), MG_ERROR_OK);
    check_remote_agents(rem, agents);
    MG_CHECK(agents[0].gone && !agents[1].gone);
    check_remote_destroy(rem);
    close(sv[1][1]);
}

int main(void)
{
    MG_RUN(test_round_trip_byte_by_byte);
    MG_RUN(test_malformed_streams);
    MG_RUN(test_secret);
    MG_RUN(test_fuzzed_frames);
    MG_RUN(test_listener_survives_a_corrupt_agent);
    MG_RUN(test_short_auth_closed_in_time);
    MG_RUN(test_no_release_after_no_more);
    MG_RUN(test_answers_wait_for_a_full_socket);
    MG_RUN(test_ranks_found_from_streams);
    MG_RUN(test_share_of_a_node);
    MG_RUN(test_rank_claimed_twice);
    MG_RUN(test_node_counts);
    MG_TEST_END();
}
