/* The check event record: round trips, argument errors, and a fuzz-style campaign (random bytes,
 * every single-bit flip, every truncation, random multi-byte corruption of valid records) proving
 * the decoder rejects bad input with MG_ERROR_EFORMAT/MG_ERROR_EVERSION and never reads out of bounds (run
 * under ASan in the sanitizer build; each input sits in an exactly sized heap block). */
#include <stdlib.h>
#include <string.h>

#include "check_event.h"
#include "mg_error.h"
#include "mg_rng.h"
#include "mg_test.h"

static const uint64_t reqs[] = {7, 0xFFFFFFFFFFFFFFFFull, 1ull << 40};
static const check_event_status sts[] = {{0, 3, 12, 0, 99}, {2, -1, -1, 5, -7}};
static const int32_t members[] = {4, 0, 9, 2};

static check_event full_event(void)
{
    check_event ev = {0};
    ev.kind = CHECK_EVENT_EV_EXIT;
    ev.func = CHECK_EVENT_FN_WAITSOME;
    ev.flags = CHECK_EVENT_FLAG_INTERCOMM;
    ev.rank = 123456;
    ev.seq = 0x0102030405060708ull;
    ev.comm = 0xA1B2C3D4E5F60718ull;
    ev.peer = CHECK_EVENT_ANY_SOURCE;
    ev.tag = CHECK_EVENT_ANY_TAG;
    ev.peer2 = 17;
    ev.tag2 = 1 << 30;
    ev.root = 5;
    ev.result = -3;
    ev.op = 0xDEADBEEFu;
    ev.count = -(1ll << 40);
    ev.type_hash = 0x1122334455667788ull;
    ev.type_elems = 42;
    ev.type_period = 0x0123456789abcdefull;
    ev.request = 77;
    ev.aux = 88;
    ev.callsite = 0x400123ull;
    ev.requests = reqs;
    ev.n_requests = 3;
    ev.statuses = sts;
    ev.n_statuses = 2;
    ev.ranks = members;
    ev.n_ranks = 4;
    ev.n_local = 1;
    return ev;
}

static void test_round_trip(void)
{
    check_event ev = full_event();
    uint8_t buf[512];
    size_t len = 0, used = 0;
    MG_CHECK_INT(check_event_encoded_size(&ev), CHECK_EVENT_HEADER_SIZE + 3 * 8 + 2 * 24 + 4 * 4);
    MG_CHECK_INT(check_event_encode(&ev, buf, sizeof buf, &len), MG_ERROR_OK);
    MG_CHECK_INT(len, check_event_encoded_size(&ev));
    MG_CHECK_INT(buf[0], 0x4D); /* little-endian magic "MG" */
    MG_CHECK_INT(buf[1], 0x47);
    MG_CHECK_INT(buf[24], 0x08); /* seq's low byte first */
    check_event d;
    MG_CHECK_INT(check_event_decode(buf, len, &d, &used), MG_ERROR_OK);
    MG_CHECK_INT(used, len);
    MG_CHECK(d.requests == NULL && d.statuses == NULL && d.ranks == NULL);
    uint64_t r[3];
    check_event_status s[2];
    int32_t m[4];
    MG_CHECK_INT(check_event_decode_arrays(buf, &d, r, s, m), MG_ERROR_OK);
    MG_CHECK_INT(d.kind, ev.kind);
    MG_CHECK_INT(d.func, ev.func);
    MG_CHECK_INT(d.flags, ev.flags);
    MG_CHECK_INT(d.rank, ev.rank);
    MG_CHECK(d.seq == ev.seq && d.comm == ev.comm && d.type_hash == ev.type_hash);
    MG_CHECK(d.type_elems == ev.type_elems && d.type_period == ev.type_period);
    MG_CHECK_INT(d.peer, ev.peer);
    MG_CHECK_INT(d.tag, ev.tag);
    MG_CHECK_INT(d.peer2, ev.peer2);
    MG_CHECK_INT(d.tag2, ev.tag2);
    MG_CHECK_INT(d.root, ev.root);
    MG_CHECK_INT(d.result, ev.result);
    MG_CHECK_INT(d.op, ev.op);
    MG_CHECK_INT(d.count, ev.count);
    MG_CHECK_INT(d.type_elems, ev.type_elems);
    MG_CHECK_INT(d.request, ev.request);
    MG_CHECK_INT(d.aux, ev.aux);
    MG_CHECK_INT(d.callsite, ev.callsite);
    MG_CHECK_INT(d.n_local, 1);
    MG_CHECK(d.requests == r && r[1] == reqs[1] && r[2] == reqs[2]);
    MG_CHECK(d.statuses == s && s[1].source == -1 && s[1].count == -7 && s[1].index == 2 &&
             s[1].error == 5 && s[0].tag == 12);
    MG_CHECK(d.ranks == m && m[0] == 4 && m[3] == 2);
    /* A stream of two records walks by `consumed`. */
    check_event small = {.kind = CHECK_EVENT_EV_ENTER, .func = CHECK_EVENT_FN_BARRIER, .rank = 1, .seq = 2};
    size_t len2;
    MG_CHECK_INT(check_event_encode(&small, buf + len, sizeof buf - len, &len2), MG_ERROR_OK);
    MG_CHECK_INT(len2, CHECK_EVENT_HEADER_SIZE);
    MG_CHECK_INT(check_event_decode(buf + used, len + len2 - used, &d, &used), MG_ERROR_OK);
    MG_CHECK_INT(d.func, CHECK_EVENT_FN_BARRIER);
    MG_CHECK_INT(check_event_decode_arrays(buf, &d, NULL, NULL, NULL), MG_ERROR_OK);
}

