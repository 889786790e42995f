/* The agent -> detector stream (record_stream.h). */
#include "record_stream.h"

#include "mg_array.h"
#include "mg_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
    return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

size_t record_stream_hello(uint8_t *buf, size_t cap, uint32_t share, uint32_t shares)
{
    if (cap < RECORD_STREAM_HELLO_SIZE)
        return 0;
    put32(buf, RECORD_STREAM_MAGIC);
    buf[4] = (uint8_t)RECORD_STREAM_VERSION;
    buf[5] = buf[6] = buf[7] = 0;
    put32(buf + 8, share);
    put32(buf + 12, shares);
    return RECORD_STREAM_HELLO_SIZE;
}

size_t record_stream_frame(uint8_t *buf, size_t cap, uint8_t type, const void *payload,
                           uint32_t length)
{
    if (cap < RECORD_STREAM_FRAME_HEADER || length > cap - RECORD_STREAM_FRAME_HEADER)
        return 0;
    buf[0] = type;
    buf[1] = buf[2] = buf[3] = 0;
    put32(buf + 4, length);
    memcpy(buf + RECORD_STREAM_FRAME_HEADER, payload, length);
    return RECORD_STREAM_FRAME_HEADER + length;
}

size_t record_stream_site(uint8_t *buf, size_t cap, int32_t rank, uint64_t addr,
                          const char *function, const char *file, int32_t line)
{
    uint8_t p[20 + 2 * 1024];
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
    return record_stream_frame(buf, cap, RS_SITE, p, (uint32_t)(20 + fl + il));
}

size_t record_stream_pair(uint8_t *buf, size_t cap, uint8_t type, int32_t rank, int32_t value,
                          uint64_t wide)
{
    uint8_t p[16];
    put32(p, (uint32_t)rank);
    put32(p + 4, (uint32_t)value);
    put64(p + 8, wide);
    return record_stream_frame(buf, cap, type, p, sizeof p);
}

void record_stream_reader_init(record_stream_reader *r)
{
    memset(r, 0, sizeof *r);
}

void record_stream_reader_free(record_stream_reader *r)
{
    free(r->buf);
    memset(r, 0, sizeof *r);
}

int record_stream_reader_push(record_stream_reader *r, const uint8_t *data, size_t n)
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
        if (rc != MG_OK)
            return rc;
    }
    memcpy(r->buf + r->len, data, n);
    r->len += n;
    return MG_OK;
}

int record_stream_reader_next(record_stream_reader *r, rs_frame *out, char *err, size_t errlen)
{
    size_t avail = r->len - r->pos;
    const uint8_t *p = r->buf + r->pos;
    if (!r->hello_seen) {
        if (avail < RECORD_STREAM_HELLO_SIZE)
            return 0;
        if (get32(p) != RECORD_STREAM_MAGIC) {
            snprintf(err, errlen, "not an mpiguard record stream (bad magic)");
            return MG_EFORMAT;
        }
        if (p[4] != RECORD_STREAM_VERSION) {
            snprintf(err, errlen, "record stream version %u, this mpiguard reads %u", p[4],
                     RECORD_STREAM_VERSION);
            return MG_EVERSION;
        }
        r->share = get32(p + 8);
        r->shares = get32(p + 12);
        r->hello_seen = 1;
        r->pos += RECORD_STREAM_HELLO_SIZE;
        return record_stream_reader_next(r, out, err, errlen);
    }
    if (avail < RECORD_STREAM_FRAME_HEADER)
        return 0;
    uint32_t length = get32(p + 4);
    if (p[0] < RS_RECORD || p[0] > RS_WORLD || length > RECORD_STREAM_MAX_FRAME) {
        snprintf(err, errlen, "corrupt record stream at byte %zu (frame type %u, length %u)", r->pos,
                 p[0], length);
        return MG_EFORMAT;
    }
    if (avail - RECORD_STREAM_FRAME_HEADER < length)
        return 0;
    out->type = p[0];
    out->length = length;
    out->payload = p + RECORD_STREAM_FRAME_HEADER;
    r->pos += RECORD_STREAM_FRAME_HEADER + length;
    return 1;
}

int record_stream_reader_partial(const record_stream_reader *r)
{
    return r->len > r->pos;
}

int record_stream_parse_site(const rs_frame *f, int32_t *rank, uint64_t *addr, char *function,
                             size_t function_cap, char *file, size_t file_cap, int32_t *line)
{
    if (f->type != RS_SITE || f->length < 20)
        return MG_EFORMAT;
    const uint8_t *p = f->payload;
    size_t fl = p[16] | (size_t)p[17] << 8, il = p[18] | (size_t)p[19] << 8;
    if (20 + fl + il != f->length || fl >= function_cap || il >= file_cap)
        return MG_EFORMAT;
    *rank = (int32_t)get32(p);
    *line = (int32_t)get32(p + 4);
    *addr = get64(p + 8);
    memcpy(function, p + 20, fl);
    function[fl] = '\0';
    memcpy(file, p + 20 + fl, il);
    file[il] = '\0';
    return MG_OK;
}

int record_stream_parse_pair(const rs_frame *f, int32_t *rank, int32_t *value, uint64_t *wide)
{
    if (f->length != 16 || (f->type != RS_END && f->type != RS_STATE && f->type != RS_WORLD))
        return MG_EFORMAT;
    *rank = (int32_t)get32(f->payload);
    *value = (int32_t)get32(f->payload + 4);
    *wide = get64(f->payload + 8);
    return MG_OK;
}
