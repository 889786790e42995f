/* Unit tests of the agent protocol (src/wire/agent_proto.h): a reading's every field survives the
 * trip, including an unknown CPU time (-1), the held and frozen times and the runnable, stopped and
 * lost flags, and a cut one or one with a negative held time is refused; so does a published wait
 * (agent_waits.h), every field of it, and none; a frame of the retired READ_CPU type is refused at
 * the header, by name; the frame decoders, fed random, truncated and oversized frames, never
 * crash, never allocate for a length they refuse, and name the problem; a frame sent through short
 * and interrupted writes arrives whole. */
#include "agent_proto.h"
#include "agent_waits.h"
#include "mg_error.h"
#include "mg_rng.h"
#include "mg_test.h"

#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

/* Puts r in a frame and returns a cursor over its payload (after the header). */
static agent_proto_cursor framed(agent_proto_buf *b, const agent_proto_reading *r)
{
    MG_CHECK_INT(agent_proto_frame_begin(b, AGENT_PROTO_MSG_READINGS), MG_ERROR_OK);
    MG_CHECK_INT(agent_proto_put_reading(b, r), MG_ERROR_OK);
    agent_proto_frame_finish(b);
    return (agent_proto_cursor){b->data + AGENT_PROTO_FRAME_HEADER, b->data + b->len};
}

static void reading_round_trip(void)
{
    const agent_proto_reading sent[] = {
        {.rank = 7,
         .exited = 0,
         .in_mpi = 1,
         .progressed = 1,
         .counter_known = 1,
         .unseen = 0,
         .runnable = 1,
         .fn = 42,
         .counter = 0x123456789abcULL,
         .cpu_time_ns = 1234567890123LL,
         .cpu_slices = 98765,
         .held_ns = 0x1234567890LL,
         .frozen_ns = 0x123456789LL},
        {.rank = 0,
         .exited = 1,
         .unseen = 1,
         .stopped = 1,
         .lost = 1,
         .fn = 0,
         .counter = 0,
         .cpu_time_ns = -1,
         .cpu_slices = -1},
    };
    for (size_t i = 0; i < sizeof sent / sizeof *sent; i++) {
        agent_proto_buf b = {0};
        agent_proto_cursor c = framed(&b, &sent[i]);
        agent_proto_reading got;
        MG_CHECK_INT(agent_proto_get_reading(&c, &got), MG_ERROR_OK);
        MG_CHECK_INT(got.rank, sent[i].rank);
        MG_CHECK_INT(got.exited, sent[i].exited);
        MG_CHECK_INT(got.in_mpi, sent[i].in_mpi);
        MG_CHECK_INT(got.progressed, sent[i].progressed);
        MG_CHECK_INT(got.counter_known, sent[i].counter_known);
        MG_CHECK_INT(got.unseen, sent[i].unseen);
        MG_CHECK_INT(got.runnable, sent[i].runnable);
        MG_CHECK_INT(got.stopped, sent[i].stopped);
        MG_CHECK_INT(got.lost, sent[i].lost);
        MG_CHECK_INT((long long)got.fn, (long long)sent[i].fn);
        MG_CHECK(got.counter == sent[i].counter);
        MG_CHECK(got.cpu_time_ns == sent[i].cpu_time_ns);
        MG_CHECK(got.cpu_slices == sent[i].cpu_slices);
        MG_CHECK(got.held_ns == sent[i].held_ns);
        MG_CHECK(got.frozen_ns == sent[i].frozen_ns);
        MG_CHECK(c.p == c.end);
        agent_proto_buf_free(&b);
    }
}

/* Cut anywhere, the held time's last byte included, a reading is refused; so is a negative held
 * or frozen time, which would lower the front's monitor cost. */
