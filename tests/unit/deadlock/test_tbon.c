/* The tree of detectors (tbon_leaf.h): record streams replayed through trees of 2 and 3 levels
 * with several leaf counts give the same findings (kind, ranks, calls, call sites) as the single
 * detector fed the whole stream, while the leaves keep their local traffic from the root. */
#include <stdlib.h>
#include <string.h>

#include "check_policy.h"
#include "deadlock_detector.h"
#include "dl_stream.h"
#include "mg_error.h"
#include "mg_test.h"
#include "tbon_leaf.h"
#include "tbon_root.h"

#define WORLD 8
#define MAX_LEAVES 8

/* A whole job's stream, records encoded one after another in the order the ranks made them. */
typedef struct script {
    uint8_t bytes[1 << 18];
    size_t len;
    uint64_t seq[WORLD];
} script;

/* Appends ev with its rank's next sequence number. */
static void put_event(script *s, check_event *ev)
{
    ev->seq = ++s->seq[ev->rank];
    size_t used;
    MG_CHECK_INT(check_event_encode(ev, s->bytes + s->len, sizeof s->bytes - s->len, &used), MG_ERROR_OK);
    s->len += used;
}

static check_event event(int kind, int32_t rank, uint16_t func, int32_t peer, int32_t root)
{
    check_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = (uint8_t)kind;
    ev.rank = rank;
    ev.func = func;
    ev.comm = CHECK_EVENT_COMM_WORLD;
    ev.peer = peer;
    ev.root = root;
    ev.count = 1;
    /* every rank calls a collective from one line, its own sends and receives from its own */
    int collective = check_event_func_describe(func)->klass == CHECK_EVENT_CLASS_COLL;
    ev.callsite = 0x1000u * (uint64_t)(collective ? 1 : rank + 1) + func;
    return ev;
}

static void put(script *s, int kind, int32_t rank, uint16_t func, int32_t peer, int32_t root)
{
    check_event ev = event(kind, rank, func, peer, root);
    put_event(s, &ev);
}

/* A record of rank's point-to-point call (or communicator destructor) on comm. */
static void put_on(script *s, int kind, int32_t rank, uint16_t func, int32_t peer, uint64_t comm)
{
    check_event ev = event(kind, rank, func, peer, CHECK_EVENT_NO_ROOT);
    ev.comm = comm;
    put_event(s, &ev);
}

/* Rank `from` sends to rank `to` on comm, which receives: both calls entered and left. */
static void send_on(script *s, uint64_t comm, int32_t from, int32_t to)
{
    put_on(s, CHECK_EVENT_EV_ENTER, from, CHECK_EVENT_FN_SEND, to, comm);
    put_on(s, CHECK_EVENT_EV_EXIT, from, CHECK_EVENT_FN_SEND, CHECK_EVENT_PROC_NULL, comm);
    put_on(s, CHECK_EVENT_EV_ENTER, to, CHECK_EVENT_FN_RECV, from, comm);
    put_on(s, CHECK_EVENT_EV_EXIT, to, CHECK_EVENT_FN_RECV, CHECK_EVENT_PROC_NULL, comm);
}

static void call(script *s, int32_t rank, uint16_t func, int32_t peer)
{
    put(s, CHECK_EVENT_EV_ENTER, rank, func, peer, CHECK_EVENT_NO_ROOT);
    put(s, CHECK_EVENT_EV_EXIT, rank, func, CHECK_EVENT_PROC_NULL, CHECK_EVENT_NO_ROOT);
}

/* A wildcard receive's exit on comm, reporting the source MPI chose. */
static void recv_exit(script *s, int32_t rank, int32_t source, uint64_t comm)
{
    check_event_status st = {0, source, 0, 0, 1};
    check_event ev = event(CHECK_EVENT_EV_EXIT, rank, CHECK_EVENT_FN_RECV, CHECK_EVENT_PROC_NULL, CHECK_EVENT_NO_ROOT);
    ev.comm = comm;
    ev.count = 0;
    ev.callsite = 0;
    ev.n_statuses = 1;
    ev.statuses = &st;
    put_event(s, &ev);
}

/* Iterations of a ring exchange (even ranks send first, so it is safe without buffering) and an
 * Allreduce, every call completing. */
static void stencil(script *s, int iterations)
{
    for (int it = 0; it < iterations; it++) {
        for (int32_t r = 0; r < WORLD; r += 2) {
            call(s, r, CHECK_EVENT_FN_SEND, (r + 1) % WORLD);
            call(s, (r + 1) % WORLD, CHECK_EVENT_FN_RECV, r);
            call(s, (r + 1) % WORLD, CHECK_EVENT_FN_SEND, (r + 2) % WORLD);
            call(s, (r + 2) % WORLD, CHECK_EVENT_FN_RECV, (r + 1) % WORLD);
        }
        for (int32_t r = 0; r < WORLD; r++) {
            put(s, CHECK_EVENT_EV_ENTER, r, CHECK_EVENT_FN_ALLREDUCE, CHECK_EVENT_PROC_NULL, CHECK_EVENT_NO_ROOT);
        }
        for (int32_t r = 0; r < WORLD; r++) {
            put(s, CHECK_EVENT_EV_EXIT, r, CHECK_EVENT_FN_ALLREDUCE, CHECK_EVENT_PROC_NULL, CHECK_EVENT_NO_ROOT);
        }
    }
}

/* Leaves under `mids` middle stages (0: the leaves feed the root). Leaf l's share is a block of
 * WORLD / n_leaves consecutive ranks, or, interleaved (ranks round robin on nodes, as
 * `--map-by node` places them), the ranks r with r % n_leaves == l; a middle stage's is the union
 * of its leaves' shares. */
typedef struct tree {
    deadlock_detector *root;
    tbon_root *answers;
    tbon_leaf *leaves[MAX_LEAVES], *mids[MAX_LEAVES];
    int n_leaves, n_mids;
    int leaf_of[WORLD], mid_of[MAX_LEAVES]; /* the stage streaming each rank, each leaf */
    uint64_t now;
} tree;

static int to_root(void *ctx, const uint8_t *record, size_t len, const int32_t *summary,
                   int32_t n_summary)
{
    tree *t = ctx;
    size_t used;
    check_event ev;
    int rc = check_event_decode(record, len, &ev, &used);
    if (rc || n_summary) {
        return rc ? rc : deadlock_detector_feed_summary(t->root, &ev, summary, n_summary, ++t->now);
    }
    rc = deadlock_detector_feed_bytes(t->root, record, len, ++t->now, &used);
    return rc ? rc : tbon_root_note(t->answers, &ev);
}

static int to_mid(void *ctx, const uint8_t *record, size_t len, const int32_t *summary,
                  int32_t n_summary)
{
    size_t used;
    return n_summary ? tbon_leaf_feed_summary(ctx, record, len, summary, n_summary, &used)
                     : tbon_leaf_feed_bytes(ctx, record, len, &used);
}

/* The ranks of stage `stage` in map[] (ascending) into set; returns how many. */
static int32_t share_of(const int *map, int stage, int32_t set[WORLD])
{
    int32_t n = 0;
    for (int32_t r = 0; r < WORLD; r++) {
        if (map[r] == stage) {
            set[n++] = r;
        }
    }
    return n;
}

