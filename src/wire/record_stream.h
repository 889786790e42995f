/* The stream an agent sends the detector over TCP: the same check event records the rings hold,
 * plus the facts only the agent's node knows (resolved call sites, how streams ended, which ranks
 * are still inside their call). Versioned; a reader rejects anything malformed with a clear error
 * and never reads past what it was given. docs/check.md "The runtime".
 *
 * Layout (little-endian): a 16-byte hello {magic "MGTS" u32, version u16, reserved u16, share u32,
 * shares u32}, then frames {type u8, reserved u8[3], length u32, payload[length]}. */
#ifndef MG_RECORD_STREAM_H
#define MG_RECORD_STREAM_H

#include <stddef.h>
#include <stdint.h>

#define RECORD_STREAM_MAGIC 0x5354474Du /* the bytes "MGTS" */
#define RECORD_STREAM_VERSION 1u
#define RECORD_STREAM_HELLO_SIZE 16u
#define RECORD_STREAM_FRAME_HEADER 8u
/* No frame is larger: a length past it is a corrupt stream. */
#define RECORD_STREAM_MAX_FRAME (64u << 20)

enum record_stream_type {
    RS_RECORD = 1, /* one encoded check event record */
    RS_SITE = 2,   /* rank i32, line i32, addr u64, function length u16, file length u16, strings */
    RS_END = 3,    /* rank i32, end i32 (check_agent_end), lost u64 */
    RS_STATE = 4,  /* rank i32, reserved u32, blocked seq u64 (check_agent_blocked_seq) */
    RS_WORLD = 5   /* world size i32: sent once, before the first record */
};

typedef struct rs_frame {
    uint8_t type;
    const uint8_t *payload; /* borrowed from the reader's buffer until the next call */
    uint32_t length;
} rs_frame;

/* Writing: the helpers append to buf[0..cap) and return the bytes written, 0 when it does not fit. */
size_t record_stream_hello(uint8_t *buf, size_t cap, uint32_t share, uint32_t shares);
size_t record_stream_frame(uint8_t *buf, size_t cap, uint8_t type, const void *payload,
                           uint32_t length);
size_t record_stream_site(uint8_t *buf, size_t cap, int32_t rank, uint64_t addr,
                          const char *function, const char *file, int32_t line);
size_t record_stream_pair(uint8_t *buf, size_t cap, uint8_t type, int32_t rank, int32_t value,
                          uint64_t wide);

/* Reading: bytes go in as they arrive, complete frames come out. */
typedef struct record_stream_reader {
    uint8_t *buf;
    size_t len, cap, pos;
    int hello_seen;
    uint32_t share, shares;
} record_stream_reader;

void record_stream_reader_init(record_stream_reader *r);
void record_stream_reader_free(record_stream_reader *r);
/* Appends n received bytes. Errors: MG_ENOMEM. */
int record_stream_reader_push(record_stream_reader *r, const uint8_t *data, size_t n);
/* Takes the next complete frame: 1 and *out, 0 when more bytes are needed. Errors (the stream is
 * unusable after them; err names the problem): MG_EFORMAT (bad magic, unknown type, a length past
 * RECORD_STREAM_MAX_FRAME), MG_EVERSION (another version). */
int record_stream_reader_next(record_stream_reader *r, rs_frame *out, char *err, size_t errlen);
/* 1 when bytes of an incomplete frame are left (a truncated stream once the peer closed). */
int record_stream_reader_partial(const record_stream_reader *r);
/* Reads the fields of RS_SITE / RS_END / RS_STATE / RS_WORLD payloads. Errors: MG_EFORMAT. */
int record_stream_parse_site(const rs_frame *f, int32_t *rank, uint64_t *addr, char *function,
                             size_t function_cap, char *file, size_t file_cap, int32_t *line);
int record_stream_parse_pair(const rs_frame *f, int32_t *rank, int32_t *value, uint64_t *wide);

#endif
