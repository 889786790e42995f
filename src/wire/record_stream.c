/* The check agent -> detector stream (record_stream.h). */
#include "record_stream.h"
#include "wire_bytes_internal.h"

#include "mg_error.h"

#include <stdlib.h>
#include <string.h>

/* The fixed part of a HELLO's payload: tool, share, shares, node name, node ranks. */
#define HELLO_FIXED (16u + RECORD_STREAM_NODE_NAME)

size_t record_stream_hello(uint8_t *buf, size_t cap, const record_stream_hello_fields *h)
{
    size_t len = HELLO_FIXED + (h->n ? 4 + 4 * (size_t)h->n : 0);
    if (cap < AGENT_PROTO_FRAME_HEADER || len > cap - AGENT_PROTO_FRAME_HEADER)
        return 0;
    uint8_t *p = buf + AGENT_PROTO_FRAME_HEADER;
    memset(p, 0, HELLO_FIXED);
    put32(p, AGENT_PROTO_TOOL_CHECK);
    put32(p + 4, h->share);
    put32(p + 8, h->shares);
    memcpy(p + 12, h->node, strnlen(h->node, RECORD_STREAM_NODE_NAME - 1));
    put32(p + 12 + RECORD_STREAM_NODE_NAME, h->node_ranks);
    if (h->n)
        put32(p + HELLO_FIXED, h->n);
    for (uint32_t i = 0; i < h->n; i++)
        put32(p + HELLO_FIXED + 4 + 4 * i, (uint32_t)h->ranks[i]);
    agent_proto_frame_header_put(buf, AGENT_PROTO_MSG_HELLO, (uint32_t)len);
    return AGENT_PROTO_FRAME_HEADER + len;
}

size_t record_stream_frame(uint8_t *buf, size_t cap, agent_proto_msg_type type, const void *payload,
                           uint32_t length)
{
    if (cap < AGENT_PROTO_FRAME_HEADER || length > cap - AGENT_PROTO_FRAME_HEADER)
        return 0;
    agent_proto_frame_header_put(buf, type, length);
    memcpy(buf + AGENT_PROTO_FRAME_HEADER, payload, length);
    return AGENT_PROTO_FRAME_HEADER + length;
}

size_t record_stream_site(uint8_t *buf, size_t cap, int32_t rank, uint64_t addr,
                          const char *function, const char *file, int32_t line, uint8_t flags)
{
    uint8_t p[21 + 2 * 1024];
    size_t fl = function ? strnlen(function, 1024) : 0, il = file ? strnlen(file, 1024) : 0;
    put32(p, (uint32_t)rank);
    put32(p + 4, (uint32_t)line);
    put64(p + 8, addr);
    p[16] = (uint8_t)fl;
    p[17] = (uint8_t)(fl >> 8);
    p[18] = (uint8_t)il;
    p[19] = (uint8_t)(il >> 8);
    memcpy(p + 20, function ? function : "", fl);
    memcpy(p + 20 + fl, file ? file : "", il);
    p[20 + fl + il] = flags;
    return record_stream_frame(buf, cap, AGENT_PROTO_MSG_SITE, p, (uint32_t)(21 + fl + il));
}

size_t record_stream_pair(uint8_t *buf, size_t cap, agent_proto_msg_type type, int32_t rank,
                          int32_t value, uint64_t wide)
{
    uint8_t p[16];
    put32(p, (uint32_t)rank);
    put32(p + 4, (uint32_t)value);
    put64(p + 8, wide);
    return record_stream_frame(buf, cap, type, p, sizeof p);
}

int record_stream_parse_hello(const agent_proto_frame *f, record_stream_hello_fields *h,
                              int with_ranks)
{
    const size_t fixed = HELLO_FIXED;
    if (f->type != AGENT_PROTO_MSG_HELLO || f->length < fixed ||
        get32(f->payload) != AGENT_PROTO_TOOL_CHECK)
        return MG_ERROR_EFORMAT;
    uint32_t count = f->length > fixed ? get32(f->payload + fixed) : 0;
    uint32_t node_ranks = get32(f->payload + 12 + RECORD_STREAM_NODE_NAME);
    if (f->length != (count ? fixed + 4 + 4 * (size_t)count : fixed) ||
        (f->length > fixed && !count) || count > AGENT_PROTO_MAX_WORLD ||
        node_ranks > AGENT_PROTO_MAX_WORLD)
        return MG_ERROR_EFORMAT;
    int32_t *set = NULL;
    if (count && with_ranks && !(set = malloc((size_t)count * sizeof *set)))
        return MG_ERROR_ENOMEM;
    for (uint32_t i = 0; set && i < count; i++) {
        set[i] = (int32_t)get32(f->payload + fixed + 4 + 4 * i);
        if (set[i] < 0 || (i && set[i] <= set[i - 1])) {
            free(set);
            return MG_ERROR_EFORMAT;
        }
    }
    h->share = get32(f->payload + 4);
    h->shares = get32(f->payload + 8);
    h->node_ranks = node_ranks;
    memcpy(h->node, f->payload + 12, RECORD_STREAM_NODE_NAME - 1);
    h->node[RECORD_STREAM_NODE_NAME - 1] = '\0';
    h->ranks = set;
    h->n = count;
    return MG_ERROR_OK;
}