static void tree_open(tree *t, int n_leaves, int n_mids, int interleaved)
{
    memset(t, 0, sizeof *t);
    MG_CHECK_INT(deadlock_detector_create(NULL, WORLD, &t->root), MG_ERROR_OK);
    MG_CHECK_INT(tbon_root_create(WORLD, &t->answers), MG_ERROR_OK);
    t->n_leaves = n_leaves;
    t->n_mids = n_mids;
    int mid_map[WORLD];
    for (int32_t r = 0; r < WORLD; r++) {
        t->leaf_of[r] = interleaved ? r % n_leaves : r / (WORLD / n_leaves);
    }
    for (int l = 0; l < n_leaves; l++) {
        t->mid_of[l] = !n_mids ? -1 : interleaved ? l % n_mids : l / (n_leaves / n_mids);
    }
    for (int32_t r = 0; r < WORLD; r++) {
        mid_map[r] = t->mid_of[t->leaf_of[r]];
    }
    int32_t set[WORLD];
    for (int m = 0; m < n_mids; m++) {
        int32_t n = share_of(mid_map, m, set);
        MG_CHECK_INT(tbon_leaf_create(WORLD, set, n, to_root, t, &t->mids[m]), MG_ERROR_OK);
        MG_CHECK_INT(tbon_root_claim(t->answers, m, set, n, NULL), MG_ERROR_OK);
    }
    for (int l = 0; l < n_leaves; l++) {
        int32_t n = share_of(t->leaf_of, l, set);
        tbon_leaf_pass_fn pass = n_mids ? to_mid : to_root;
        void *ctx = n_mids ? (void *)t->mids[t->mid_of[l]] : (void *)t;
        MG_CHECK_INT(tbon_leaf_create(WORLD, set, n, pass, ctx, &t->leaves[l]), MG_ERROR_OK);
        MG_CHECK_INT(n_mids ? MG_ERROR_OK : tbon_root_claim(t->answers, l, set, n, NULL), MG_ERROR_OK);
    }
    MG_CHECK_INT(tbon_root_unclaimed(t->answers, NULL), 0);
}

static void tree_close(tree *t)
{
    for (int l = 0; l < t->n_leaves; l++) {
        tbon_leaf_destroy(t->leaves[l]);
    }
    for (int m = 0; m < t->n_mids; m++) {
        tbon_leaf_destroy(t->mids[m]);
    }
    deadlock_detector_destroy(t->root);
    tbon_root_destroy(t->answers);
}

/* Tells each stage the calls its stage above left (tbon_leaf_completed), from the root down, until
 * none is left to tell: what a stage lets go may reach the root and be left there at once. Told
 * between feeds, as the stage processes do, never from inside one. */
static void answer(tree *t)
{
    for (size_t told = 1; told;) {
        tbon_leaf_call calls[4 * WORLD];
        const tbon_leaf_call *from;
        size_t n;
        MG_CHECK_INT(tbon_root_answers(t->answers, t->root, &from, &n), MG_ERROR_OK);
        if (n)
            memcpy(calls, from, n * sizeof *calls);
        told = n;
        for (size_t i = 0; i < n; i++) {
            int32_t rank = calls[i].rank;
            int leaf = t->leaf_of[rank];
            tbon_leaf *top = t->n_mids ? t->mids[t->mid_of[leaf]] : t->leaves[leaf];
            MG_CHECK_INT(tbon_leaf_completed(top, rank, calls[i].exit_seq), MG_ERROR_OK);
        }
        for (int m = 0; m < t->n_mids; m++) {
            from = tbon_leaf_take_completed(t->mids[m], &n);
            MG_CHECK(n <= sizeof calls / sizeof calls[0]);
            if (n)
                memcpy(calls, from, n * sizeof *calls);
            told += n;
            for (size_t i = 0; i < n; i++) {
                MG_CHECK_INT(tbon_leaf_completed(t->leaves[t->leaf_of[calls[i].rank]],
                                                 calls[i].rank, calls[i].exit_seq),
                             MG_ERROR_OK);
            }
        }
        for (int l = 0; l < t->n_leaves; l++) {
            (void)tbon_leaf_take_completed(t->leaves[l], &n); /* fed by agents: nobody waits */
        }
    }
}

/* Each record to its rank's leaf, the answers told after each, or (at_end) once all came. */
static void tree_feed_answering(tree *t, const script *s, int at_end)
{
    for (size_t at = 0; at < s->len;) {
        check_event ev;
        size_t used;
        MG_CHECK_INT(check_event_decode(s->bytes + at, s->len - at, &ev, &used), MG_ERROR_OK);
        MG_CHECK_INT(
            tbon_leaf_feed_bytes(t->leaves[t->leaf_of[ev.rank]], s->bytes + at, s->len - at, &used),
            MG_ERROR_OK);
        at += used;
        if (!at_end) {
            answer(t);
        }
    }
    answer(t);
}

static void tree_feed(tree *t, const script *s)
{
    tree_feed_answering(t, s, 0);
}

/* ... and at the end every stage flushes, leaves first, and the root analyses. */
static void tree_replay(tree *t, const script *s)
{
    tree_feed(t, s);
    for (int l = 0; l < t->n_leaves; l++) {
        MG_CHECK_INT(tbon_leaf_flush(t->leaves[l]), MG_ERROR_OK);
    }
    for (int m = 0; m < t->n_mids; m++) {
        MG_CHECK_INT(tbon_leaf_flush(t->mids[m]), MG_ERROR_OK);
    }
    t->now = st_held_due(t->root, t->now);
    MG_CHECK_INT(deadlock_detector_check_now(t->root, t->now, NULL), MG_ERROR_OK);
}

/* ... or through one detector; the analysis at the end comes after any refusal of the calls
 * still inside MPI would have (st_held_due), in both. */
static void single_replay(deadlock_detector *det, const script *s)
{
    uint64_t now = 0;
    for (size_t at = 0, used; at < s->len; at += used) {
        MG_CHECK_INT(deadlock_detector_feed_bytes(det, s->bytes + at, s->len - at, ++now, &used),
                     MG_ERROR_OK);
    }
    MG_CHECK_INT(deadlock_detector_check_now(det, st_held_due(det, now), NULL), MG_ERROR_OK);
}

static int same_call(const dl_finding_call *a, const dl_finding_call *b)
{
    return a->rank == b->rank && a->func == b->func && a->state == b->state &&
           a->in_knot == b->in_knot && a->peer == b->peer && a->tag == b->tag &&
           a->root == b->root && a->callsite == b->callsite;
}

/* Orders a finding's calls by rank, then by function and state: the order of a collective's
 * callers follows the order their records reach the root, which differs between the trees. */
static int call_order(const void *a, const void *b)
{
    const dl_finding_call *x = a, *y = b;
    return x->rank != y->rank   ? (x->rank > y->rank) - (x->rank < y->rank)
           : x->func != y->func ? (x->func > y->func) - (x->func < y->func)
                                : (x->state > y->state) - (x->state < y->state);
}

static void check_same(const deadlock_detector *single, const deadlock_detector *root)
{
    size_t n_single, n_root;
    const dl_finding *want = deadlock_detector_findings(single, &n_single);
    const dl_finding *got = deadlock_detector_findings(root, &n_root);
    MG_CHECK_INT(n_root, n_single);
    mpi_function_ids_fn want_fns[MG_FN_COUNT], got_fns[MG_FN_COUNT];
    size_t n_want = deadlock_detector_unmodelled(single, want_fns, MG_FN_COUNT);
    MG_CHECK_INT(deadlock_detector_unmodelled(root, got_fns, MG_FN_COUNT), n_want);
    MG_CHECK(memcmp(got_fns, want_fns, n_want * sizeof *want_fns) == 0);
    for (size_t i = 0; i < n_single && i < n_root; i++) {
        MG_CHECK_INT(got[i].kind, want[i].kind);
        MG_CHECK_INT(got[i].mismatch, want[i].mismatch);
        MG_CHECK_INT(got[i].n_knot, want[i].n_knot);
        MG_CHECK_INT(got[i].n_calls, want[i].n_calls);
        static dl_finding_call a[4 * WORLD], b[4 * WORLD];
        size_t n = want[i].n_calls < got[i].n_calls ? want[i].n_calls : got[i].n_calls;
        MG_CHECK(n <= 4 * WORLD);
        n = n > 4 * WORLD ? 4 * WORLD : n;
        memcpy(a, want[i].calls, n * sizeof *a);
        memcpy(b, got[i].calls, n * sizeof *b);
        qsort(a, n, sizeof *a, call_order);
        qsort(b, n, sizeof *b, call_order);
        for (size_t c = 0; c < n; c++) {
            MG_CHECK(same_call(&b[c], &a[c]));
        }
    }
}