/* The caller's site rides at the payload's end under its flag alone: the arrays keep their places,
 * and a record without the flag is byte for byte what it was. */
static void test_caller_site(void)
{
    check_event ev = full_event();
    uint8_t plain[512], buf[512];
    size_t plain_len, len, used;
    MG_CHECK_INT(check_event_encode(&ev, plain, sizeof plain, &plain_len), MG_ERROR_OK);
    ev.flags |= CHECK_EVENT_FLAG_CALLER_SITE;
    ev.caller_site = 0x7f0011223344ull;
    MG_CHECK_INT(check_event_encoded_size(&ev), plain_len + CHECK_EVENT_CALLER_SIZE);
    MG_CHECK_INT(check_event_encode(&ev, buf, sizeof buf, &len), MG_ERROR_OK);
    MG_CHECK_INT(len, plain_len + CHECK_EVENT_CALLER_SIZE);
    MG_CHECK(memcmp(buf + CHECK_EVENT_HEADER_SIZE, plain + CHECK_EVENT_HEADER_SIZE,
                    plain_len - CHECK_EVENT_HEADER_SIZE) == 0);
    check_event d;
    MG_CHECK_INT(check_event_decode(buf, len, &d, &used), MG_ERROR_OK);
    MG_CHECK_INT(used, len);
    MG_CHECK(d.caller_site == ev.caller_site && d.callsite == ev.callsite);
    uint64_t r[3];
    check_event_status st[2];
    int32_t m[4];
    MG_CHECK_INT(check_event_decode_arrays(buf, &d, r, st, m), MG_ERROR_OK);
    MG_CHECK(r[2] == reqs[2] && st[1].count == -7 && m[3] == 2);
    /* a flagged record cut short of its 8 bytes is malformed */
    MG_CHECK_INT(check_event_decode(buf, len - CHECK_EVENT_CALLER_SIZE, &d, &used), MG_ERROR_EFORMAT);
    MG_CHECK_INT(check_event_decode(plain, plain_len, &d, &used), MG_ERROR_OK);
    MG_CHECK(d.caller_site == 0 && !(d.flags & CHECK_EVENT_FLAG_CALLER_SITE));
}

