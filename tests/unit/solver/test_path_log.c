/* Unit tests of the path log codec: round trip, incremental cuts, version/build/run checks,
 * malformed input, and a fuzz test (random bytes, bit flips, truncations) meant for ASan
 * (docs/design/concolic-solver.md §2). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mg_error.h"
#include "mg_rng.h"
#include "mg_test.h"
#include "path_log.h"

#define BUILD 0x1122334455667788ull
#define RUN 42
#define BUF_BYTES 4096
#define FUZZ_ROUNDS 3000

typedef struct logbuf {
    uint8_t b[BUF_BYTES];
    size_t len;
    size_t ends[16]; /* end offset of each record, header first */
    int nrec;
} logbuf;

/* Records a successful put; n is read after the call that set it (arguments are evaluated
 * before the body runs). */
static void appended(logbuf *l, int rc, const size_t *n)
{
    MG_CHECK_INT(rc, 0);
    l->len += *n;
    l->ends[l->nrec++] = l->len;
}

static void put_header(logbuf *l, uint8_t kind)
{
    path_log_header h = {kind, BUILD, RUN, 2, 4, PATH_LOG_VERSION};
    size_t n;
    appended(l, path_log_put_header(l->b + l->len, BUF_BYTES - l->len, &n, &h), &n);
}

/* A heavy log: world rank r (=2), world size s (=4), input x (cap 50), a communicator of size 2
 * mapping locals {0,1} to globals {2,3}, the focus's rank y in it; branches x < 10 (taken),
 * x + 3*r >= 1 (not taken), y == 0; and a coverage record. */
static void build_heavy(logbuf *l)
{
    memset(l, 0, sizeof *l);
    put_header(l, PATH_LOG_HEAVY);
    size_t n;
    sym_var vars[4] = {
        {0, SYM_VAR_RANK_WORLD, SYM_VAR_SORT_INT, 0, 0, SYM_VAR_NO_COMM, 2},
        {1, SYM_VAR_SIZE_WORLD, SYM_VAR_SORT_INT, 0, 0, SYM_VAR_NO_COMM, 4},
        {2, SYM_VAR_INT, SYM_VAR_SORT_INT, 1, 50, SYM_VAR_NO_COMM, 7},
        {3, SYM_VAR_RANK_COMM, SYM_VAR_SORT_INT, 0, 0, 0, 0},
    };
    for (int i = 0; i < 3; i++)
        appended(l, path_log_put_var(l->b + l->len, BUF_BYTES - l->len, &n, &vars[i]), &n);
    uint32_t globals[2] = {2, 3};
    sym_var_comm c = {0, 2, globals};
    appended(l, path_log_put_comm(l->b + l->len, BUF_BYTES - l->len, &n, &c), &n);
    appended(l, path_log_put_var(l->b + l->len, BUF_BYTES - l->len, &n, &vars[3]), &n);
    sym_expr x, r, lhs, k;
    sym_expr_init_var(&x, 2, 1);
    sym_expr_init_var(&r, 0, 3);
    sym_expr_add(&lhs, &x, &r);
    path_log_branch b = {5, 1, {0}};
    sym_expr_init_const(&k, 10);
    sym_expr_pred_make(&b.pred, &x, SYM_EXPR_LT, &k, 32, 0);
    appended(l, path_log_put_branch(l->b + l->len, BUF_BYTES - l->len, &n, &b), &n);
    sym_expr_pred_free(&b.pred);
    b.branch_id = 6;
    b.taken = 0;
    sym_expr_init_const(&k, 1);
    sym_expr_pred_make(&b.pred, &lhs, SYM_EXPR_LT, &k, 64, 1);
    appended(l, path_log_put_branch(l->b + l->len, BUF_BYTES - l->len, &n, &b), &n);
    sym_expr_pred_free(&b.pred);
    sym_expr y;
    sym_expr_init_var(&y, 3, 1);
    sym_expr_init_const(&k, 0);
    b.branch_id = 9;
    b.taken = 1;
    sym_expr_pred_make(&b.pred, &y, SYM_EXPR_EQ, &k, 0, 0);
    appended(l, path_log_put_branch(l->b + l->len, BUF_BYTES - l->len, &n, &b), &n);
    sym_expr_pred_free(&b.pred);
    uint32_t arms[3] = {11, 12, 19};
    appended(l, path_log_put_cover(l->b + l->len, BUF_BYTES - l->len, &n, arms, 3), &n);
    sym_expr_free(&x);
    sym_expr_free(&r);
    sym_expr_free(&lhs);
    sym_expr_free(&y);
}