/* The script through the single detector and through trees of 2, 4 and 8 leaves (2 levels) and
 * of 4 leaves under 2 middle stages (3 levels), each with blocks of ranks and with ranks round
 * robin: the same findings, `expected` of them, the first of kind `kind`. Returns what the leaves
 * of the 4-leaf trees of 2 levels did: [0] blocks, [1] round robin. */
typedef struct tree_counts {
    tbon_leaf_counts of[2];
} tree_counts;

static tree_counts check_trees(const script *s, size_t expected, int kind)
{
    deadlock_detector *single;
    MG_CHECK_INT(deadlock_detector_create(NULL, WORLD, &single), MG_ERROR_OK);
    single_replay(single, s);
    size_t n;
    const dl_finding *f = deadlock_detector_findings(single, &n);
    MG_CHECK_INT(n, expected);
    MG_CHECK(n == 0 || f[0].kind == kind);
    static const int shapes[][2] = {{2, 0}, {4, 0}, {8, 0}, {4, 2}};
    tree_counts sum;
    memset(&sum, 0, sizeof sum);
    for (int interleaved = 0; interleaved < 2; interleaved++) {
        for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
            tree t;
            tree_open(&t, shapes[i][0], shapes[i][1], interleaved);
            tree_replay(&t, s);
            check_same(single, t.root);
            tbon_leaf_counts counts;
            for (int l = 0; shapes[i][0] == 4 && !shapes[i][1] && l < t.n_leaves; l++) {
                tbon_leaf_counts_get(t.leaves[l], &counts);
                MG_CHECK_INT(counts.records, counts.passed + counts.resolved + counts.summarized);
                sum.of[interleaved].resolved += counts.resolved;
                sum.of[interleaved].summaries += counts.summaries;
            }
            tree_close(&t);
        }
    }
    deadlock_detector_destroy(single);
    return sum;
}

static void test_clean(void)
{
    static script s;
    memset(&s, 0, sizeof s);
    stencil(&s, 3);
    for (int32_t r = 0; r < WORLD; r++) {
        call(&s, r, CHECK_EVENT_FN_FINALIZE, CHECK_EVENT_PROC_NULL);
    }
    /* 4 leaves of 2: per iteration 4 of the 8 exchanges stay inside a leaf, 4 records each, and
     * each leaf sends one summary of the Allreduce; round robin (leaf l: ranks l and l + 4) every
     * exchange is between neighbours, so none stays inside a leaf, but the summaries do */
    tree_counts counts = check_trees(&s, 0, 0);
    MG_CHECK_INT(counts.of[0].resolved, 3 * 4 * 4);
    MG_CHECK_INT(counts.of[0].summaries, 3 * 4);
    MG_CHECK_INT(counts.of[1].resolved, 0);
    MG_CHECK_INT(counts.of[1].summaries, 3 * 4);
}

/* A leaf that read the whole stream before the first answer (a short job replayed, or a stage
 * that lagged behind): the answers let its ranks go one by one, a rank running ahead to the next
 * Allreduce while its neighbour's window, read on, already holds that Allreduce and the exchange
 * after it. Its exchanges still stay inside it and its Allreduces go up as summaries (before the
 * window stopped at the Allreduce, the first one released gave the collective up and each leaf
 * passed its ranks through: 1 summary, 24 records resolved). */
static void test_answers_after_the_whole_stream(void)
{
    static script s;
    memset(&s, 0, sizeof s);
    stencil(&s, 3);
    deadlock_detector *single;
    MG_CHECK_INT(deadlock_detector_create(NULL, WORLD, &single), MG_ERROR_OK);
    single_replay(single, &s);
    tree t;
    tree_open(&t, 2, 0, 0);
    tree_feed_answering(&t, &s, 1);
    for (int l = 0; l < t.n_leaves; l++) {
        MG_CHECK_INT(tbon_leaf_flush(t.leaves[l]), MG_ERROR_OK);
    }
    MG_CHECK_INT(deadlock_detector_check_now(t.root, ++t.now, NULL), MG_ERROR_OK);
    check_same(single, t.root);
    for (int l = 0; l < t.n_leaves; l++) {
        tbon_leaf_counts counts;
        tbon_leaf_counts_get(t.leaves[l], &counts);
        MG_CHECK_INT(counts.tainted, 0);
        MG_CHECK_INT(counts.summaries, 3);
        /* per iteration 3 of a block's 4 exchanges stay inside it, 4 records each */
        MG_CHECK_INT(counts.resolved, 3 * 3 * 4);
    }
    tree_close(&t);
    deadlock_detector_destroy(single);
}

/* Every rank calls a Barrier from its own address (a position-independent program loaded at
 * another address in each process), then the exchanges: the Barrier's records go up as they are,
 * and the leaves still match the pairs behind it once the root answered that each rank left it. */
static void test_collective_sites_differ(void)
{
    static script s;
    memset(&s, 0, sizeof s);
    for (int kind = CHECK_EVENT_EV_ENTER; kind <= CHECK_EVENT_EV_EXIT; kind++) {
        for (int32_t r = 0; r < WORLD; r++) {
            check_event ev = event(kind, r, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_PROC_NULL, CHECK_EVENT_NO_ROOT);
            ev.callsite += (uint64_t)r << 32;
            put_event(&s, &ev);
        }
    }
    stencil(&s, 2);
    tree_counts counts = check_trees(&s, 0, 0);
    MG_CHECK_INT(counts.of[0].resolved, 2 * 4 * 4);
    MG_CHECK_INT(counts.of[0].summaries, 2 * 4);
}

/* After two iterations, ranks a and b enter func towards each other and never leave it. */
static void deadlock_between(int32_t a, int32_t b, uint16_t func)
{
    static script s;
    memset(&s, 0, sizeof s);
    stencil(&s, 2);
    put(&s, CHECK_EVENT_EV_ENTER, a, func, b, CHECK_EVENT_NO_ROOT);
    put(&s, CHECK_EVENT_EV_ENTER, b, func, a, CHECK_EVENT_NO_ROOT);
    check_trees(&s, 1, DL_FINDING_DEADLOCK);
}

/* Ranks 1 and 6 (apart in every tree) receive from each other. */
static void test_cross_leaf_deadlock(void)
{
    deadlock_between(1, 6, CHECK_EVENT_FN_RECV);
}

/* Ranks 2 and 3 (one leaf in every tree but the 8-leaf one) send to each other, unbuffered. */
static void test_within_leaf_deadlock(void)
{
    deadlock_between(2, 3, CHECK_EVENT_FN_SSEND);
}

static void collective_mismatch(int exits)
{
    static script s;
    memset(&s, 0, sizeof s);
    stencil(&s, 1);
    for (int kind = CHECK_EVENT_EV_ENTER; kind <= (exits ? CHECK_EVENT_EV_EXIT : CHECK_EVENT_EV_ENTER); kind++) {
        for (int32_t r = 0; r < WORLD; r++) {
            int32_t root = r == 7 ? 0 : CHECK_EVENT_NO_ROOT;
            put(&s, kind, r, r == 7 ? CHECK_EVENT_FN_BCAST : CHECK_EVENT_FN_BARRIER, CHECK_EVENT_PROC_NULL, root);
        }
    }
    check_trees(&s, 1, DL_FINDING_COLLECTIVE_MISMATCH);
}

/* Rank 7 calls Bcast where the others call Barrier: the calls block ... */
static void test_collective_mismatch(void)
{
    collective_mismatch(0);
}