int record_stream_parse_site(const agent_proto_frame *f, int32_t *rank, uint64_t *addr,
                             char *function, size_t function_cap, char *file, size_t file_cap,
                             int32_t *line, uint8_t *flags)
{
    if (f->type != AGENT_PROTO_MSG_SITE || f->length < 20)
        return MG_ERROR_EFORMAT;
    const uint8_t *p = f->payload;
    size_t fl = p[16] | (size_t)p[17] << 8, il = p[18] | (size_t)p[19] << 8;
    /* an agent older than the flags byte sends none */
    if ((20 + fl + il != f->length && 21 + fl + il != f->length) || fl >= function_cap ||
        il >= file_cap)
        return MG_ERROR_EFORMAT;
    *flags = 21 + fl + il == f->length ? p[20 + fl + il] : 0;
    *rank = (int32_t)get32(p);
    *line = (int32_t)get32(p + 4);
    *addr = get64(p + 8);
    memcpy(function, p + 20, fl);
    function[fl] = '\0';
    memcpy(file, p + 20 + fl, il);
    file[il] = '\0';
    return MG_ERROR_OK;
}

int record_stream_parse_pair(const agent_proto_frame *f, int32_t *rank, int32_t *value,
                             uint64_t *wide)
{
    if (f->length != 16 ||
        (f->type != AGENT_PROTO_MSG_END && f->type != AGENT_PROTO_MSG_STATE &&
         f->type != AGENT_PROTO_MSG_WORLD && f->type != AGENT_PROTO_MSG_COMPLETED &&
         f->type != AGENT_PROTO_MSG_ENDED))
        return MG_ERROR_EFORMAT;
    *rank = (int32_t)get32(f->payload);
    *value = (int32_t)get32(f->payload + 4);
    *wide = get64(f->payload + 8);
    return MG_ERROR_OK;
}

size_t record_stream_observe(uint8_t *buf, size_t cap, const record_stream_verdict *v)
{
    uint8_t p[16 + RECORD_STREAM_DETAIL_MAX];
    size_t len = strnlen(v->detail, RECORD_STREAM_DETAIL_MAX - 1);
    put32(p, (uint32_t)v->rank);
    put32(p + 4, (uint32_t)v->pid);
    put32(p + 8, (uint32_t)v->world);
    put32(p + 12, v->cause);
    memcpy(p + 16, v->detail, len);
    return record_stream_frame(buf, cap, AGENT_PROTO_MSG_OBSERVE, p, (uint32_t)(16 + len));
}

int record_stream_parse_observe(const agent_proto_frame *f, record_stream_verdict *v)
{
    if (f->type != AGENT_PROTO_MSG_OBSERVE || f->length < 16 ||
        f->length - 16 >= RECORD_STREAM_DETAIL_MAX)
        return MG_ERROR_EFORMAT;
    v->rank = (int32_t)get32(f->payload);
    v->pid = (int32_t)get32(f->payload + 4);
    v->world = (int32_t)get32(f->payload + 8);
    v->cause = get32(f->payload + 12);
    memcpy(v->detail, f->payload + 16, f->length - 16);
    v->detail[f->length - 16] = '\0';
    return MG_ERROR_OK;
}

size_t record_stream_summary(uint8_t *buf, size_t cap, int32_t ranks, const uint8_t *record,
                             size_t len)
{
    if (cap < AGENT_PROTO_FRAME_HEADER + 4 || len > cap - AGENT_PROTO_FRAME_HEADER - 4)
        return 0;
    agent_proto_frame_header_put(buf, AGENT_PROTO_MSG_SUMMARY, (uint32_t)(4 + len));
    put32(buf + AGENT_PROTO_FRAME_HEADER, (uint32_t)ranks);
    memcpy(buf + AGENT_PROTO_FRAME_HEADER + 4, record, len);
    return AGENT_PROTO_FRAME_HEADER + 4 + len;
}

int record_stream_parse_summary(const agent_proto_frame *f, int32_t *ranks, const uint8_t **record,
                                size_t *len)
{
    if (f->type != AGENT_PROTO_MSG_SUMMARY || f->length < 4 || (int32_t)get32(f->payload) <= 0)
        return MG_ERROR_EFORMAT;
    *ranks = (int32_t)get32(f->payload);
    *record = f->payload + 4;
    *len = f->length - 4;
    return MG_ERROR_OK;
}
