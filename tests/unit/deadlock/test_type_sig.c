/* Type signatures and type matching (type_sig, type_match, type_sig_wire): every constructor,
 * nesting, pair types, MPI_BYTE/MPI_PACKED, prefix/truncation/mismatch with the first differing
 * element, types of 10^6 blocks, broken descriptions and cut byte streams, the collective checks.
 */
#include <stdlib.h>
#include <time.h>

#include "check_event.h"
#include "mg_error.h"
#include "mg_test.h"
#include "type_match.h"
#include "type_sig.h"
#include "type_sig_wire.h"

static type_sig_table table;

static uint32_t define(const type_sig_desc *d)
{
    uint32_t id = 0;
    MG_CHECK_INT(type_sig_define(&table, d, &id), MG_ERROR_OK);
    return id;
}

static uint32_t contiguous(int64_t count, uint32_t old)
{
    return define(
        &(type_sig_desc){.constructor = TYPE_SIG_DESC_CONTIGUOUS, .count = count, .oldtype = old});
}

/* struct {1 x first, 1 x second} */
static uint32_t pair_struct(uint32_t first, uint32_t second)
{
    int64_t ones[] = {1, 1};
    uint32_t types[] = {first, second};
    return define(&(type_sig_desc){
        .constructor = TYPE_SIG_DESC_STRUCT, .count = 2, .blocklengths = ones, .types = types});
}

static type_sig message(uint32_t type, int64_t count)
{
    type_sig s = {0};
    MG_CHECK_INT(type_sig_message(&table, type, count, &s), MG_ERROR_OK);
    return s;
}

static type_match_result match(uint32_t stype, int64_t scount, uint32_t rtype, int64_t rcount)
{
    type_match_result r = {0};
    MG_CHECK_INT(type_match_p2p(&table, (type_match_buffer){stype, scount},
                                (type_match_buffer){rtype, rcount}, &r),
                 MG_ERROR_OK);
    return r;
}

/* r is a mismatch first differing at element pos, sent as send_basic and received as recv_basic. */
static void expect_mismatch(type_match_result r, uint64_t pos, uint32_t send_basic,
                            uint32_t recv_basic)
{
    MG_CHECK_INT(r.verdict, TYPE_MATCH_MISMATCH);
    MG_CHECK_INT(r.position, pos);
    MG_CHECK_INT(r.send_basic, send_basic);
    MG_CHECK_INT(r.recv_basic, recv_basic);
}

static uint32_t element(uint32_t type, int64_t count, uint64_t pos)
{
    uint32_t basic = 0;
    MG_CHECK_INT(type_sig_element(&table, type, count, pos, &basic), MG_ERROR_OK);
    return basic;
}

/* {2 x INT, 1 x DOUBLE, 1 x INT}: 4 elements, 20 bytes. */
static uint32_t int_int_double_int(void)
{
    int64_t lens[] = {2, 1, 1};
    uint32_t types[] = {TYPE_SIG_DESC_INT, TYPE_SIG_DESC_DOUBLE, TYPE_SIG_DESC_INT};
    return define(&(type_sig_desc){
        .constructor = TYPE_SIG_DESC_STRUCT, .count = 3, .blocklengths = lens, .types = types});
}

