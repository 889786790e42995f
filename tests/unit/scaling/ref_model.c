/* The reference model of collective data movement; see ref_model.h. */
#include "ref_model.h"

#include <stdlib.h>
#include <string.h>

int ref_buf_add(ref_buf *b, int64_t off, int64_t len, uint64_t seed)
{
    if (len == 0)
        return 0;
    if (b->n == REF_MAX_WINDOWS || (b->n > 0 && off < b->off[b->n - 1] + b->len[b->n - 1]))
        return -1;
    uint8_t *d = malloc((size_t)len);
    if (!d)
        return -1;
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    for (int64_t i = 0; i < len; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        d[i] = (uint8_t)x;
    }
    b->off[b->n] = off;
    b->len[b->n] = len;
    b->data[b->n++] = d;
    return 0;
}

int ref_buf_copy(ref_buf *dst, const ref_buf *src)
{
    dst->n = 0;
    for (int i = 0; i < src->n; i++) {
        uint8_t *d = malloc((size_t)src->len[i]);
        if (!d) {
            ref_buf_free(dst);
            return -1;
        }
        memcpy(d, src->data[i], (size_t)src->len[i]);
        dst->off[i] = src->off[i];
        dst->len[i] = src->len[i];
        dst->data[i] = d;
        dst->n = i + 1;
    }
    return 0;
}

void ref_buf_free(ref_buf *b)
{
    for (int i = 0; i < b->n; i++)
        free(b->data[i]);
    b->n = 0;
}

int ref_buf_equal(const ref_buf *a, const ref_buf *b)
{
    if (a->n != b->n)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (a->off[i] != b->off[i] || a->len[i] != b->len[i] ||
            memcmp(a->data[i], b->data[i], (size_t)a->len[i]) != 0)
            return 0;
    return 1;
}

uint8_t *ref_buf_at(const ref_buf *b, int64_t off, int64_t len)
{
    static uint8_t empty;
    if (len == 0)
        return &empty;
    if (len < 0 || !b)
        return NULL;
    int lo = 0, hi = b->n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (off < b->off[mid])
            hi = mid - 1;
        else if (off >= b->off[mid] + b->len[mid])
            lo = mid + 1;
        else
            return off + len <= b->off[mid] + b->len[mid] ? b->data[mid] + (off - b->off[mid])
                                                          : NULL;
    }
    return NULL;
}

/* A pending transfer: bytes snapshotted from a source, to be written at a destination. */
typedef struct xfer {
    uint8_t *dst;
    uint8_t *data;
    int64_t len;
} xfer;

typedef struct plan {
    xfer *x;
    int n, cap;
    int bad;
} plan;

static uint8_t *arg_at(const ref_arg *a, int64_t rel, int64_t len)
{
    if (a->kind != REF_BUF)
        return len == 0 ? ref_buf_at(NULL, 0, 0) : NULL;
    return ref_buf_at(a->buf, a->off + rel, len);
}

/* Snapshots len bytes at src to be written to dst. */
static void move(plan *p, const uint8_t *src, uint8_t *dst, int64_t len)
{
    if (!src || !dst) {
        p->bad = 1;
        return;
    }
    if (len == 0)
        return;
    if (p->n == p->cap) {
        int cap = p->cap ? p->cap * 2 : 64;
        xfer *x = realloc(p->x, (size_t)cap * sizeof *x);
        if (!x) {
            p->bad = 1;
            return;
        }
        p->x = x;
        p->cap = cap;
    }
    uint8_t *copy = malloc((size_t)len);
    if (!copy) {
        p->bad = 1;
        return;
    }
    memcpy(copy, src, (size_t)len);
    p->x[p->n++] = (xfer){dst, copy, len};
}

static int finish(plan *p)
{
    for (int i = 0; i < p->n; i++) {
        if (!p->bad)
            memcpy(p->x[i].dst, p->x[i].data, (size_t)p->x[i].len);
        free(p->x[i].data);
    }
    free(p->x);
    return p->bad ? -1 : 0;
}

static void check(plan *p, int ok)
{
    if (!ok)
        p->bad = 1;
}

/* Where block i of a regular side starts, in elements: stride apart, or back to back. */
static int64_t block_at(uint32_t i, int64_t stride, int64_t count)
{
    return (int64_t)i * (stride ? stride : count);
}

