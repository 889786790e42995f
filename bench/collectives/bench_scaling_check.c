/* Micro-benchmark of the per-call cost of Detectors D/G/X (mg_scaling, no MPI): thread CPU ns per
 * scaling_check for P = 4..1024, regular and irregular, without and with a trigger (thread CPU time
 * so that other load on the shared machine does not count). docs/collectives-engine.md §6. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "scaling_check.h"

enum { MIN_NS = 100000000 }; /* run each case for at least 0.1 s */

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static volatile unsigned sink;

static double time_check(const scaling_bounds *b, const scaling_args *a, int64_t *scratch)
{
    scaling_check_trigger t;
    long iters = 1;
    for (;;) {
        double t0 = now_ns();
        for (long i = 0; i < iters; i++) {
            scaling_check(b, a, scratch, &t);
            sink += t.fired;
        }
        double dt = now_ns() - t0;
        if (dt >= MIN_NS)
            return dt / (double)iters;
        iters *= 2;
    }
}

int main(void)
{
    static const uint32_t procs[] = {4, 16, 64, 256, 1024};
    /* A table as the tester would write it: a few points per collective. */
    static const scaling_bounds_entry entries[] = {
        {SCALING_COLL_GATHER, 1, 48, 124u << 20, SCALING_BOUNDS_CLASS_X, SCALING_BOUNDS_FORM_N},
        {SCALING_COLL_GATHER, 2, 48, 68u << 20, SCALING_BOUNDS_CLASS_X, SCALING_BOUNDS_FORM_N},
        {SCALING_COLL_GATHER, 1, 96, 62u << 20, SCALING_BOUNDS_CLASS_X, SCALING_BOUNDS_FORM_N},
        {SCALING_COLL_GATHERV, 1, 48, 42u << 20, SCALING_BOUNDS_CLASS_G, SCALING_BOUNDS_FORM_NP},
        {SCALING_COLL_ALLTOALLV, 1, 48, 42u << 20, SCALING_BOUNDS_CLASS_G, SCALING_BOUNDS_FORM_NP},
    };
    scaling_bounds b;
    scaling_bounds_init(&b, "bench", "0", entries, sizeof entries / sizeof entries[0]);
    int *counts = malloc(1024 * sizeof(int)), *displs = malloc(1024 * sizeof(int));
    int *wrapped = malloc(1024 * sizeof(int));
    int64_t *scratch = malloc(2048 * sizeof(int64_t));
    if (!counts || !displs || !wrapped || !scratch)
        return 1;
    printf("%-6s %12s %12s %14s %14s %14s\n", "P", "Gather", "Gatherv", "Gatherv+D", "Alltoallv",
           "Gatherv/P");
    for (int k = 0; k < 5; k++) {
        uint32_t P = procs[k];
        int64_t at = 0, wat = 0;
        int big = (int)(((int64_t)3 << 31) / P); /* P messages that sum to 1.5 wraps */
        for (uint32_t i = 0; i < P; i++) {
            counts[i] = 1000;
            displs[i] = (int)at;
            at += 1000;
            wrapped[i] = (int)(int32_t)(uint32_t)wat;
            wat += big;
        }
        scaling_args g = {.coll = SCALING_COLL_GATHER, .nprocs = P, .type_size = 1, .count = 1000};
        scaling_args gv = {.coll = SCALING_COLL_GATHERV, .nprocs = P, .type_size = 1, .count = 1000};
        gv.counts_a = counts, gv.displs_a = displs;
        scaling_args gd = gv;
        gd.displs_a = wrapped;
        scaling_args av = {.coll = SCALING_COLL_ALLTOALLV, .nprocs = P, .type_size = 1};
        av.counts_a = counts, av.displs_a = displs, av.counts_b = counts, av.displs_b = displs;
        double t_g = time_check(&b, &g, scratch), t_gv = time_check(&b, &gv, scratch);
        double t_gd = time_check(&b, &gd, scratch), t_av = time_check(&b, &av, scratch);
        printf("%-6u %12.1f %12.1f %14.1f %14.1f %14.3f\n", P, t_g, t_gv, t_gd, t_av, t_gv / P);
    }
    free(counts);
    free(displs);
    free(wrapped);
    free(scratch);
    return 0;
}