static void test_every_constructor(void)
{
    type_sig three_doubles = message(TYPE_SIG_DESC_DOUBLE, 3);
    MG_CHECK_INT(three_doubles.elems, 3);
    MG_CHECK_INT(three_doubles.bytes, 24);

    uint32_t contig = contiguous(3, TYPE_SIG_DESC_DOUBLE);
    uint32_t vector = define(&(type_sig_desc){
        .constructor = TYPE_SIG_DESC_VECTOR, .count = 3, .blocklength = 1, .oldtype = TYPE_SIG_DESC_DOUBLE});
    type_sig c = message(contig, 1), v = message(vector, 1);
    MG_CHECK_INT(v.elems, 3);
    MG_CHECK(c.hash == three_doubles.hash && v.hash == three_doubles.hash);
    MG_CHECK_INT(match(vector, 1, contig, 1).verdict, TYPE_MATCH_EQUAL);
    MG_CHECK_INT(match(vector, 2, TYPE_SIG_DESC_DOUBLE, 6).verdict, TYPE_MATCH_EQUAL);

    uint32_t hvector = define(&(type_sig_desc){
        .constructor = TYPE_SIG_DESC_HVECTOR, .count = 2, .blocklength = 2, .oldtype = TYPE_SIG_DESC_INT});
    MG_CHECK_INT(message(hvector, 1).elems, 4);
    MG_CHECK(message(hvector, 1).hash == message(TYPE_SIG_DESC_INT, 4).hash);

    int64_t lens[] = {1, 2, 3};
    uint32_t indexed = define(&(type_sig_desc){.constructor = TYPE_SIG_DESC_INDEXED,
                                               .count = 3,
                                               .blocklengths = lens,
                                               .oldtype = TYPE_SIG_DESC_INT});
    uint32_t hindexed = define(&(type_sig_desc){.constructor = TYPE_SIG_DESC_HINDEXED,
                                                .count = 3,
                                                .blocklengths = lens,
                                                .oldtype = TYPE_SIG_DESC_INT});
    MG_CHECK_INT(message(indexed, 1).elems, 6);
    MG_CHECK_INT(match(indexed, 1, hindexed, 1).verdict, TYPE_MATCH_EQUAL);
    MG_CHECK_INT(match(indexed, 1, TYPE_SIG_DESC_INT, 6).verdict, TYPE_MATCH_EQUAL);

    uint32_t iblock = define(&(type_sig_desc){.constructor = TYPE_SIG_DESC_INDEXED_BLOCK,
                                              .count = 3,
                                              .blocklength = 2,
                                              .oldtype = TYPE_SIG_DESC_INT});
    uint32_t hiblock = define(&(type_sig_desc){.constructor = TYPE_SIG_DESC_HINDEXED_BLOCK,
                                               .count = 2,
                                               .blocklength = 3,
                                               .oldtype = TYPE_SIG_DESC_INT});
    MG_CHECK_INT(match(iblock, 1, hiblock, 1).verdict, TYPE_MATCH_EQUAL);
    MG_CHECK_INT(message(hiblock, 1).elems, 6);

    uint32_t st = int_int_double_int();
    type_sig s = message(st, 1);
    MG_CHECK_INT(s.elems, 4);
    MG_CHECK_INT(s.bytes, 20);
    MG_CHECK_INT(s.unit, TYPE_SIG_DESC_NONE);
    MG_CHECK_INT(element(st, 1, 1), TYPE_SIG_DESC_INT);
    MG_CHECK_INT(element(st, 1, 2), TYPE_SIG_DESC_DOUBLE);
    MG_CHECK_INT(element(st, 2, 6), TYPE_SIG_DESC_DOUBLE);
    MG_CHECK_INT(element(st, 2, 7), TYPE_SIG_DESC_INT);

    int64_t subsizes[] = {2, 3};
    uint32_t sub = define(&(type_sig_desc){.constructor = TYPE_SIG_DESC_SUBARRAY,
                                           .count = 2,
                                           .sizes = subsizes,
                                           .oldtype = TYPE_SIG_DESC_FLOAT});
    MG_CHECK_INT(message(sub, 1).elems, 6);
    MG_CHECK_INT(match(sub, 1, TYPE_SIG_DESC_FLOAT, 6).verdict, TYPE_MATCH_EQUAL);

    /* 10 elements over 3 processes: block (default 4) gives 4, 4, 2; cyclic(2) gives 4, 4, 2. */
    int64_t gsizes[] = {10}, psizes[] = {3}, dflt[] = {TYPE_SIG_DESC_DARG_DEFAULT}, two[] = {2};
    int32_t block[] = {TYPE_SIG_DESC_DIST_BLOCK}, cyclic[] = {TYPE_SIG_DESC_DIST_CYCLIC};
    int64_t expect[] = {4, 4, 2};
    for (int64_t r = 0; r < 3; r++) {
        type_sig_desc d = {.constructor = TYPE_SIG_DESC_DARRAY,
                           .count = 1,
                           .sizes = gsizes,
                           .distribs = block,
                           .dargs = dflt,
                           .psizes = psizes,
                           .rank = r,
                           .oldtype = TYPE_SIG_DESC_INT};
        MG_CHECK_INT(message(define(&d), 1).elems, expect[r]);
        d.distribs = cyclic;
        d.dargs = two;
        MG_CHECK_INT(message(define(&d), 1).elems, expect[r]);
    }
    /* 4 x 6 over a 2 x 3 grid, rows by block, columns cyclic: rank 4 is (1,1) and holds 2 x 2. */
    int64_t g2[] = {4, 6}, p2[] = {2, 3}, a2[] = {TYPE_SIG_DESC_DARG_DEFAULT, 1};
    int32_t d2[] = {TYPE_SIG_DESC_DIST_BLOCK, TYPE_SIG_DESC_DIST_CYCLIC};
    MG_CHECK_INT(message(define(&(type_sig_desc){.constructor = TYPE_SIG_DESC_DARRAY,
                                                 .count = 2,
                                                 .sizes = g2,
                                                 .distribs = d2,
                                                 .dargs = a2,
                                                 .psizes = p2,
                                                 .rank = 4,
                                                 .oldtype = TYPE_SIG_DESC_DOUBLE}),
                         1)
                     .elems,
                 4);

    uint32_t resized = define(&(type_sig_desc){.constructor = TYPE_SIG_DESC_RESIZED, .oldtype = st});
    uint32_t dup = define(&(type_sig_desc){.constructor = TYPE_SIG_DESC_DUP, .oldtype = resized});
    MG_CHECK(message(dup, 3).hash == message(st, 3).hash);
    MG_CHECK_INT(match(dup, 3, st, 3).verdict, TYPE_MATCH_EQUAL);
    MG_CHECK_INT(element(dup, 3, 10), TYPE_SIG_DESC_DOUBLE);
}

