/* Path log encoder and decoder: little-endian, checksummed records after a fixed header
 * (docs/design/concolic-solver.md §2 has the byte layout). */
#include "path_log.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mg_error.h"

static const uint8_t magic[4] = {'M', 'G', 'P', 'L'};

enum record_type { REC_VAR = 1, REC_COMM = 2, REC_BRANCH = 3, REC_COVER = 4, REC_TIME = 5 };

/* type (1) + payload length (4) before the payload, CRC-32 (4) after it */
#define FRAME_HEAD 5
#define FRAME_TAIL 4
#define VAR_PAYLOAD 28
#define COMM_FIXED 8
#define EXPR_FIXED 13
#define TERM_BYTES 12
#define BRANCH_FIXED 8
#define TIME_PAYLOAD 12

void path_log_limits_default(path_log_limits *lim)
{
    lim->max_record_bytes = 1u << 24;
    lim->max_vars = 1u << 16;
    lim->max_comm_size = 1u << 20;
    lim->max_terms = 1u << 16;
    lim->max_branches = 1u << 24;
}

/* CRC-32 (IEEE, reflected), bitwise: records are small and a table would be global state. */
static uint32_t crc32_update(uint32_t crc, const uint8_t *p, size_t n)
{
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int b = 0; b < 8; b++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

/* ---- writing: a cursor that counts past the end so one pass yields the needed size ---- */

typedef struct wbuf {
    uint8_t *p;
    size_t cap, len;
} wbuf;

static void put_bytes(wbuf *w, const void *src, size_t n)
{
    if (w->len + n <= w->cap)
        memcpy(w->p + w->len, src, n);
    w->len += n;
}

static void put_le(wbuf *w, uint64_t v, unsigned bytes)
{
    uint8_t b[8];
    for (unsigned i = 0; i < bytes; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    put_bytes(w, b, bytes);
}

static void put_expr(wbuf *w, const sym_expr *e)
{
    put_le(w, e->num, 1);
    put_le(w, e->nterms, 4);
    put_le(w, (uint64_t)e->constant, 8);
    for (uint32_t i = 0; i < e->nterms; i++) {
        put_le(w, e->terms[i].var, 4);
        put_le(w, (uint64_t)e->terms[i].coef, 8);
    }
}

static size_t expr_bytes(const sym_expr *e)
{
    return EXPR_FIXED + (size_t)e->nterms * TERM_BYTES;
}

static void put_frame_head(wbuf *w, uint8_t type, size_t payload)
{
    put_le(w, type, 1);
    put_le(w, payload, 4);
}

/* Appends the CRC of everything written since `start` and reports the size. */
static int finish(wbuf *w, size_t start, size_t *len)
{
    if (w->len + FRAME_TAIL <= w->cap) {
        uint32_t crc = crc32_update(0, w->p + start, w->len - start);
        put_le(w, crc, 4);
    } else {
        w->len += FRAME_TAIL;
    }
    *len = w->len;
    return w->len > w->cap ? MG_ERROR_EFULL : 0;
}

static int bad_out(const uint8_t *out, size_t cap, const size_t *len, const void *item)
{
    return (!out && cap) || !len || !item;
}

int path_log_put_header(uint8_t *out, size_t cap, size_t *len, const path_log_header *h)
{
    if (bad_out(out, cap, len, h) || (h->kind != PATH_LOG_HEAVY && h->kind != PATH_LOG_LIGHT))
        return MG_ERROR_EINVAL;
    wbuf w = {out, cap, 0};
    put_bytes(&w, magic, sizeof magic);
    put_le(&w, PATH_LOG_VERSION, 2);
    put_le(&w, h->kind, 1);
    put_le(&w, 0, 1);
    put_le(&w, h->build_id, 8);
    put_le(&w, h->run_id, 8);
    put_le(&w, h->rank, 4);
    put_le(&w, h->world_size, 4);
    return finish(&w, 0, len);
}

int path_log_put_var(uint8_t *out, size_t cap, size_t *len, const sym_var *v)
{
    if (bad_out(out, cap, len, v) || sym_var_check(v) != 0)
        return MG_ERROR_EINVAL;
    wbuf w = {out, cap, 0};
    put_frame_head(&w, REC_VAR, VAR_PAYLOAD);
    put_le(&w, v->id, 4);
    put_le(&w, v->kind, 1);
    put_le(&w, v->sort, 1);
    put_le(&w, v->has_cap, 1);
    put_le(&w, 0, 1);
    put_le(&w, (uint64_t)v->cap, 8);
    put_le(&w, v->comm, 4);
    put_le(&w, (uint64_t)v->value, 8);
    return finish(&w, 0, len);
}

int path_log_put_comm(uint8_t *out, size_t cap, size_t *len, const sym_var_comm *c)
{
    if (bad_out(out, cap, len, c) || c->size == 0 || !c->global ||
        c->size > (UINT32_MAX - COMM_FIXED) / 4)
        return MG_ERROR_EINVAL;
    wbuf w = {out, cap, 0};
    put_frame_head(&w, REC_COMM, COMM_FIXED + (size_t)c->size * 4);
    put_le(&w, c->index, 4);
    put_le(&w, c->size, 4);
    for (uint32_t i = 0; i < c->size; i++)
        put_le(&w, c->global[i], 4);
    return finish(&w, 0, len);
}

static int pred_encodable(const sym_expr_pred *p)
{
    unsigned wd = p->width;
    return p->op < SYM_EXPR_OP_END && p->is_unsigned <= 1 &&
           (wd == 0 || wd == 8 || wd == 16 || wd == 32 || wd == 64) &&
           p->lhs.nterms <= UINT32_MAX / 64 && p->rhs.nterms <= UINT32_MAX / 64;
}

int path_log_put_branch(uint8_t *out, size_t cap, size_t *len, const path_log_branch *b)
{
    if (bad_out(out, cap, len, b) || b->branch_id > COVERAGE_SET_MAX_BRANCH || b->taken > 1 ||
        !pred_encodable(&b->pred))
        return MG_ERROR_EINVAL;
    wbuf w = {out, cap, 0};
    put_frame_head(&w, REC_BRANCH,
                   BRANCH_FIXED + expr_bytes(&b->pred.lhs) + expr_bytes(&b->pred.rhs));
    put_le(&w, b->branch_id, 4);
    put_le(&w, b->taken, 1);
    put_le(&w, b->pred.op, 1);
    put_le(&w, b->pred.width, 1);
    put_le(&w, b->pred.is_unsigned, 1);
    put_expr(&w, &b->pred.lhs);
    put_expr(&w, &b->pred.rhs);
    return finish(&w, 0, len);
}

int path_log_put_cover(uint8_t *out, size_t cap, size_t *len, const uint32_t *arms, uint32_t n)
{
    if (bad_out(out, cap, len, arms) || n > (UINT32_MAX - 4) / 4)
        return MG_ERROR_EINVAL;
    wbuf w = {out, cap, 0};
    put_frame_head(&w, REC_COVER, 4 + (size_t)n * 4);
    put_le(&w, n, 4);
    for (uint32_t i = 0; i < n; i++)
        put_le(&w, arms[i], 4);
    return finish(&w, 0, len);
}

int path_log_put_time(uint8_t *out, size_t cap, size_t *len, uint8_t event, uint64_t ns)
{
    if ((!out && cap) || !len || (event != PATH_LOG_STARTED && event != PATH_LOG_ENDED) || !ns)
        return MG_ERROR_EINVAL;
    wbuf w = {out, cap, 0};
    put_frame_head(&w, REC_TIME, TIME_PAYLOAD);
    put_le(&w, event, 1);
    put_le(&w, PATH_LOG_CLOCK_MONOTONIC, 1);
    put_le(&w, 0, 2);
    put_le(&w, ns, 8);
    return finish(&w, 0, len);
}

/* ---- reading: a bounds-checked cursor over one record's payload ---- */

typedef struct rbuf {
    const uint8_t *p;
    size_t len, pos;
    int short_read;
} rbuf;

static uint64_t get_le(rbuf *r, unsigned bytes)
{
    if (r->len - r->pos < bytes) {
        r->short_read = 1;
        r->pos = r->len;
        return 0;
    }
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint64_t)r->p[r->pos + i] << (8 * i);
    r->pos += bytes;
    return v;
}

/* A record is well-formed only if its fields consumed the payload exactly. */
static int payload_done(const rbuf *r)
{
    return !r->short_read && r->pos == r->len ? 0 : MG_ERROR_EFORMAT;
}

/* Grows a dynamic array holding n elements when n reaches its capacity (4, 8, 16, ...). */
static int grow(void **arr, uint32_t n, size_t elem)
{
    if (n != 0 && (n < 4 || (n & (n - 1)) != 0))
        return 0;
    size_t cap = n ? (size_t)n * 2 : 4;
    void *p = realloc(*arr, cap * elem);
    if (!p)
        return MG_ERROR_ENOMEM;
    *arr = p;
    return 0;
}

static int decode_var(rbuf *r, path_log *log, const path_log_limits *lim)
{
    sym_var v;
    v.id = (uint32_t)get_le(r, 4);
    v.kind = (uint8_t)get_le(r, 1);
    v.sort = (uint8_t)get_le(r, 1);
    v.has_cap = (uint8_t)get_le(r, 1);
    uint8_t reserved = (uint8_t)get_le(r, 1);
    v.cap = (int64_t)get_le(r, 8);
    v.comm = (uint32_t)get_le(r, 4);
    v.value = (int64_t)get_le(r, 8);
    if (payload_done(r) != 0 || reserved != 0 || v.id != log->nvars || sym_var_check(&v) != 0)
        return MG_ERROR_EFORMAT;
    if (v.comm != SYM_VAR_NO_COMM && v.comm >= log->ncomms)
        return MG_ERROR_EFORMAT;
    if (log->nvars >= lim->max_vars)
        return MG_ERROR_ERANGE;
    if (grow((void **)&log->vars, log->nvars, sizeof v) != 0)
        return MG_ERROR_ENOMEM;
    log->vars[log->nvars++] = v;
    return 0;
}

static int decode_comm(rbuf *r, path_log *log, const path_log_limits *lim)
{
    sym_var_comm c;
    c.index = (uint32_t)get_le(r, 4);
    c.size = (uint32_t)get_le(r, 4);
    if (r->short_read || c.index != log->ncomms || c.size == 0 ||
        r->len - r->pos != (size_t)c.size * 4)
        return MG_ERROR_EFORMAT;
    if (c.size > lim->max_comm_size || log->ncomms >= lim->max_vars)
        return MG_ERROR_ERANGE;
    c.global = malloc((size_t)c.size * sizeof *c.global);
    if (!c.global)
        return MG_ERROR_ENOMEM;
    for (uint32_t i = 0; i < c.size; i++) {
        c.global[i] = (uint32_t)get_le(r, 4);
        if (c.global[i] >= log->header.world_size) {
            free(c.global);
            return MG_ERROR_EFORMAT;
        }
    }
    if (grow((void **)&log->comms, log->ncomms, sizeof c) != 0) {
        free(c.global);
        return MG_ERROR_ENOMEM;
    }
    log->comms[log->ncomms++] = c;
    return 0;
}

static int decode_expr(rbuf *r, const path_log *log, const path_log_limits *lim, sym_expr *e)
{
    uint8_t num = (uint8_t)get_le(r, 1);
    uint32_t n = (uint32_t)get_le(r, 4);
    int64_t constant = (int64_t)get_le(r, 8);
    if (r->short_read || (size_t)n * TERM_BYTES > r->len - r->pos)
        return MG_ERROR_EFORMAT;
    if (num != SYM_EXPR_NUM_I64 && num != SYM_EXPR_NUM_F64)
        return MG_ERROR_EFORMAT;
    if (n > lim->max_terms)
        return MG_ERROR_ERANGE;
    sym_expr_init_const(e, constant);
    e->num = num;
    if (num == SYM_EXPR_NUM_F64 && !isfinite(e->fconstant))
        return MG_ERROR_EFORMAT;
    if (n == 0)
        return 0;
    e->terms = malloc((size_t)n * sizeof *e->terms);
    if (!e->terms)
        return MG_ERROR_ENOMEM;
    e->nterms = n;
    for (uint32_t i = 0; i < n; i++) {
        e->terms[i].var = (uint32_t)get_le(r, 4);
        e->terms[i].coef = (int64_t)get_le(r, 8);
        if (e->terms[i].var >= log->nvars || e->terms[i].coef == 0 ||
            (num == SYM_EXPR_NUM_F64 && (e->terms[i].fcoef == 0 || !isfinite(e->terms[i].fcoef))) ||
            (i > 0 && e->terms[i].var <= e->terms[i - 1].var))
            return MG_ERROR_EFORMAT;
    }
    return 0;
}

static int decode_branch(rbuf *r, path_log *log, const path_log_limits *lim)
{
    path_log_branch b;
    memset(&b, 0, sizeof b);
    b.branch_id = (uint32_t)get_le(r, 4);
    b.taken = (uint8_t)get_le(r, 1);
    b.pred.op = (uint8_t)get_le(r, 1);
    b.pred.width = (uint8_t)get_le(r, 1);
    b.pred.is_unsigned = (uint8_t)get_le(r, 1);
    if (r->short_read || log->header.kind != PATH_LOG_HEAVY ||
        b.branch_id > COVERAGE_SET_MAX_BRANCH || b.taken > 1 || !pred_encodable(&b.pred))
        return MG_ERROR_EFORMAT;
    if (log->nbranches >= lim->max_branches)
        return MG_ERROR_ERANGE;
    int rc = decode_expr(r, log, lim, &b.pred.lhs);
    if (rc == 0)
        rc = decode_expr(r, log, lim, &b.pred.rhs);
    if (rc == 0)
        rc = payload_done(r);
    if (rc == 0 && (b.pred.lhs.num != b.pred.rhs.num ||
                    (sym_expr_pred_is_float(&b.pred) && (b.pred.width || b.pred.is_unsigned))))
        rc = MG_ERROR_EFORMAT;
    if (rc == 0)
        rc = grow((void **)&log->branches, log->nbranches, sizeof b);
    if (rc != 0) {
        sym_expr_pred_free(&b.pred);
        return rc;
    }
    log->branches[log->nbranches++] = b;
    return 0;
}

static int decode_cover(rbuf *r, path_log *log)
{
    uint32_t n = (uint32_t)get_le(r, 4);
    if (r->short_read || r->len - r->pos != (size_t)n * 4)
        return MG_ERROR_EFORMAT;
    if (n == 0)
        return 0;
    uint32_t *arms = malloc((size_t)n * sizeof *arms);
    if (!arms)
        return MG_ERROR_ENOMEM;
    for (uint32_t i = 0; i < n; i++)
        arms[i] = (uint32_t)get_le(r, 4);
    int rc = coverage_set_add(&log->cover, arms, n);
    free(arms);
    return rc;
}

static int decode_time(rbuf *r, path_log *log)
{
    uint8_t event = (uint8_t)get_le(r, 1), clock = (uint8_t)get_le(r, 1);
    uint16_t reserved = (uint16_t)get_le(r, 2);
    uint64_t ns = get_le(r, 8);
    uint64_t *slot = event == PATH_LOG_STARTED ? &log->started_ns
                     : event == PATH_LOG_ENDED ? &log->ended_ns
                                               : NULL;
    if (payload_done(r) != 0 || log->header.version < 2 || !slot || *slot ||
        clock != PATH_LOG_CLOCK_MONOTONIC || reserved || !ns)
        return MG_ERROR_EFORMAT;
    *slot = ns;
    return 0;
}

static int decode_header(const uint8_t *buf, size_t len, const path_log_expect *expect,
                         path_log_header *h)
{
    if (len < PATH_LOG_HEADER_BYTES || memcmp(buf, magic, sizeof magic) != 0)
        return MG_ERROR_EFORMAT;
    rbuf r = {buf, PATH_LOG_HEADER_BYTES, sizeof magic, 0};
    uint16_t version = (uint16_t)get_le(&r, 2);
    h->kind = (uint8_t)get_le(&r, 1);
    uint8_t reserved = (uint8_t)get_le(&r, 1);
    h->build_id = get_le(&r, 8);
    h->run_id = get_le(&r, 8);
    h->rank = (uint32_t)get_le(&r, 4);
    h->world_size = (uint32_t)get_le(&r, 4);
    uint32_t crc = (uint32_t)get_le(&r, 4);
    if (crc != crc32_update(0, buf, PATH_LOG_HEADER_BYTES - FRAME_TAIL))
        return MG_ERROR_EFORMAT;
    /* The version is checked before anything else it governs. */
    if (version < PATH_LOG_OLDEST_VERSION || version > PATH_LOG_VERSION)
        return MG_ERROR_EVERSION;
    h->version = version;
    if (reserved != 0 || (h->kind != PATH_LOG_HEAVY && h->kind != PATH_LOG_LIGHT))
        return MG_ERROR_EFORMAT;
    if (h->build_id != expect->build_id)
        return MG_ERROR_EVERSION;
    if (expect->run_id != 0 && h->run_id != expect->run_id)
        return MG_ERROR_ESTATE;
    return 0;
}

static int decode_record(uint8_t type, rbuf *r, path_log *log, const path_log_limits *lim)
{
    switch (type) {
    case REC_VAR:
        return decode_var(r, log, lim);
    case REC_COMM:
        return decode_comm(r, log, lim);
    case REC_BRANCH:
        return decode_branch(r, log, lim);
    case REC_COVER:
        return decode_cover(r, log);
    case REC_TIME:
        return decode_time(r, log);
    default:
        return MG_ERROR_EFORMAT;
    }
}

static int decode_body(const uint8_t *buf, size_t len, const path_log_limits *lim, path_log *log)
{
    size_t pos = PATH_LOG_HEADER_BYTES;
    while (pos < len) {
        if (len - pos < FRAME_HEAD) {
            log->truncated = 1;
            return 0;
        }
        uint8_t type = buf[pos];
        rbuf hdr = {buf + pos + 1, 4, 0, 0};
        uint32_t plen = (uint32_t)get_le(&hdr, 4);
        if (plen > lim->max_record_bytes)
            return MG_ERROR_EFORMAT;
        if (len - pos - FRAME_HEAD < (size_t)plen + FRAME_TAIL) {
            log->truncated = 1;
            return 0;
        }
        rbuf tail = {buf + pos + FRAME_HEAD + plen, FRAME_TAIL, 0, 0};
        if ((uint32_t)get_le(&tail, 4) != crc32_update(0, buf + pos, FRAME_HEAD + (size_t)plen))
            return MG_ERROR_EFORMAT;
        rbuf r = {buf + pos + FRAME_HEAD, plen, 0, 0};
        if (log->header.kind == PATH_LOG_LIGHT && type != REC_COVER && type != REC_TIME)
            return MG_ERROR_EFORMAT;
        int rc = decode_record(type, &r, log, lim);
        if (rc != 0)
            return rc;
        pos += FRAME_HEAD + (size_t)plen + FRAME_TAIL;
    }
    return 0;
}

int path_log_decode(const uint8_t *buf, size_t len, const path_log_expect *expect,
                    const path_log_limits *lim, path_log *out)
{
    if (!out)
        return MG_ERROR_EINVAL;
    memset(out, 0, sizeof *out);
    coverage_set_init(&out->cover);
    if ((!buf && len) || !expect)
        return MG_ERROR_EINVAL;
    path_log_limits defaults;
    if (!lim) {
        path_log_limits_default(&defaults);
        lim = &defaults;
    }
    int rc = decode_header(buf, len, expect, &out->header);
    if (rc == 0)
        rc = decode_body(buf, len, lim, out);
    if (rc != 0)
        path_log_free(out);
    return rc;
}

void path_log_free(path_log *log)
{
    if (!log)
        return;
    for (uint32_t i = 0; i < log->ncomms; i++)
        free(log->comms[i].global);
    for (uint32_t i = 0; i < log->nbranches; i++)
        sym_expr_pred_free(&log->branches[i].pred);
    free(log->vars);
    free(log->comms);
    free(log->branches);
    coverage_set_free(&log->cover);
    memset(log, 0, sizeof *log);
    coverage_set_init(&log->cover);
}
