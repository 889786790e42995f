/* The one protocol of every agent connection (docs/architecture.md, "The wire layer"): `mpiguard
 * hang`'s requests and answers and `mpiguard check`'s record streams travel as the same frames
 * over TCP, little-endian:
 *   frame   magic u32 ("MGAG"), version u16, type u8, reserved u8, length u32, payload[length]
 *   AUTH    the agent's first frame: the run's secret (AGENT_PROTO_SECRET_BYTES), which the agent
 * gets in its environment (MG_ENV_AGENT_SECRET), never on a command line; the front compares the
 * whole frame in constant time before it reads anything else of the connection HELLO   the agent's
 * second frame: tool u32 (agent_proto_tool), then the tool's own fields A reader checks magic,
 * version, type and the length bound before it allocates or waits for a payload, so garbage or a
 * frame announcing gigabytes is refused with a message naming it. */
#ifndef MG_AGENT_PROTO_H
#define MG_AGENT_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define AGENT_PROTO_MAGIC 0x4741474dU /* the bytes "MGAG" */
#define AGENT_PROTO_VERSION 17U
#define AGENT_PROTO_FRAME_HEADER 12U
/* No payload is larger: a length past it is a corrupt or hostile stream. */
#define AGENT_PROTO_MAX_FRAME (64U << 20)
/* No job is larger: a HELLO or a published wait naming a larger world is corrupt. */
#define AGENT_PROTO_MAX_WORLD (1U << 24)
/* The per-run secret, and the AUTH frame that carries it (header and secret). */
#define AGENT_PROTO_SECRET_BYTES 32U
#define AGENT_PROTO_AUTH_SIZE (AGENT_PROTO_FRAME_HEADER + AGENT_PROTO_SECRET_BYTES)

/* How long a connection to a front is given to send its whole AUTH frame, from when the front
 * took it: an agent sends it as soon as it connected, so only a stranger (or a peer that stalls
 * after a few bytes) is still short of it then, and is closed rather than holding a place. */
#define AGENT_PROTO_AUTH_WAIT_MS 3000

/* How often a check agent says it is alive when it has nothing else to send, seconds. */
#define AGENT_PROTO_ALIVE_EVERY_S 1.0

/* The tool an agent serves, first in its HELLO: a front refuses an agent of another tool. */
typedef enum agent_proto_tool {
    AGENT_PROTO_TOOL_HANG = 1,
    AGENT_PROTO_TOOL_CHECK = 2
} agent_proto_tool;