static const path_log_expect expect = {BUILD, RUN};

static void test_round_trip(void)
{
    logbuf l;
    build_heavy(&l);
    path_log log;
    MG_CHECK_INT(path_log_decode(l.b, l.len, &expect, NULL, &log), 0);
    MG_CHECK_INT(log.truncated, 0);
    MG_CHECK_INT(log.header.kind, PATH_LOG_HEAVY);
    MG_CHECK_INT(log.header.rank, 2);
    MG_CHECK_INT(log.header.world_size, 4);
    MG_CHECK_INT(log.nvars, 4);
    MG_CHECK_INT(log.vars[2].cap, 50);
    MG_CHECK_INT(log.vars[2].has_cap, 1);
    MG_CHECK_INT(log.vars[2].value, 7);
    MG_CHECK_INT(log.vars[3].comm, 0);
    MG_CHECK_INT(log.ncomms, 1);
    MG_CHECK_INT(log.comms[0].global[1], 3);
    MG_CHECK_INT(log.nbranches, 3);
    MG_CHECK_INT(log.branches[0].branch_id, 5);
    MG_CHECK_INT(log.branches[0].pred.width, 32);
    MG_CHECK_INT(log.branches[1].taken, 0);
    MG_CHECK_INT(log.branches[1].pred.is_unsigned, 1);
    MG_CHECK_INT(log.branches[1].pred.lhs.nterms, 2);
    MG_CHECK_INT(log.branches[1].pred.lhs.terms[0].coef, 3);
    MG_CHECK_INT(log.branches[1].pred.lhs.terms[1].var, 2);
    MG_CHECK_INT(log.branches[2].pred.op, SYM_EXPR_EQ);
    MG_CHECK_INT(log.cover.n, 3);
    MG_CHECK(coverage_set_contains(&log.cover, 19));
    int64_t vals[4] = {2, 4, 7, 0};
    int t;
    MG_CHECK_INT(sym_expr_pred_eval(&log.branches[0].pred, vals, 4, &t), 0);
    MG_CHECK_INT(t, 1);
    path_log_free(&log);
    MG_CHECK_INT(log.nvars, 0);
    path_log_free(NULL);
}

/* Every cut decodes to exactly the records that end at or before it. */
static void test_cut_at_every_byte(void)
{
    logbuf l;
    build_heavy(&l);
    for (size_t cut = 0; cut <= l.len; cut++) {
        path_log log;
        int rc = path_log_decode(l.b, cut, &expect, NULL, &log);
        if (cut < PATH_LOG_HEADER_BYTES) {
            MG_CHECK_INT(rc, MG_ERROR_EFORMAT);
            continue;
        }
        MG_CHECK_INT(rc, 0);
        int complete = 0;
        for (int i = 0; i < l.nrec; i++)
            complete += l.ends[i] <= cut;
        int at_boundary = 0;
        for (int i = 0; i < l.nrec; i++)
            at_boundary |= l.ends[i] == cut;
        MG_CHECK_INT(log.truncated, !at_boundary);
        /* records: header, 3 vars, comm, var, 3 branches, cover */
        int vars = (complete > 1) + (complete > 2) + (complete > 3) + (complete > 5);
        int branches = (complete > 6) + (complete > 7) + (complete > 8);
        MG_CHECK_INT(log.nvars, vars);
        MG_CHECK_INT(log.ncomms, complete > 4);
        MG_CHECK_INT(log.nbranches, branches);
        MG_CHECK_INT(log.cover.n, complete > 9 ? 3 : 0);
        path_log_free(&log);
    }
}