/* ... or the MPI library let them all return: the leaves without rank 7 send a summary of their
 * Barrier, and the root names the same callers. */
static void test_collective_mismatch_completed(void)
{
    collective_mismatch(1);
}

/* Rank 0, the root, leaves its Bcast early and sends to rank 1 (its leaf in most trees), which
 * receives before its own Bcast: the leaf must neither wait for rank 1's Bcast to sum the share's
 * up (rank 1 waits for rank 0's send, behind rank 0's Bcast) nor match the pair itself (the
 * detector holds rank 0 in its Bcast until rank 1 comes: a potential deadlock had the MPI library
 * not let the root go early, which ranks 2 and 5, receiving from each other, join). */
static void collective_behind_a_receive(script *s, uint64_t comm)
{
    static const uint16_t order[][2] = {
        {0, CHECK_EVENT_FN_BCAST}, {0, CHECK_EVENT_FN_SEND}, {1, CHECK_EVENT_FN_RECV}};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        int32_t rank = order[i][0],
                peer = order[i][1] == CHECK_EVENT_FN_BCAST ? CHECK_EVENT_PROC_NULL : 1 - rank;
        put_on(s, CHECK_EVENT_EV_ENTER, rank, order[i][1], peer, comm);
        put_on(s, CHECK_EVENT_EV_EXIT, rank, order[i][1], CHECK_EVENT_PROC_NULL, comm);
    }
    for (int32_t r = 1; r < WORLD; r++) {
        put_on(s, CHECK_EVENT_EV_ENTER, r, CHECK_EVENT_FN_BCAST, CHECK_EVENT_PROC_NULL, comm);
        put_on(s, CHECK_EVENT_EV_EXIT, r, CHECK_EVENT_FN_BCAST, CHECK_EVENT_PROC_NULL, comm);
    }
    put(s, CHECK_EVENT_EV_ENTER, 2, CHECK_EVENT_FN_RECV, 5, CHECK_EVENT_NO_ROOT);
    put(s, CHECK_EVENT_EV_ENTER, 5, CHECK_EVENT_FN_RECV, 2, CHECK_EVENT_NO_ROOT);
    check_trees(s, 1, DL_FINDING_POTENTIAL_DEADLOCK);
}

static void test_collective_behind_a_receive(void)
{
    static script s;
    memset(&s, 0, sizeof s);
    stencil(&s, 1);
    collective_behind_a_receive(&s, CHECK_EVENT_COMM_WORLD);
}

/* On comm, rank 0 receives from any source; rank 1 (its leaf) and rank 5 (another leaf) send to it
 * and MPI gives it rank 5's message: a message race; then ranks 0 and 5 receive from each other,
 * rank 1 still in its synchronous send to 0: a deadlock. Returns what the leaves did. */
static tree_counts wildcard_race(script *s, uint64_t comm)
{
    put_on(s, CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_RECV, CHECK_EVENT_ANY_SOURCE, comm);
    put_on(s, CHECK_EVENT_EV_ENTER, 1, CHECK_EVENT_FN_SSEND, 0, comm);
    put_on(s, CHECK_EVENT_EV_ENTER, 5, CHECK_EVENT_FN_SSEND, 0, comm);
    recv_exit(s, 0, 5, comm);
    put_on(s, CHECK_EVENT_EV_EXIT, 5, CHECK_EVENT_FN_SSEND, CHECK_EVENT_PROC_NULL, comm);
    put_on(s, CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_RECV, 5, comm);
    put_on(s, CHECK_EVENT_EV_ENTER, 5, CHECK_EVENT_FN_RECV, 0, comm);
    return check_trees(s, 2, DL_FINDING_MESSAGE_RACE);
}

static void test_wildcard_across_leaves(void)
{
    static script s;
    memset(&s, 0, sizeof s);
    stencil(&s, 1);
    wildcard_race(&s, CHECK_EVENT_COMM_WORLD);
}

/* Rank 0 sends to rank 5 (another leaf in every tree) and MPI buffers it, but rank 5 never
 * receives it: the detector holds rank 0 in that send. Then rank 1 (rank 0's leaf in most trees)
 * sends to rank 0, which receives: the leaf must not match that pair (the detector holds rank 1
 * in its send, waiting on rank 0) until the root says rank 0 left its send, which it never does. */
static void buffered_send_never_received(script *s)
{
    memset(s, 0, sizeof *s);
    stencil(s, 1);
    call(s, 0, CHECK_EVENT_FN_SEND, 5);
    call(s, 1, CHECK_EVENT_FN_SEND, 0);
    call(s, 0, CHECK_EVENT_FN_RECV, 1);
}

/* ... and ranks 2 and 5 receive from each other: a deadlock of theirs, and the potential deadlock
 * also names rank 1 waiting on rank 0 (4 calls), as the single detector does. */
static void test_pair_behind_a_buffered_send(void)
{
    static script s;
    buffered_send_never_received(&s);
    put(&s, CHECK_EVENT_EV_ENTER, 2, CHECK_EVENT_FN_RECV, 5, CHECK_EVENT_NO_ROOT);
    put(&s, CHECK_EVENT_EV_ENTER, 5, CHECK_EVENT_FN_RECV, 2, CHECK_EVENT_NO_ROOT);
    check_trees(&s, 2, DL_FINDING_POTENTIAL_DEADLOCK);
}

/* ... then rank 1 sends to rank 6, which receives from any source and gets rank 7's message: rank
 * 1's send cannot have been a candidate (the detector holds rank 1 in its send to rank 0), so
 * there is no message race, only the two deadlocks. */
static void test_no_race_behind_a_buffered_send(void)
{
    static script s;
    buffered_send_never_received(&s);
    put(&s, CHECK_EVENT_EV_ENTER, 6, CHECK_EVENT_FN_RECV, CHECK_EVENT_ANY_SOURCE, CHECK_EVENT_NO_ROOT);
    call(&s, 1, CHECK_EVENT_FN_SEND, 6);
    call(&s, 7, CHECK_EVENT_FN_SEND, 6);
    recv_exit(&s, 6, 7, CHECK_EVENT_COMM_WORLD);
    put(&s, CHECK_EVENT_EV_ENTER, 2, CHECK_EVENT_FN_RECV, 5, CHECK_EVENT_NO_ROOT);
    put(&s, CHECK_EVENT_EV_ENTER, 5, CHECK_EVENT_FN_RECV, 2, CHECK_EVENT_NO_ROOT);
    check_trees(&s, 2, DL_FINDING_POTENTIAL_DEADLOCK);
}

/* Every rank calls the constructor func, entries first: rank r's new intracommunicator is ids[r],
 * its members members[r][0..n) (world ranks, in the communicator's order). */
static void make_comms(script *s, uint16_t func, const uint64_t *ids, int32_t (*members)[WORLD],
                       uint32_t n)
{
    for (int32_t r = 0; r < WORLD; r++) {
        put(s, CHECK_EVENT_EV_ENTER, r, func, CHECK_EVENT_PROC_NULL, CHECK_EVENT_NO_ROOT);
    }
    for (int32_t r = 0; r < WORLD; r++) {
        check_event ev = event(CHECK_EVENT_EV_EXIT, r, func, CHECK_EVENT_PROC_NULL, CHECK_EVENT_NO_ROOT);
        ev.aux = ids[r];
        ev.n_ranks = ev.n_local = n;
        ev.ranks = members[r];
        put_event(s, &ev);
    }
}

/* Every rank frees its communicator ids[r]. */
static void free_comms(script *s, const uint64_t *ids)
{
    for (int kind = CHECK_EVENT_EV_ENTER; kind <= CHECK_EVENT_EV_EXIT; kind++) {
        for (int32_t r = 0; r < WORLD; r++) {
            put_on(s, kind, r, CHECK_EVENT_FN_COMM_FREE, CHECK_EVENT_PROC_NULL, ids[r]);
        }
    }
}