typedef enum agent_proto_msg_type {
    AGENT_PROTO_MSG_HELLO = 1, /* agent -> front: tool, then (hang) token, world size, owned count,
                            the owned ranks' CPU share in millionths, node name, owned (rank, pid)
                            pairs;
                            (check) share u32, shares u32, node name, the ranks the launcher
                            started on the node (version 17; 0: not known), a leaf's ranks
                            (record_stream.h) */
    /* mpiguard hang (docs/hang.md, "Many nodes"): one request, one answer. */
    AGENT_PROTO_MSG_READ = 2, /* front -> agent: kind u32 (agent_reads_kind), count u32, ranks to
                           read now (all of the agent's ranks a sampling round or scan
                           wants: agent_reads.h) */
    AGENT_PROTO_MSG_READINGS =
        3, /* agent -> front: count u32, one reading per asked rank, in order */
    AGENT_PROTO_MSG_STACKS = 4, /* front -> agent: ranks whose stacks to take */
    AGENT_PROTO_MSG_STACK = 5,  /* agent -> front: one rank's stack as text lines (innermost first),
                             then its published wait (agent_waits.h) */
    AGENT_PROTO_MSG_SIGNAL = 6, /* front -> agent: a signal for every owned rank */
    AGENT_PROTO_MSG_BYE = 7,    /* front -> agent: stop */
    /* READ_CPU up to version 14 (READ's kind says it now): refused at the header, by name */
    AGENT_PROTO_MSG_RETIRED_READ_CPU = 8,
    /* mpiguard check (docs/design/check.md, "How it is built"): a stream, agent -> detector. */
    AGENT_PROTO_MSG_RECORD = 9, /* one encoded check event record */
    AGENT_PROTO_MSG_SITE = 10,  /* rank i32, line i32, addr u64, function length u16, file length
                             u16, strings, flags u8 (RECORD_STREAM_SITE_*; absent: 0) */
    AGENT_PROTO_MSG_END = 11,   /* rank i32, end i32 (check_agent_end), lost u64 */
    AGENT_PROTO_MSG_STATE =
        12, /* rank i32, reserved u32, blocked seq u64 (check_agent_blocked_seq) */
    AGENT_PROTO_MSG_WORLD = 13,   /* world size i32: sent once, before the first record */
    AGENT_PROTO_MSG_AUTH = 14,    /* agent -> front, first: the run's secret */
    AGENT_PROTO_MSG_OBSERVE = 15, /* check, agent -> detector: a verdict on one rank of its node
                               (record_stream.h) */
    AGENT_PROTO_MSG_ALIVE = 16,   /* check, agent -> detector, empty: it sent nothing else for
                               AGENT_PROTO_ALIVE_EVERY_S; a stream that stays silent far longer is
                               lost   (its node or its link is down: no reset ever comes) */
    AGENT_PROTO_MSG_DONE = 17,    /* check, a stage of the tree of detectors -> its parent: the last
                               frame of a stream that ended cleanly (no payload); a stream that
                               closes without it lost its ranks (tbon_stage.h) */
    AGENT_PROTO_MSG_SUMMARY = 18, /* check, tree stage -> parent: ranks u32, then the entry record
                               of the collective they each entered and left (record_stream.h) */
    AGENT_PROTO_MSG_COMPLETED =
        19,                       /* check, tree stage -> the child stage below: rank i32, reserved
                               u32, exit seq u64: its model left the call of that exit, which the
                               child holds the rank's later records behind (tbon_stage.h) */
    AGENT_PROTO_MSG_ENDED = 20,   /* check, tree stage -> parent: reserved i32, reserved i32, the
                               COMPLETED frames it read so far u64. Its children's streams all
                               ended (or said ENDED): what it still holds waits only for the
                               parent's answers; said again after each answer, behind what the
                               answer let go. The parent counts it only when it wrote no answer
                               the stage had not read yet (tbon_stage.h) */
    AGENT_PROTO_MSG_NO_MORE = 21, /* check, parent -> tree stage, empty: every child said ENDED
                               after its last answer and none is left to give; the stage sends what
                               it holds up and ends its stream */
    AGENT_PROTO_MSG_RELEASE = 22, /* check, parent -> tree stage, empty: the root waits for the
                               record of a call a rank published (check_policy_view); the stage
                               sends up every record it holds now, as at its quiet time, and tells
                               its own children */
    AGENT_PROTO_MSG_TYPE_END
} agent_proto_msg_type;

/* Writes a frame header for a payload of length bytes into out[0..AGENT_PROTO_FRAME_HEADER). */
void agent_proto_frame_header_put(uint8_t *out, agent_proto_msg_type type, uint32_t length);
/* Validates the header at p[0..AGENT_PROTO_FRAME_HEADER) and gives its type and payload length.
 * Errors, with err naming the problem: MG_ERROR_EFORMAT (bad magic, unknown type, a length past
 * AGENT_PROTO_MAX_FRAME), MG_ERROR_EVERSION (another version). */
int agent_proto_frame_header_get(const uint8_t *p, agent_proto_msg_type *type, uint32_t *length,
                                 char *err, size_t errlen);