static void test_encode_errors(void)
{
    check_event ev = full_event();
    uint8_t buf[512];
    size_t len = 0;
    MG_CHECK_INT(check_event_encode(NULL, buf, sizeof buf, &len), MG_ERROR_EINVAL);
    MG_CHECK_INT(check_event_encode(&ev, NULL, sizeof buf, &len), MG_ERROR_EINVAL);
    MG_CHECK_INT(check_event_encode(&ev, buf, sizeof buf, NULL), MG_ERROR_EINVAL);
    memset(buf, 0xAB, sizeof buf);
    MG_CHECK_INT(check_event_encode(&ev, buf, 100, &len), MG_ERROR_EFULL);
    MG_CHECK_INT(buf[0], 0xAB); /* untouched */
    ev.requests = NULL;
    MG_CHECK_INT(check_event_encode(&ev, buf, sizeof buf, &len), MG_ERROR_EINVAL);
    ev = full_event();
    ev.n_local = 5;
    MG_CHECK_INT(check_event_encode(&ev, buf, sizeof buf, &len), MG_ERROR_EINVAL);
    ev = full_event();
    ev.n_statuses = CHECK_EVENT_MAX_ITEMS + 1;
    MG_CHECK_INT(check_event_encoded_size(&ev), 0);
    MG_CHECK_INT(check_event_encode(&ev, buf, sizeof buf, &len), MG_ERROR_ERANGE);
    MG_CHECK_INT(check_event_encoded_size(NULL), 0);
    check_event d;
    size_t used;
    MG_CHECK_INT(check_event_decode(NULL, 10, &d, &used), MG_ERROR_EINVAL);
    MG_CHECK_INT(check_event_decode(buf, 10, NULL, &used), MG_ERROR_EINVAL);
    MG_CHECK_INT(check_event_decode(buf, 10, &d, NULL), MG_ERROR_EINVAL);
    ev = full_event();
    MG_CHECK_INT(check_event_encode(&ev, buf, sizeof buf, &len), MG_ERROR_OK);
    MG_CHECK_INT(check_event_decode(buf, len, &d, &used), MG_ERROR_OK);
    uint64_t r[3];
    MG_CHECK_INT(check_event_decode_arrays(buf, &d, r, NULL, NULL), MG_ERROR_EINVAL);
    MG_CHECK_INT(check_event_decode_arrays(NULL, &d, r, NULL, NULL), MG_ERROR_EINVAL);
}

static void test_func_table(void)
{
    MG_CHECK(check_event_func_describe(CHECK_EVENT_FN_NONE) == NULL);
    MG_CHECK(check_event_func_describe(CHECK_EVENT_FN_COUNT) == NULL);
    for (uint16_t f = 1; f < CHECK_EVENT_FN_COUNT; f++) {
        const check_event_func_info *info = check_event_func_describe(f);
        /* the records no MPI call writes have lower-case names of their own */
        const char *prefix = f == CHECK_EVENT_FN_EXIT             ? "exit"
                             : f == CHECK_EVENT_FN_HANDLE_LEAK    ? "handle_leak"
                             : f == CHECK_EVENT_FN_AFTER_FINALIZE ? "after_finalize"
                             : f == CHECK_EVENT_FN_HANDLE_MADE    ? "handle_made"
                             : f == CHECK_EVENT_FN_UNMODELLED     ? "unmodelled"
                                                            : "MPI_";
        MG_CHECK(info && info->name && strncmp(info->name, prefix, strlen(prefix)) == 0);
    }
    MG_CHECK_STR(check_event_func_describe(CHECK_EVENT_FN_IBARRIER)->name, "MPI_IBARRIER");
    MG_CHECK_INT(check_event_func_describe(CHECK_EVENT_FN_IBARRIER)->base, CHECK_EVENT_FN_BARRIER);
    MG_CHECK_INT(check_event_func_describe(CHECK_EVENT_FN_SSEND)->mode, CHECK_EVENT_MODE_SYNC);
    MG_CHECK_INT(check_event_func_describe(CHECK_EVENT_FN_WAITANY)->completion, CHECK_EVENT_COMPLETE_ANY);
    MG_CHECK(check_event_func_describe(CHECK_EVENT_FN_REDUCE)->rooted &&
             check_event_func_describe(CHECK_EVENT_FN_REDUCE)->has_op);
    MG_CHECK(check_event_func_describe(CHECK_EVENT_FN_COMM_SPLIT)->creates_comm);
    MG_CHECK(check_comm_self_id(3) == (CHECK_EVENT_COMM_SELF_FLAG | 3u));
}

/* Decodes a copy of buf[0..len) placed in an exactly sized heap block, so any read past the end
 * is an ASan error; on success the arrays are decoded too. */
static int decode_exact(const uint8_t *buf, size_t len)
{
    uint8_t *copy = malloc(len ? len : 1);
    memcpy(copy, buf, len);
    check_event d;
    size_t used = 0;
    int rc = check_event_decode(copy, len, &d, &used);
    if (rc == MG_ERROR_OK) {
        MG_CHECK(used <= len);
        uint64_t *r = malloc((d.n_requests + 1) * sizeof *r);
        check_event_status *s = malloc((d.n_statuses + 1) * sizeof *s);
        int32_t *m = malloc((d.n_ranks + 1) * sizeof *m);
        MG_CHECK_INT(check_event_decode_arrays(copy, &d, r, s, m), MG_ERROR_OK);
        free(r), free(s), free(m);
    }
    free(copy);
    return rc;
}