/* Rewrites a header's format version and its checksum, as another writer would have. */
static void set_version(uint8_t *hdr, uint16_t version)
{
    hdr[4] = (uint8_t)version;
    hdr[5] = (uint8_t)(version >> 8);
    uint32_t crc = ~0u;
    for (size_t i = 0; i < PATH_LOG_HEADER_BYTES - 4; i++) {
        crc ^= hdr[i];
        for (int b = 0; b < 8; b++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    crc = ~crc;
    for (int i = 0; i < 4; i++)
        hdr[PATH_LOG_HEADER_BYTES - 4 + i] = (uint8_t)(crc >> (8 * i));
}

static void test_identity_checks(void)
{
    logbuf l;
    build_heavy(&l);
    path_log log;
    path_log_expect other = {BUILD + 1, RUN};
    MG_CHECK_INT(path_log_decode(l.b, l.len, &other, NULL, &log), MG_ERROR_EVERSION);
    other = (path_log_expect){BUILD, RUN + 1};
    MG_CHECK_INT(path_log_decode(l.b, l.len, &other, NULL, &log), MG_ERROR_ESTATE);
    other = (path_log_expect){BUILD, 0}; /* run id not checked */
    MG_CHECK_INT(path_log_decode(l.b, l.len, &other, NULL, &log), 0);
    path_log_free(&log);
    /* another format version, with a valid header checksum: rejected as a version */
    uint8_t hdr[PATH_LOG_HEADER_BYTES];
    size_t n;
    path_log_header h = {PATH_LOG_HEAVY, BUILD, RUN, 0, 1, PATH_LOG_VERSION};
    MG_CHECK_INT(path_log_put_header(hdr, sizeof hdr, &n, &h), 0);
    set_version(hdr, PATH_LOG_VERSION + 1);
    MG_CHECK_INT(path_log_decode(hdr, sizeof hdr, &expect, NULL, &log), MG_ERROR_EVERSION);
    set_version(hdr, PATH_LOG_OLDEST_VERSION - 1);
    MG_CHECK_INT(path_log_decode(hdr, sizeof hdr, &expect, NULL, &log), MG_ERROR_EVERSION);
    /* bad magic and a flipped header bit */
    MG_CHECK_INT(path_log_put_header(hdr, sizeof hdr, &n, &h), 0);
    hdr[0] = 'X';
    MG_CHECK_INT(path_log_decode(hdr, sizeof hdr, &expect, NULL, &log), MG_ERROR_EFORMAT);
    MG_CHECK_INT(path_log_put_header(hdr, sizeof hdr, &n, &h), 0);
    hdr[20] ^= 4;
    MG_CHECK_INT(path_log_decode(hdr, sizeof hdr, &expect, NULL, &log), MG_ERROR_EFORMAT);
}

static void test_light_log(void)
{
    logbuf l;
    memset(&l, 0, sizeof l);
    put_header(&l, PATH_LOG_LIGHT);
    uint32_t arms[2] = {coverage_arm(3, 0), coverage_arm(1, 1)};
    size_t n;
    appended(&l, path_log_put_cover(l.b + l.len, BUF_BYTES - l.len, &n, arms, 2), &n);
    appended(&l, path_log_put_cover(l.b + l.len, BUF_BYTES - l.len, &n, arms, 1), &n);
    path_log log;
    MG_CHECK_INT(path_log_decode(l.b, l.len, &expect, NULL, &log), 0);
    MG_CHECK_INT(log.cover.n, 2);
    MG_CHECK_INT(log.cover.arms[0], 3);
    MG_CHECK_INT(log.cover.arms[1], 6);
    path_log_free(&log);
    /* a declaration in a light log is malformed */
    sym_var v = {0, SYM_VAR_INT, SYM_VAR_SORT_INT, 0, 0, SYM_VAR_NO_COMM, 1};
    appended(&l, path_log_put_var(l.b + l.len, BUF_BYTES - l.len, &n, &v), &n);
    MG_CHECK_INT(path_log_decode(l.b, l.len, &expect, NULL, &log), MG_ERROR_EFORMAT);
}

static void put_time(logbuf *l, uint8_t event, uint64_t ns)
{
    size_t n;
    appended(l, path_log_put_time(l->b + l->len, BUF_BYTES - l->len, &n, event, ns), &n);
}

/* TIME records (format version 2): in heavy and light logs, once per event; a version 1 log
 * decodes without them and may not carry one. */
static void test_time_records(void)
{
    logbuf l;
    build_heavy(&l);
    put_time(&l, PATH_LOG_STARTED, 1000);
    put_time(&l, PATH_LOG_ENDED, 5000);
    path_log log;
    MG_CHECK_INT(path_log_decode(l.b, l.len, &expect, NULL, &log), 0);
    MG_CHECK_INT(log.header.version, PATH_LOG_VERSION);
    MG_CHECK_INT(log.started_ns, 1000);
    MG_CHECK_INT(log.ended_ns, 5000);
    path_log_free(&log);
    put_time(&l, PATH_LOG_ENDED, 6000); /* a second end */
    MG_CHECK_INT(path_log_decode(l.b, l.len, &expect, NULL, &log), MG_ERROR_EFORMAT);

    memset(&l, 0, sizeof l);
    put_header(&l, PATH_LOG_LIGHT);
    put_time(&l, PATH_LOG_STARTED, 77);
    MG_CHECK_INT(path_log_decode(l.b, l.len, &expect, NULL, &log), 0);
    MG_CHECK_INT(log.started_ns, 77);
    MG_CHECK_INT(log.ended_ns, 0);
    path_log_free(&log);
    set_version(l.b, 1); /* the same bytes from a version 1 writer: a TIME record is foreign */
    MG_CHECK_INT(path_log_decode(l.b, l.len, &expect, NULL, &log), MG_ERROR_EFORMAT);
    MG_CHECK_INT(path_log_decode(l.b, PATH_LOG_HEADER_BYTES, &expect, NULL, &log), 0);
    MG_CHECK_INT(log.header.version, 1);
    path_log_free(&log);

    uint8_t buf[64];
    size_t n;
    MG_CHECK_INT(path_log_put_time(buf, sizeof buf, &n, 3, 1), MG_ERROR_EINVAL);
    MG_CHECK_INT(path_log_put_time(buf, sizeof buf, &n, PATH_LOG_STARTED, 0), MG_ERROR_EINVAL);
    MG_CHECK_INT(path_log_put_time(buf, 4, &n, PATH_LOG_STARTED, 1), MG_ERROR_EFULL);
    MG_CHECK_INT(n, 5 + 12 + 4);
}

/* A decoded log encoded again decodes to the same log (what --resume saves of its stack). */
static void test_encode_round_trip(void)
{
    logbuf l;
    build_heavy(&l);
    put_time(&l, PATH_LOG_STARTED, 123456789);
    path_log a, b;
    MG_CHECK_INT(path_log_decode(l.b, l.len, &expect, NULL, &a), 0);
    uint8_t *bytes = NULL;
    size_t n = 0;
    MG_CHECK_INT(path_log_encode(&a, &bytes, &n), 0);
    MG_CHECK_INT(path_log_decode(bytes, n, &expect, NULL, &b), 0);
    MG_CHECK_INT(b.header.rank, a.header.rank);
    MG_CHECK_INT(b.header.world_size, a.header.world_size);
    MG_CHECK_INT(b.nvars, a.nvars);
    for (uint32_t i = 0; i < a.nvars; i++) {
        MG_CHECK_INT(b.vars[i].kind, a.vars[i].kind);
        MG_CHECK_INT(b.vars[i].has_cap, a.vars[i].has_cap);
        MG_CHECK_INT(b.vars[i].cap, a.vars[i].cap);
        MG_CHECK_INT(b.vars[i].comm, a.vars[i].comm);
        MG_CHECK_INT(b.vars[i].value, a.vars[i].value);
    }
    MG_CHECK_INT(b.ncomms, 1);
    MG_CHECK_INT(b.comms[0].global[0], 2);
    MG_CHECK_INT(b.nbranches, a.nbranches);
    for (uint32_t i = 0; i < a.nbranches; i++) {
        MG_CHECK_INT(b.branches[i].branch_id, a.branches[i].branch_id);
        MG_CHECK_INT(b.branches[i].taken, a.branches[i].taken);
        MG_CHECK(sym_expr_pred_equal(&b.branches[i].pred, &a.branches[i].pred));
    }
    MG_CHECK_INT(b.cover.n, a.cover.n);
    MG_CHECK_INT(b.started_ns, 123456789);
    MG_CHECK_INT(b.ended_ns, 0);
    free(bytes);
    path_log_free(&b);
    path_log_free(&a);
    MG_CHECK_INT(path_log_encode(NULL, &bytes, &n), MG_ERROR_EINVAL);
}

/* Encodes one record after a heavy header and decodes the pair. */
static int decode_one(const uint8_t *rec, size_t n, const path_log_limits *lim)
{
    logbuf l;
    memset(&l, 0, sizeof l);
    put_header(&l, PATH_LOG_HEAVY);
    memcpy(l.b + l.len, rec, n);
    path_log log;
    int rc = path_log_decode(l.b, l.len + n, &expect, lim, &log);
    path_log_free(&log);
    return rc;
}

static void test_malformed_and_reserved(void)
{
    uint8_t rec[256];
    size_t n;
    /* a branch naming an undeclared variable */
    sym_expr x, k;
    sym_expr_init_var(&x, 0, 1);
    sym_expr_init_const(&k, 1);
    path_log_branch b = {1, 1, {0}};
    sym_expr_pred_make(&b.pred, &x, SYM_EXPR_LT, &k, 0, 0);
    MG_CHECK_INT(path_log_put_branch(rec, sizeof rec, &n, &b), 0);
    MG_CHECK_INT(decode_one(rec, n, NULL), MG_ERROR_EFORMAT);
    /* a variable whose id is not the next one */
    sym_var v = {3, SYM_VAR_INT, SYM_VAR_SORT_INT, 0, 0, SYM_VAR_NO_COMM, 1};
    MG_CHECK_INT(path_log_put_var(rec, sizeof rec, &n, &v), 0);
    MG_CHECK_INT(decode_one(rec, n, NULL), MG_ERROR_EFORMAT);
    /* a communicator rank before its communicator */
    v = (sym_var){0, SYM_VAR_RANK_COMM, SYM_VAR_SORT_INT, 0, 0, 0, 1};
    MG_CHECK_INT(path_log_put_var(rec, sizeof rec, &n, &v), 0);
    MG_CHECK_INT(decode_one(rec, n, NULL), MG_ERROR_EFORMAT);
    /* a Real integer kind (refused by the encoder too); a float side compared with an integer */
    v = (sym_var){0, SYM_VAR_INT, SYM_VAR_SORT_REAL, 0, 0, SYM_VAR_NO_COMM, 1};
    MG_CHECK_INT(path_log_put_var(rec, sizeof rec, &n, &v), MG_ERROR_EINVAL);
    b.pred.lhs.num = SYM_EXPR_NUM_F64;
    b.pred.lhs.nterms = 0;
    MG_CHECK_INT(path_log_put_branch(rec, sizeof rec, &n, &b), 0);
    MG_CHECK_INT(decode_one(rec, n, NULL), MG_ERROR_EFORMAT);
    b.pred.lhs.num = SYM_EXPR_NUM_I64;
    b.pred.lhs.nterms = 1;
    /* a global rank outside the world (header world size 4) */
    uint32_t g[2] = {0, 4};
    sym_var_comm c = {0, 2, g};
    MG_CHECK_INT(path_log_put_comm(rec, sizeof rec, &n, &c), 0);
    MG_CHECK_INT(decode_one(rec, n, NULL), MG_ERROR_EFORMAT);
    /* a limit: communicator larger than allowed */
    g[1] = 1;
    path_log_limits lim;
    path_log_limits_default(&lim);
    lim.max_comm_size = 1;
    MG_CHECK_INT(path_log_put_comm(rec, sizeof rec, &n, &c), 0);
    MG_CHECK_INT(decode_one(rec, n, &lim), MG_ERROR_ERANGE);
    MG_CHECK_INT(decode_one(rec, n, NULL), 0);
    /* an unknown record type with a correct checksum is still malformed */
    rec[0] = 77;
    uint32_t crc = ~0u;
    for (size_t i = 0; i < n - 4; i++) {
        crc ^= rec[i];
        for (int bit = 0; bit < 8; bit++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    crc = ~crc;
    for (int i = 0; i < 4; i++)
        rec[n - 4 + i] = (uint8_t)(crc >> (8 * i));
    MG_CHECK_INT(decode_one(rec, n, NULL), MG_ERROR_EFORMAT);
    sym_expr_pred_free(&b.pred);
    sym_expr_free(&x);
}

static void test_encoder_arguments(void)
{
    uint8_t small[8];
    size_t n = 0;
    path_log_header h = {PATH_LOG_HEAVY, BUILD, RUN, 0, 1, PATH_LOG_VERSION};
    MG_CHECK_INT(path_log_put_header(small, sizeof small, &n, &h), MG_ERROR_EFULL);
    MG_CHECK_INT(n, PATH_LOG_HEADER_BYTES);
    MG_CHECK_INT(path_log_put_header(NULL, 0, &n, &h), MG_ERROR_EFULL); /* size query */
    MG_CHECK_INT(n, PATH_LOG_HEADER_BYTES);
    h.kind = 9;
    MG_CHECK_INT(path_log_put_header(small, sizeof small, &n, &h), MG_ERROR_EINVAL);
    sym_var v = {0, 0, SYM_VAR_SORT_INT, 0, 0, SYM_VAR_NO_COMM, 1};
    MG_CHECK_INT(path_log_put_var(small, sizeof small, &n, &v), MG_ERROR_EINVAL);
    path_log_branch b = {COVERAGE_SET_MAX_BRANCH + 1, 1, {0}};
    MG_CHECK_INT(path_log_put_branch(small, sizeof small, &n, &b), MG_ERROR_EINVAL);
    b.branch_id = 1;
    b.taken = 2;
    MG_CHECK_INT(path_log_put_branch(small, sizeof small, &n, &b), MG_ERROR_EINVAL);
    b.taken = 1;
    b.pred.width = 12;
    MG_CHECK_INT(path_log_put_branch(small, sizeof small, &n, &b), MG_ERROR_EINVAL);
    b.pred.width = 0;
    MG_CHECK_INT(path_log_put_branch(small, sizeof small, &n, &b), MG_ERROR_EFULL);
    MG_CHECK_INT(n, 5 + 8 + 13 + 13 + 4);
    sym_var_comm c = {0, 0, NULL};
    MG_CHECK_INT(path_log_put_comm(small, sizeof small, &n, &c), MG_ERROR_EINVAL);
    MG_CHECK_INT(path_log_put_cover(small, sizeof small, &n, NULL, 0), MG_ERROR_EINVAL);
    MG_CHECK_INT(path_log_put_cover(small, sizeof small, NULL, (const uint32_t *)&n, 0), MG_ERROR_EINVAL);
    path_log log;
    MG_CHECK_INT(path_log_decode(NULL, 5, &expect, NULL, &log), MG_ERROR_EINVAL);
    MG_CHECK_INT(path_log_decode(small, 5, NULL, NULL, &log), MG_ERROR_EINVAL);
    MG_CHECK_INT(path_log_decode(small, 5, &expect, NULL, NULL), MG_ERROR_EINVAL);
}

/* Random damage must never crash, leak or read out of bounds (run under ASan), and whatever
 * decodes successfully must be internally consistent. */
static void fuzz_check(const uint8_t *buf, size_t len, int *ok, int *failed)
{
    path_log log;
    int rc = path_log_decode(buf, len, &expect, NULL, &log);
    if (rc == 0) {
        (*ok)++;
        for (uint32_t i = 0; i < log.nbranches; i++) {
            const sym_expr *e = &log.branches[i].pred.lhs;
            for (uint32_t t = 0; t < e->nterms; t++)
                MG_CHECK(e->terms[t].var < log.nvars);
        }
        for (uint32_t i = 0; i < log.nvars; i++)
            MG_CHECK_INT(log.vars[i].id, i);
    } else {
        MG_CHECK(rc == MG_ERROR_EFORMAT || rc == MG_ERROR_EVERSION || rc == MG_ERROR_ESTATE ||
                 rc == MG_ERROR_EUNSUPPORTED || rc == MG_ERROR_ERANGE);
        MG_CHECK_INT(log.nvars + log.nbranches + log.ncomms, 0);
        (*failed)++;
    }
    path_log_free(&log);
}

static void test_fuzz(void)
{
    logbuf l;
    build_heavy(&l);
    mg_rng rng;
    mg_rng_seed(&rng, 2024);
    uint8_t *buf = malloc(BUF_BYTES);
    int ok = 0, failed = 0;
    for (int round = 0; round < FUZZ_ROUNDS; round++) {
        size_t len = l.len;
        memcpy(buf, l.b, l.len);
        switch (round % 3) {
        case 0: { /* 1-4 bit flips past the header */
            int flips = 1 + (int)mg_rng_below(&rng, 4);
            for (int f = 0; f < flips; f++) {
                size_t at = PATH_LOG_HEADER_BYTES +
                            mg_rng_below(&rng, l.len - PATH_LOG_HEADER_BYTES);
                buf[at] ^= (uint8_t)(1u << mg_rng_below(&rng, 8));
            }
            break;
        }
        case 1: /* random bytes after a valid header */
            len = PATH_LOG_HEADER_BYTES + mg_rng_below(&rng, BUF_BYTES - PATH_LOG_HEADER_BYTES);
            for (size_t i = PATH_LOG_HEADER_BYTES; i < len; i++)
                buf[i] = (uint8_t)mg_rng_next(&rng);
            break;
        default: /* truncation plus a flip anywhere, header included */
            len = mg_rng_below(&rng, l.len + 1);
            if (len)
                buf[mg_rng_below(&rng, len)] ^= (uint8_t)(1u << mg_rng_below(&rng, 8));
            break;
        }
        fuzz_check(buf, len, &ok, &failed);
    }
    /* completely random buffers, including the header */
    for (int round = 0; round < FUZZ_ROUNDS / 3; round++) {
        size_t len = mg_rng_below(&rng, 256);
        for (size_t i = 0; i < len; i++)
            buf[i] = (uint8_t)mg_rng_next(&rng);
        fuzz_check(buf, len, &ok, &failed);
    }
    free(buf);
    /* both outcomes happened: damage is detected and benign cuts still decode */
    MG_CHECK(ok > 0);
    MG_CHECK(failed > FUZZ_ROUNDS / 2);
}

int main(void)
{
    MG_RUN(test_round_trip);
    MG_RUN(test_cut_at_every_byte);
    MG_RUN(test_identity_checks);
    MG_RUN(test_light_log);
    MG_RUN(test_time_records);
    MG_RUN(test_encode_round_trip);
    MG_RUN(test_malformed_and_reserved);
    MG_RUN(test_encoder_arguments);
    MG_RUN(test_fuzz);
    MG_TEST_END();
}
