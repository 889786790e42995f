/* Benchmark of the type-signature engine (no MPI): the cost of computing a type's signature, of
 * hashing a message and of comparing a send with its receive, against the nesting depth (1..64)
 * and the block count (1..10^6) of the type; and the detector-side cost per record of a compare.
 * Thread CPU time, so other load on the shared machine does not count. Figures:
 * docs/design/check-detector.md §13. Usage: check_type_sig_bench [quick] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mg_error.h"
#include "type_match.h"
#include "type_sig.h"

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int failed;

static void check(int rc, const char *what)
{
    if (rc && !failed) {
        fprintf(stderr, "%s failed: %s\n", what, mg_error_string(rc));
        failed = 1;
    }
}

/* ns per call of type_match_p2p(send, recv), over `reps` calls; the verdict through *verdict. */
static double compare_ns(const type_sig_table *t, type_match_buffer send, type_match_buffer recv,
                         long reps, int *verdict)
{
    type_match_result r = {0};
    double start = cpu_s();
    for (long i = 0; i < reps; i++) {
        check(type_match_p2p(t, send, recv, &r), "type_match_p2p");
    }
    *verdict = r.verdict;
    return (cpu_s() - start) / (double)reps * 1e9;
}

static const char *verdict_name(int v)
{
    static const char *names[] = {"equal", "prefix", "truncated", "mismatch"};
    return v >= 0 && v <= TYPE_MATCH_MISMATCH ? names[v] : "?";
}

/* level k = struct {INT, level k-1}, level 0 = contiguous(1, base): the last element of each
 * instance sits at the bottom, so a mismatch there is located through every level. */
static uint32_t nest(type_sig_table *t, uint32_t base, int depth, double *define_ns)
{
    uint32_t type;
    check(type_sig_define(
              t, &(type_sig_desc){.constructor = TYPE_SIG_DESC_CONTIGUOUS, .count = 1, .oldtype = base},
              &type),
          "define");
    int64_t ones[] = {1, 1};
    double spent = 0;
    for (int level = 1; level <= depth; level++) {
        uint32_t types[] = {TYPE_SIG_DESC_INT, type};
        double start = cpu_s();
        check(type_sig_define(t,
                              &(type_sig_desc){.constructor = TYPE_SIG_DESC_STRUCT,
                                               .count = 2,
                                               .blocklengths = ones,
                                               .types = types},
                              &type),
              "define");
        spent += cpu_s() - start;
    }
    *define_ns = spent / depth * 1e9;
    return type;
}

static void by_depth(long reps)
{
    printf(
        "Signature and compare cost against nesting depth (struct {INT, level-1}, count 1000)\n\n");
    printf("| depth | define ns/level | message ns | equal ns | prefix ns | mismatch ns | mismatch "
           "at |\n");
    printf("|-------|-----------------|------------|----------|-----------|-------------|----------"
           "---|\n");
    for (int depth = 1; depth <= 64; depth *= 2) {
        type_sig_table t;
        check(type_sig_table_init(&t), "init");
        double define_ns, ignored;
        uint32_t a = nest(&t, TYPE_SIG_DESC_DOUBLE, depth, &define_ns);
        uint32_t b = nest(&t, TYPE_SIG_DESC_FLOAT, depth, &ignored);
        type_sig s;
        double start = cpu_s();
        for (long i = 0; i < reps; i++) {
            check(type_sig_message(&t, a, 1000 + (i & 1), &s), "message");
        }
        double message_ns = (cpu_s() - start) / (double)reps * 1e9;
        int v1, v2, v3;
        double eq = compare_ns(&t, (type_match_buffer){a, 1000}, (type_match_buffer){a, 1000}, reps,
                               &v1);
        double pre = compare_ns(&t, (type_match_buffer){a, 1000}, (type_match_buffer){a, 1001},
                                reps, &v2);
        double mis = compare_ns(&t, (type_match_buffer){a, 1000}, (type_match_buffer){b, 1000},
                                reps / 10 + 1, &v3);
        type_match_result r;
        check(type_match_p2p(&t, (type_match_buffer){a, 1000}, (type_match_buffer){b, 1000}, &r),
              "type_match_p2p");
        if (v1 != TYPE_MATCH_EQUAL || v2 != TYPE_MATCH_PREFIX || v3 != TYPE_MATCH_MISMATCH) {
            fprintf(stderr, "unexpected verdicts %s %s %s\n", verdict_name(v1), verdict_name(v2),
                    verdict_name(v3));
            failed = 1;
        }
        printf("| %5d | %15.0f | %10.0f | %8.0f | %9.0f | %11.0f | %11llu |\n", depth, define_ns,
               message_ns, eq, pre, mis, (unsigned long long)r.position);
        type_sig_table_free(&t);
    }
}

