/* Framing and encoding of the agent protocol (agent_proto.h). */
#include "agent_proto.h"

#include "mg_array.h"
#include "mg_error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void agent_buf_free(agent_buf *b)
{
    free(b->data);
    *b = (agent_buf){0};
}

static int reserve(agent_buf *b, size_t more)
{
    return mg_array_reserve((void **)&b->data, &b->cap, b->len + more, 1);
}

int agent_put_bytes(agent_buf *b, const void *data, size_t len)
{
    if (reserve(b, len))
        return MG_ENOMEM;
    memcpy(b->data + b->len, data, len);
    b->len += len;
    return MG_OK;
}

int agent_put_u32(agent_buf *b, uint32_t v)
{
    uint8_t bytes[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    return agent_put_bytes(b, bytes, sizeof bytes);
}

int agent_put_u64(agent_buf *b, uint64_t v)
{
    return agent_put_u32(b, (uint32_t)v) || agent_put_u32(b, (uint32_t)(v >> 32)) ? MG_ENOMEM : MG_OK;
}

int agent_frame_begin(agent_buf *b, agent_msg_type type)
{
    b->len = 0;
    uint8_t t = (uint8_t)type;
    return agent_put_u32(b, 0) || agent_put_bytes(b, &t, 1) ? MG_ENOMEM : MG_OK;
}

void agent_frame_finish(agent_buf *b)
{
    uint32_t n = (uint32_t)(b->len - 4);
    uint8_t bytes[4] = {(uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16), (uint8_t)(n >> 24)};
    memcpy(b->data, bytes, 4);
}

int agent_put_reading(agent_buf *b, const agent_reading *r)
{
    uint32_t flags = (uint32_t)r->exited | (uint32_t)r->in_mpi << 1 | (uint32_t)r->progressed << 2 |
                     (uint32_t)r->counter_known << 3 | (uint32_t)r->unseen << 4 |
                     (uint32_t)r->runnable << 5 | (uint32_t)r->stopped << 6;
    return agent_put_u32(b, (uint32_t)r->rank) || agent_put_u32(b, flags) ||
                   agent_put_u32(b, r->fn) || agent_put_u64(b, r->counter) ||
                   agent_put_u64(b, (uint64_t)r->cpu_time_ns) ||
                   agent_put_u64(b, (uint64_t)r->cpu_slices)
               ? MG_ENOMEM
               : MG_OK;
}

int agent_put_str(agent_buf *b, const char *s)
{
    size_t len = s ? strlen(s) : 0;
    return agent_put_u32(b, (uint32_t)len) || agent_put_bytes(b, s, len) ? MG_ENOMEM : MG_OK;
}

int agent_get_str(agent_cursor *c, char *out, size_t outlen)
{
    uint32_t len;
    if (agent_get_u32(c, &len) || (size_t)(c->end - c->p) < len || outlen == 0)
        return MG_EFORMAT;
    size_t copy = len < outlen - 1 ? len : outlen - 1;
    memcpy(out, c->p, copy);
    out[copy] = '\0';
    c->p += len;
    return MG_OK;
}

int agent_get_u32(agent_cursor *c, uint32_t *v)
{
    if (c->end - c->p < 4)
        return MG_EFORMAT;
    *v = (uint32_t)c->p[0] | (uint32_t)c->p[1] << 8 | (uint32_t)c->p[2] << 16 | (uint32_t)c->p[3] << 24;
    c->p += 4;
    return MG_OK;
}

int agent_get_u64(agent_cursor *c, uint64_t *v)
{
    uint32_t lo, hi;
    if (agent_get_u32(c, &lo) || agent_get_u32(c, &hi))
        return MG_EFORMAT;
    *v = (uint64_t)hi << 32 | lo;
    return MG_OK;
}

int agent_get_reading(agent_cursor *c, agent_reading *r)
{
    uint32_t rank, flags;
    uint64_t cpu_time, cpu_slices;
    if (agent_get_u32(c, &rank) || agent_get_u32(c, &flags) || agent_get_u32(c, &r->fn) ||
        agent_get_u64(c, &r->counter) || agent_get_u64(c, &cpu_time) ||
        agent_get_u64(c, &cpu_slices))
        return MG_EFORMAT;
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
    return MG_OK;
}

static int io_all(int fd, void *data, size_t len, int writing)
{
    uint8_t *p = data;
    while (len > 0) {
        ssize_t n = writing ? write(fd, p, len) : read(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return MG_EIO;
        p += n;
        len -= (size_t)n;
    }
    return MG_OK;
}

int agent_send(int fd, const agent_buf *b)
{
    return io_all(fd, b->data, b->len, 1);
}

int agent_recv(int fd, agent_buf *b, agent_msg_type *type, agent_cursor *payload)
{
    uint8_t header[4];
    if (io_all(fd, header, 4, 0))
        return MG_EIO;
    uint32_t n = (uint32_t)header[0] | (uint32_t)header[1] << 8 | (uint32_t)header[2] << 16 |
                 (uint32_t)header[3] << 24;
    if (n == 0 || n > AGENT_PROTO_MAX_FRAME)
        return MG_EFORMAT;
    b->len = 0;
    if (reserve(b, n))
        return MG_ENOMEM;
    if (io_all(fd, b->data, n, 0))
        return MG_EIO;
    b->len = n;
    *type = (agent_msg_type)b->data[0];
    *payload = (agent_cursor){b->data + 1, b->data + n};
    return MG_OK;
}