/* dst += src over len bytes as op_size-byte little-endian integers (mod 2^(8 op_size)). */
static void add_elems(uint8_t *dst, const uint8_t *src, int64_t len, uint64_t op_size)
{
    for (int64_t e = 0; e + (int64_t)op_size <= len; e += (int64_t)op_size) {
        unsigned carry = 0;
        for (uint64_t b = 0; b < op_size; b++) {
            unsigned v = dst[e + b] + src[e + b] + carry;
            dst[e + b] = (uint8_t)v;
            carry = v >> 8;
        }
    }
}

/* Reduction of len bytes over every rank's input into a fresh buffer. */
static uint8_t *reduce_all(uint32_t P, const ref_call *calls, int64_t len, uint64_t op_size,
                           plan *p)
{
    uint8_t *acc = calloc(1, (size_t)(len ? len : 1));
    if (!acc || len % (int64_t)op_size != 0) {
        p->bad = 1;
        return acc;
    }
    for (uint32_t i = 0; i < P; i++) {
        const ref_arg *in = calls[i].send.kind == REF_IN_PLACE ? &calls[i].recv : &calls[i].send;
        const uint8_t *src = arg_at(in, 0, len);
        if (!src) {
            p->bad = 1;
            return acc;
        }
        add_elems(acc, src, len, op_size);
    }
    return acc;
}

static void rooted(scaling_coll c, uint32_t P, const ref_call *k, plan *p, uint64_t op_size)
{
    uint32_t r = k[0].root;
    for (uint32_t i = 0; i < P; i++)
        check(p, k[i].root == r && k[i].elem == k[0].elem);
    if (p->bad || r >= P)
        return;
    const ref_call *R = &k[r];
    int64_t e = (int64_t)R->elem;
    for (uint32_t i = 0; i < P && c != SCALING_COLL_REDUCE; i++) {
        int self_in_place = i == r &&
                            (R->send.kind == REF_IN_PLACE || R->recv.kind == REF_IN_PLACE);
        switch (c) {
        case SCALING_COLL_BCAST:
            check(p, k[i].recv_count == R->recv_count);
            if (i != r)
                move(p, arg_at(&R->recv, 0, R->recv_count * e),
                     arg_at(&k[i].recv, 0, R->recv_count * e), R->recv_count * e);
            break;
        case SCALING_COLL_GATHER:
        case SCALING_COLL_GATHERV: {
            int64_t cnt = c == SCALING_COLL_GATHER ? R->recv_count : R->counts_a[i];
            int64_t at = c == SCALING_COLL_GATHER ? block_at(i, R->recv_stride, cnt) : R->displs_a[i];
            if (self_in_place)
                break;
            check(p, k[i].send_count == cnt);
            move(p, arg_at(&k[i].send, 0, cnt * e), arg_at(&R->recv, at * e, cnt * e), cnt * e);
            break;
        }
        default: { /* Scatter, Scatterv */
            int64_t cnt = c == SCALING_COLL_SCATTER ? R->send_count : R->counts_a[i];
            int64_t at = c == SCALING_COLL_SCATTER ? block_at(i, R->send_stride, cnt) : R->displs_a[i];
            if (self_in_place)
                break;
            check(p, k[i].recv_count == cnt);
            move(p, arg_at(&R->send, at * e, cnt * e), arg_at(&k[i].recv, 0, cnt * e), cnt * e);
            break;
        }
        }
    }
    if (c == SCALING_COLL_REDUCE) {
        int64_t len = R->send_count * e;
        for (uint32_t i = 0; i < P; i++)
            check(p, k[i].send_count == R->send_count);
        uint8_t *acc = p->bad ? NULL : reduce_all(P, k, len, op_size, p);
        if (acc && !p->bad)
            move(p, acc, arg_at(&R->recv, 0, len), len);
        free(acc);
    }
}

/* The bytes rank i contributes to everyone in Allgather(v): its send, or in place its own block. */
static const uint8_t *allgather_src(scaling_coll c, const ref_call *k, uint32_t i, int64_t len)
{
    if (k[i].send.kind != REF_IN_PLACE)
        return arg_at(&k[i].send, 0, len);
    int64_t at = c == SCALING_COLL_ALLGATHER ? block_at(i, k[i].recv_stride, k[i].recv_count)
                                        : k[i].displs_a[i];
    return arg_at(&k[i].recv, at * (int64_t)k[i].elem, len);
}