static void cut_reading_is_refused(void)
{
    agent_proto_reading r = {.rank = 3, .cpu_time_ns = 5, .held_ns = 9, .frozen_ns = 4}, got;
    agent_proto_buf b = {0};
    agent_proto_cursor whole = framed(&b, &r);
    MG_CHECK_INT((int)(whole.end - whole.p), 52);
    for (const uint8_t *end = whole.p; end < whole.end; end++) {
        agent_proto_cursor c = {whole.p, end};
        MG_CHECK_INT(agent_proto_get_reading(&c, &got), MG_ERROR_EFORMAT);
    }
    for (int which = 0; which < 2; which++) {
        agent_proto_reading bad = r;
        *(which ? &bad.frozen_ns : &bad.held_ns) = -1;
        agent_proto_cursor c = framed(&b, &bad);
        MG_CHECK_INT(agent_proto_get_reading(&c, &got), MG_ERROR_EFORMAT);
    }
    agent_proto_buf_free(&b);
}

/* Receives what bytes[0..n) hold through a pipe that then closes, as agent_proto_recv reads a socket. */
static int recv_bytes(const uint8_t *bytes, size_t n, agent_proto_buf *b, agent_proto_msg_type *type,
                      agent_proto_cursor *c, char *err, size_t errlen)
{
    int fds[2];
    MG_CHECK(pipe(fds) == 0);
    MG_CHECK(write(fds[1], bytes, n) == (ssize_t)n);
    close(fds[1]);
    int rc = agent_proto_recv(fds[0], b, type, c, err, errlen);
    close(fds[0]);
    return rc;
}

/* A rank 2 of 3 in a Waitall on two receives, one from any source on a dup of the world. */
static void waiting_state(rank_state *st)
{
    *st = (rank_state){.magic = RANK_STATE_MAGIC,
                          .version = RANK_STATE_VERSION,
                          .rank = 2,
                          .size = 3,
                          .pid = 77};
    atomic_store(&st->wait_on, RANK_STATE_WAIT_REQUESTS);
    atomic_store(&st->wait_peer, -5);
    atomic_store(&st->wait_tag, 9);
    atomic_store(&st->wait_comm, 0xc0ffee00aa);
    atomic_store(&st->world_collectives, 57);
    atomic_store(&st->posted, 10); /* wrapped: every slot written */
    for (int i = 0; i < 8; i++) {
        atomic_store(&st->posted_peer[i], i % 3 == 2 ? RANK_STATE_PEER_ANY : i % 3);
        atomic_store(&st->posted_tag[i], 100 + i);
        atomic_store(&st->posted_comm[i], 0xd00d0000u + (uint64_t)i);
    }
    atomic_store(&st->world_like[0], 0x44000000);
    atomic_store(&st->world_like[1], 0xd00d0003u);
    atomic_store(&st->world_like_count, 2);
}

/* A frame of the waits of states[0..n) (NULL: nothing published), its payload in *c. */
static void framed_waits(agent_proto_buf *b, const rank_state *const *states, size_t n,
                         agent_proto_cursor *c)
{
    MG_CHECK_INT(agent_proto_frame_begin(b, AGENT_PROTO_MSG_STACK), MG_ERROR_OK);
    for (size_t i = 0; i < n; i++)
        MG_CHECK_INT(agent_waits_put(b, states[i]), MG_ERROR_OK);
    agent_proto_frame_finish(b);
    *c = (agent_proto_cursor){b->data + AGENT_PROTO_FRAME_HEADER, b->data + b->len};
}

