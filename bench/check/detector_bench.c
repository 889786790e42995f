/* Benchmark of the deadlock detector on synthetic record streams (no MPI): throughput in
 * records/s, per-record cost as P grows, and the time of one on-demand wait-for graph
 * construction + OR-knot search for 10^4..10^6 blocked processes. Thread CPU time, so other load
 * on the shared machine does not count. Figures: docs/design/check-detector.md §11.
 * Usage: check_detector_bench [quick]   (quick: smaller sizes, for a smoke run) */
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check_event.h"
#include "deadlock_detector.h"
#include "mg_error.h"

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Heap bytes in use (glibc), for the detector's memory per process. */
static double heap_bytes(void)
{
    struct mallinfo2 mi = mallinfo2();
    return (double)mi.uordblks + (double)mi.hblkhd;
}

typedef struct feeder {
    deadlock_detector *det;
    uint64_t *seq;
    uint64_t now, records;
    int bytes; /* feed encoded records through deadlock_detector_feed_bytes */
    uint8_t buf[4096];
    int failed;
} feeder;

enum input { INPUT_EVENT, INPUT_BYTES, INPUT_ENCODE };
static const char *input_name[] = {"event", "bytes", "enc"};

static void feed(feeder *f, check_event *ev)
{
    ev->seq = ++f->seq[ev->rank];
    int rc;
    if (f->bytes != INPUT_EVENT) {
        size_t len, used;
        rc = check_event_encode(ev, f->buf, sizeof f->buf, &len);
        if (!rc && f->bytes == INPUT_BYTES) {
            rc = deadlock_detector_feed_bytes(f->det, f->buf, len, ++f->now, &used);
        }
    } else {
        rc = deadlock_detector_feed(f->det, ev, ++f->now);
    }
    if (rc && !f->failed) {
        fprintf(stderr, "feed failed: %s (rank %d func %u)\n", mg_error_string(rc), ev->rank, ev->func);
        f->failed = 1;
    }
    f->records++;
}

static check_event ev_of(int kind, int32_t rank, uint16_t func)
{
    check_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = (uint8_t)kind;
    ev.rank = rank;
    ev.func = func;
    ev.comm = CHECK_EVENT_COMM_WORLD;
    ev.root = CHECK_EVENT_NO_ROOT;
    ev.count = 8;
    /* 8 elements of one basic type: every matched pair and collective slot compares them */
    ev.type_hash = 0x5EED;
    ev.type_elems = 8;
    ev.type_period = 0x5EED;
    ev.flags = CHECK_EVENT_FLAG_TYPE_UNIFORM;
    ev.callsite = 0x401000u + func;
    return ev;
}

static void call(feeder *f, int32_t rank, uint16_t func, int32_t peer, uint64_t req,
                 const uint64_t *reqs, uint32_t nreq, const check_event_status *st, uint32_t nst)
{
    check_event ev = ev_of(CHECK_EVENT_EV_ENTER, rank, func);
    ev.peer = peer;
    ev.request = req;
    ev.requests = reqs;
    ev.n_requests = nreq;
    feed(f, &ev);
    ev.kind = CHECK_EVENT_EV_EXIT;
    ev.statuses = st;
    ev.n_statuses = nst;
    ev.result = 1;
    feed(f, &ev);
}

enum workload { RING, WILDCARD, COLLECTIVE };

static const char *workload_name[] = {"ring Isend/Irecv/Waitall + Allreduce",
                                      "master-worker ANY_SOURCE", "Bcast/Allreduce/Barrier"};

/* One round of the workload; returns records fed. */
static void round_of(feeder *f, enum workload w, int32_t p, uint64_t it)
{
    if (w == RING) {
        for (int32_t r = 0; r < p; r++) {
            uint64_t reqs[2] = {2 * it + 1, 2 * it + 2};
            call(f, r, CHECK_EVENT_FN_ISEND, (r + 1) % p, reqs[0], NULL, 0, NULL, 0);
            call(f, r, CHECK_EVENT_FN_IRECV, (r + p - 1) % p, reqs[1], NULL, 0, NULL, 0);
        }
        for (int32_t r = 0; r < p; r++) {
            uint64_t reqs[2] = {2 * it + 1, 2 * it + 2};
            call(f, r, CHECK_EVENT_FN_WAITALL, CHECK_EVENT_PROC_NULL, 0, reqs, 2, NULL, 0);
        }
        if (it % 8 == 7) {
            for (int32_t r = 0; r < p; r++) {
                call(f, r, CHECK_EVENT_FN_ALLREDUCE, CHECK_EVENT_PROC_NULL, 0, NULL, 0, NULL, 0);
            }
        }
    } else if (w == WILDCARD) {
        /* Rank 0 serves the workers in an order that rotates each round. */
        for (int32_t r = 1; r < p; r++) {
            call(f, r, CHECK_EVENT_FN_SEND, 0, 0, NULL, 0, NULL, 0);
        }
        for (int32_t i = 0; i < p - 1; i++) {
            int32_t src = 1 + (int32_t)((i + it) % (uint64_t)(p - 1));
            check_event_status st = {0, src, 0, 0, 8};
            call(f, 0, CHECK_EVENT_FN_RECV, CHECK_EVENT_ANY_SOURCE, 0, NULL, 0, &st, 1);
        }
    } else {
        for (int32_t r = 0; r < p; r++) {
            call(f, r, CHECK_EVENT_FN_BCAST, CHECK_EVENT_PROC_NULL, 0, NULL, 0, NULL, 0);
        }
        for (int32_t r = 0; r < p; r++) {
            call(f, r, CHECK_EVENT_FN_ALLREDUCE, CHECK_EVENT_PROC_NULL, 0, NULL, 0, NULL, 0);
        }
        for (int32_t r = 0; r < p; r++) {
            call(f, r, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_PROC_NULL, 0, NULL, 0, NULL, 0);
        }
    }
}