/* Every rank splits WORLD into pairs {0,1}, {2,3}, ... (the pair's communicator: PAIR_COMM + r /
 * 2), then the even rank of each pair sends to the odd one on it, `iterations` times. */
#define PAIR_COMM 0x9000u
static void pairs(script *s, int iterations)
{
    memset(s, 0, sizeof *s);
    int32_t members[WORLD][WORLD];
    uint64_t ids[WORLD];
    for (int32_t r = 0; r < WORLD; r++) {
        members[r][0] = r & ~1;
        members[r][1] = r | 1;
        ids[r] = PAIR_COMM + (uint64_t)(r / 2);
    }
    make_comms(s, CHECK_EVENT_FN_COMM_SPLIT, ids, members, 2);
    for (int it = 0; it < iterations; it++) {
        for (int32_t r = 0; r < WORLD; r += 2) {
            send_on(s, PAIR_COMM + (uint64_t)(r / 2), r, r + 1);
        }
    }
}

/* Calls on a communicator whose members are all in one leaf are matched there as WORLD's are:
 * with 4 leaves of 2, every pair's 4 records of each iteration stay in its leaf. */
static void test_pairs_on_a_split(void)
{
    static script s;
    pairs(&s, 3);
    uint64_t ids[WORLD];
    for (int32_t r = 0; r < WORLD; r++) {
        ids[r] = PAIR_COMM + (uint64_t)(r / 2);
    }
    free_comms(&s, ids);
    for (int32_t r = 0; r < WORLD; r++) {
        call(&s, r, CHECK_EVENT_FN_FINALIZE, CHECK_EVENT_PROC_NULL);
    }
    tree_counts counts = check_trees(&s, 0, 0);
    MG_CHECK_INT(counts.of[0].resolved, 3 * 4 * 4);
}

/* ... and a deadlock on one (ranks 2 and 3 receive from each other on theirs) is the single
 * detector's. */
static void test_deadlock_on_a_split(void)
{
    static script s;
    pairs(&s, 1);
    for (int32_t r = 2; r < 4; r++) {
        put_on(&s, CHECK_EVENT_EV_ENTER, r, CHECK_EVENT_FN_RECV, 5 - r, PAIR_COMM + 1);
    }
    check_trees(&s, 1, DL_FINDING_DEADLOCK);
}

/* Communicators that span leaves: a Cartesian one of every rank in reverse order (GRID_COMM: world
 * rank r is its rank WORLD - 1 - r) and WORLD split into {0, 1, 4, 5} and {2, 3, 6, 7}
 * (half_of(r)). No leaf of any tree holds all the members of either. */
#define GRID_COMM 0xa000u
#define HALF_COMM 0xb000u

static uint64_t half_of(int32_t rank)
{
    return HALF_COMM + (uint64_t)(rank / 2 % 2);
}

/* Every rank makes both, then, `iterations` times, r sends to r + 1 on the grid (r even: one leaf
 * in blocks of 2 or 4) and r to r + 4 on its half (r < 4: one leaf round robin on 4 nodes). */
static void cross_leaf_comms(script *s, int iterations)
{
    memset(s, 0, sizeof *s);
    int32_t grid[WORLD][WORLD], half[WORLD][WORLD];
    uint64_t grid_ids[WORLD], half_ids[WORLD];
    for (int32_t r = 0; r < WORLD; r++) {
        for (int32_t i = 0; i < WORLD; i++) {
            grid[r][i] = WORLD - 1 - i;
        }
        for (int32_t i = 0; i < 4; i++) {
            half[r][i] = r / 2 % 2 * 2 + i / 2 * 4 + i % 2;
        }
        grid_ids[r] = GRID_COMM;
        half_ids[r] = half_of(r);
    }
    make_comms(s, CHECK_EVENT_FN_CART_CREATE, grid_ids, grid, WORLD);
    make_comms(s, CHECK_EVENT_FN_COMM_SPLIT, half_ids, half, 4);
    for (int it = 0; it < iterations; it++) {
        for (int32_t r = 0; r < WORLD; r += 2) {
            send_on(s, GRID_COMM, r, r + 1);
        }
        for (int32_t r = 0; r < WORLD / 2; r++) {
            send_on(s, half_of(r), r, r + WORLD / 2);
        }
    }
}

/* A pair whose both ends are in one leaf is matched there whatever else its communicator holds:
 * with 4 leaves of 2 the grid's 4 pairs of each iteration stay in their leaves (4 records each),
 * round robin the halves' 4. */
static void test_pairs_on_cross_leaf_comms(void)
{
    static script s;
    cross_leaf_comms(&s, 3);
    uint64_t ids[WORLD];
    for (int32_t r = 0; r < WORLD; r++) {
        ids[r] = half_of(r);
    }
    free_comms(&s, ids);
    for (int32_t r = 0; r < WORLD; r++) {
        ids[r] = GRID_COMM;
    }
    free_comms(&s, ids);
    for (int32_t r = 0; r < WORLD; r++) {
        call(&s, r, CHECK_EVENT_FN_FINALIZE, CHECK_EVENT_PROC_NULL);
    }
    tree_counts counts = check_trees(&s, 0, 0);
    MG_CHECK_INT(counts.of[0].resolved, 3 * 4 * 4);
    MG_CHECK_INT(counts.of[1].resolved, 3 * 4 * 4);
}

/* ... and on the grid, whose collectives no leaf sums up. */
static void test_collective_behind_a_receive_on_a_grid(void)
{
    static script s;
    cross_leaf_comms(&s, 1);
    collective_behind_a_receive(&s, GRID_COMM);
}

/* A wildcard receive on the grid goes up, and with it rank 1's send to rank 0 (one leaf in blocks):
 * the root finds the single detector's race and deadlock; the leaves keep only the pairs before. */
static void test_wildcard_on_a_cross_leaf_comm(void)
{
    static script s;
    cross_leaf_comms(&s, 1);
    tree_counts counts = wildcard_race(&s, GRID_COMM);
    MG_CHECK_INT(counts.of[0].resolved, 4 * 4);
    MG_CHECK_INT(counts.of[1].resolved, 4 * 4);
}

/* After an iteration, ranks 2 and 3 receive from each other on the grid (one leaf of 2 in blocks)
 * and ranks 1 and 5 on their half (two leaves): the leaf holds 2's and 3's receives, so the root
 * asks for them (check_policy_view) until the leaves flush (what RELEASE does), then finds the
 * single detector's deadlock: those 4 ranks in their receives, at their call sites, on their
 * communicators. */