static void symmetric(scaling_coll c, uint32_t P, const ref_call *k, plan *p, uint64_t op_size)
{
    /* MPI_IN_PLACE is every rank's or none's in the collectives without a root. */
    for (uint32_t i = 0; i < P; i++)
        check(p, k[i].elem == k[0].elem &&
                     (k[i].send.kind == REF_IN_PLACE) == (k[0].send.kind == REF_IN_PLACE));
    if (p->bad)
        return;
    int64_t e = (int64_t)k[0].elem;
    if (c == SCALING_COLL_ALLREDUCE || c == SCALING_COLL_REDUCE_SCATTER) {
        int64_t len = c == SCALING_COLL_ALLREDUCE ? k[0].send_count : 0;
        for (uint32_t i = 0; c == SCALING_COLL_REDUCE_SCATTER && i < P; i++)
            len += k[0].counts_a[i];
        for (uint32_t i = 0; i < P; i++) {
            if (c == SCALING_COLL_ALLREDUCE)
                check(p, k[i].send_count == len);
            for (uint32_t j = 0; c == SCALING_COLL_REDUCE_SCATTER && j < P; j++)
                check(p, k[i].counts_a[j] == k[0].counts_a[j]);
        }
        len *= e;
        uint8_t *acc = p->bad ? NULL : reduce_all(P, k, len, op_size, p);
        int64_t prefix = 0;
        for (uint32_t i = 0; acc && !p->bad && i < P; i++) {
            int64_t at = c == SCALING_COLL_ALLREDUCE ? 0 : prefix;
            int64_t n = c == SCALING_COLL_ALLREDUCE ? len : k[0].counts_a[i] * e;
            move(p, acc + at, arg_at(&k[i].recv, 0, n), n);
            prefix += n;
        }
        free(acc);
        return;
    }
    for (uint32_t i = 0; i < P; i++) {     /* source rank i */
        for (uint32_t j = 0; j < P; j++) { /* destination rank j */
            int64_t cnt, src_at, dst_at;
            const uint8_t *src;
            switch (c) {
            case SCALING_COLL_ALLGATHER:
            case SCALING_COLL_ALLGATHERV:
                cnt = c == SCALING_COLL_ALLGATHER ? k[j].recv_count : k[j].counts_a[i];
                dst_at = c == SCALING_COLL_ALLGATHER ? block_at(i, k[j].recv_stride, cnt)
                                                : k[j].displs_a[i];
                if (k[i].send.kind != REF_IN_PLACE)
                    check(p, k[i].send_count == cnt);
                if (i == j && k[i].send.kind == REF_IN_PLACE)
                    continue;
                src = allgather_src(c, k, i, cnt * e);
                break;
            case SCALING_COLL_ALLTOALL:
                cnt = k[j].recv_count;
                check(p, k[i].send.kind == REF_IN_PLACE || k[i].send_count == cnt);
                dst_at = block_at(i, k[j].recv_stride, cnt);
                src_at = k[i].send.kind == REF_IN_PLACE ? block_at(j, k[i].recv_stride, cnt)
                                                        : block_at(j, k[i].send_stride, cnt);
                src = arg_at(k[i].send.kind == REF_IN_PLACE ? &k[i].recv : &k[i].send, src_at * e,
                             cnt * e);
                break;
            default: { /* Alltoallv: in place, rank i sends with its receive vector */
                int ip = k[i].send.kind == REF_IN_PLACE;
                const int64_t *sc = ip ? k[i].counts_b : k[i].counts_a;
                const int64_t *sd = ip ? k[i].displs_b : k[i].displs_a;
                cnt = k[j].counts_b[i];
                check(p, sc[j] == cnt);
                dst_at = k[j].displs_b[i];
                src = arg_at(ip ? &k[i].recv : &k[i].send, sd[j] * e, cnt * e);
                break;
            }
            }
            move(p, src, arg_at(&k[j].recv, dst_at * e, cnt * e), cnt * e);
        }
    }
}

int ref_collective(scaling_coll c, uint32_t P, const ref_call *calls, uint64_t op_size)
{
    plan p = {NULL, 0, 0, 0};
    if (P == 0 || op_size == 0)
        return -1;
    if (scaling_coll_get(c)->rooted)
        rooted(c, P, calls, &p, op_size);
    else
        symmetric(c, P, calls, &p, op_size);
    return finish(&p);
}
