/* Framing and encoding of the agent protocol (agent_proto.h). */
#include "agent_proto.h"
#include "wire_bytes_internal.h"

#include "mg_array.h"
#include "mg_error.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

void agent_proto_frame_header_put(uint8_t *out, agent_proto_msg_type type, uint32_t length)
{
    put32(out, AGENT_PROTO_MAGIC);
    out[4] = (uint8_t)AGENT_PROTO_VERSION;
    out[5] = (uint8_t)(AGENT_PROTO_VERSION >> 8);
    out[6] = (uint8_t)type;
    out[7] = 0;
    put32(out + 8, length);
}

int agent_proto_frame_header_get(const uint8_t *p, agent_proto_msg_type *type, uint32_t *length,
                                 char *err, size_t errlen)
{
    unsigned version = p[4] | (unsigned)p[5] << 8;
    *type = (agent_proto_msg_type)p[6];
    *length = get32(p + 8);
    if (get32(p) != AGENT_PROTO_MAGIC) {
        snprintf(err, errlen, "not an mpiguard agent frame (bad magic)");
        return MG_ERROR_EFORMAT;
    }
    if (version != AGENT_PROTO_VERSION) {
        snprintf(err, errlen, "agent protocol version %u, this mpiguard speaks %u", version,
                 AGENT_PROTO_VERSION);
        return MG_ERROR_EVERSION;
    }
    if (p[6] == AGENT_PROTO_MSG_RETIRED_READ_CPU) {
        snprintf(err, errlen,
                 "agent frame type %u is READ_CPU, retired in protocol version 15 (a READ's kind "
                 "asks for the CPU time now)",
                 p[6]);
        return MG_ERROR_EFORMAT;
    }
    if (p[6] < AGENT_PROTO_MSG_HELLO || p[6] >= AGENT_PROTO_MSG_TYPE_END) {
        snprintf(err, errlen, "unknown agent frame type %u", p[6]);
        return MG_ERROR_EFORMAT;
    }
    if (*length > AGENT_PROTO_MAX_FRAME) {
        snprintf(err, errlen,
                 "an agent frame announces %u bytes, more than the %u a frame may hold", *length,
                 AGENT_PROTO_MAX_FRAME);
        return MG_ERROR_EFORMAT;
    }
    return MG_ERROR_OK;
}

int agent_proto_secret_new(uint8_t secret[AGENT_PROTO_SECRET_BYTES])
{
    return getrandom(secret, AGENT_PROTO_SECRET_BYTES, 0) == (ssize_t)AGENT_PROTO_SECRET_BYTES
               ? MG_ERROR_OK
               : MG_ERROR_ESYS;
}