static void test_deadlock_on_a_cross_leaf_comm(void)
{
    static script s;
    cross_leaf_comms(&s, 1);
    static const int32_t knot[] = {1, 2, 3, 5}, peer[] = {5, 3, 2, 1};
    for (int i = 0; i < 4; i++) {
        put_on(&s, CHECK_EVENT_EV_ENTER, knot[i], CHECK_EVENT_FN_RECV, peer[i],
               knot[i] == 2 || knot[i] == 3 ? GRID_COMM : half_of(knot[i]));
    }
    check_trees(&s, 1, DL_FINDING_DEADLOCK);

    tree t;
    tree_open(&t, 4, 0, 0);
    tree_feed(&t, &s);
    uint64_t in_call[WORLD] = {0}, records[WORLD] = {0};
    uint8_t ended[WORLD] = {0};
    for (int i = 0; i < 4; i++) {
        in_call[knot[i]] = s.seq[knot[i]];
    }
    check_policy_readings rd = {WORLD, in_call, records, ended, tbon_root_seen(t.answers)};
    check_policy policy;
    check_policy_init(&policy, 1.0, 0);
    int32_t missing;
    MG_CHECK_INT(check_policy_view(&policy, &rd, 1, &missing), CHECK_POLICY_VIEW_ASK);
    MG_CHECK_INT(missing, 2);
    for (int l = 0; l < t.n_leaves; l++) {
        MG_CHECK_INT(tbon_leaf_flush(t.leaves[l]), MG_ERROR_OK);
    }
    MG_CHECK_INT(check_policy_view(&policy, &rd, 2, &missing), CHECK_POLICY_VIEW_WHOLE);
    MG_CHECK_INT(deadlock_detector_check_now(t.root, ++t.now, NULL), MG_ERROR_OK);
    size_t n;
    const dl_finding *f = deadlock_detector_findings(t.root, &n);
    MG_CHECK_INT(n, 1);
    MG_CHECK_INT(f[0].kind, DL_FINDING_DEADLOCK);
    MG_CHECK_INT(f[0].n_calls, 4);
    for (size_t c = 0; n == 1 && c < f[0].n_calls && c < 4; c++) {
        const dl_finding_call *got = &f[0].calls[c];
        int i = 0;
        while (i < 3 && knot[i] != got->rank) {
            i++;
        }
        MG_CHECK(got->rank == knot[i] && got->in_knot && got->func == CHECK_EVENT_FN_RECV);
        MG_CHECK(got->callsite == 0x1000u * (uint64_t)(knot[i] + 1) + CHECK_EVENT_FN_RECV);
        MG_CHECK(got->comm == (i == 1 || i == 2 ? GRID_COMM : half_of(knot[i])));
    }
    tree_close(&t);
}

static int drop(void *ctx, const uint8_t *record, size_t len, const int32_t *summary,
                int32_t n_summary)
{
    (void)record;
    (void)len;
    (void)summary;
    (*(uint64_t *)ctx) += n_summary ? 0 : 1;
    return MG_ERROR_OK;
}

/* Ranks 0 and 1 send to each other and MPI buffers both sends, then each sends to rank 2 (another
 * leaf) over and over: past 64 KB held the leaf lets go of them without waiting for a flush (or
 * for a stage above that never answers), and the trees still report the single detector's
 * potential deadlock. */
static void test_hold_bound(void)
{
    static script s;
    memset(&s, 0, sizeof s);
    call(&s, 0, CHECK_EVENT_FN_SEND, 1);
    call(&s, 1, CHECK_EVENT_FN_SEND, 0);
    for (int i = 0; i < 300; i++) {
        call(&s, 0, CHECK_EVENT_FN_SEND, 2);
        call(&s, 1, CHECK_EVENT_FN_SEND, 2);
    }
    tbon_leaf *leaf;
    uint64_t passed = 0;
    static const int32_t first_two[] = {0, 1};
    MG_CHECK_INT(tbon_leaf_create(WORLD, first_two, 2, drop, &passed, &leaf), MG_ERROR_OK);
    for (size_t at = 0, used; at < s.len; at += used) {
        MG_CHECK_INT(tbon_leaf_feed_bytes(leaf, s.bytes + at, s.len - at, &used), MG_ERROR_OK);
    }
    tbon_leaf_counts counts;
    tbon_leaf_counts_get(leaf, &counts);
    MG_CHECK_INT(counts.held, 0);
    /* rank 0 got there first; rank 1's send to it went up too, and with no stage above to say
     * it was left, rank 1 is let go past 64 KB as well */
    MG_CHECK_INT(counts.tainted, 2);
    MG_CHECK_INT(passed, counts.records);
    tbon_leaf_destroy(leaf);
    check_trees(&s, 1, DL_FINDING_POTENTIAL_DEADLOCK);
}

/* Request ids of the nonblocking calls: one per rank and call, never reused. */
static uint64_t next_request[WORLD];

/* Rank's nonblocking func (Isend or Irecv) to or from peer; returns its request id. */
static uint64_t start(script *s, int32_t rank, uint16_t func, int32_t peer)
{
    uint64_t id = ++next_request[rank];
    check_event ev = event(CHECK_EVENT_EV_ENTER, rank, func, peer, CHECK_EVENT_NO_ROOT);
    ev.request = id;
    put_event(s, &ev);
    ev = event(CHECK_EVENT_EV_EXIT, rank, func, CHECK_EVENT_PROC_NULL, CHECK_EVENT_NO_ROOT);
    ev.request = id;
    put_event(s, &ev);
    return id;
}

/* Rank's Waitall on ids[0..n): its entry, and (exit) its exit completing them all. */
static void waitall(script *s, int32_t rank, const uint64_t *ids, uint32_t n, int exit)
{
    check_event_status st[2] = {{0, CHECK_EVENT_PROC_NULL, 0, 0, 1}, {1, CHECK_EVENT_PROC_NULL, 0, 0, 1}};
    check_event ev = event(exit ? CHECK_EVENT_EV_EXIT : CHECK_EVENT_EV_ENTER, rank, CHECK_EVENT_FN_WAITALL,
                           CHECK_EVENT_PROC_NULL, CHECK_EVENT_NO_ROOT);
    ev.n_requests = n;
    ev.requests = ids;
    ev.n_statuses = exit ? n : 0;
    ev.statuses = exit ? st : NULL;
    put_event(s, &ev);
}

/* Iterations of a ring of Isend to the next rank, Irecv from the previous one and a Waitall on
 * both, then an Allreduce. With `pairs`, each rank exchanges with its neighbour r ^ 1 instead. */
static void nonblocking_ring(script *s, int iterations, int pairs)
{
    uint64_t ids[WORLD][2];
    for (int it = 0; it < iterations; it++) {
        for (int32_t r = 0; r < WORLD; r++) {
            ids[r][0] = start(s, r, CHECK_EVENT_FN_ISEND, pairs ? r ^ 1 : (r + 1) % WORLD);
            if (it == 1 && r % 3 == 0) { /* a call the detector does not model, inside a window */
                check_event ev = event(CHECK_EVENT_EV_EXIT, r, CHECK_EVENT_FN_UNMODELLED, CHECK_EVENT_PROC_NULL,
                                       CHECK_EVENT_NO_ROOT);
                ev.result = (int32_t)(MG_FN_NONE + 1 + r);
                put_event(s, &ev);
            }
            ids[r][1] = start(s, r, CHECK_EVENT_FN_IRECV, pairs ? r ^ 1 : (r + WORLD - 1) % WORLD);
            waitall(s, r, ids[r], 2, 0);
        }
        for (int32_t r = 0; r < WORLD; r++) {
            waitall(s, r, ids[r], 2, 1);
        }
        for (int32_t r = 0; r < WORLD; r++) {
            put(s, CHECK_EVENT_EV_ENTER, r, CHECK_EVENT_FN_ALLREDUCE, CHECK_EVENT_PROC_NULL, CHECK_EVENT_NO_ROOT);
        }
        for (int32_t r = 0; r < WORLD; r++) {
            put(s, CHECK_EVENT_EV_EXIT, r, CHECK_EVENT_FN_ALLREDUCE, CHECK_EVENT_PROC_NULL, CHECK_EVENT_NO_ROOT);
        }
    }
}

/* A ring of Isend/Irecv/Waitall: the pairs inside a leaf are matched there, their 4 records each
 * kept from the root; the Waitall, which also names a request across leaves, goes up. */
static void test_nonblocking_ring(void)
{
    static script s;
    memset(&s, 0, sizeof s);
    memset(next_request, 0, sizeof next_request);
    nonblocking_ring(&s, 3, 0);
    for (int32_t r = 0; r < WORLD; r++) {
        call(&s, r, CHECK_EVENT_FN_FINALIZE, CHECK_EVENT_PROC_NULL);
    }
    /* 4 leaves of 2: per iteration the messages 0->1, 2->3, 4->5, 6->7 stay inside a leaf */
    tree_counts counts = check_trees(&s, 0, 0);
    MG_CHECK_INT(counts.of[0].resolved, 3 * 4 * 4);
    MG_CHECK_INT(counts.of[0].summaries, 3 * 4);
}

