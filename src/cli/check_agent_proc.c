/* An agent process streaming its ranks' records to the detector (check_agent_proc.h). */
#include "check_agent_proc.h"

#include "check_agent.h"
#include "mg_array.h"
#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"
#include "record_stream.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct agent_out {
    int fd;
    uint8_t *buf;
    size_t len, cap;
    int failed, world_sent;
    const check_agent *agent;
} agent_out;

/* Makes room for n more bytes (the buffer is flushed after each poll). */
static uint8_t *room(agent_out *o, size_t n)
{
    if (mg_array_reserve((void **)&o->buf, &o->cap, o->len + n, 1) != MG_OK) {
        o->failed = 1;
        return NULL;
    }
    return o->buf + o->len;
}

static void put_pair(agent_out *o, agent_msg_type type, int32_t rank, int32_t value, uint64_t wide)
{
    uint8_t *p = room(o, 32);
    if (p)
        o->len += record_stream_pair(p, 32, type, rank, value, wide);
}

static void on_record(void *ctx, const check_event *ev, const uint8_t *bytes, size_t len)
{
    (void)ev;
    agent_out *o = ctx;
    if (!o->world_sent) {
        check_agent_stats st;
        check_agent_stats_get(o->agent, &st);
        put_pair(o, AGENT_MSG_WORLD, -1, st.world_size, 0);
        o->world_sent = 1;
    }
    uint8_t *p = room(o, len + AGENT_FRAME_HEADER);
    if (p)
        o->len += record_stream_frame(p, len + AGENT_FRAME_HEADER, AGENT_MSG_RECORD, bytes,
                                      (uint32_t)len);
}

static void on_site(void *ctx, int rank, uint64_t addr, const site_info *site)
{
    agent_out *o = ctx;
    uint8_t *p = room(o, 2100);
    if (p)
        o->len += record_stream_site(p, 2100, rank, addr, site->function, site->file, site->line);
}

static void on_end(void *ctx, int rank, int end, uint64_t lost)
{
    put_pair(ctx, AGENT_MSG_END, rank, end, lost);
}

static int flush(agent_out *o)
{
    size_t off = 0;
    while (off < o->len) {
        ssize_t n = send(o->fd, o->buf + off, o->len - off, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return MG_EIO;
        off += (size_t)n;
    }
    o->len = 0;
    return MG_OK;
}

static int connect_to(const char *address)
{
    char host[64];
    const char *colon = strrchr(address, ':');
    if (!colon || (size_t)(colon - address) >= sizeof host)
        return -1;
    memcpy(host, address, (size_t)(colon - address));
    host[colon - address] = '\0';
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(colon + 1))};
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || inet_pton(AF_INET, host, &sa.sin_addr) != 1 ||
        connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

/* The detector closed its end (or vanished): nothing more to do. */
static int detector_gone(int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    char c;
    return poll(&p, 1, 0) > 0 && recv(fd, &c, 1, MSG_DONTWAIT) <= 0;
}

int check_agent_proc_run(const char *token, int share, int shares, const char *address,
                         const uint8_t secret[AGENT_SECRET_BYTES])
{
    check_agent *a;
    if (check_agent_create(token, share, shares, &a) != MG_OK) {
        mg_error("check agent: bad share %d/%d or token", share, shares);
        return MG_EXIT_SOFTWARE;
    }
    agent_out o = {.fd = connect_to(address), .agent = a};
    if (o.fd < 0) {
        mg_error("check agent: cannot connect to the detector at %s", address);
        check_agent_destroy(a);
        return MG_EXIT_SOFTWARE;
    }
    uint8_t *p = room(&o, AGENT_AUTH_SIZE);
    if (p) {
        agent_auth_put(p, secret);
        o.len += AGENT_AUTH_SIZE;
    }
    p = room(&o, RECORD_STREAM_HELLO_SIZE);
    if (p)
        o.len += record_stream_hello(p, RECORD_STREAM_HELLO_SIZE, (uint32_t)share,
                                     (uint32_t)shares);
    const check_agent_sink sink = {&o, on_record, on_site, on_end};
    uint64_t *sent_state = NULL;
    int status = 0;
    for (;;) {
        size_t n;
        if (check_agent_poll(a, &sink, 65536, &n) != MG_OK || o.failed) {
            status = MG_EXIT_SOFTWARE;
            break;
        }
        check_agent_stats st;
        check_agent_stats_get(a, &st);
        if (st.world_size && !sent_state && !(sent_state = calloc((size_t)st.world_size, 8))) {
            status = MG_EXIT_SOFTWARE;
            break;
        }
        for (int r = share; sent_state && r < st.world_size; r += shares) {
            uint64_t seq = check_agent_blocked_seq(a, r);
            if (seq != sent_state[r]) {
                put_pair(&o, AGENT_MSG_STATE, r, 0, seq);
                sent_state[r] = seq;
            }
        }
        if (flush(&o) != MG_OK || detector_gone(o.fd)) {
            status = MG_EXIT_SOFTWARE;
            break;
        }
        int owned = st.world_size > share ? (st.world_size - share + shares - 1) / shares : 0;
        if (st.world_size && st.ended == owned)
            break;
        if (n == 0) {
            struct timespec pause = {0, 5000000};
            nanosleep(&pause, NULL);
        }
    }
    free(sent_state);
    free(o.buf);
    close(o.fd);
    check_agent_destroy(a);
    return status;
}
