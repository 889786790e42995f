/* The per-rank shared-memory ring of check event records: written by the capture module inside
 * the rank, drained by the check agent (docs/design/check.md "How it is built"). One writer thread,
 * one reader process. Versioned: a reader rejects another magic, version or header size. Needs no
 * mpi.h; the writer side does no malloc, no stdio and takes no lock. */
#ifndef MG_EVENT_RING_H
#define MG_EVENT_RING_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define EVENT_RING_MAGIC 0x5243474dU /* "MGCR" */
#define EVENT_RING_VERSION 1U
/* Name of the segment for shm_open: "/mpiguard-check-<token>-<rank>". */
#define EVENT_RING_NAME_FORMAT "/mpiguard-check-%s-%d"
#define EVENT_RING_NAME_PREFIX "mpiguard-check-"
/* Data bytes of a ring unless MPIGUARD_RING_BYTES says otherwise (a power of two >= 4 KiB). */
#define EVENT_RING_DEFAULT_BYTES (4u << 20)
#define EVENT_RING_MIN_BYTES 4096u
/* A writer facing a full ring waits while its reader lives and drains; it drops the record (and
 * counts a loss) when the reader is gone or has not drained anything for this long. */
#define EVENT_RING_STALL_NS 5000000000LL
/* At the end of its stream (MPI_Finalize, MPI_Abort) a writer whose reader has not attached yet
 * waits at most this long: the reader reads the rank's module map before it claims the ring
 * (event_ring_claim), and resolves call sites with it, so a short job must not be gone first. */
#define EVENT_RING_FINALIZE_WAIT_NS 2000000000LL
/* Before any reader attached, a writer facing a full ring waits this long in total. */
#define EVENT_RING_ATTACH_NS 10000000000LL

enum event_ring_life {
    EVENT_RING_RUNNING = 0,
    EVENT_RING_FINALIZED = 1, /* the rank entered MPI_Finalize: nothing more will come */
    EVENT_RING_ABORTED = 2    /* the rank called MPI_Abort */
};

/* The segment: this header, then `capacity` data bytes. Each record is a u32 length followed by
 * the encoded check_event, padded to 8 bytes; `head` and `tail` count bytes since creation. */
typedef struct event_ring_header {
    uint32_t magic;
    uint32_t version;
    uint32_t header_size;
    int32_t rank;
    int32_t size; /* MPI_COMM_WORLD size */
    int32_t writer_pid;
    uint64_t capacity;            /* data bytes, a power of two */
    _Atomic int32_t reader_pid;   /* 0 until a reader attached */
    _Atomic uint32_t life;        /* enum event_ring_life */
    _Atomic uint64_t head;        /* bytes written (release-stored after the record) */
    _Atomic uint64_t tail;        /* bytes the reader consumed */
    _Atomic uint64_t lost;        /* records dropped: findings after a loss may be wrong */
    _Atomic uint64_t full_waits;  /* records that had to wait for room */
    _Atomic uint64_t records;     /* records written */
    _Atomic uint64_t in_call_seq; /* seq of the entry record of the call in progress, 0 outside */
    uint8_t reserved[32];
} event_ring_header;

/* The writer's view (inside the rank). */
typedef struct event_ring_writer {
    event_ring_header *hdr;
    uint8_t *data;
    size_t map_size;
    int reader_gone; /* set once the reader was seen dead: later full-ring writes drop at once */
    long long attach_waited_ns;
    char name[160];
} event_ring_writer;

/* Creates (or truncates) the segment of (token, rank) with `capacity` data bytes (rounded up to a
 * power of two, at least EVENT_RING_MIN_BYTES). Errors: MG_ERROR_EINVAL (bad token), MG_ERROR_ESYS
 * (shm_open, ftruncate, mmap; errno kept). Not signal-safe; call once at MPI_Init. */
int event_ring_create(event_ring_writer *w, const char *token, int rank, int size, size_t capacity);
/* Appends one record of len bytes. When the ring is full it waits (see EVENT_RING_STALL_NS);
 * returns MG_ERROR_EFULL after counting a loss when it had to drop the record, MG_ERROR_ERANGE when
 * the record can never fit. Allocation-free, lock-free; one writer thread. */
int event_ring_write(event_ring_writer *w, const void *rec, uint32_t len);
/* Marks the end of the rank's stream (life = FINALIZED or ABORTED), waits for a reader to attach
 * (EVENT_RING_FINALIZE_WAIT_NS at most), and removes the name from
 * /dev/shm once a reader attached (it keeps reading its mapping); before that the name stays for
 * the reader, which removes it. The mapping stays until the process ends. */
void event_ring_close(event_ring_writer *w, uint32_t life);

/* The reader's view (the agent). */
typedef struct event_ring_reader {
    const event_ring_header *hdr;
    event_ring_header *shared; /* the same mapping, writable for reader_pid and tail */
    const uint8_t *data;
    size_t map_size;
} event_ring_reader;

/* Maps the segment of (token, rank), checks magic/version/header/capacity, and records the
 * caller as its reader. Errors: MG_ERROR_ENOENT (not created yet), MG_ERROR_EVERSION (another
 * layout), MG_ERROR_EFORMAT (a capacity that does not fit the segment), MG_ERROR_ESYS. */
int event_ring_open(event_ring_reader *r, const char *token, int rank);
/* As event_ring_open, without recording the caller as the reader: a look at the header (the
 * world size, the writer's pid) by an agent that may not own the ring yet, which must not tell
 * its writer a reader is there. */
int event_ring_peek(event_ring_reader *r, const char *token, int rank);
/* Records the caller as the reader of a ring it peeked at: from then on the writer may end (its
 * end waits for a reader, not longer), so whatever the reader needs from the live process it
 * reads before. */
void event_ring_claim(event_ring_reader *r);
/* Copies the next record into buf[0..cap) and consumes it; *len gets its size. Returns 1 when a
 * record was read, 0 when the ring is empty, MG_ERROR_EFORMAT when the ring is corrupt (a length
 * past what was written or past the capacity), MG_ERROR_ERANGE when the record exceeds cap (it is
 * skipped). */
int event_ring_read(event_ring_reader *r, uint8_t *buf, size_t cap, uint32_t *len);
/* 1 when the writer process is gone (checked with kill(pid, 0)). */
int event_ring_writer_dead(const event_ring_reader *r);
void event_ring_detach(event_ring_reader *r);

#endif