static void test_nesting(void)
{
    /* contiguous(2, .) nested 50 deep over INT is INT x 2^50, with no expansion anywhere */
    uint32_t t = TYPE_SIG_DESC_INT;
    for (int depth = 0; depth < 50; depth++) {
        t = contiguous(2, t);
    }
    type_sig s = message(t, 1);
    MG_CHECK_INT(s.elems, 1ull << 50);
    MG_CHECK(s.hash == message(TYPE_SIG_DESC_INT, 1ll << 50).hash);
    MG_CHECK_INT(table.nodes[t].depth, 50);
    MG_CHECK_INT(match(t, 1, TYPE_SIG_DESC_INT, (1ll << 50) + 1).verdict, TYPE_MATCH_PREFIX);
    MG_CHECK_INT(match(t, 2, TYPE_SIG_DESC_INT, 1ll << 50).verdict, TYPE_MATCH_TRUNCATED);

    /* a struct nested 3 deep: {INT, {INT, {INT, DOUBLE}}} = INT INT INT DOUBLE */
    uint32_t outer = pair_struct(
        TYPE_SIG_DESC_INT, pair_struct(TYPE_SIG_DESC_INT, pair_struct(TYPE_SIG_DESC_INT, TYPE_SIG_DESC_DOUBLE)));
    uint32_t inner_types[] = {TYPE_SIG_DESC_INT, TYPE_SIG_DESC_DOUBLE};
    int64_t flat_lens[] = {3, 1};
    uint32_t flat = define(&(type_sig_desc){.constructor = TYPE_SIG_DESC_STRUCT,
                                            .count = 2,
                                            .blocklengths = flat_lens,
                                            .types = inner_types});
    MG_CHECK_INT(match(outer, 5, flat, 5).verdict, TYPE_MATCH_EQUAL);
    type_match_result r = match(outer, 2, TYPE_SIG_DESC_INT, 8);
    expect_mismatch(r, 3, TYPE_SIG_DESC_DOUBLE, TYPE_SIG_DESC_INT);
}

static void test_prefix_truncation_mismatch(void)
{
    type_match_result r = match(TYPE_SIG_DESC_INT, 3, TYPE_SIG_DESC_INT, 5);
    MG_CHECK_INT(r.verdict, TYPE_MATCH_PREFIX);
    MG_CHECK_INT(r.send_elems, 3);
    MG_CHECK_INT(r.recv_elems, 5);
    MG_CHECK_INT(match(TYPE_SIG_DESC_INT, 5, TYPE_SIG_DESC_INT, 3).verdict, TYPE_MATCH_TRUNCATED);
    MG_CHECK_INT(match(TYPE_SIG_DESC_INT, 0, TYPE_SIG_DESC_DOUBLE, 4).verdict, TYPE_MATCH_PREFIX);
    MG_CHECK_INT(match(TYPE_SIG_DESC_INT, 0, TYPE_SIG_DESC_DOUBLE, 0).verdict, TYPE_MATCH_EQUAL);

    r = match(TYPE_SIG_DESC_INT, 4, TYPE_SIG_DESC_FLOAT, 4);
    expect_mismatch(r, 0, TYPE_SIG_DESC_INT, TYPE_SIG_DESC_FLOAT);
    MG_CHECK_STR(type_sig_name(r.send_basic), "MPI_INT");
    MG_CHECK_STR(type_sig_name(r.recv_basic), "MPI_FLOAT");

    /* the same types differing only past the common length: a prefix, not a mismatch */
    uint32_t st = int_int_double_int();
    MG_CHECK_INT(match(TYPE_SIG_DESC_INT, 2, st, 1).verdict, TYPE_MATCH_PREFIX);
    expect_mismatch(match(TYPE_SIG_DESC_INT, 3, st, 1), 2, TYPE_SIG_DESC_INT, TYPE_SIG_DESC_DOUBLE);
    /* shorter and different at once: the mismatch wins */
    expect_mismatch(match(st, 3, TYPE_SIG_DESC_UNSIGNED, 1), 0, TYPE_SIG_DESC_INT, TYPE_SIG_DESC_UNSIGNED);
}

static void test_pair_types(void)
{
    MG_CHECK_INT(message(TYPE_SIG_DESC_2INT, 3).elems, 6);
    MG_CHECK_INT(match(TYPE_SIG_DESC_2INT, 3, TYPE_SIG_DESC_INT, 6).verdict, TYPE_MATCH_EQUAL);
    MG_CHECK_INT(message(TYPE_SIG_DESC_DOUBLE_INT, 1).bytes, 12);
    MG_CHECK_INT(element(TYPE_SIG_DESC_DOUBLE_INT, 2, 2), TYPE_SIG_DESC_DOUBLE);
    MG_CHECK_INT(element(TYPE_SIG_DESC_DOUBLE_INT, 2, 3), TYPE_SIG_DESC_INT);
    MG_CHECK_INT(match(TYPE_SIG_DESC_FLOAT_INT, 4, pair_struct(TYPE_SIG_DESC_FLOAT, TYPE_SIG_DESC_INT), 4).verdict,
                 TYPE_MATCH_EQUAL);
    expect_mismatch(match(TYPE_SIG_DESC_DOUBLE_INT, 1, TYPE_SIG_DESC_2INT, 1), 0, TYPE_SIG_DESC_DOUBLE,
                    TYPE_SIG_DESC_INT);
    MG_CHECK_STR(type_sig_name(TYPE_SIG_DESC_2DOUBLE_PRECISION), "MPI_2DOUBLE_PRECISION");
}

