/* An MPI-free reference model of the data movement of the collectives of Table V on simulated
 * ranks, used to prove the workaround plans byte for byte (docs/collectives-engine.md §5). Buffers
 * are sparse (a few allocated windows at arbitrary 64-bit offsets) so that layouts whose
 * displacements pass INT_MAX cost only the bytes they move. Every access outside a window is an
 * error. */
#ifndef REF_MODEL_H
#define REF_MODEL_H

#include <stdint.h>

#include "scaling_coll.h"

enum { REF_MAX_WINDOWS = 136 };

typedef struct ref_buf {
    int n;
    int64_t off[REF_MAX_WINDOWS], len[REF_MAX_WINDOWS];
    uint8_t *data[REF_MAX_WINDOWS];
} ref_buf;

/* Adds a window [off, off + len) filled with bytes from seed (len 0 is ignored); windows must be
 * added in increasing, non-overlapping order. Returns 0 or -1 (full, out of order, no memory). */
int ref_buf_add(ref_buf *b, int64_t off, int64_t len, uint64_t seed);
/* Makes dst a deep copy of src. Returns 0 or -1. */
int ref_buf_copy(ref_buf *dst, const ref_buf *src);
void ref_buf_free(ref_buf *b);
/* 1 when a and b have the same windows and bytes. */
int ref_buf_equal(const ref_buf *a, const ref_buf *b);
/* The bytes [off, off + len) when they lie inside one window, else NULL (len 0: a valid pointer).
 */
uint8_t *ref_buf_at(const ref_buf *b, int64_t off, int64_t len);

typedef enum ref_kind { REF_NONE, REF_BUF, REF_IN_PLACE } ref_kind;

typedef struct ref_arg {
    ref_kind kind;
    ref_buf *buf;
    int64_t off; /* bytes */
} ref_arg;

/* One rank's arguments, vectors in 64 bits (the unbroken call uses the true displacements). */
typedef struct ref_call {
    uint64_t elem; /* bytes per element of the call's datatype */
    ref_arg send, recv;
    int64_t send_count, recv_count;
    int64_t send_stride, recv_stride; /* elements between a regular side's blocks (0: the count) */
    const int64_t *counts_a, *displs_a, *counts_b, *displs_b;
    uint32_t root;
} ref_call;

/* Executes collective c over calls[0..P) (rank order of the communicator), as MPI would: checks
 * the root agrees and every message's byte counts match on both sides, reads every contribution
 * before writing (MPI_IN_PLACE semantics), reduces with op_size-byte little-endian integer sums
 * (carries cross bytes, so a split inside an element shows). Returns 0, or -1 on any mismatch or
 * access outside a window (the plan under test is then wrong). */
int ref_collective(scaling_coll c, uint32_t P, const ref_call *calls, uint64_t op_size);

#endif