void agent_proto_secret_format(const uint8_t secret[AGENT_PROTO_SECRET_BYTES],
                               char hex[2 * AGENT_PROTO_SECRET_BYTES + 1])
{
    for (unsigned i = 0; i < AGENT_PROTO_SECRET_BYTES; i++)
        snprintf(hex + 2 * i, 3, "%02x", secret[i]);
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int agent_proto_secret_parse(const char *hex, uint8_t secret[AGENT_PROTO_SECRET_BYTES])
{
    if (!hex || strlen(hex) != 2 * AGENT_PROTO_SECRET_BYTES)
        return MG_ERROR_EFORMAT;
    for (unsigned i = 0; i < AGENT_PROTO_SECRET_BYTES; i++) {
        int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return MG_ERROR_EFORMAT;
        secret[i] = (uint8_t)(hi << 4 | lo);
    }
    return MG_ERROR_OK;
}

void agent_proto_auth_put(uint8_t out[AGENT_PROTO_AUTH_SIZE],
                          const uint8_t secret[AGENT_PROTO_SECRET_BYTES])
{
    agent_proto_frame_header_put(out, AGENT_PROTO_MSG_AUTH, AGENT_PROTO_SECRET_BYTES);
    memcpy(out + AGENT_PROTO_FRAME_HEADER, secret, AGENT_PROTO_SECRET_BYTES);
}

int agent_proto_auth_check(const uint8_t got[AGENT_PROTO_AUTH_SIZE],
                           const uint8_t secret[AGENT_PROTO_SECRET_BYTES])
{
    uint8_t want[AGENT_PROTO_AUTH_SIZE], diff = 0;
    agent_proto_auth_put(want, secret);
    /* Every byte is compared whatever came before: the time tells nothing of the secret. */
    for (unsigned i = 0; i < AGENT_PROTO_AUTH_SIZE; i++)
        diff |= (uint8_t)(got[i] ^ want[i]);
    return diff == 0 ? MG_ERROR_OK : MG_ERROR_EPERM;
}

void agent_proto_buf_free(agent_proto_buf *b)
{
    free(b->data);
    *b = (agent_proto_buf){0};
}

static int reserve(agent_proto_buf *b, size_t more)
{
    return mg_array_reserve((void **)&b->data, &b->cap, b->len + more, 1);
}

int agent_proto_put_bytes(agent_proto_buf *b, const void *data, size_t len)
{
    if (reserve(b, len))
        return MG_ERROR_ENOMEM;
    memcpy(b->data + b->len, data, len);
    b->len += len;
    return MG_ERROR_OK;
}

int agent_proto_put_u32(agent_proto_buf *b, uint32_t v)
{
    uint8_t bytes[4];
    put32(bytes, v);
    return agent_proto_put_bytes(b, bytes, sizeof bytes);
}

int agent_proto_put_u64(agent_proto_buf *b, uint64_t v)
{
    return agent_proto_put_u32(b, (uint32_t)v) || agent_proto_put_u32(b, (uint32_t)(v >> 32))
               ? MG_ERROR_ENOMEM
               : MG_ERROR_OK;
}

int agent_proto_frame_begin(agent_proto_buf *b, agent_proto_msg_type type)
{
    uint8_t header[AGENT_PROTO_FRAME_HEADER];
    agent_proto_frame_header_put(header, type, 0);
    b->len = 0;
    return agent_proto_put_bytes(b, header, sizeof header);
}

void agent_proto_frame_finish(agent_proto_buf *b)
{
    put32(b->data + 8, (uint32_t)(b->len - AGENT_PROTO_FRAME_HEADER));
}

int agent_proto_put_reading(agent_proto_buf *b, const agent_proto_reading *r)
{
    uint32_t flags = (uint32_t)r->exited | (uint32_t)r->in_mpi << 1 | (uint32_t)r->progressed << 2 |
                     (uint32_t)r->counter_known << 3 | (uint32_t)r->unseen << 4 |
                     (uint32_t)r->runnable << 5 | (uint32_t)r->stopped << 6 |
                     (uint32_t)r->lost << 7;
    return agent_proto_put_u32(b, (uint32_t)r->rank) || agent_proto_put_u32(b, flags) ||
                   agent_proto_put_u32(b, r->fn) || agent_proto_put_u64(b, r->counter) ||
                   agent_proto_put_u64(b, (uint64_t)r->cpu_time_ns) ||
                   agent_proto_put_u64(b, (uint64_t)r->cpu_slices) ||
                   agent_proto_put_u64(b, (uint64_t)r->held_ns) ||
                   agent_proto_put_u64(b, (uint64_t)r->frozen_ns)
               ? MG_ERROR_ENOMEM
               : MG_ERROR_OK;
}

int agent_proto_put_str(agent_proto_buf *b, const char *s)
{
    size_t len = s ? strlen(s) : 0;
    return agent_proto_put_u32(b, (uint32_t)len) || agent_proto_put_bytes(b, s, len)
               ? MG_ERROR_ENOMEM
               : MG_ERROR_OK;
}

int agent_proto_get_str(agent_proto_cursor *c, char *out, size_t outlen)
{
    uint32_t len;
    if (agent_proto_get_u32(c, &len) || (size_t)(c->end - c->p) < len || outlen == 0)
        return MG_ERROR_EFORMAT;
    size_t copy = len < outlen - 1 ? len : outlen - 1;
    memcpy(out, c->p, copy);
    out[copy] = '\0';
    c->p += len;
    return MG_ERROR_OK;
}

int agent_proto_get_u32(agent_proto_cursor *c, uint32_t *v)
{
    if (c->end - c->p < 4)
        return MG_ERROR_EFORMAT;
    *v = get32(c->p);
    c->p += 4;
    return MG_ERROR_OK;
}

int agent_proto_get_u64(agent_proto_cursor *c, uint64_t *v)
{
    uint32_t lo, hi;
    if (agent_proto_get_u32(c, &lo) || agent_proto_get_u32(c, &hi))
        return MG_ERROR_EFORMAT;
    *v = (uint64_t)hi << 32 | lo;
    return MG_ERROR_OK;
}

int agent_proto_get_reading(agent_proto_cursor *c, agent_proto_reading *r)
{
    uint32_t rank, flags;
    uint64_t cpu_time, cpu_slices, held, frozen;
    if (agent_proto_get_u32(c, &rank) || agent_proto_get_u32(c, &flags) ||
        agent_proto_get_u32(c, &r->fn) || agent_proto_get_u64(c, &r->counter) ||
        agent_proto_get_u64(c, &cpu_time) || agent_proto_get_u64(c, &cpu_slices) ||
        agent_proto_get_u64(c, &held) || agent_proto_get_u64(c, &frozen))
        return MG_ERROR_EFORMAT;
    /* a negative stop would lower the front's cost below what the ranks paid */
    if ((int64_t)held < 0 || (int64_t)frozen < 0)
        return MG_ERROR_EFORMAT;
    r->held_ns = (int64_t)held;
    r->frozen_ns = (int64_t)frozen;
    r->cpu_time_ns = (int64_t)cpu_time;
    r->cpu_slices = (int64_t)cpu_slices;
    r->rank = (int32_t)rank;
    r->exited = flags & 1;
    r->in_mpi = (flags >> 1) & 1;
    r->progressed = (flags >> 2) & 1;
    r->counter_known = (flags >> 3) & 1;
    r->unseen = (flags >> 4) & 1;
    r->runnable = (flags >> 5) & 1;
    r->stopped = (flags >> 6) & 1;
    r->lost = (flags >> 7) & 1;
    return MG_ERROR_OK;
}

/* Writes to a socket whose peer is gone fail with EPIPE instead of raising SIGPIPE, which would
 * end the front with its job unwatched; a pipe is written plainly. */
static ssize_t write_some(int fd, const void *p, size_t len)
{
    ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
    return n < 0 && errno == ENOTSOCK ? write(fd, p, len) : n;
}

static int io_all(int fd, void *data, size_t len, int writing)
{
    uint8_t *p = data;
    while (len > 0) {
        ssize_t n = writing ? write_some(fd, p, len) : read(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return MG_ERROR_EIO;
        p += n;
        len -= (size_t)n;
    }
    return MG_ERROR_OK;
}

int agent_proto_auth_send(int fd, const uint8_t secret[AGENT_PROTO_SECRET_BYTES])
{
    uint8_t frame[AGENT_PROTO_AUTH_SIZE];
    agent_proto_auth_put(frame, secret);
    return io_all(fd, frame, sizeof frame, 1);
}

int agent_proto_auth_recv(int fd, const uint8_t secret[AGENT_PROTO_SECRET_BYTES])
{
    uint8_t got[AGENT_PROTO_AUTH_SIZE];
    if (io_all(fd, got, sizeof got, 0))
        return MG_ERROR_EIO;
    return agent_proto_auth_check(got, secret);
}

void agent_proto_peer_name(int fd, char *out, size_t outlen)
{
    struct sockaddr_storage sa;
    socklen_t len = sizeof sa;
    char host[INET6_ADDRSTRLEN];
    if (getpeername(fd, (struct sockaddr *)&sa, &len) != 0)
        snprintf(out, outlen, "an unknown peer");
    else if (sa.ss_family == AF_INET &&
             inet_ntop(AF_INET, &((struct sockaddr_in *)&sa)->sin_addr, host, sizeof host))
        snprintf(out, outlen, "%s:%u", host, ntohs(((struct sockaddr_in *)&sa)->sin_port));
    else if (sa.ss_family == AF_INET6 &&
             inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&sa)->sin6_addr, host, sizeof host))
        snprintf(out, outlen, "[%s]:%u", host, ntohs(((struct sockaddr_in6 *)&sa)->sin6_port));
    else
        snprintf(out, outlen, sa.ss_family == AF_UNIX ? "a local socket" : "an unknown peer");
}

