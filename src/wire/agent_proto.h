/* The protocol between `mpiguard hang` and its per-node agents (docs/hang.md, "Many nodes"): framed,
 * versioned, little-endian messages over a TCP stream. A frame is u32 length (of what follows), u8
 * type, payload. The same messages serve one node or many. */
#ifndef MG_AGENT_PROTO_H
#define MG_AGENT_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define AGENT_PROTO_MAGIC 0x4741474dU /* "MGAG" */
#define AGENT_PROTO_VERSION 4U
#define AGENT_PROTO_MAX_FRAME (1U << 20)

typedef enum agent_msg_type {
    AGENT_MSG_HELLO = 1,    /* agent -> front: magic, version, token, world size, owned count, the
                               owned ranks' CPU share in millionths, owned (rank, pid) pairs */
    AGENT_MSG_READ = 2,     /* front -> agent: ranks to read now */
    AGENT_MSG_READINGS = 3, /* agent -> front: one reading per asked rank */
    AGENT_MSG_STACKS = 4,   /* front -> agent: ranks whose stacks to take */
    AGENT_MSG_STACK = 5,    /* agent -> front: one rank's stack as text lines (innermost first) */
    AGENT_MSG_SIGNAL = 6,   /* front -> agent: a signal for every owned rank */
    AGENT_MSG_BYE = 7,      /* front -> agent: stop */
    AGENT_MSG_READ_CPU = 8  /* front -> agent: ranks to read now, with their CPU time */
} agent_msg_type;

/* One rank's reading as it travels (mg_probe_reading plus the rank). */
typedef struct agent_reading {
    int32_t rank;
    uint8_t exited, in_mpi, progressed, counter_known, unseen, runnable, stopped;
    uint32_t fn;
    uint64_t counter;
    int64_t cpu_time_ns, cpu_slices; /* -1: unknown or not asked for */
} agent_reading;

/* A growable byte buffer for building frames. */
typedef struct agent_buf {
    uint8_t *data;
    size_t len, cap;
} agent_buf;

void agent_buf_free(agent_buf *b);
/* Starts a frame of the given type in b (clearing it); the put functions append; finish writes the
 * length. Each returns 0 or MG_ENOMEM. */
int agent_frame_begin(agent_buf *b, agent_msg_type type);
int agent_put_u32(agent_buf *b, uint32_t v);
int agent_put_u64(agent_buf *b, uint64_t v);
int agent_put_bytes(agent_buf *b, const void *data, size_t len);
int agent_put_reading(agent_buf *b, const agent_reading *r);
/* A string: u32 length, bytes (no NUL). NULL travels as the empty string. */
int agent_put_str(agent_buf *b, const char *s);
void agent_frame_finish(agent_buf *b);

/* A cursor over a received frame's payload; every get returns 0, or MG_EFORMAT past its end. */
typedef struct agent_cursor {
    const uint8_t *p, *end;
} agent_cursor;

int agent_get_u32(agent_cursor *c, uint32_t *v);
int agent_get_u64(agent_cursor *c, uint64_t *v);
int agent_get_reading(agent_cursor *c, agent_reading *r);
/* Copies a string into out (cut to outlen - 1 bytes, always NUL-terminated). */
int agent_get_str(agent_cursor *c, char *out, size_t outlen);

/* Sends a finished frame on fd (all of it). MG_EIO when the peer is gone. */
int agent_send(int fd, const agent_buf *b);
/* Receives one frame from fd into b (reallocating), giving its type and a cursor on its payload.
 * MG_EIO (peer gone or short read), MG_EFORMAT (frame over AGENT_PROTO_MAX_FRAME or empty). */
int agent_recv(int fd, agent_buf *b, agent_msg_type *type, agent_cursor *payload);

#endif