static void test_fuzz(void)
{
    mg_rng rng;
    mg_rng_seed(&rng, 20121112);
    uint8_t valid[512], buf[512];
    check_event ev = full_event();
    size_t len;
    MG_CHECK_INT(check_event_encode(&ev, valid, sizeof valid, &len), MG_ERROR_OK);
    size_t cases = 0;
    /* Every truncation. */
    for (size_t cut = 0; cut < len; cut++, cases++) {
        int rc = decode_exact(valid, cut);
        MG_CHECK(rc == MG_ERROR_EFORMAT);
    }
    /* Every single-bit flip: CRC-32C catches all of them. */
    for (size_t bit = 0; bit < len * 8; bit++, cases++) {
        memcpy(buf, valid, len);
        buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        int rc = decode_exact(buf, len);
        MG_CHECK(rc == MG_ERROR_EFORMAT || rc == MG_ERROR_EVERSION);
    }
    /* Random corruption of 1-8 bytes, random lengths. */
    for (int i = 0; i < 20000; i++, cases++) {
        memcpy(buf, valid, len);
        int k = 1 + (int)mg_rng_below(&rng, 8);
        for (int j = 0; j < k; j++) {
            buf[mg_rng_below(&rng, len)] = (uint8_t)mg_rng_next(&rng);
        }
        size_t n = (size_t)mg_rng_below(&rng, len + 1);
        int rc = decode_exact(buf, n);
        /* Only an unchanged, complete record (a "corruption" that rewrote the same bytes) passes.
         */
        MG_CHECK(rc == MG_ERROR_EFORMAT || rc == MG_ERROR_EVERSION ||
                 (rc == MG_ERROR_OK && n == len && memcmp(buf, valid, len) == 0));
    }
    /* Random bytes, with a valid magic and version half of the time. */
    for (int i = 0; i < 20000; i++, cases++) {
        size_t n = (size_t)mg_rng_below(&rng, sizeof buf);
        for (size_t j = 0; j < n; j++) {
            buf[j] = (uint8_t)mg_rng_next(&rng);
        }
        if (n >= 3 && (i & 1)) {
            buf[0] = 0x4D, buf[1] = 0x47, buf[2] = CHECK_EVENT_VERSION;
        }
        int rc = decode_exact(buf, n);
        MG_CHECK(rc == MG_ERROR_EFORMAT || rc == MG_ERROR_EVERSION);
    }
    /* A header whose counts claim more payload than the buffer holds, with a correct CRC over
     * what is there: rejected on length before any array is touched. */
    check_event big = {.kind = CHECK_EVENT_EV_ENTER, .func = CHECK_EVENT_FN_WAITALL, .n_requests = 1000};
    uint64_t many[1000] = {0};
    big.requests = many;
    uint8_t *bigbuf = malloc(check_event_encoded_size(&big));
    MG_CHECK_INT(check_event_encode(&big, bigbuf, check_event_encoded_size(&big), &len), MG_ERROR_OK);
    MG_CHECK_INT(decode_exact(bigbuf, CHECK_EVENT_HEADER_SIZE + 8), MG_ERROR_EFORMAT);
    MG_CHECK_INT(decode_exact(bigbuf, len), MG_ERROR_OK);
    free(bigbuf);
    /* Another version. */
    memcpy(buf, valid, sizeof valid);
    buf[2] = CHECK_EVENT_VERSION + 1;
    MG_CHECK_INT(decode_exact(buf, sizeof valid), MG_ERROR_EVERSION);
    MG_CHECK(cases > 40000);
}

/* The bitwise definition of CRC-32C, the reference for the table-driven check_event_crc32c. */
static uint32_t crc32c_bitwise(uint32_t crc, const uint8_t *p, size_t n)
{
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int b = 0; b < 8; b++) {
            crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
        }
    }
    return ~crc;
}

/* check_event_crc32c is CRC-32C: the standard check value, random input of every length around
 * the 8-byte step at every alignment, in one piece and split in two (every table entry is hit),
 * and the checksum an encoded record carries (the record format does not depend on how it is
 * computed). */