/* A new secret from the system's random source. Errors: MG_ERROR_ESYS. */
int agent_proto_secret_new(uint8_t secret[AGENT_PROTO_SECRET_BYTES]);
/* The secret as 2 * AGENT_PROTO_SECRET_BYTES lowercase hex digits and a NUL, as its variable holds
 * it. */
void agent_proto_secret_format(const uint8_t secret[AGENT_PROTO_SECRET_BYTES],
                               char hex[2 * AGENT_PROTO_SECRET_BYTES + 1]);
/* Parses that text (exactly 2 * AGENT_PROTO_SECRET_BYTES hex digits). Errors: MG_ERROR_EFORMAT. */
int agent_proto_secret_parse(const char *hex, uint8_t secret[AGENT_PROTO_SECRET_BYTES]);
/* Writes the AUTH frame of secret into out. */
void agent_proto_auth_put(uint8_t out[AGENT_PROTO_AUTH_SIZE],
                          const uint8_t secret[AGENT_PROTO_SECRET_BYTES]);
/* Compares the first AGENT_PROTO_AUTH_SIZE bytes a connection sent with the AUTH frame of secret,
 * in time independent of where they differ. Errors: MG_ERROR_EPERM (anything else: a wrong secret,
 * none, or another frame first). */
int agent_proto_auth_check(const uint8_t got[AGENT_PROTO_AUTH_SIZE],
                           const uint8_t secret[AGENT_PROTO_SECRET_BYTES]);
/* Sends the AUTH frame on fd; MG_ERROR_EIO when the peer is gone. */
int agent_proto_auth_send(int fd, const uint8_t secret[AGENT_PROTO_SECRET_BYTES]);
/* Reads the first AGENT_PROTO_AUTH_SIZE bytes of fd and checks them (agent_proto_auth_check):
 * MG_ERROR_OK, MG_ERROR_EPERM, or MG_ERROR_EIO when fewer came (the caller bounds the wait, e.g.
 * with SO_RCVTIMEO). */
int agent_proto_auth_recv(int fd, const uint8_t secret[AGENT_PROTO_SECRET_BYTES]);
/* The peer of the connected socket fd, for a message: "ADDRESS:PORT", or "a local socket" (a
 * socketpair), or "an unknown peer". */
void agent_proto_peer_name(int fd, char *out, size_t outlen);

/* One rank's reading as it travels (rank_probe_reading plus the rank). lost: a relay's answer for a
 * rank whose agent below it is lost, so that the front names the rank not observed rather than
 * reading it as unseen (set with unseen). */
typedef struct agent_proto_reading {
    int32_t rank;
    uint8_t exited, in_mpi, progressed, counter_known, unseen, runnable, stopped, lost;
    uint32_t fn;
    uint64_t counter;
    int64_t cpu_time_ns, cpu_slices; /* -1: unknown or not asked for */
    int64_t held_ns, frozen_ns; /* what this reading stopped the rank for, as rank_probe_reading
                                   accounts it (0 under shm, or when it stopped nothing), so that
                                   the front's monitor cost counts every rank (never negative) */
} agent_proto_reading;

/* A growable byte buffer for building frames. */
typedef struct agent_proto_buf {
    uint8_t *data;
    size_t len, cap;
} agent_proto_buf;

void agent_proto_buf_free(agent_proto_buf *b);
/* Starts a frame of the given type in b (clearing it); the put functions append; finish writes the
 * length. Each returns 0 or MG_ERROR_ENOMEM. */
int agent_proto_frame_begin(agent_proto_buf *b, agent_proto_msg_type type);
int agent_proto_put_u32(agent_proto_buf *b, uint32_t v);
int agent_proto_put_u64(agent_proto_buf *b, uint64_t v);
int agent_proto_put_bytes(agent_proto_buf *b, const void *data, size_t len);
int agent_proto_put_reading(agent_proto_buf *b, const agent_proto_reading *r);
/* A string: u32 length, bytes (no NUL). NULL travels as the empty string. */
int agent_proto_put_str(agent_proto_buf *b, const char *s);
void agent_proto_frame_finish(agent_proto_buf *b);

