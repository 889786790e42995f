/* Allocation failure everywhere: the test binary wraps malloc/calloc/realloc (linker --wrap) and
 * fails the Nth allocation for every N of a scenario that exercises matching, holding, collective
 * mismatches, the wait-for analysis and probing. Each call must return MG_ERROR_OK or MG_ERROR_ENOMEM, never
 * crash, and (under ASan) leak nothing after destroy. */
#include <stdlib.h>

#include "dl_stream.h"

static long fail_countdown = -1; /* allocations left before one fails; -1: never */
static long allocations;

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);

static int should_fail(void)
{
    allocations++;
    if (fail_countdown < 0) {
        return 0;
    }
    return fail_countdown-- == 0;
}

void *__wrap_malloc(size_t n)
{
    return should_fail() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t m)
{
    return should_fail() ? NULL : __real_calloc(n, m);
}

void *__wrap_realloc(void *p, size_t n)
{
    return should_fail() ? NULL : __real_realloc(p, n);
}

static int ok_or_nomem(int rc)
{
    return rc == MG_ERROR_OK || rc == MG_ERROR_ENOMEM;
}

static int bad_results;

static void feed(deadlock_detector *det, uint64_t *seq, check_event *ev)
{
    ev->seq = ++seq[ev->rank];
    bad_results += !ok_or_nomem(deadlock_detector_feed(det, ev, seq[ev->rank]));
}

static void p2p(deadlock_detector *det, uint64_t *seq, int32_t r, uint16_t f, int32_t peer,
                uint64_t req, int exits)
{
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, r, f);
    ev.peer = peer;
    ev.request = req;
    feed(det, seq, &ev);
    if (exits) {
        ev.kind = CHECK_EVENT_EV_EXIT;
        feed(det, seq, &ev);
    }
}

/* A collective mismatch, Fig. 8's wildcard (probed) and a buffered send-send pair in one job;
 * returns the number of findings. */
static size_t scenario(void)
{
    deadlock_detector *det = NULL;
    if (deadlock_detector_create(NULL, 6, &det) != MG_ERROR_OK) {
        return 0;
    }
    uint64_t seq[6] = {0};
    p2p(det, seq, 0, CHECK_EVENT_FN_SEND, 1, 0, 1);
    check_event b = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_BARRIER);
    feed(det, seq, &b);
    p2p(det, seq, 2, CHECK_EVENT_FN_SEND, 1, 0, 1);
    b.rank = 2;
    b.func = CHECK_EVENT_FN_BCAST;
    b.root = 2;
    feed(det, seq, &b);
    p2p(det, seq, 1, CHECK_EVENT_FN_IRECV, CHECK_EVENT_ANY_SOURCE, 5, 1);
    p2p(det, seq, 1, CHECK_EVENT_FN_IRECV, 2, 6, 1);
    uint64_t reqs[] = {5, 6};
    check_event w = st_event(CHECK_EVENT_EV_ENTER, 1, CHECK_EVENT_FN_WAITALL);
    w.requests = reqs;
    w.n_requests = 2;
    feed(det, seq, &w);
    p2p(det, seq, 3, CHECK_EVENT_FN_SEND, 4, 0, 1);
    p2p(det, seq, 3, CHECK_EVENT_FN_RECV, 4, 0, 1);
    p2p(det, seq, 4, CHECK_EVENT_FN_SEND, 3, 0, 1);
    p2p(det, seq, 4, CHECK_EVENT_FN_RECV, 3, 0, 1);
    size_t n_new;
    bad_results += !ok_or_nomem(deadlock_detector_check_now(det, 100, &n_new));
    bad_results += !ok_or_nomem(deadlock_detector_check_now(det, 101, &n_new));
    size_t n;
    deadlock_detector_findings(det, &n);
    deadlock_detector_destroy(det);
    return n;
}

static void test_every_allocation_fails_once(void)
{
    fail_countdown = -1;
    allocations = 0;
    /* Without failures: the potential send-send deadlock of ranks 3 and 4; probing the wildcard
     * of rank 1 with rank 2's message: a potential deadlock (rank 0's buffered send), the
     * Barrier/Bcast mismatch of ranks 0 and 2, and the deadlock of ranks 1 and 2. */
    MG_CHECK_INT(scenario(), 4);
    long total = allocations;
    MG_CHECK(total > 50);
    size_t failed_runs = 0;
    for (long n = 0; n < total; n++) {
        fail_countdown = n;
        failed_runs += scenario() < 4;
    }
    fail_countdown = -1;
    MG_CHECK_INT(bad_results, 0);
    MG_CHECK(failed_runs > 0); /* the failures did reach the detector */
}

int main(void)
{
    MG_RUN(test_every_allocation_fails_once);
    MG_TEST_END();
}