static void test_byte_and_packed(void)
{
    /* MPI 3.1 example 3.2: MPI_BYTE matches only MPI_BYTE */
    expect_mismatch(match(TYPE_SIG_DESC_INT, 4, TYPE_SIG_DESC_BYTE, 16), 0, TYPE_SIG_DESC_INT, TYPE_SIG_DESC_BYTE);
    MG_CHECK_INT(match(TYPE_SIG_DESC_BYTE, 16, TYPE_SIG_DESC_BYTE, 20).verdict, TYPE_MATCH_PREFIX);
    type_match_result r = match(TYPE_SIG_DESC_INT, 4, TYPE_SIG_DESC_PACKED, 16);
    MG_CHECK_INT(r.verdict, TYPE_MATCH_EQUAL);
    MG_CHECK_INT(r.send_elems, 16); /* bytes when one side is packed */
    MG_CHECK_INT(match(TYPE_SIG_DESC_PACKED, 16, TYPE_SIG_DESC_DOUBLE, 2).verdict, TYPE_MATCH_EQUAL);
    MG_CHECK_INT(match(TYPE_SIG_DESC_PACKED, 20, TYPE_SIG_DESC_DOUBLE, 2).verdict, TYPE_MATCH_TRUNCATED);
    MG_CHECK_INT(match(int_int_double_int(), 1, TYPE_SIG_DESC_PACKED, 100).verdict, TYPE_MATCH_PREFIX);
    MG_CHECK_INT(match(TYPE_SIG_DESC_PACKED, 8, TYPE_SIG_DESC_PACKED, 4).verdict, TYPE_MATCH_TRUNCATED);
    uint32_t packed_block = contiguous(8, TYPE_SIG_DESC_PACKED);
    MG_CHECK_INT(match(packed_block, 2, TYPE_SIG_DESC_LONG, 2).verdict, TYPE_MATCH_EQUAL);
}