/* A cursor over a received frame's payload; every get returns 0, or MG_ERROR_EFORMAT past its end.
 */
typedef struct agent_proto_cursor {
    const uint8_t *p, *end;
} agent_proto_cursor;

int agent_proto_get_u32(agent_proto_cursor *c, uint32_t *v);
int agent_proto_get_u64(agent_proto_cursor *c, uint64_t *v);
int agent_proto_get_reading(agent_proto_cursor *c, agent_proto_reading *r);
/* Copies a string into out (cut to outlen - 1 bytes, always NUL-terminated). */
int agent_proto_get_str(agent_proto_cursor *c, char *out, size_t outlen);

/* Sends len bytes on fd, all of them: a short write or an interrupted one goes on where it
 * stopped, so a frame is never cut (a socket's peer gone is MG_ERROR_EIO, not SIGPIPE). Blocks
 * while fd takes no more. MG_ERROR_EIO when the peer is gone. */
int agent_proto_send_bytes(int fd, const void *data, size_t len);
/* Sends a finished frame on fd (agent_proto_send_bytes). MG_ERROR_EIO when the peer is gone. */
int agent_proto_send(int fd, const agent_proto_buf *b);
/* For a sender that must never wait on its reader (the root of the tree of detectors answering a
 * leaf that may itself be blocked writing to it): sends what of queue's frames the socket fd
 * takes now without blocking and keeps the rest at the front of queue, in order, for the next
 * call; a frame cut by a short write goes on from where it stopped. MG_ERROR_OK (queue->len says
 * what is left), MG_ERROR_EIO when the peer is gone (what is queued can no longer go). */
int agent_proto_send_queued(int fd, agent_proto_buf *queue);
/* Receives one frame from fd into b (reallocating only after the header was validated), giving
 * its type and a cursor on its payload. Errors, with err naming the problem: MG_ERROR_EIO (peer
 * gone or short read), MG_ERROR_EFORMAT/MG_ERROR_EVERSION (agent_proto_frame_header_get),
 * MG_ERROR_ENOMEM. */
int agent_proto_recv(int fd, agent_proto_buf *b, agent_proto_msg_type *type,
                     agent_proto_cursor *payload, char *err, size_t errlen);

/* A received frame of a stream, its payload borrowed from the reader until its next call. */
typedef struct agent_proto_frame {
    agent_proto_msg_type type;
    const uint8_t *payload;
    uint32_t length;
} agent_proto_frame;

/* Reading a stream without blocking: bytes go in as they arrive, complete frames come out. */
typedef struct agent_proto_reader {
    uint8_t *buf;
    size_t len, cap, pos;
} agent_proto_reader;

void agent_proto_reader_init(agent_proto_reader *r);
void agent_proto_reader_free(agent_proto_reader *r);
/* Appends n received bytes. Errors: MG_ERROR_ENOMEM. */
int agent_proto_reader_push(agent_proto_reader *r, const uint8_t *data, size_t n);
/* Takes the next complete frame: 1 and *out, 0 when more bytes are needed. Errors as
 * agent_proto_frame_header_get, err also saying at which byte; the stream is unusable after them.
 */
int agent_proto_reader_next(agent_proto_reader *r, agent_proto_frame *out, char *err,
                            size_t errlen);
/* Takes the AUTH frame the stream must begin with: 1 once it came and matched (its bytes consumed),
 * 0 when more bytes are needed, MG_ERROR_EPERM when it does not match (agent_proto_auth_check). */
int agent_proto_reader_auth(agent_proto_reader *r, const uint8_t secret[AGENT_PROTO_SECRET_BYTES]);
/* 1 when bytes of an incomplete frame are left (a truncated stream once the peer closed). */
int agent_proto_reader_partial(const agent_proto_reader *r);

#endif