static int open_feeder(feeder *f, int32_t p, int bytes)
{
    memset(f, 0, sizeof *f);
    f->bytes = bytes;
    f->seq = calloc((size_t)p, sizeof *f->seq);
    return f->seq && deadlock_detector_create(NULL, p, &f->det) == MG_ERROR_OK ? 0 : -1;
}

static void close_feeder(feeder *f)
{
    deadlock_detector_destroy(f->det);
    free(f->seq);
}

/* Feeds about `target` records of workload w for p ranks; prints ns/record and records/s. */
static int throughput(enum workload w, int32_t p, uint64_t target, int bytes)
{
    feeder f;
    if (open_feeder(&f, p, bytes)) {
        return -1;
    }
    double t0 = cpu_s();
    for (uint64_t it = 0; f.records < target && !f.failed; it++) {
        round_of(&f, w, p, it);
    }
    double dt = cpu_s() - t0;
    size_t n_findings;
    deadlock_detector_findings(f.det, &n_findings);
    deadlock_detector_queues q;
    deadlock_detector_queue_sizes(f.det, &q);
    printf("| %-38s | %8d | %5s | %10llu | %8.0f | %12.0f | %8zu |\n", workload_name[w], p,
           input_name[bytes], (unsigned long long)f.records, dt * 1e9 / (double)f.records,
           (double)f.records / dt, n_findings + q.held_records);
    int bad = f.failed;
    close_feeder(&f);
    return bad ? -1 : 0;
}

/* One-sided accesses (rma_conflicts.c): a window over p ranks, then fence epochs in which each
 * rank puts `per` disjoint 8-byte blocks to its right neighbour; every access is compared with
 * the epoch's earlier ones. Prints ns/record like throughput(). */
static int rma_throughput(int32_t p, int32_t per, uint64_t target)
{
    enum { WIN = 0x77 };
    feeder f;
    int32_t *members = calloc((size_t)p, sizeof *members);
    if (!members || open_feeder(&f, p, INPUT_EVENT)) {
        free(members);
        return -1;
    }
    for (int32_t r = 0; r < p; r++) {
        members[r] = r;
        check_event ev = ev_of(CHECK_EVENT_EV_ENTER, r, CHECK_EVENT_FN_WIN_CREATE);
        feed(&f, &ev);
    }
    for (int32_t r = 0; r < p; r++) {
        check_event ev = ev_of(CHECK_EVENT_EV_EXIT, r, CHECK_EVENT_FN_WIN_CREATE);
        ev.aux = WIN;
        ev.ranks = members;
        ev.n_ranks = ev.n_local = (uint32_t)p;
        feed(&f, &ev);
    }
    uint64_t made = f.records;
    double t0 = cpu_s();
    while (f.records - made < target && !f.failed) {
        for (int32_t r = 0; r < p; r++) {
            for (int kind = CHECK_EVENT_EV_ENTER; kind <= CHECK_EVENT_EV_EXIT; kind++) {
                check_event ev = ev_of(kind, r, CHECK_EVENT_FN_WIN_FENCE);
                ev.comm = WIN;
                feed(&f, &ev);
            }
        }
        for (int32_t r = 0; r < p; r++) {
            for (int32_t i = 0; i < per; i++) {
                for (int kind = CHECK_EVENT_EV_ENTER; kind <= CHECK_EVENT_EV_EXIT; kind++) {
                    check_event ev = ev_of(kind, r, CHECK_EVENT_FN_PUT);
                    ev.comm = WIN;
                    ev.peer = (r + 1) % p;
                    ev.aux = (uint64_t)i;
                    feed(&f, &ev);
                }
            }
        }
    }
    double dt = cpu_s() - t0;
    size_t n_findings;
    deadlock_detector_findings(f.det, &n_findings);
    char name[40];
    snprintf(name, sizeof name, "fence epochs, %d Puts per rank", per);
    printf("| %-38s | %8d | %5s | %10llu | %8.0f | %12.0f | %8zu |\n", name, p, "event",
           (unsigned long long)(f.records - made), dt * 1e9 / (double)(f.records - made),
           (double)(f.records - made) / dt, n_findings);
    int failed = f.failed;
    close_feeder(&f);
    free(members);
    return failed ? -1 : 0;
}