/* Neighbours r and r ^ 1 (one leaf) exchange by Isend/Irecv/Waitall: every call stays in the leaf,
 * the Waitalls too, as they name only requests matched there. */
static void test_nonblocking_pairs(void)
{
    static script s;
    memset(&s, 0, sizeof s);
    memset(next_request, 0, sizeof next_request);
    nonblocking_ring(&s, 3, 1);
    tree_counts counts = check_trees(&s, 0, 0);
    MG_CHECK_INT(counts.of[0].resolved, 3 * WORLD * 6);
}

/* After two rounds of the ring, ranks a and b each wait on an Irecv from the other that no send
 * meets: the trees report the single detector's deadlock, same ranks and calls. */
static void nonblocking_deadlock(int32_t a, int32_t b)
{
    static script s;
    memset(&s, 0, sizeof s);
    memset(next_request, 0, sizeof next_request);
    nonblocking_ring(&s, 2, 0);
    uint64_t ida = start(&s, a, CHECK_EVENT_FN_IRECV, b);
    uint64_t idb = start(&s, b, CHECK_EVENT_FN_IRECV, a);
    check_event ev = event(CHECK_EVENT_EV_ENTER, a, CHECK_EVENT_FN_WAIT, CHECK_EVENT_PROC_NULL, CHECK_EVENT_NO_ROOT);
    ev.n_requests = 1;
    ev.requests = &ida;
    put_event(&s, &ev);
    ev = event(CHECK_EVENT_EV_ENTER, b, CHECK_EVENT_FN_WAIT, CHECK_EVENT_PROC_NULL, CHECK_EVENT_NO_ROOT);
    ev.n_requests = 1;
    ev.requests = &idb;
    put_event(&s, &ev);
    check_trees(&s, 1, DL_FINDING_DEADLOCK);
}

/* Even ranks Isend to the next odd one and Wait, which receives with a blocking Recv (posted
 * before or after the Isend): the pair is matched in the leaf, the Wait kept from the root too. */
static void test_nonblocking_to_blocking(void)
{
    static script s;
    memset(&s, 0, sizeof s);
    memset(next_request, 0, sizeof next_request);
    for (int it = 0; it < 4; it++) {
        for (int32_t r = 0; r < WORLD; r += 2) {
            if (it % 2) {
                put(&s, CHECK_EVENT_EV_ENTER, r + 1, CHECK_EVENT_FN_RECV, r, CHECK_EVENT_NO_ROOT);
            }
            uint64_t id = start(&s, r, CHECK_EVENT_FN_ISEND, r + 1);
            check_event ev = event(CHECK_EVENT_EV_ENTER, r, CHECK_EVENT_FN_WAIT, CHECK_EVENT_PROC_NULL,
                                   CHECK_EVENT_NO_ROOT);
            ev.n_requests = 1;
            ev.requests = &id;
            put_event(&s, &ev);
            if (!(it % 2)) {
                put(&s, CHECK_EVENT_EV_ENTER, r + 1, CHECK_EVENT_FN_RECV, r, CHECK_EVENT_NO_ROOT);
            }
            put(&s, CHECK_EVENT_EV_EXIT, r + 1, CHECK_EVENT_FN_RECV, CHECK_EVENT_PROC_NULL, CHECK_EVENT_NO_ROOT);
            check_event_status st = {0, CHECK_EVENT_PROC_NULL, 0, 0, 1};
            ev = event(CHECK_EVENT_EV_EXIT, r, CHECK_EVENT_FN_WAIT, CHECK_EVENT_PROC_NULL, CHECK_EVENT_NO_ROOT);
            ev.n_requests = 1;
            ev.requests = &id;
            ev.n_statuses = 1;
            ev.statuses = &st;
            put_event(&s, &ev);
        }
    }
    tree_counts counts = check_trees(&s, 0, 0);
    MG_CHECK_INT(counts.of[0].resolved, 4 * 4 * 6);
}

/* Neighbours r and r ^ 1 exchange by Isend/Irecv, complete one request with a Waitany (by its
 * status's index) and the other with a Wait: all stays in the leaf. */
static void test_nonblocking_waitany(void)
{
    static script s;
    memset(&s, 0, sizeof s);
    memset(next_request, 0, sizeof next_request);
    for (int it = 0; it < 3; it++) {
        uint64_t ids[WORLD][2];
        for (int32_t r = 0; r < WORLD; r++) {
            ids[r][0] = start(&s, r, CHECK_EVENT_FN_ISEND, r ^ 1);
            ids[r][1] = start(&s, r, CHECK_EVENT_FN_IRECV, r ^ 1);
        }
        for (int32_t r = 0; r < WORLD; r++) {
            check_event_status st = {(uint32_t)(r + it) % 2, CHECK_EVENT_PROC_NULL, 0, 0, 1};
            for (int kind = CHECK_EVENT_EV_ENTER; kind <= CHECK_EVENT_EV_EXIT; kind++) {
                check_event ev = event(kind, r, CHECK_EVENT_FN_WAITANY, CHECK_EVENT_PROC_NULL, CHECK_EVENT_NO_ROOT);
                ev.n_requests = 2;
                ev.requests = ids[r];
                ev.n_statuses = kind == CHECK_EVENT_EV_EXIT;
                ev.statuses = &st;
                put_event(&s, &ev);
            }
            for (int kind = CHECK_EVENT_EV_ENTER; kind <= CHECK_EVENT_EV_EXIT; kind++) {
                check_event ev = event(kind, r, CHECK_EVENT_FN_WAIT, CHECK_EVENT_PROC_NULL, CHECK_EVENT_NO_ROOT);
                ev.n_requests = 1;
                ev.requests = &ids[r][1 - st.index];
                put_event(&s, &ev);
            }
        }
    }
    tree_counts counts = check_trees(&s, 0, 0);
    MG_CHECK_INT(counts.of[0].resolved, 3 * WORLD * 8);
}

static void test_nonblocking_deadlock(void)
{
    nonblocking_deadlock(2, 3); /* inside a leaf */
    nonblocking_deadlock(1, 6); /* across leaves */
}

/* Ranks r and r + 4 exchange, `iterations` times: one leaf's pair when ranks are round robin on 4
 * nodes (leaf l: ranks l and l + 4), two leaves' in blocks. */
static void far_pairs(script *s, int iterations)
{
    memset(s, 0, sizeof *s);
    for (int it = 0; it < iterations; it++) {
        for (int32_t r = 0; r < WORLD / 2; r++) {
            call(s, r, CHECK_EVENT_FN_SEND, r + WORLD / 2);
            call(s, r + WORLD / 2, CHECK_EVENT_FN_RECV, r);
        }
    }
}

/* A clean run: the round-robin leaves keep every pair (4 records each), the block leaves none. */
static void test_round_robin_clean(void)
{
    static script s;
    far_pairs(&s, 3);
    for (int32_t r = 0; r < WORLD; r++) {
        call(&s, r, CHECK_EVENT_FN_FINALIZE, CHECK_EVENT_PROC_NULL);
    }
    tree_counts counts = check_trees(&s, 0, 0);
    MG_CHECK_INT(counts.of[1].resolved, 3 * 4 * 4);
    MG_CHECK_INT(counts.of[0].resolved, 0);
}

/* Ranks 1 and 5 (one round-robin leaf, two block leaves) send to each other unbuffered, ranks 2 and
 * 7 (two leaves either way) receive from each other: the single detector's one finding, its two
 * knots, every call of them. */