static void wait_round_trip(void)
{
    rank_state sent, got;
    waiting_state(&sent);
    agent_proto_buf b = {0};
    agent_proto_cursor c;
    framed_waits(&b, (const rank_state *[]){&sent, NULL}, 2, &c);
    bool published = false;
    MG_CHECK_INT(agent_waits_get(&c, &got, &published), MG_ERROR_OK);
    MG_CHECK(published);
    MG_CHECK_INT(got.magic, RANK_STATE_MAGIC);
    MG_CHECK_INT(got.size, 3);
    MG_CHECK_INT(atomic_load(&got.wait_on), RANK_STATE_WAIT_REQUESTS);
    MG_CHECK_INT(atomic_load(&got.wait_peer), -5);
    MG_CHECK_INT(atomic_load(&got.wait_tag), 9);
    MG_CHECK(atomic_load(&got.wait_comm) == 0xc0ffee00aa);
    MG_CHECK(atomic_load(&got.world_collectives) == 57);
    MG_CHECK_INT(atomic_load(&got.posted), 10);
    for (int i = 0; i < 8; i++) {
        MG_CHECK_INT(atomic_load(&got.posted_peer[i]), i % 3 == 2 ? RANK_STATE_PEER_ANY : i % 3);
        MG_CHECK_INT(atomic_load(&got.posted_tag[i]), 100 + i);
        MG_CHECK(atomic_load(&got.posted_comm[i]) == 0xd00d0000u + (uint64_t)i);
    }
    MG_CHECK_INT(atomic_load(&got.world_like_count), 2);
    MG_CHECK(atomic_load(&got.world_like[1]) == 0xd00d0003u);
    MG_CHECK(atomic_load(&got.world_like[2]) == 0);
    MG_CHECK_INT(agent_waits_get(&c, &got, &published), MG_ERROR_OK);
    MG_CHECK(!published);
    MG_CHECK(c.p == c.end);
    agent_proto_buf_free(&b);
}

/* A wait cut anywhere, of an unknown kind, with too many world-like ids or no world: refused. */
static void bad_wait_is_refused(void)
{
    rank_state sent, got;
    waiting_state(&sent);
    agent_proto_buf b = {0};
    agent_proto_cursor framed;
    framed_waits(&b, (const rank_state *[]){&sent}, 1, &framed);
    const uint8_t *payload = framed.p;
    size_t whole = (size_t)(framed.end - framed.p);
    bool published;
    for (size_t cut = 0; cut < whole; cut++) {
        agent_proto_cursor c = {payload, payload + cut};
        MG_CHECK_INT(agent_waits_get(&c, &got, &published), MG_ERROR_EFORMAT);
    }
    /* by offset: the flag (0), the world size (4: 3 becomes 0; 7: past 2^24), the kind of wait
     * (8), the world-like count after the eight posted slots (168) */
    static const struct {
        size_t at;
        uint8_t value;
    } bad[] = {{0, 2}, {4, 0}, {7, 0x02}, {8, RANK_STATE_WAIT_REQUESTS + 1}, {168, 9}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t copy[512];
        memcpy(copy, payload, whole);
        copy[bad[i].at] = bad[i].value;
        agent_proto_cursor c = {copy, copy + whole};
        MG_CHECK_INT(agent_waits_get(&c, &got, &published), MG_ERROR_EFORMAT);
    }
    agent_proto_buf_free(&b);
}

static void on_alarm(int sig)
{
    (void)sig;
}

/* agent_proto_send_bytes into a socket with a tiny buffer, read slowly by a child, its writes
 * interrupted by a timer every millisecond (each an EINTR or a short write): every byte arrives,
 * in order. */
