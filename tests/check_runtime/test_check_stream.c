/* The check agent -> detector TCP stream without MPI: frames round-trip; a stream with a bad magic,
 * another version, an unknown frame type, an absurd length or a truncated frame is refused with a
 * clear error (never a crash, never a read past the data); the detector's listener keeps what was
 * valid and closes only the bad connection (docs/design/check.md). */
#include "check_remote.h"
#include "mg_error.h"
#include "mg_test.h"
#include "record_stream.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

static size_t encode_recv(uint8_t *buf, size_t cap)
{
    check_event ev = {.kind = CHECK_EV_ENTER,
                      .func = CHECK_FN_RECV,
                      .rank = 1,
                      .seq = 1,
                      .comm = CHECK_COMM_WORLD,
                      .peer = 0,
                      .root = CHECK_NO_ROOT};
    size_t n = 0;
    MG_CHECK_INT(check_event_encode(&ev, buf, cap, &n), MG_OK);
    return n;
}

/* hello + record + site + end + state + world into buf; returns its size. */
static size_t good_stream(uint8_t *buf, size_t cap)
{
    uint8_t rec[256];
    size_t n = record_stream_hello(buf, cap, 1, 2), rn = encode_recv(rec, sizeof rec);
    n += record_stream_pair(buf + n, cap - n, AGENT_MSG_WORLD, -1, 2, 0);
    n += record_stream_frame(buf + n, cap - n, AGENT_MSG_RECORD, rec, (uint32_t)rn);
    n += record_stream_site(buf + n, cap - n, 1, 0x401234, "main", "app.c", 12);
    n += record_stream_pair(buf + n, cap - n, AGENT_MSG_STATE, 1, 0, 1);
    n += record_stream_pair(buf + n, cap - n, AGENT_MSG_END, 1, 3, 7);
    return n;
}

static void test_round_trip_byte_by_byte(void)
{
    uint8_t buf[1024];
    size_t n = good_stream(buf, sizeof buf);
    agent_reader r;
    agent_reader_init(&r);
    int frames = 0;
    uint32_t share = 0, shares = 0;
    char err[128];
    for (size_t i = 0; i < n; i++) { /* frames split anywhere still come out whole */
        MG_CHECK_INT(agent_reader_push(&r, buf + i, 1), MG_OK);
        agent_frame f;
        int rc;
        while ((rc = agent_reader_next(&r, &f, err, sizeof err)) == 1) {
            frames++;
            if (f.type == AGENT_MSG_HELLO)
                MG_CHECK_INT(record_stream_parse_hello(&f, &share, &shares), MG_OK);
            if (f.type == AGENT_MSG_SITE) {
                int32_t rank, line;
                uint64_t addr;
                char fn[64], file[64];
                MG_CHECK_INT(record_stream_parse_site(&f, &rank, &addr, fn, sizeof fn, file,
                                                      sizeof file, &line),
                             MG_OK);
                MG_CHECK_STR(fn, "main");
                MG_CHECK_STR(file, "app.c");
                MG_CHECK_INT(line, 12);
                MG_CHECK(addr == 0x401234);
            }
        }
        MG_CHECK_INT(rc, 0);
    }
    MG_CHECK_INT(frames, 6);
    MG_CHECK_INT(share, 1);
    MG_CHECK_INT(shares, 2);
    MG_CHECK(!agent_reader_partial(&r));
    agent_reader_free(&r);
}

static int first_error(const uint8_t *buf, size_t n, char *err, size_t errlen)
{
    agent_reader r;
    agent_reader_init(&r);
    agent_reader_push(&r, buf, n);
    agent_frame f;
    int rc;
    while ((rc = agent_reader_next(&r, &f, err, errlen)) == 1)
        ;
    int partial = agent_reader_partial(&r);
    agent_reader_free(&r);
    return rc == 0 && partial ? 1 : rc;
}

static void test_malformed_streams(void)
{
    uint8_t buf[1024], bad[1024];
    size_t n = good_stream(buf, sizeof buf);
    char err[128] = "";
    memcpy(bad, buf, n);
    bad[0] ^= 0xff;
    MG_CHECK_INT(first_error(bad, n, err, sizeof err), MG_EFORMAT);
    MG_CHECK(strstr(err, "magic") != NULL);
    memcpy(bad, buf, n);
    bad[4] = 9;
    MG_CHECK_INT(first_error(bad, n, err, sizeof err), MG_EVERSION);
    MG_CHECK(strstr(err, "version 9") != NULL);
    memcpy(bad, buf, n);
    bad[RECORD_STREAM_HELLO_SIZE + 6] = 77; /* the second frame's type */
    MG_CHECK_INT(first_error(bad, n, err, sizeof err), MG_EFORMAT);
    MG_CHECK(strstr(err, "type 77") != NULL);
    memcpy(bad, buf, n);
    bad[RECORD_STREAM_HELLO_SIZE + 11] = 0x7f; /* a length of about 2 GB */
    MG_CHECK_INT(first_error(bad, n, err, sizeof err), MG_EFORMAT);
    MG_CHECK(strstr(err, "announces") != NULL);
    MG_CHECK_INT(first_error(buf, n - 3, err, sizeof err), 1); /* truncated: bytes left over */
}

typedef struct got {
    int records, sites, ends, world, states;
} got;

static void g_record(void *c, const check_event *ev, const uint8_t *b, size_t l)
{
    (void)b, (void)l;
    ((got *)c)->records += ev->func == CHECK_FN_RECV;
}
static void g_site(void *c, int rank, uint64_t addr, const site_info *s)
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

static int connect_port(int port)
{
    struct sockaddr_in sa = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)port),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    MG_CHECK(fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0);
    return fd;
}

/* Two agents: one sends a good stream, the other a good record then a corrupt frame. The
 * detector side keeps both records and the good stream's facts, closes the bad connection. */
static void test_listener_survives_a_corrupt_agent(void)
{
    check_remote *rem;
    int port;
    MG_CHECK_INT(check_remote_listen(2, &rem, &port), MG_OK);
    uint8_t buf[1024], rec[256];
    size_t n = good_stream(buf, sizeof buf);
    int a = connect_port(port), b = connect_port(port);
    MG_CHECK(write(a, buf, n) == (ssize_t)n);
    size_t m = record_stream_hello(buf, sizeof buf, 0, 2), rn = encode_recv(rec, sizeof rec);
    m += record_stream_frame(buf + m, sizeof buf - m, AGENT_MSG_RECORD, rec, (uint32_t)rn);
    memcpy(buf + m, "\x09garbage-garbage", 16);
    MG_CHECK(write(b, buf, m + 16) == (ssize_t)(m + 16));
    close(a);
    close(b);
    got g = {0};
    check_remote_sink sink = {{&g, g_record, g_site, g_end}, g_world, g_state};
    for (int i = 0; i < 50 && !check_remote_done(rem); i++) {
        size_t records;
        MG_CHECK_INT(check_remote_poll(rem, &sink, 100, &records), MG_OK);
    }
    MG_CHECK(check_remote_done(rem));
    MG_CHECK_INT(g.records, 2);
    MG_CHECK_INT(g.sites, 1);
    MG_CHECK_INT(g.ends, 1);
    MG_CHECK_INT(g.states, 1);
    MG_CHECK_INT(g.world, 2);
    check_remote_destroy(rem);
}

int main(void)
{
    MG_RUN(test_round_trip_byte_by_byte);
    MG_RUN(test_malformed_streams);
    MG_RUN(test_listener_survives_a_corrupt_agent);
    MG_TEST_END();
}