static void test_crc(void)
{
    MG_CHECK_INT(check_event_crc32c(0, (const uint8_t *)"123456789", 9), 0xE3069283u);
    MG_CHECK_INT(check_event_crc32c(0, NULL, 0), 0);
    mg_rng rng;
    mg_rng_seed(&rng, 82);
    uint8_t buf[64 + 8];
    for (int i = 0; i < 20000; i++) {
        for (size_t j = 0; j < sizeof buf; j++) {
            buf[j] = (uint8_t)mg_rng_next(&rng);
        }
        size_t off = (size_t)mg_rng_below(&rng, 8), n = (size_t)mg_rng_below(&rng, 65);
        size_t cut = (size_t)mg_rng_below(&rng, n + 1);
        uint32_t want = crc32c_bitwise(0, buf + off, n);
        MG_CHECK_INT(check_event_crc32c(0, buf + off, n), want);
        uint32_t split = check_event_crc32c(0, buf + off, cut);
        MG_CHECK_INT(check_event_crc32c(split, buf + off + cut, n - cut), want);
    }
    check_event ev = full_event();
    uint8_t rec[512];
    size_t len;
    MG_CHECK_INT(check_event_encode(&ev, rec, sizeof rec, &len), MG_ERROR_OK);
    uint32_t stored = (uint32_t)rec[12] | (uint32_t)rec[13] << 8 | (uint32_t)rec[14] << 16 |
                      (uint32_t)rec[15] << 24;
    memset(rec + 12, 0, 4);
    MG_CHECK_INT(stored, crc32c_bitwise(0, rec, len));
}

/* Both ways of computing it (check_event_crc32c_tables, _instruction) give the same CRC-32C:
 * RFC 3720's check values (B.4), then random buffers of every length 0..1024 at every start 0..7
 * bytes past an 8-byte boundary, from a fresh start and continued, against the bitwise definition.
 * The instruction is checked wherever the CPU has it; check_event_crc32c uses the tables only
 * where it does not, so without this test the tables would go untested on such a CPU. */
static void test_crc_both_ways(void)
{
    static const struct {
        uint8_t fill; /* every byte; 2: 0..31 rising, 3: 31..0 falling */
        uint32_t want;
    } rfc3720[] = {{0x00, 0x8A9136AAu}, {0xFF, 0x62A8AB43u}, {2, 0x46DD794Eu}, {3, 0x113FDB5Cu}};
    uint32_t got;
    int instruction = check_event_crc32c_instruction(0, NULL, 0, &got) == MG_ERROR_OK;
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    MG_CHECK_INT(instruction, __builtin_cpu_supports("sse4.2") != 0);
#endif
    MG_CHECK_INT(check_event_crc32c_tables(0, (const uint8_t *)"123456789", 9), 0xE3069283u);
    MG_CHECK(!instruction ||
             (check_event_crc32c_instruction(0, (const uint8_t *)"123456789", 9, &got) ==
                  MG_ERROR_OK &&
              got == 0xE3069283u));
    for (size_t v = 0; v < sizeof rfc3720 / sizeof *rfc3720; v++) {
        uint8_t block[32];
        for (int i = 0; i < 32; i++)
            block[i] = rfc3720[v].fill == 2   ? (uint8_t)i
                       : rfc3720[v].fill == 3 ? (uint8_t)(31 - i)
                                              : rfc3720[v].fill;
        MG_CHECK_INT(check_event_crc32c_tables(0, block, 32), rfc3720[v].want);
        MG_CHECK(!instruction || (check_event_crc32c_instruction(0, block, 32, &got) ==
                                      MG_ERROR_OK &&
                                  got == rfc3720[v].want));
    }
    mg_rng rng;
    mg_rng_seed(&rng, 3720);
    static _Alignas(8) uint8_t buf[1024 + 8];
    for (size_t j = 0; j < sizeof buf; j++)
        buf[j] = (uint8_t)mg_rng_next(&rng);
    int compared = 0;
    for (size_t n = 0; n <= 1024; n++) {
        for (size_t off = 0; off < 8; off++) {
            uint32_t seed = off & 1 ? (uint32_t)mg_rng_next(&rng) : 0;
            uint32_t want = crc32c_bitwise(seed, buf + off, n);
            MG_CHECK_INT(check_event_crc32c_tables(seed, buf + off, n), want);
            if (instruction) {
                got = ~want;
                MG_CHECK_INT(check_event_crc32c_instruction(seed, buf + off, n, &got), MG_ERROR_OK);
                MG_CHECK_INT(got, want);
                compared++;
            }
        }
    }
    MG_CHECK_INT(compared, instruction ? 1025 * 8 : 0);
}

int main(void)
{
    MG_RUN(test_round_trip);
    MG_RUN(test_caller_site);
    MG_RUN(test_encode_errors);
    MG_RUN(test_func_table);
    MG_RUN(test_fuzz);
    MG_RUN(test_crc);
    MG_RUN(test_crc_both_ways);
    MG_TEST_END();
}