static void interrupted_writes_send_everything(void)
{
    enum { BYTES = 256 << 10 };
    int sv[2], small = 4096;
    MG_CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0 &&
             setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof small) == 0);
    pid_t reader = fork();
    MG_CHECK(reader >= 0);
    if (reader == 0) {
        close(sv[0]);
        uint8_t chunk[1000];
        size_t at = 0;
        ssize_t n;
        while ((n = read(sv[1], chunk, sizeof chunk)) > 0) {
            for (ssize_t i = 0; i < n; i++, at++)
                if (chunk[i] != (uint8_t)(at * 7))
                    _exit(2);
            usleep(50);
        }
        _exit(at == BYTES ? 0 : 1);
    }
    close(sv[1]);
    static uint8_t data[BYTES];
    for (size_t i = 0; i < BYTES; i++)
        data[i] = (uint8_t)(i * 7);
    struct sigaction sa = {.sa_handler = on_alarm}; /* no SA_RESTART: writes are cut */
    struct itimerval every_ms = {{0, 1000}, {0, 1000}}, off = {{0, 0}, {0, 0}};
    MG_CHECK(sigaction(SIGALRM, &sa, NULL) == 0 && setitimer(ITIMER_REAL, &every_ms, NULL) == 0);
    MG_CHECK_INT(agent_proto_send_bytes(sv[0], data, sizeof data), MG_ERROR_OK);
    MG_CHECK(setitimer(ITIMER_REAL, &off, NULL) == 0);
    close(sv[0]);
    int status;
    MG_CHECK(waitpid(reader, &status, 0) == reader);
    MG_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void blocking_receive_of_whole_and_cut_frames(void)
{
    agent_proto_buf sent = {0}, b = {0};
    MG_CHECK_INT(agent_proto_frame_begin(&sent, AGENT_PROTO_MSG_STACK), MG_ERROR_OK);
    MG_CHECK_INT(agent_proto_put_str(&sent, "MPI_Recv"), MG_ERROR_OK);
    agent_proto_frame_finish(&sent);
    agent_proto_msg_type type;
    agent_proto_cursor c;
    char err[160], text[16];
    MG_CHECK_INT(recv_bytes(sent.data, sent.len, &b, &type, &c, err, sizeof err), MG_ERROR_OK);
    MG_CHECK_INT(type, AGENT_PROTO_MSG_STACK);
    MG_CHECK_INT(agent_proto_get_str(&c, text, sizeof text), MG_ERROR_OK);
    MG_CHECK_STR(text, "MPI_Recv");
    for (size_t cut = 0; cut < sent.len; cut++) {
        MG_CHECK_INT(recv_bytes(sent.data, cut, &b, &type, &c, err, sizeof err), MG_ERROR_EIO);
        MG_CHECK(strstr(err, "middle of a frame") != NULL);
    }
    agent_proto_buf_free(&sent);
    agent_proto_buf_free(&b);
}

/* A frame announcing 2 GB is refused from its header: nothing is allocated, nothing waited for. */
static void oversized_frame_is_refused_before_allocation(void)
{
    uint8_t header[AGENT_PROTO_FRAME_HEADER];
    agent_proto_frame_header_put(header, AGENT_PROTO_MSG_RECORD, 0x80000000u);
    agent_proto_buf b = {0};
    agent_proto_msg_type type;
    agent_proto_cursor c;
    char err[160];
    MG_CHECK_INT(recv_bytes(header, sizeof header, &b, &type, &c, err, sizeof err), MG_ERROR_EFORMAT);
    MG_CHECK(strstr(err, "announces 2147483648 bytes") != NULL);
    MG_CHECK(b.data == NULL);
    agent_proto_reader r;
    agent_proto_reader_init(&r);
    MG_CHECK_INT(agent_proto_reader_push(&r, header, sizeof header), MG_ERROR_OK);
    agent_proto_frame f;
    MG_CHECK_INT(agent_proto_reader_next(&r, &f, err, sizeof err), MG_ERROR_EFORMAT);
    MG_CHECK(strstr(err, "at byte 0") != NULL && strstr(err, "2147483648") != NULL);
    agent_proto_reader_free(&r);
}

/* Another version is named as such, another magic as not ours. */
static void foreign_headers_are_named(void)
{
    uint8_t header[AGENT_PROTO_FRAME_HEADER];
    agent_proto_msg_type type;
    uint32_t length;
    char err[160];
    agent_proto_frame_header_put(header, AGENT_PROTO_MSG_HELLO, 4);
    header[4] = 99;
    MG_CHECK_INT(agent_proto_frame_header_get(header, &type, &length, err, sizeof err), MG_ERROR_EVERSION);
    MG_CHECK(strstr(err, "version 99") != NULL);
    header[0] = 'X';
    MG_CHECK_INT(agent_proto_frame_header_get(header, &type, &length, err, sizeof err), MG_ERROR_EFORMAT);
    MG_CHECK(strstr(err, "magic") != NULL);
}