enum blocked_shape { RECV_RING, BARRIER_MISSING_ONE, ANY_SOURCE_ALL };

static const char *shape_name[] = {"Recv ring (AND cycle)", "Barrier, one rank in Recv",
                                   "everyone in Recv(ANY_SOURCE)"};

/* n processes blocked in one shape, then one check_now: prints the time and the graph size. */
static int wfg(enum blocked_shape shape, int32_t n)
{
    double heap0 = heap_bytes();
    feeder f;
    if (open_feeder(&f, n, 0)) {
        return -1;
    }
    for (int32_t r = 0; r < n; r++) {
        check_event ev = ev_of(CHECK_EVENT_EV_ENTER, r, CHECK_EVENT_FN_RECV);
        if (shape == RECV_RING) {
            ev.peer = (r + n - 1) % n;
        } else if (shape == ANY_SOURCE_ALL) {
            ev.peer = CHECK_EVENT_ANY_SOURCE;
        } else if (r == n - 1) {
            ev.peer = 0;
        } else {
            ev.func = CHECK_EVENT_FN_BARRIER;
        }
        feed(&f, &ev);
    }
    double heap1 = heap_bytes();
    int all_blocked = deadlock_detector_is_every_live_process_blocked(f.det);
    double t0 = cpu_s();
    size_t n_new = 0;
    int rc = deadlock_detector_check_now(f.det, ++f.now, &n_new);
    double dt = cpu_s() - t0;
    size_t n_findings;
    const dl_finding *fs = deadlock_detector_findings(f.det, &n_findings);
    size_t knot = n_findings ? fs[0].n_knot : 0, nodes = n_findings ? fs[0].graph.n_nodes : 0;
    size_t arcs = n_findings ? fs[0].graph.n_arcs : 0;
    printf("| %-30s | %8d | %3s | %8.3f | %7zu | %8zu | %8zu | %8.0f |\n", shape_name[shape], n,
           all_blocked ? "yes" : "no", dt, knot, nodes, arcs, (heap1 - heap0) / n);
    close_feeder(&f);
    return rc || n_new != 1 ? -1 : 0;
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && strcmp(argv[1], "quick") == 0;
    uint64_t target = quick ? 200000 : 2000000;
    int bad = 0;
    printf("Detector throughput and per-record cost (thread CPU time)\n\n");
    printf("| %-38s | %8s | %5s | %10s | %8s | %12s | %8s |\n", "workload", "P", "input", "records",
           "ns/rec", "records/s", "findings");
    printf("|%s|%s|%s|%s|%s|%s|%s|\n", "----------------------------------------", "----------",
           "-------", "------------", "----------", "--------------", "----------");
    int32_t ps[] = {1000, 10000, 100000};
    for (int w = RING; w <= COLLECTIVE; w++) {
        for (int i = 0; i < 3; i++) {
            int32_t p = quick ? ps[i] / 10 : ps[i];
            bad |= throughput((enum workload)w, p, target, INPUT_EVENT);
        }
    }
    bad |= throughput(RING, quick ? 100 : 1000, target, INPUT_BYTES);
    /* The ring's records are not fed here (the round structure still runs on the empty model). */
    bad |= throughput(RING, quick ? 100 : 1000, target, INPUT_ENCODE);
    bad |= rma_throughput(8, 8, target);
    bad |= rma_throughput(8, 64, target);
    bad |= rma_throughput(64, 64, target);
    printf("\nOn-demand wait-for graph + OR-knot search (one check_now)\n\n");
    printf("| %-30s | %8s | %3s | %8s | %7s | %8s | %8s | %8s |\n", "blocked processes", "N", "all",
           "check s", "knot", "nodes", "arcs", "B/proc");
    printf("|%s|%s|%s|%s|%s|%s|%s|%s|\n", "--------------------------------", "----------", "-----",
           "----------", "---------", "----------", "----------", "----------");
    int32_t ns[] = {10000, 100000, 1000000};
    for (int s = RECV_RING; s <= ANY_SOURCE_ALL; s++) {
        for (int i = 0; i < 3; i++) {
            bad |= wfg((enum blocked_shape)s, quick ? ns[i] / 100 : ns[i]);
        }
    }
    return bad ? 1 : 0;
}