static void test_round_robin_deadlocks(void)
{
    static script s;
    far_pairs(&s, 1);
    put(&s, CHECK_EVENT_EV_ENTER, 1, CHECK_EVENT_FN_SSEND, 5, CHECK_EVENT_NO_ROOT);
    put(&s, CHECK_EVENT_EV_ENTER, 5, CHECK_EVENT_FN_SSEND, 1, CHECK_EVENT_NO_ROOT);
    put(&s, CHECK_EVENT_EV_ENTER, 2, CHECK_EVENT_FN_RECV, 7, CHECK_EVENT_NO_ROOT);
    put(&s, CHECK_EVENT_EV_ENTER, 7, CHECK_EVENT_FN_RECV, 2, CHECK_EVENT_NO_ROOT);
    check_trees(&s, 1, DL_FINDING_DEADLOCK);
    deadlock_detector *single;
    MG_CHECK_INT(deadlock_detector_create(NULL, WORLD, &single), MG_ERROR_OK);
    single_replay(single, &s);
    size_t n;
    const dl_finding *f = deadlock_detector_findings(single, &n);
    MG_CHECK_INT(f[0].n_knot, 4);
    deadlock_detector_destroy(single);
}

/* A share is any set, but a set: ascending, inside the world; a leaf refuses the records and
 * summaries of other ranks; the root knows which leaf streams each rank and which rank none does,
 * and refuses a rank claimed by two leaves. */
static void test_shares_claimed(void)
{
    static const int32_t evens[] = {0, 2, 4, 6}, odds[] = {1, 3, 5}, down[] = {3, 1},
                         twice[] = {1, 1}, outside[] = {8}, clash[] = {5, 7}, last[] = {7};
    tbon_leaf *leaf;
    uint64_t passed = 0;
    MG_CHECK_INT(tbon_leaf_create(WORLD, down, 2, drop, &passed, &leaf), MG_ERROR_EINVAL);
    MG_CHECK_INT(tbon_leaf_create(WORLD, twice, 2, drop, &passed, &leaf), MG_ERROR_EINVAL);
    MG_CHECK_INT(tbon_leaf_create(WORLD, outside, 1, drop, &passed, &leaf), MG_ERROR_EINVAL);
    MG_CHECK_INT(tbon_leaf_create(WORLD, evens, 4, drop, &passed, &leaf), MG_ERROR_OK);
    static script s;
    memset(&s, 0, sizeof s);
    put(&s, CHECK_EVENT_EV_ENTER, 1, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_PROC_NULL, CHECK_EVENT_NO_ROOT);
    size_t used;
    MG_CHECK_INT(tbon_leaf_feed_bytes(leaf, s.bytes, s.len, &used), MG_ERROR_EINVAL);
    MG_CHECK_INT(tbon_leaf_feed_summary(leaf, s.bytes, s.len, odds, 3, &used), MG_ERROR_EINVAL);
    MG_CHECK_INT(tbon_leaf_feed_summary(leaf, s.bytes, s.len, evens, 4, &used), MG_ERROR_OK);
    MG_CHECK_INT(tbon_leaf_share_place(evens, 4, 4), 2);
    MG_CHECK_INT(tbon_leaf_share_place(evens, 4, 5), -1);
    tbon_leaf_destroy(leaf);

    tbon_root *root;
    int32_t first, which = -1;
    MG_CHECK_INT(tbon_root_create(WORLD, &root), MG_ERROR_OK);
    MG_CHECK_INT(tbon_root_unclaimed(root, &first), WORLD);
    MG_CHECK_INT(tbon_root_claim(root, 0, evens, 4, &which), MG_ERROR_OK);
    MG_CHECK_INT(tbon_root_claim(root, 1, odds, 3, &which), MG_ERROR_OK);
    MG_CHECK_INT(tbon_root_unclaimed(root, &first), 1);
    MG_CHECK_INT(first, 7);
    MG_CHECK_INT(tbon_root_claim(root, 2, clash, 2, &which), MG_ERROR_ESTATE);
    MG_CHECK_INT(which, 5);
    MG_CHECK_INT(tbon_root_owner(root, 5), 1);
    MG_CHECK_INT(tbon_root_unclaimed(root, &first), 1); /* the refused claim took no rank */
    MG_CHECK_INT(tbon_root_claim(root, 2, outside, 1, &which), MG_ERROR_EINVAL);
    MG_CHECK_INT(tbon_root_claim(root, 2, last, 1, &which), MG_ERROR_OK);
    MG_CHECK_INT(tbon_root_unclaimed(root, &first), 0);
    MG_CHECK_INT(first, -1);
    MG_CHECK_INT(tbon_root_owner(root, 6), 0);
    tbon_root_destroy(root);
}

/* Rank `refuser` (3: its receive, 2: its send) is refused by MPI after the pair 2-3 (one leaf in
 * most trees) was matched; the next call of that rank takes what it matched. Every tree ends
 * clean, as the single detector does: a leaf that paired the calls passes both up, and the stage
 * above gives back what the refused one matched. */
static void refused_in_leaf(int32_t refuser)
{
    static script s;
    memset(&s, 0, sizeof s);
    stencil(&s, 1);
    put(&s, CHECK_EVENT_EV_ENTER, 5 - refuser, refuser == 3 ? CHECK_EVENT_FN_SEND : CHECK_EVENT_FN_RECV, refuser,
        CHECK_EVENT_NO_ROOT);
    uint16_t func = refuser == 3 ? CHECK_EVENT_FN_RECV : CHECK_EVENT_FN_SEND;
    put(&s, CHECK_EVENT_EV_ENTER, refuser, func, 5 - refuser, CHECK_EVENT_NO_ROOT);
    check_event ev = event(CHECK_EVENT_EV_EXIT, refuser, func, CHECK_EVENT_PROC_NULL, CHECK_EVENT_NO_ROOT);
    ev.flags = CHECK_EVENT_FLAG_REFUSED;
    put_event(&s, &ev);
    call(&s, refuser, func, 5 - refuser);
    put(&s, CHECK_EVENT_EV_EXIT, 5 - refuser, refuser == 3 ? CHECK_EVENT_FN_SEND : CHECK_EVENT_FN_RECV,
        CHECK_EVENT_PROC_NULL, CHECK_EVENT_NO_ROOT);
    for (int32_t r = 0; r < WORLD; r++) {
        call(&s, r, CHECK_EVENT_FN_FINALIZE, CHECK_EVENT_PROC_NULL);
    }
    check_trees(&s, 0, 0);
}

static void test_refused_in_leaf(void)
{
    refused_in_leaf(3);
    refused_in_leaf(2);
}

int main(void)
{
    MG_RUN(test_clean);
    MG_RUN(test_answers_after_the_whole_stream);
    MG_RUN(test_collective_sites_differ);
    MG_RUN(test_cross_leaf_deadlock);
    MG_RUN(test_within_leaf_deadlock);
    MG_RUN(test_collective_mismatch);
    MG_RUN(test_collective_mismatch_completed);
    MG_RUN(test_collective_behind_a_receive);
    MG_RUN(test_wildcard_across_leaves);
    MG_RUN(test_pair_behind_a_buffered_send);
    MG_RUN(test_no_race_behind_a_buffered_send);
    MG_RUN(test_hold_bound);
    MG_RUN(test_pairs_on_a_split);
    MG_RUN(test_deadlock_on_a_split);
    MG_RUN(test_pairs_on_cross_leaf_comms);
    MG_RUN(test_wildcard_on_a_cross_leaf_comm);
    MG_RUN(test_collective_behind_a_receive_on_a_grid);
    MG_RUN(test_deadlock_on_a_cross_leaf_comm);
    MG_RUN(test_nonblocking_ring);
    MG_RUN(test_nonblocking_pairs);
    MG_RUN(test_nonblocking_to_blocking);
    MG_RUN(test_nonblocking_waitany);
    MG_RUN(test_nonblocking_deadlock);
    MG_RUN(test_round_robin_clean);
    MG_RUN(test_round_robin_deadlocks);
    MG_RUN(test_shares_claimed);
    MG_RUN(test_refused_in_leaf);
    MG_TEST_END();
}