static void by_blocks(long reps, long max_blocks)
{
    printf("\nSignature and compare cost against block count (struct of n blocks of 2, INT and "
           "DOUBLE\n"
           "alternating; indexed of n blocks; one copy compared with one whose middle block "
           "differs)\n\n");
    printf("| blocks  | struct define ms | ns/block | parts   | bytes     | indexed define ms | "
           "equal ns | mismatch ns |\n");
    printf("|---------|------------------|----------|---------|-----------|-------------------|----"
           "------|-------------|\n");
    int64_t *lens = malloc((size_t)max_blocks * sizeof *lens);
    uint32_t *types = malloc((size_t)max_blocks * sizeof *types);
    if (!lens || !types) {
        fprintf(stderr, "out of memory\n");
        failed = 1;
        free(lens);
        free(types);
        return;
    }
    for (long n = 1; n <= max_blocks; n *= 10) {
        for (long i = 0; i < n; i++) {
            lens[i] = 2;
            types[i] = i % 2 ? TYPE_SIG_DESC_DOUBLE : TYPE_SIG_DESC_INT;
        }
        type_sig_table t;
        check(type_sig_table_init(&t), "init");
        size_t parts_before = t.n_parts;
        uint32_t a, b, ind;
        double start = cpu_s();
        check(type_sig_define(&t,
                              &(type_sig_desc){.constructor = TYPE_SIG_DESC_STRUCT,
                                               .count = n,
                                               .blocklengths = lens,
                                               .types = types},
                              &a),
              "define");
        double define_s = cpu_s() - start;
        size_t parts = t.n_parts - parts_before;
        types[n / 2] = TYPE_SIG_DESC_FLOAT;
        check(type_sig_define(&t,
                              &(type_sig_desc){.constructor = TYPE_SIG_DESC_STRUCT,
                                               .count = n,
                                               .blocklengths = lens,
                                               .types = types},
                              &b),
              "define");
        start = cpu_s();
        check(type_sig_define(&t,
                              &(type_sig_desc){.constructor = TYPE_SIG_DESC_INDEXED,
                                               .count = n,
                                               .blocklengths = lens,
                                               .oldtype = TYPE_SIG_DESC_INT},
                              &ind),
              "define");
        double indexed_s = cpu_s() - start;
        int v1, v2;
        double eq = compare_ns(&t, (type_match_buffer){a, 1}, (type_match_buffer){a, 1}, reps, &v1);
        double mis = compare_ns(&t, (type_match_buffer){a, 1}, (type_match_buffer){b, 1},
                                reps / 10 + 1, &v2);
        if (v1 != TYPE_MATCH_EQUAL || v2 != TYPE_MATCH_MISMATCH) {
            fprintf(stderr, "unexpected verdicts %s %s\n", verdict_name(v1), verdict_name(v2));
            failed = 1;
        }
        printf("| %7ld | %16.3f | %8.1f | %7zu | %9zu | %17.3f | %8.0f | %11.0f |\n", n,
               define_s * 1e3, define_s / (double)n * 1e9, parts, parts * sizeof *t.parts,
               indexed_s * 1e3, eq, mis);
        type_sig_table_free(&t);
    }
    free(lens);
    free(types);
}

/* What a record costs the detector: the capture side sends (elements, hash) of the whole message
 * with each operation, so a matched pair with equal signatures is two integer comparisons; only a
 * pair that differs goes to type_match_p2p for the verdict and the position. */
static void per_record(long reps)
{
    type_sig_table t;
    check(type_sig_table_init(&t), "init");
    type_sig sent, received;
    check(type_sig_message(&t, TYPE_SIG_DESC_DOUBLE, 1000, &sent), "message");
    check(type_sig_message(&t, TYPE_SIG_DESC_DOUBLE, 1000, &received), "message");
    volatile uint64_t recv_elems = received.elems, recv_hash = received.hash; /* read each time */
    uint64_t same = 0;
    double start = cpu_s();
    for (long i = 0; i < reps * 100; i++) {
        same += sent.elems == recv_elems && sent.hash == recv_hash;
    }
    double fast = (cpu_s() - start) / (double)(reps * 100) * 1e9;
    int v1, v2;
    double full = compare_ns(&t, (type_match_buffer){TYPE_SIG_DESC_DOUBLE, 1000},
                             (type_match_buffer){TYPE_SIG_DESC_DOUBLE, 1000}, reps, &v1);
    double mis = compare_ns(&t, (type_match_buffer){TYPE_SIG_DESC_DOUBLE, 1000},
                            (type_match_buffer){TYPE_SIG_DESC_INT, 1000}, reps, &v2);
    printf("\nDetector-side cost per matched pair (count 1000)\n\n");
    printf("| check                                   |       ns | pairs/s     |\n");
    printf("|-----------------------------------------|----------|-------------|\n");
    printf("| (elements, hash) from the records       | %8.1f | %11.0f |\n", fast, 1e9 / fast);
    printf("| type_match_p2p, equal                   | %8.1f | %11.0f |\n", full, 1e9 / full);
    printf("| type_match_p2p, mismatch located        | %8.1f | %11.0f |\n", mis, 1e9 / mis);
    if (same != (uint64_t)reps * 100 || v1 != TYPE_MATCH_EQUAL || v2 != TYPE_MATCH_MISMATCH) {
        fprintf(stderr, "unexpected verdicts\n");
        failed = 1;
    }
    type_sig_table_free(&t);
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && strcmp(argv[1], "quick") == 0;
    long reps = quick ? 2000 : 100000;
    by_depth(reps);
    by_blocks(quick ? 200 : 2000, quick ? 10000 : 1000000);
    per_record(reps);
    return failed;
}