int agent_proto_send_bytes(int fd, const void *data, size_t len)
{
    return io_all(fd, (void *)data, len, 1);
}

int agent_proto_send(int fd, const agent_proto_buf *b)
{
    return agent_proto_send_bytes(fd, b->data, b->len);
}

int agent_proto_send_queued(int fd, agent_proto_buf *queue)
{
    size_t sent = 0;
    while (sent < queue->len) {
        ssize_t n = send(fd, queue->data + sent, queue->len - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        if (n <= 0)
            return MG_ERROR_EIO;
        sent += (size_t)n;
    }
    memmove(queue->data, queue->data + sent, queue->len - sent);
    queue->len -= sent;
    return MG_ERROR_OK;
}

int agent_proto_recv(int fd, agent_proto_buf *b, agent_proto_msg_type *type,
                     agent_proto_cursor *payload, char *err, size_t errlen)
{
    uint8_t header[AGENT_PROTO_FRAME_HEADER];
    uint32_t n;
    snprintf(err, errlen, "the agent connection ended in the middle of a frame");
    if (io_all(fd, header, sizeof header, 0))
        return MG_ERROR_EIO;
    int rc = agent_proto_frame_header_get(header, type, &n, err, errlen);
    if (rc != MG_ERROR_OK)
        return rc;
    b->len = 0;
    if (reserve(b, n)) {
        snprintf(err, errlen, "no memory for an agent frame of %u bytes", n);
        return MG_ERROR_ENOMEM;
    }
    if (io_all(fd, b->data, n, 0))
        return MG_ERROR_EIO;
    b->len = n;
    *payload = (agent_proto_cursor){b->data, b->data + n};
    return MG_ERROR_OK;
}

void agent_proto_reader_init(agent_proto_reader *r)
{
    *r = (agent_proto_reader){0};
}

void agent_proto_reader_free(agent_proto_reader *r)
{
    free(r->buf);
    *r = (agent_proto_reader){0};
}

int agent_proto_reader_push(agent_proto_reader *r, const uint8_t *data, size_t n)
{
    if (r->pos > 0 && r->pos == r->len)
        r->pos = r->len = 0;
    if (r->len + n > r->cap) {
        /* Consumed bytes go first; then the buffer grows. */
        if (r->buf)
            memmove(r->buf, r->buf + r->pos, r->len - r->pos);
        r->len -= r->pos;
        r->pos = 0;
        int rc = mg_array_reserve((void **)&r->buf, &r->cap, r->len + n, 1);
        if (rc != MG_ERROR_OK)
            return rc;
    }
    memcpy(r->buf + r->len, data, n);
    r->len += n;
    return MG_ERROR_OK;
}

int agent_proto_reader_next(agent_proto_reader *r, agent_proto_frame *out, char *err, size_t errlen)
{
    size_t avail = r->len - r->pos;
    const uint8_t *p = r->buf + r->pos;
    if (avail < AGENT_PROTO_FRAME_HEADER)
        return 0;
    char why[160];
    int rc = agent_proto_frame_header_get(p, &out->type, &out->length, why, sizeof why);
    if (rc != MG_ERROR_OK) {
        snprintf(err, errlen, "at byte %zu of the stream: %s", r->pos, why);
        return rc;
    }
    if (avail - AGENT_PROTO_FRAME_HEADER < out->length)
        return 0;
    out->payload = p + AGENT_PROTO_FRAME_HEADER;
    r->pos += AGENT_PROTO_FRAME_HEADER + out->length;
    return 1;
}

int agent_proto_reader_auth(agent_proto_reader *r, const uint8_t secret[AGENT_PROTO_SECRET_BYTES])
{
    if (r->len - r->pos < AGENT_PROTO_AUTH_SIZE)
        return 0;
    if (agent_proto_auth_check(r->buf + r->pos, secret) != MG_ERROR_OK)
        return MG_ERROR_EPERM;
    r->pos += AGENT_PROTO_AUTH_SIZE;
    return 1;
}

int agent_proto_reader_partial(const agent_proto_reader *r)
{
    return r->len > r->pos;
}