/* A frame of the retired READ_CPU type is refused at the header, named, before any handler. */
static void retired_type_is_named_at_the_header(void)
{
    uint8_t frame[AGENT_PROTO_FRAME_HEADER + 8];
    agent_proto_msg_type type;
    uint32_t length;
    char err[160] = "";
    agent_proto_frame_header_put(frame, AGENT_PROTO_MSG_RETIRED_READ_CPU, 8);
    memset(frame + AGENT_PROTO_FRAME_HEADER, 0, 8);
    MG_CHECK_INT(agent_proto_frame_header_get(frame, &type, &length, err, sizeof err), MG_ERROR_EFORMAT);
    MG_CHECK(strstr(err, "READ_CPU") != NULL && strstr(err, "retired") != NULL);
    agent_proto_buf b = {0};
    agent_proto_cursor c;
    err[0] = '\0';
    MG_CHECK_INT(recv_bytes(frame, sizeof frame, &b, &type, &c, err, sizeof err), MG_ERROR_EFORMAT);
    MG_CHECK(strstr(err, "READ_CPU") != NULL);
    agent_proto_buf_free(&b);
    agent_proto_reader r;
    agent_proto_reader_init(&r);
    agent_proto_frame f;
    MG_CHECK_INT(agent_proto_reader_push(&r, frame, sizeof frame), MG_ERROR_OK);
    MG_CHECK_INT(agent_proto_reader_next(&r, &f, err, sizeof err), MG_ERROR_EFORMAT);
    MG_CHECK(strstr(err, "READ_CPU") != NULL);
    agent_proto_reader_free(&r);
}

/* Random bytes, and random headers with a valid magic and version, fed in random pieces: the
 * stream reader gives whole frames within the bytes it was given, asks for more, or refuses with
 * a message; it never reads past what it holds (ASan/UBSan run this test too). */
static void random_streams_never_crash(void)
{
    mg_rng rng;
    mg_rng_seed(&rng, 27);
    uint8_t bytes[256];
    int refused = 0, frames = 0;
    for (int round = 0; round < 20000; round++) {
        size_t n = (size_t)mg_rng_below(&rng, sizeof bytes + 1);
        for (size_t i = 0; i < n; i++)
            bytes[i] = (uint8_t)mg_rng_next(&rng);
        if (n >= AGENT_PROTO_FRAME_HEADER && mg_rng_below(&rng, 2))
            agent_proto_frame_header_put(bytes,
                                   (agent_proto_msg_type)mg_rng_below(&rng, AGENT_PROTO_MSG_TYPE_END + 2),
                                   (uint32_t)mg_rng_below(&rng, 2 * n));
        agent_proto_reader r;
        agent_proto_reader_init(&r);
        agent_proto_frame f;
        char err[160] = "";
        int rc = 0;
        for (size_t at = 0; at < n && rc >= 0;) {
            size_t piece = 1 + (size_t)mg_rng_below(&rng, n - at);
            MG_CHECK_INT(agent_proto_reader_push(&r, bytes + at, piece), MG_ERROR_OK);
            at += piece;
            while ((rc = agent_proto_reader_next(&r, &f, err, sizeof err)) == 1) {
                MG_CHECK(f.payload >= r.buf && f.payload + f.length <= r.buf + r.len);
                MG_CHECK(f.type >= AGENT_PROTO_MSG_HELLO && f.type < AGENT_PROTO_MSG_TYPE_END &&
                         f.type != AGENT_PROTO_MSG_RETIRED_READ_CPU);
                frames++;
            }
        }
        if (rc < 0) {
            MG_CHECK(rc == MG_ERROR_EFORMAT || rc == MG_ERROR_EVERSION);
            MG_CHECK(err[0] != '\0');
            refused++;
        }
        agent_proto_reader_free(&r);
    }
    MG_CHECK(refused > 1000 && frames > 1000);
}

int main(void)
{
    MG_RUN(reading_round_trip);
    MG_RUN(cut_reading_is_refused);
    MG_RUN(wait_round_trip);
    MG_RUN(bad_wait_is_refused);
    MG_RUN(interrupted_writes_send_everything);
    MG_RUN(blocking_receive_of_whole_and_cut_frames);
    MG_RUN(oversized_frame_is_refused_before_allocation);
    MG_RUN(foreign_headers_are_named);
    MG_RUN(retired_type_is_named_at_the_header);
    MG_RUN(random_streams_never_crash);
    MG_TEST_END();
}