static double cpu_seconds(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

#define MILLION 1000000

static void test_million_blocks(void)
{
    int64_t *lens = malloc(MILLION * sizeof *lens);
    uint32_t *types = malloc(MILLION * sizeof *types);
    MG_CHECK(lens && types);
    if (!lens || !types) {
        free(lens);
        free(types);
        return;
    }
    uint64_t total = 0;
    for (int i = 0; i < MILLION; i++) {
        lens[i] = i % 7 + 1;
        types[i] = i % 2 ? TYPE_SIG_DESC_DOUBLE : TYPE_SIG_DESC_INT;
        total += (uint64_t)lens[i];
    }
    double start = cpu_seconds();
    size_t parts_before = table.n_parts;
    uint32_t indexed = define(&(type_sig_desc){.constructor = TYPE_SIG_DESC_INDEXED,
                                               .count = MILLION,
                                               .blocklengths = lens,
                                               .oldtype = TYPE_SIG_DESC_INT});
    MG_CHECK_INT(table.n_parts - parts_before, 1); /* one oldtype: one run, whatever the blocks */
    MG_CHECK_INT(message(indexed, 1).elems, total);
    MG_CHECK_INT(match(indexed, 1, TYPE_SIG_DESC_INT, (int64_t)total).verdict, TYPE_MATCH_EQUAL);

    parts_before = table.n_parts;
    uint32_t st = define(&(type_sig_desc){
        .constructor = TYPE_SIG_DESC_STRUCT, .count = MILLION, .blocklengths = lens, .types = types});
    /* one run per block of another type than the previous, and no more: 40 B each */
    MG_CHECK_INT(table.n_parts - parts_before, MILLION);
    MG_CHECK(table.cap_parts * sizeof *table.parts <= 2 * (table.n_parts * sizeof *table.parts));
    MG_CHECK_INT(message(st, 1).elems, total);
    /* the same description again gives the same signature; one block changed is found where it is
     */
    uint32_t again = define(&(type_sig_desc){
        .constructor = TYPE_SIG_DESC_STRUCT, .count = MILLION, .blocklengths = lens, .types = types});
    MG_CHECK_INT(match(st, 3, again, 3).verdict, TYPE_MATCH_EQUAL);
    types[500000] = TYPE_SIG_DESC_FLOAT;
    uint32_t changed = define(&(type_sig_desc){
        .constructor = TYPE_SIG_DESC_STRUCT, .count = MILLION, .blocklengths = lens, .types = types});
    uint64_t where = 0;
    for (int i = 0; i < 500000; i++) {
        where += (uint64_t)lens[i];
    }
    type_match_result r = match(st, 2, changed, 2);
    expect_mismatch(r, where, TYPE_SIG_DESC_INT, TYPE_SIG_DESC_FLOAT);
    /* 4 x 10^6 blocks hashed plus a located mismatch: well under a second of CPU even under
     * sanitizers; an expansion of the 2 x 8 x 10^6 elements per side would not be bounded */
    MG_CHECK(cpu_seconds() - start < 5.0);
    free(lens);
    free(types);
}

static void test_bad_descriptions(void)
{
    size_t nodes = table.n_nodes, parts = table.n_parts;
    uint32_t id = 12345;
    int64_t lens[] = {1, 2};
    uint32_t lost[] = {TYPE_SIG_DESC_INT, (uint32_t)table.n_nodes + 7}; /* its definition never came */
    /* a description cut after its count: the arrays are missing */
    MG_CHECK_INT(
        type_sig_define(&table, &(type_sig_desc){.constructor = TYPE_SIG_DESC_STRUCT, .count = 2}, &id),
        MG_ERROR_EINVAL);
    MG_CHECK_INT(type_sig_define(&table,
                                 &(type_sig_desc){.constructor = TYPE_SIG_DESC_STRUCT,
                                                  .count = 2,
                                                  .blocklengths = lens,
                                                  .types = lost},
                                 &id),
                 MG_ERROR_ENOENT);
    MG_CHECK_INT(
        type_sig_define(
            &table,
            &(type_sig_desc){.constructor = TYPE_SIG_DESC_INDEXED, .count = 2, .oldtype = TYPE_SIG_DESC_INT},
            &id),
        MG_ERROR_EINVAL);
    MG_CHECK_INT(
        type_sig_define(&table, &(type_sig_desc){.constructor = 0, .oldtype = TYPE_SIG_DESC_INT}, &id),
        MG_ERROR_EINVAL);
    MG_CHECK_INT(type_sig_define(&table,
                                 &(type_sig_desc){.constructor = TYPE_SIG_DESC_CONTIGUOUS,
                                                  .count = -1,
                                                  .oldtype = TYPE_SIG_DESC_INT},
                                 &id),
                 MG_ERROR_EINVAL);
    MG_CHECK_INT(type_sig_define(&table, &(type_sig_desc){.constructor = TYPE_SIG_DESC_DUP}, &id),
                 MG_ERROR_ENOENT);
    MG_CHECK_INT(id, 12345);
    MG_CHECK_INT(table.n_nodes, nodes);
    MG_CHECK_INT(table.n_parts, parts);

    /* 2^40 x 2^40 elements do not fit 64 bits */
    uint32_t big = contiguous(1ll << 40, TYPE_SIG_DESC_INT);
    MG_CHECK_INT(type_sig_define(&table,
                                 &(type_sig_desc){.constructor = TYPE_SIG_DESC_CONTIGUOUS,
                                                  .count = 1ll << 40,
                                                  .oldtype = big},
                                 &id),
                 MG_ERROR_ERANGE);
    type_sig s;
    MG_CHECK_INT(type_sig_message(&table, big, 1ll << 40, &s), MG_ERROR_ERANGE);
    MG_CHECK_INT(type_sig_message(&table, (uint32_t)table.n_nodes, 1, &s), MG_ERROR_ENOENT);
    MG_CHECK_INT(type_sig_message(&table, TYPE_SIG_DESC_INT, -1, &s), MG_ERROR_EINVAL);
    uint32_t basic;
    MG_CHECK_INT(type_sig_element(&table, TYPE_SIG_DESC_INT, 3, 3, &basic), MG_ERROR_ERANGE);
    uint64_t h;
    MG_CHECK_INT(type_sig_prefix_hash(&table, TYPE_SIG_DESC_INT, 3, 4, &h), MG_ERROR_ERANGE);

    uint32_t t = TYPE_SIG_DESC_INT;
    for (unsigned depth = 0; depth < TYPE_SIG_MAX_DEPTH; depth++) {
        t = define(&(type_sig_desc){.constructor = TYPE_SIG_DESC_DUP, .oldtype = t});
    }
    MG_CHECK_INT(
        type_sig_define(&table, &(type_sig_desc){.constructor = TYPE_SIG_DESC_DUP, .oldtype = t}, &id),
        MG_ERROR_ERANGE);
    MG_CHECK_INT(match(t, 2, TYPE_SIG_DESC_INT, 2).verdict, TYPE_MATCH_EQUAL);
}

/* Encodes d, decodes it back and defines both: the same signature, the whole buffer consumed. */
static void round_trip(const type_sig_desc *d, uint8_t *buf, size_t cap, size_t *written)
{
    MG_CHECK_INT(type_sig_wire_encode(d, 77, buf, cap, written), MG_ERROR_OK);
    type_sig_desc back;
    uint32_t id = 0;
    void *storage = NULL;
    size_t used = 0;
    MG_CHECK_INT(type_sig_wire_decode(buf, *written, &back, &id, &storage, &used), MG_ERROR_OK);
    MG_CHECK_INT(id, 77);
    MG_CHECK_INT(used, *written);
    type_sig a = message(define(d), 2), b = message(define(&back), 2);
    MG_CHECK_INT(b.elems, a.elems);
    MG_CHECK(a.hash == b.hash);
    free(storage);
}

static void test_wire(void)
{
    uint8_t buf[512];
    size_t written = 0;
    int64_t lens[] = {2, 1, 1};
    uint32_t types[] = {TYPE_SIG_DESC_INT, TYPE_SIG_DESC_DOUBLE, TYPE_SIG_DESC_INT};
    type_sig_desc st = {
        .constructor = TYPE_SIG_DESC_STRUCT, .count = 3, .blocklengths = lens, .types = types};
    round_trip(&st, buf, sizeof buf, &written);
    MG_CHECK_INT(written, TYPE_SIG_WIRE_HEADER_SIZE + 3 * 12);
    int64_t g2[] = {4, 6}, p2[] = {2, 3}, a2[] = {TYPE_SIG_DESC_DARG_DEFAULT, 1};
    int32_t d2[] = {TYPE_SIG_DESC_DIST_BLOCK, TYPE_SIG_DESC_DIST_CYCLIC};
    size_t darray_size;
    round_trip(&(type_sig_desc){.constructor = TYPE_SIG_DESC_DARRAY,
                                .count = 2,
                                .sizes = g2,
                                .distribs = d2,
                                .dargs = a2,
                                .psizes = p2,
                                .rank = 4,
                                .oldtype = TYPE_SIG_DESC_DOUBLE},
               buf, sizeof buf, &darray_size);
    MG_CHECK_INT(darray_size, TYPE_SIG_WIRE_HEADER_SIZE + 2 * (3 * 8 + 4));
    round_trip(&(type_sig_desc){.constructor = TYPE_SIG_DESC_VECTOR,
                                .count = 5,
                                .blocklength = 3,
                                .oldtype = TYPE_SIG_DESC_FLOAT},
               buf, sizeof buf, &written);
    MG_CHECK_INT(written, TYPE_SIG_WIRE_HEADER_SIZE);

    /* the struct's description cut at every byte: refused, nothing allocated, no read past the cut
     */
    MG_CHECK_INT(type_sig_wire_encode(&st, 78, buf, sizeof buf, &written), MG_ERROR_OK);
    type_sig_desc d;
    uint32_t id;
    size_t used;
    int all_refused = 1;
    for (size_t cut = 0; cut < written; cut++) {
        void *storage = NULL;
        uint8_t *copy = malloc(cut ? cut : 1); /* exactly the cut bytes, so ASan sees an overread */
        MG_CHECK(copy != NULL);
        if (!copy) {
            return;
        }
        memcpy(copy, buf, cut);
        all_refused &= type_sig_wire_decode(copy, cut, &d, &id, &storage, &used) == MG_ERROR_EFORMAT &&
                       storage == NULL;
        free(copy);
    }
    MG_CHECK(all_refused);

    /* two descriptions in a row are walked by their sizes */
    size_t second;
    MG_CHECK_INT(type_sig_wire_encode(&st, 79, buf + written, sizeof buf - written, &second),
                 MG_ERROR_OK);
    void *storage = NULL;
    MG_CHECK_INT(type_sig_wire_decode(buf + written, second, &d, &id, &storage, &used), MG_ERROR_OK);
    MG_CHECK_INT(id, 79);
    MG_CHECK_INT(d.types[1], TYPE_SIG_DESC_DOUBLE);
    free(storage);

    uint8_t bad[sizeof buf];
    memcpy(bad, buf, written);
    bad[0] ^= 1;
    MG_CHECK_INT(type_sig_wire_decode(bad, written, &d, &id, &storage, &used), MG_ERROR_EFORMAT);
    memcpy(bad, buf, written);
    bad[2] = 9;
    MG_CHECK_INT(type_sig_wire_decode(bad, written, &d, &id, &storage, &used), MG_ERROR_EVERSION);
    memcpy(bad, buf, written);
    bad[3] = 99;
    MG_CHECK_INT(type_sig_wire_decode(bad, written, &d, &id, &storage, &used), MG_ERROR_EFORMAT);
    memcpy(bad, buf, written);
    bad[16 + 5] = 1; /* a count of 2^40 with a 36-byte payload */
    MG_CHECK_INT(type_sig_wire_decode(bad, written, &d, &id, &storage, &used), MG_ERROR_EFORMAT);
    MG_CHECK_INT(type_sig_wire_encode(&st, 78, buf, written - 1, &used), MG_ERROR_EFULL);
    st.types = NULL;
    MG_CHECK_INT(type_sig_wire_encode(&st, 78, buf, sizeof buf, &used), MG_ERROR_EINVAL);
}

/* Members of a collective of `n`, every one passing count x type on both sides. */
static void uniform(type_match_member *m, uint32_t n, uint32_t type, int64_t count)
{
    for (uint32_t i = 0; i < n; i++) {
        m[i] = (type_match_member){.send = {type, count}, .recv = {type, count}};
    }
}

static size_t run_collective(uint16_t func, const type_match_member *m, uint32_t n, int32_t root,
                             uint32_t op, type_match_issue *issues)
{
    size_t count = 99;
    MG_CHECK_INT(type_match_collective(&table, func, m, n, root, op, issues, 8, &count), MG_ERROR_OK);
    return count;
}

static void test_collectives(void)
{
    type_match_member m[4];
    type_match_issue is[8];

    uniform(m, 4, TYPE_SIG_DESC_DOUBLE, 3);
    m[3].send = (type_match_buffer){contiguous(3, TYPE_SIG_DESC_DOUBLE), 1};
    MG_CHECK_INT(run_collective(CHECK_EVENT_FN_GATHER, m, 4, 1, 0, is), 0);
    m[2].send = (type_match_buffer){TYPE_SIG_DESC_FLOAT, 3};
    MG_CHECK_INT(run_collective(CHECK_EVENT_FN_IGATHER, m, 4, 1, 0, is), 1);
    MG_CHECK_INT(is[0].problem, TYPE_MATCH_SIGNATURE);
    MG_CHECK_INT(is[0].sender, 2);
    MG_CHECK_INT(is[0].receiver, 1);
    MG_CHECK_INT(is[0].result.verdict, TYPE_MATCH_MISMATCH);
    MG_CHECK_INT(is[0].result.send_basic, TYPE_SIG_DESC_FLOAT);
    m[2].in_place = 1; /* only the root may gather in place */
    MG_CHECK_INT(run_collective(CHECK_EVENT_FN_GATHER, m, 4, 1, 0, is), 2);
    MG_CHECK_INT(is[0].problem, TYPE_MATCH_IN_PLACE);
    MG_CHECK_INT(is[0].sender, 2);

    uniform(m, 4, TYPE_SIG_DESC_INT, 5);
    m[0].in_place = 1;
    MG_CHECK_INT(run_collective(CHECK_EVENT_FN_BCAST, m, 4, 0, 0, is), 1);
    MG_CHECK_INT(is[0].problem, TYPE_MATCH_IN_PLACE);
    m[0].in_place = 0;
    m[3].send.count = 4; /* a Bcast receiving less than the root sends */
    MG_CHECK_INT(run_collective(CHECK_EVENT_FN_BCAST, m, 4, 0, 0, is), 1);
    MG_CHECK_INT(is[0].result.verdict, TYPE_MATCH_TRUNCATED);
    MG_CHECK_INT(is[0].sender, 0);
    MG_CHECK_INT(is[0].receiver, 3);

    uniform(m, 3, TYPE_SIG_DESC_INT, 2);
    m[1].in_place = 1; /* the root scatters in place: its recv is not read */
    m[1].recv = (type_match_buffer){TYPE_SIG_DESC_DOUBLE, 9};
    MG_CHECK_INT(run_collective(CHECK_EVENT_FN_SCATTER, m, 3, 1, 0, is), 0);
    type_match_buffer blocks[3] = {{TYPE_SIG_DESC_INT, 2}, {TYPE_SIG_DESC_INT, 2}, {TYPE_SIG_DESC_INT, 3}};
    m[1].sendv = blocks;
    MG_CHECK_INT(run_collective(CHECK_EVENT_FN_SCATTERV, m, 3, 1, 0, is), 1);
    MG_CHECK_INT(is[0].receiver, 2);
    MG_CHECK_INT(is[0].result.verdict, TYPE_MATCH_TRUNCATED);

    /* Allgather in place everywhere: the receive blocks are what is sent */
    uniform(m, 4, TYPE_SIG_DESC_2INT, 1);
    for (int i = 0; i < 4; i++) {
        m[i].in_place = 1;
        m[i].send = (type_match_buffer){TYPE_SIG_DESC_CHAR, 1}; /* not significant in place */
    }
    MG_CHECK_INT(run_collective(CHECK_EVENT_FN_ALLGATHER, m, 4, CHECK_EVENT_NO_ROOT, 0, is), 0);
    m[2].recv = (type_match_buffer){TYPE_SIG_DESC_INT, 3};
    MG_CHECK(run_collective(CHECK_EVENT_FN_ALLGATHER, m, 4, CHECK_EVENT_NO_ROOT, 0, is) > 0);

    /* Alltoallv: rank 1 sends rank 2 three ints, rank 2 expects two */
    type_match_buffer sendv[3][3], recvv[3][3];
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            sendv[i][j] = recvv[i][j] = (type_match_buffer){TYPE_SIG_DESC_INT, i + j};
        }
        m[i] = (type_match_member){.sendv = sendv[i], .recvv = recvv[i]};
    }
    MG_CHECK_INT(run_collective(CHECK_EVENT_FN_ALLTOALLV, m, 3, CHECK_EVENT_NO_ROOT, 0, is), 0);
    recvv[2][1].count = 2;
    MG_CHECK_INT(run_collective(CHECK_EVENT_FN_IALLTOALLV, m, 3, CHECK_EVENT_NO_ROOT, 0, is), 1);
    MG_CHECK_INT(is[0].sender, 1);
    MG_CHECK_INT(is[0].receiver, 2);
    MG_CHECK_INT(is[0].result.verdict, TYPE_MATCH_TRUNCATED);

    /* reductions: the same signature everywhere, a builtin op on a predefined type only */
    uint32_t four_doubles = contiguous(4, TYPE_SIG_DESC_DOUBLE);
    uniform(m, 4, TYPE_SIG_DESC_DOUBLE, 4);
    m[0].in_place = 1;
    MG_CHECK_INT(run_collective(CHECK_EVENT_FN_ALLREDUCE, m, 4, CHECK_EVENT_NO_ROOT, CHECK_EVENT_OP_SUM, is), 0);
    m[1].send = (type_match_buffer){four_doubles, 1}; /* the same signature, a derived type */
    MG_CHECK_INT(run_collective(CHECK_EVENT_FN_ALLREDUCE, m, 4, CHECK_EVENT_NO_ROOT, CHECK_EVENT_OP_SUM, is), 1);
    MG_CHECK_INT(is[0].problem, TYPE_MATCH_OP_TYPE);
    MG_CHECK_INT(is[0].sender, 1);
    MG_CHECK_INT(run_collective(CHECK_EVENT_FN_REDUCE, m, 4, 2, CHECK_EVENT_OP_BAND, is), 5);
    MG_CHECK_INT(is[0].problem, TYPE_MATCH_IN_PLACE); /* rank 0 is not the root */
    MG_CHECK_INT(is[1].problem, TYPE_MATCH_OP_TYPE);
    MG_CHECK_INT(is[1].sender, 0);
    m[1].send = (type_match_buffer){TYPE_SIG_DESC_DOUBLE, 4};
    m[3].send.count = 2;
    MG_CHECK_INT(run_collective(CHECK_EVENT_FN_SCAN, m, 4, CHECK_EVENT_NO_ROOT, CHECK_EVENT_OP_PROD, is), 1);
    MG_CHECK_INT(is[0].problem, TYPE_MATCH_SIGNATURE);
    MG_CHECK_INT(is[0].sender, 0);
    MG_CHECK_INT(is[0].receiver, 3);
    MG_CHECK_INT(is[0].result.verdict, TYPE_MATCH_TRUNCATED);

    MG_CHECK(type_match_op_allowed(&table, CHECK_EVENT_OP_MAXLOC, TYPE_SIG_DESC_DOUBLE_INT));
    MG_CHECK(type_match_op_allowed(&table, CHECK_EVENT_OP_MINLOC, TYPE_SIG_DESC_2INTEGER));
    MG_CHECK(!type_match_op_allowed(&table, CHECK_EVENT_OP_MINLOC, contiguous(5, TYPE_SIG_DESC_2INT)));
    MG_CHECK(!type_match_op_allowed(&table, CHECK_EVENT_OP_MAXLOC, TYPE_SIG_DESC_INT));
    MG_CHECK(!type_match_op_allowed(&table, CHECK_EVENT_OP_SUM, TYPE_SIG_DESC_2INT));
    MG_CHECK(!type_match_op_allowed(&table, CHECK_EVENT_OP_SUM, four_doubles));
    MG_CHECK(type_match_op_allowed(&table, CHECK_EVENT_OP_USER + 3, int_int_double_int()));
    MG_CHECK(type_match_op_allowed(&table, CHECK_EVENT_OP_REPLACE, four_doubles));
    MG_CHECK(!type_match_op_allowed(&table, CHECK_EVENT_OP_LAND, TYPE_SIG_DESC_DOUBLE));
    MG_CHECK(type_match_op_allowed(&table, CHECK_EVENT_OP_LAND, TYPE_SIG_DESC_C_BOOL));
    MG_CHECK(type_match_op_allowed(&table, CHECK_EVENT_OP_BXOR, TYPE_SIG_DESC_BYTE));
    MG_CHECK(!type_match_op_allowed(&table, CHECK_EVENT_OP_BXOR, TYPE_SIG_DESC_FLOAT));
    MG_CHECK(!type_match_op_allowed(&table, CHECK_EVENT_OP_SUM, TYPE_SIG_DESC_CHAR));
    MG_CHECK(type_match_op_allowed(&table, CHECK_EVENT_OP_SUM, TYPE_SIG_DESC_C_DOUBLE_COMPLEX));
    MG_CHECK(!type_match_op_allowed(&table, CHECK_EVENT_OP_MAX, TYPE_SIG_DESC_C_DOUBLE_COMPLEX));

    size_t count;
    MG_CHECK_INT(type_match_collective(&table, CHECK_EVENT_FN_SEND, m, 4, 0, 0, is, 8, &count),
                 MG_ERROR_EUNSUPPORTED);
    MG_CHECK_INT(type_match_collective(&table, CHECK_EVENT_FN_GATHER, m, 4, 4, 0, is, 8, &count),
                 MG_ERROR_EINVAL);
    m[0].recvv = NULL;
    MG_CHECK_INT(type_match_collective(&table, CHECK_EVENT_FN_GATHERV, m, 4, 0, 0, is, 8, &count),
                 MG_ERROR_EINVAL);
    MG_CHECK_INT(run_collective(CHECK_EVENT_FN_BARRIER, m, 4, CHECK_EVENT_NO_ROOT, 0, is), 0);
}

int main(void)
{
    if (type_sig_table_init(&table) != MG_ERROR_OK) {
        fprintf(stderr, "type_sig_table_init failed\n");
        return 1;
    }
    MG_RUN(test_every_constructor);
    MG_RUN(test_nesting);
    MG_RUN(test_prefix_truncation_mismatch);
    MG_RUN(test_pair_types);
    MG_RUN(test_byte_and_packed);
    MG_RUN(test_million_blocks);
    MG_RUN(test_bad_descriptions);
    MG_RUN(test_wire);
    MG_RUN(test_collectives);
    type_sig_table_free(&table);
    MG_TEST_END();
}
