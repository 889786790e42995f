/* Replays a synthetic job through a tree of detector processes (docs/design/check-detector.md §14;
 * figures: docs/check-measurements-deadlock.md "A tree of detectors"): a generator process
 * streams the records of RANKS ranks (a ring exchange of blocking sends and receives and an
 * Allreduce per iteration, then ranks 0 and RANKS-1 receive from each other: a deadlock) in the
 * agents' frames (record_stream.h) to LEAVES leaf processes (`mpiguard agent stage`, found at
 * ../bin/mpiguard from this program: tbon_stage.h), optionally under MIDS middle processes, whose
 * streams reach the root process, a deadlock detector (LEAVES 0: the
 * generator streams to the root itself, today's single detector). Prints per process the records
 * in and passed up, records/s of its CPU time (other load on the machine does not count), its
 * peak RSS (a stage's from the kernel, so it counts the mpiguard binary), and at the root what
 * reached it per MPI call and the time from the generator's last record to the verdict. With
 * `kill`, leaf 1 is killed halfway: the root must still give its verdict and name the ranks it
 * lost. With `cyclic`, leaf l streams the ranks r with r % LEAVES == l (ranks round robin on
 * nodes, as `--map-by node` places them) instead of a block of consecutive ranks, and a middle
 * stage the union of its leaves' ranks. Usage:
 * check_tbon_bench RANKS LEAVES [MIDS [ITERATIONS [kill] [cyclic]]] */
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent_proto.h"
#include "agent_stage.h"
#include "check_agent.h"
#include "check_event.h"
#include "deadlock_detector.h"
#include "mg_error.h"
#include "record_stream.h"
#include "tbon_root.h"
#include "tbon_stage.h"

#define MAX_LEAVES 64

/* What each process measured, in memory shared with the generator. */
typedef struct figures {
    uint64_t records, passed;
    double cpu_s;
    long rss_kb;
    int failed;
} figures;

typedef struct root_figures {
    figures f;
    double verdict_s; /* CLOCK_MONOTONIC */
    size_t findings;
    int first_kind, knot[2];
    size_t kinds[16]; /* findings per dl_finding_kind */
    int32_t lost, lost_first, lost_last;
} root_figures;

typedef struct shared {
    double last_record_s;
    root_figures root;
    figures stages[2 * MAX_LEAVES];
} shared;

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void measure_self(figures *f)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    f->cpu_s = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    f->rss_kb = ru.ru_maxrss;
}

/* A pipe's ends, -1 once closed in this process. */
typedef struct pipe_ends {
    int rd, wr;
} pipe_ends;

typedef struct tree {
    int32_t ranks;
    int leaves, mids, iterations, kill, cyclic;
    uint8_t *leaf_of; /* per rank: the leaf (the generator's output) streaming it */
    pipe_ends to_leaf[MAX_LEAVES], leaf_up[MAX_LEAVES], mid_up[MAX_LEAVES], to_root;
    /* the answers of a leaf's parent (a middle stage or the root) and of a middle's (the root) */
    pipe_ends leaf_answers[MAX_LEAVES], mid_answers[MAX_LEAVES];
    pipe_ends counts[2 * MAX_LEAVES]; /* each stage's line of counts (leaves, then middles) */
    pid_t leaf_pid[MAX_LEAVES];
    char mpiguard[PATH_MAX]; /* the stages are `mpiguard agent stage` (tbon_stage.h) */
    shared *out;
} tree;

static int make_pipe(pipe_ends *p)
{
    int fds[2];
    if (pipe(fds)) {
        return -1;
    }
    p->rd = fds[0];
    p->wr = fds[1];
    return 0;
}

static void close_end(int *fd)
{
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
}

/* In a child: closes every pipe end except the n in keep. */
static void keep_only(tree *t, const int *keep, int n)
{
    pipe_ends *sets[] = {t->to_leaf, t->leaf_up, t->mid_up, t->leaf_answers, t->mid_answers};
    enum { N_SETS = sizeof sets / sizeof sets[0] };
    for (int set = 0; set <= N_SETS; set++) {
        for (int i = 0; i < (set < N_SETS ? MAX_LEAVES : 1); i++) {
            pipe_ends *p = set < N_SETS ? &sets[set][i] : &t->to_root;
            int *ends[] = {&p->rd, &p->wr};
            for (int e = 0; e < 2; e++) {
                int kept = 0;
                for (int k = 0; k < n; k++) {
                    kept |= *ends[e] == keep[k];
                }
                if (!kept) {
                    close_end(ends[e]);
                }
            }
        }
    }
}

/* Leaves of mid m: [m * leaves / mids, (m + 1) * leaves / mids). */
static int mid_leaf(const tree *t, int m)
{
    return m * t->leaves / t->mids;
}

/* The ranks streamed by leaves [lo, hi) (all of them without leaves), ascending: *n of them, in a
 * malloc'd array. */
static int32_t *leaf_ranks(const tree *t, int lo, int hi, int32_t *n)
{
    int32_t *set = malloc((size_t)t->ranks * sizeof *set);
    *n = 0;
    for (int32_t r = 0; set && r < t->ranks; r++) {
        if (!t->leaves || (t->leaf_of[r] >= lo && t->leaf_of[r] < hi)) {
            set[(*n)++] = r;
        }
    }
    return set;
}

/* Appends the ranks of leaves [lo, hi) to list as `mpiguard agent stage` takes them: runs of
 * consecutive ranks "A-B" joined by '+'. */
static void add_ranks(const tree *t, char *list, size_t cap, int lo, int hi)
{
    int32_t n;
    int32_t *set = leaf_ranks(t, lo, hi, &n);
    size_t len = strlen(list);
    if (set) {
        agent_stage_format_ranks(set, n, list + len, cap - len);
    }
    free(set);
}

/* Room for a list of every rank, and a child's descriptors each. */
static size_t list_cap(const tree *t)
{
    return (size_t)t->ranks * 24 + 64 * MAX_LEAVES;
}

/* In a child: becomes stage `index` (its counts line to t->counts[index]), `mpiguard agent stage`
 * for the ranks of leaves [lo, hi) over the descriptors it kept. */
static void exec_stage(tree *t, int index, int lo, int hi, const char *inputs, int output,
                       int answers_in)
{
    char *ranks = calloc(list_cap(t), 1), out[32];
    if (ranks) {
        add_ranks(t, ranks, list_cap(t), lo, hi);
    }
    snprintf(out, sizeof out, "%d/%d", output, answers_in);
    dup2(t->counts[index].wr, STDOUT_FILENO);
    execl(t->mpiguard, t->mpiguard, "agent", "stage", "--ranks", ranks ? ranks : "", "--inputs",
          inputs, "--output", out, (char *)NULL);
    perror(t->mpiguard);
    _exit(127);
}

/* Appends "FD:RANKS[/FD]" for a child streaming the ranks of leaves [lo, hi) to list. */
static void add_input(const tree *t, char *list, int fd, int lo, int hi, int answers)
{
    size_t len = strlen(list), cap = list_cap(t);
    snprintf(list + len, cap - len, "%s%d:", len ? "," : "", fd);
    add_ranks(t, list, cap, lo, hi);
    len = strlen(list);
    if (answers >= 0) {
        snprintf(list + len, cap - len, "/%d", answers);
    }
}

static void leaf_process(tree *t, int l)
{
    int keep[] = {t->to_leaf[l].rd, t->leaf_up[l].wr, t->leaf_answers[l].rd};
    keep_only(t, keep, 3);
    char *inputs = calloc(list_cap(t), 1);
    if (!inputs) {
        _exit(1);
    }
    /* the generator waits for no answer */
    add_input(t, inputs, t->to_leaf[l].rd, l, l + 1, -1);
    exec_stage(t, l, l, l + 1, inputs, t->leaf_up[l].wr, t->leaf_answers[l].rd);
}

static void mid_process(tree *t, int m)
{
    int keep[2 * MAX_LEAVES + 2];
    char *inputs = calloc(list_cap(t), 1);
    if (!inputs) {
        _exit(1);
    }
    int lo = mid_leaf(t, m), hi = mid_leaf(t, m + 1), n = 0;
    for (int l = lo; l < hi; l++, n++) {
        keep[2 * n] = t->leaf_up[l].rd;
        keep[2 * n + 1] = t->leaf_answers[l].wr;
        add_input(t, inputs, t->leaf_up[l].rd, l, l + 1, t->leaf_answers[l].wr);
    }
    keep[2 * n] = t->mid_up[m].wr;
    keep[2 * n + 1] = t->mid_answers[m].rd;
    keep_only(t, keep, 2 * n + 2);
    exec_stage(t, MAX_LEAVES + m, lo, hi, inputs, t->mid_up[m].wr, t->mid_answers[m].rd);
}

/* The root: a deadlock detector fed every stream that reaches it. */
typedef struct root {
    deadlock_detector *det;
    tbon_root *answers; /* for the stages below */
    uint8_t *ended;     /* per rank: an END frame came */
    uint64_t now;
    root_figures *f;
} root;

static void root_lose(root *r, int32_t rank)
{
    deadlock_detector_process_lost(r->det, rank, ++r->now);
    r->f->lost_first = r->f->lost++ ? r->f->lost_first : rank;
    r->f->lost_last = rank;
}

/* A frame from a child streaming the n ranks ranks[]: its summaries stand for them all. */
static int root_frame(root *r, const agent_proto_frame *fr, const int32_t *ranks, int32_t n)
{
    int32_t rank, value;
    uint64_t wide;
    if (fr->type == AGENT_PROTO_MSG_RECORD) {
        size_t used;
        check_event ev;
        r->f->f.records++;
        int rc = r->det ? deadlock_detector_feed_bytes(r->det, fr->payload, fr->length, ++r->now,
                                                       &used)
                        : MG_ERROR_EFORMAT;
        rc = rc ? rc : check_event_decode(fr->payload, fr->length, &ev, &used);
        return rc ? rc : tbon_root_note(r->answers, &ev);
    }
    if (fr->type == AGENT_PROTO_MSG_SUMMARY) {
        const uint8_t *record;
        size_t len, used;
        check_event ev;
        r->f->f.records++;
        int rc = r->det ? record_stream_parse_summary(fr, &rank, &record, &len) : MG_ERROR_EFORMAT;
        rc = rc ? rc : rank != n ? MG_ERROR_EFORMAT : check_event_decode(record, len, &ev, &used);
        return rc ? rc : deadlock_detector_feed_summary(r->det, &ev, ranks, n, ++r->now);
    }
    if (record_stream_parse_pair(fr, &rank, &value, &wide)) {
        return MG_ERROR_OK;
    }
    if (fr->type == AGENT_PROTO_MSG_WORLD && !r->det) {
        r->ended = calloc((size_t)value, 1);
        int rc = r->ended ? tbon_root_create(value, &r->answers) : MG_ERROR_ENOMEM;
        return rc ? rc : deadlock_detector_create(NULL, value, &r->det);
    }
    if (fr->type == AGENT_PROTO_MSG_END && r->det && rank >= 0 && !r->ended[rank]) {
        r->ended[rank] = 1;
        if (value == CHECK_AGENT_LOST) {
            root_lose(r, rank);
        }
    }
    return MG_ERROR_OK;
}

static void root_process(tree *t)
{
    int inputs[MAX_LEAVES] = {0}, answers[MAX_LEAVES], keep[2 * MAX_LEAVES] = {0};
    int32_t *in_ranks[MAX_LEAVES], in_count[MAX_LEAVES];
    int n = t->mids ? t->mids : t->leaves ? t->leaves : 1;
    for (int i = 0; i < n; i++) {
        in_ranks[i] = NULL;
    }
    for (int i = 0; i < n; i++) {
        int lo = t->mids ? mid_leaf(t, i) : i, hi = t->mids ? mid_leaf(t, i + 1) : i + 1;
        inputs[i] = t->mids ? t->mid_up[i].rd : t->leaves ? t->leaf_up[i].rd : t->to_root.rd;
        answers[i] = t->mids ? t->mid_answers[i].wr : t->leaves ? t->leaf_answers[i].wr : -1;
        in_ranks[i] = leaf_ranks(t, lo, hi, &in_count[i]);
        in_count[i] = in_ranks[i] ? in_count[i] : 0;
        keep[2 * i] = inputs[i];
        keep[2 * i + 1] = answers[i];
    }
    keep_only(t, keep, 2 * n);
    root r = {.f = &t->out->root};
    int rc = MG_ERROR_OK;
    /* the streams are read together: one after another would stall the tree on a full pipe */
    agent_proto_reader readers[MAX_LEAVES];
    uint8_t done[MAX_LEAVES] = {0}, closed[MAX_LEAVES] = {0};
    /* per child: 1 + the answers it had read when it said ENDED, and the answers written to it */
    uint64_t ended_after[MAX_LEAVES] = {0}, answered[MAX_LEAVES] = {0};
    int told_no_more = 0;
    int open = n;
    for (int i = 0; i < n; i++) {
        agent_proto_reader_init(&readers[i]);
    }
    struct pollfd fds[MAX_LEAVES];
    while (!rc && open) {
        for (int i = 0; i < n; i++) {
            fds[i] = (struct pollfd){.fd = inputs[i], .events = POLLIN};
        }
        if (poll(fds, (nfds_t)n, -1) < 0) {
            continue;
        }
        for (int i = 0; i < n && !rc; i++) {
            if (inputs[i] < 0 || !fds[i].revents) {
                continue;
            }
            uint8_t chunk[64u << 10];
            ssize_t got = read(inputs[i], chunk, sizeof chunk);
            agent_proto_frame fr;
            char err[200];
            int more = got > 0 ? agent_proto_reader_push(&readers[i], chunk, (size_t)got) : 0;
            while (!rc && got > 0 &&
                   (more = agent_proto_reader_next(&readers[i], &fr, err, sizeof err)) > 0) {
                int32_t reserved, unused;
                uint64_t heard;
                done[i] |= fr.type == AGENT_PROTO_MSG_DONE;
                if (fr.type == AGENT_PROTO_MSG_ENDED &&
                    !record_stream_parse_pair(&fr, &reserved, &unused, &heard)) {
                    ended_after[i] = heard + 1;
                }
                rc = root_frame(&r, &fr, in_ranks[i], in_count[i]);
            }
            if (got <= 0 || more < 0) {
                close_end(&inputs[i]);
                closed[i] = 1;
                open--;
            }
        }
        const tbon_leaf_call *calls;
        size_t n_calls = 0;
        rc = rc || !r.det ? rc : tbon_root_answers(r.answers, r.det, &calls, &n_calls);
        if (n_calls) {
            tbon_stage_tell_children(calls, n_calls, n, (const int32_t *const *)in_ranks, in_count,
                                     answers, answered);
        }
        /* every child said ENDED after reading its last answer: no further one comes */
        int all_ended = !told_no_more;
        for (int i = 0; i < n; i++) {
            all_ended &= closed[i] || ended_after[i] == answered[i] + 1;
        }
        for (int i = 0; all_ended && i < n; i++) {
            uint8_t frame[AGENT_PROTO_FRAME_HEADER];
            agent_proto_frame_header_put(frame, AGENT_PROTO_MSG_NO_MORE, 0);
            told_no_more = 1;
            if (answers[i] >= 0 && write(answers[i], frame, sizeof frame) != sizeof frame) {
                close_end(&answers[i]);
            }
        }
    }
    /* a stream that closed without its DONE frame lost the ranks that had not ended */
    for (int i = 0; i < n && r.det; i++) {
        for (int32_t k = 0; !done[i] && k < in_count[i]; k++) {
            if (!r.ended[in_ranks[i][k]]) {
                r.ended[in_ranks[i][k]] = 1;
                root_lose(&r, in_ranks[i][k]);
            }
        }
    }
    size_t n_new = 0;
    rc = rc ? rc : deadlock_detector_check_now(r.det, ++r.now, &n_new);
    t->out->root.verdict_s = clock_s(CLOCK_MONOTONIC);
    const dl_finding *found = deadlock_detector_findings(r.det, &t->out->root.findings);
    for (size_t i = 0; i < t->out->root.findings; i++) {
        t->out->root.kinds[found[i].kind & 15]++;
        if (found[i].kind == DL_FINDING_DEADLOCK && found[i].n_knot == 2) {
            t->out->root.first_kind = DL_FINDING_DEADLOCK;
            t->out->root.knot[0] = found[i].calls[0].rank;
            t->out->root.knot[1] = found[i].calls[1].rank;
        }
    }
    t->out->root.f.failed = rc != MG_ERROR_OK;
    if (rc) {
        fprintf(stderr, "root: %s\n", mg_error_string(rc));
    }
    measure_self(&t->out->root.f);
    for (int i = 0; i < n; i++) {
        agent_proto_reader_free(&readers[i]);
        free(in_ranks[i]);
    }
    deadlock_detector_destroy(r.det);
    tbon_root_destroy(r.answers);
    free(r.ended);
}

/* The generator: the agents' side, every rank's records in the order the ranks make them. */
typedef struct generator {
    tree *t;
    agent_proto_buf out[MAX_LEAVES];
    int fd[MAX_LEAVES], n_out;
    uint8_t *dest; /* per rank: its output */
    uint64_t *seq;
    uint64_t records;
} generator;

static void gen_flush(generator *g, int o)
{
    if (g->fd[o] >= 0 && agent_proto_send(g->fd[o], &g->out[o]) != MG_ERROR_OK) {
        close_end(&g->fd[o]); /* a killed leaf */
    }
    g->out[o].len = 0;
}

static void gen_frame(generator *g, int o, const uint8_t *frame, size_t len)
{
    if (agent_proto_put_bytes(&g->out[o], frame, len) == MG_ERROR_OK && g->out[o].len >= (256u << 10)) {
        gen_flush(g, o);
    }
}

static void gen_record(generator *g, int kind, int32_t rank, uint16_t func, int32_t peer)
{
    check_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = (uint8_t)kind;
    ev.rank = rank;
    ev.func = func;
    ev.seq = ++g->seq[rank];
    ev.comm = CHECK_EVENT_COMM_WORLD;
    ev.peer = peer;
    ev.root = CHECK_EVENT_NO_ROOT;
    /* 8 elements of one basic type: every matched pair and collective slot compares them */
    ev.count = 8;
    ev.type_hash = ev.type_period = 0x5EED;
    ev.type_elems = 8;
    ev.flags = CHECK_EVENT_FLAG_TYPE_UNIFORM;
    ev.callsite = 0x401000u + func;
    uint8_t frame[AGENT_PROTO_FRAME_HEADER + 512];
    size_t len;
    check_event_encode(&ev, frame + AGENT_PROTO_FRAME_HEADER, sizeof frame - AGENT_PROTO_FRAME_HEADER, &len);
    agent_proto_frame_header_put(frame, AGENT_PROTO_MSG_RECORD, (uint32_t)len);
    gen_frame(g, g->dest[rank], frame, AGENT_PROTO_FRAME_HEADER + len);
    g->records++;
}

static void gen_call(generator *g, int32_t rank, uint16_t func, int32_t peer)
{
    gen_record(g, CHECK_EVENT_EV_ENTER, rank, func, peer);
    gen_record(g, CHECK_EVENT_EV_EXIT, rank, func, CHECK_EVENT_PROC_NULL);
}

/* One iteration: a ring exchange (even ranks send first, so it is safe unbuffered) and an
 * Allreduce. */
static void gen_iteration(generator *g)
{
    int32_t p = g->t->ranks;
    for (int32_t r = 0; r < p; r += 2) {
        gen_call(g, r, CHECK_EVENT_FN_SEND, r + 1);
        gen_call(g, r + 1, CHECK_EVENT_FN_RECV, r);
        gen_call(g, r + 1, CHECK_EVENT_FN_SEND, (r + 2) % p);
        gen_call(g, (r + 2) % p, CHECK_EVENT_FN_RECV, r + 1);
    }
    for (int32_t r = 0; r < p; r++) {
        gen_record(g, CHECK_EVENT_EV_ENTER, r, CHECK_EVENT_FN_ALLREDUCE, CHECK_EVENT_PROC_NULL);
    }
    for (int32_t r = 0; r < p; r++) {
        gen_record(g, CHECK_EVENT_EV_EXIT, r, CHECK_EVENT_FN_ALLREDUCE, CHECK_EVENT_PROC_NULL);
    }
}

static void generate(tree *t, generator *g)
{
    uint8_t frame[AGENT_PROTO_FRAME_HEADER + 16];
    size_t len = record_stream_pair(frame, sizeof frame, AGENT_PROTO_MSG_WORLD, -1, t->ranks, 0);
    for (int o = 0; o < g->n_out; o++) {
        gen_frame(g, o, frame, len);
    }
    for (int it = 0; it < t->iterations; it++) {
        if (t->kill && it == t->iterations / 2) {
            kill(t->leaf_pid[1], SIGKILL);
        }
        gen_iteration(g);
    }
    gen_record(g, CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_RECV, t->ranks - 1);
    gen_record(g, CHECK_EVENT_EV_ENTER, t->ranks - 1, CHECK_EVENT_FN_RECV, 0);
    for (int o = 0; o < g->n_out; o++) {
        gen_flush(g, o);
    }
    t->out->last_record_s = clock_s(CLOCK_MONOTONIC);
    for (int o = 0; o < g->n_out; o++) {
        agent_proto_frame_header_put(frame, AGENT_PROTO_MSG_DONE, 0);
        gen_frame(g, o, frame, AGENT_PROTO_FRAME_HEADER);
        gen_flush(g, o);
        close_end(&g->fd[o]);
    }
}

static pid_t spawn(tree *t, void (*body)(tree *, int), int index)
{
    pid_t pid = fork();
    if (pid == 0) {
        body(t, index);
        _exit(0);
    }
    return pid;
}

/* Waits for stage process `stage` and reads its figures: CPU time and peak RSS from the kernel,
 * records in and passed up from its line of counts. */
static void collect_stage(tree *t, pid_t pid, int stage)
{
    figures *f = &t->out->stages[stage];
    struct rusage ru;
    int status = 0;
    char line[256] = "";
    unsigned long long records = 0, passed = 0;
    f->failed = wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
                WEXITSTATUS(status) != 0;
    f->cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
               (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
    f->rss_kb = ru.ru_maxrss;
    close_end(&t->counts[stage].wr);
    ssize_t n = read(t->counts[stage].rd, line, sizeof line - 1);
    line[n > 0 ? n : 0] = '\0';
    const char *at = strstr(line, "records");
    if (at && sscanf(at, "records %llu passed %llu", &records, &passed) == 2) {
        f->records = records;
        f->passed = passed;
    }
}

static void root_body(tree *t, int index)
{
    (void)index;
    root_process(t);
}

static void report(const tree *t, uint64_t records, uint64_t calls)
{
    const shared *s = t->out;
    double leaf_min_rate = 0, leaf_rss = 0, passed = 0;
    int stages = t->leaves + t->mids;
    for (int i = 0; i < stages; i++) {
        const figures *f = i < t->leaves ? &s->stages[i] : &s->stages[MAX_LEAVES + i - t->leaves];
        double rate = f->cpu_s > 0 ? (double)f->records / f->cpu_s : 0;
        printf("  %s %2d: in %10llu  up %10llu (%5.1f%%)  %6.2f M records/s  RSS %6.1f MB%s\n",
               i < t->leaves ? "leaf" : "mid ", i < t->leaves ? i : i - t->leaves,
               (unsigned long long)f->records, (unsigned long long)f->passed,
               f->records ? 100.0 * (double)f->passed / (double)f->records : 0, rate / 1e6,
               f->rss_kb / 1024.0, f->failed ? "  FAILED" : "");
        if (i < t->leaves && (t->kill == 0 || i != 1)) {
            leaf_min_rate = leaf_min_rate == 0 || rate < leaf_min_rate ? rate : leaf_min_rate;
            leaf_rss = f->rss_kb / 1024.0 > leaf_rss ? f->rss_kb / 1024.0 : leaf_rss;
            passed += (double)f->passed;
        }
    }
    const root_figures *r = &s->root;
    double verdict = r->verdict_s - s->last_record_s;
    printf("  root: in %llu records and summaries = %.4f per MPI call (%llu records, %llu calls), "
           "%.0f ns of CPU "
           "per call, RSS %.1f MB; verdict %.3f s after the last record: %s ranks %d and %d; "
           "%zu findings",
           (unsigned long long)r->f.records, (double)r->f.records / (double)calls,
           (unsigned long long)records, (unsigned long long)calls, r->f.cpu_s * 1e9 / (double)calls,
           r->f.rss_kb / 1024.0, verdict,
           r->first_kind == DL_FINDING_DEADLOCK ? "deadlock of" : "NO deadlock", r->knot[0], r->knot[1],
           r->findings);
    for (int k = 0; k < 16; k++) {
        if (r->kinds[k]) {
            printf(" %s x%zu", dl_finding_kind_name(k), r->kinds[k]);
        }
    }
    if (r->lost) {
        printf("; lost %d ranks (%d-%d)", r->lost, r->lost_first, r->lost_last);
    }
    printf("%s\n", r->f.failed ? "  FAILED" : "");
    printf("TABLE %d %d %d %.2f %.3f %.0f %.1f %.1f %.3f %llu\n", t->ranks, t->leaves, t->mids,
           leaf_min_rate / 1e6, 1000.0 * (double)r->f.records / (double)calls,
           r->f.cpu_s * 1e9 / (double)calls, leaf_rss, r->f.rss_kb / 1024.0, verdict,
           (unsigned long long)r->f.records);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s RANKS LEAVES [MIDS [ITERATIONS [kill] [cyclic]]]\n", argv[0]);
        return 2;
    }
    static tree t;
    t.ranks = atoi(argv[1]);
    t.leaves = atoi(argv[2]);
    t.mids = argc > 3 ? atoi(argv[3]) : 0;
    t.iterations = argc > 4 ? atoi(argv[4]) : 4;
    for (int a = 5; a < argc; a++) {
        t.kill |= strcmp(argv[a], "kill") == 0;
        t.cyclic |= strcmp(argv[a], "cyclic") == 0;
    }
    if (t.ranks < 4 || t.ranks % 2 || t.leaves < 0 || t.leaves > MAX_LEAVES || t.mids < 0 ||
        t.mids > t.leaves || (t.leaves && t.ranks < t.leaves) || t.iterations < 1 ||
        (t.kill && t.leaves < 2)) {
        fprintf(stderr, "%s: RANKS even >= 4, 0 <= MIDS <= LEAVES <= %d, kill needs 2 leaves\n",
                argv[0], MAX_LEAVES);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    char self[PATH_MAX - 16];
    ssize_t self_len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (self_len <= 0) {
        perror("/proc/self/exe");
        return 1;
    }
    self[self_len] = '\0';
    *strrchr(self, '/') = '\0';
    snprintf(t.mpiguard, sizeof t.mpiguard, "%s/../bin/mpiguard", self);
    t.out = mmap(NULL, sizeof *t.out, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (t.out == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    memset(&t.to_leaf, -1, sizeof t.to_leaf);
    memset(&t.leaf_up, -1, sizeof t.leaf_up);
    memset(&t.mid_up, -1, sizeof t.mid_up);
    memset(&t.to_root, -1, sizeof t.to_root);
    memset(&t.leaf_answers, -1, sizeof t.leaf_answers);
    memset(&t.mid_answers, -1, sizeof t.mid_answers);
    memset(&t.counts, -1, sizeof t.counts);
    int leaves = t.leaves ? t.leaves : 1;
    t.leaf_of = malloc((size_t)t.ranks);
    for (int32_t r = 0; t.leaf_of && r < t.ranks; r++) {
        t.leaf_of[r] = (uint8_t)(t.cyclic ? r % leaves : (int64_t)r * leaves / t.ranks);
    }
    int failed = t.leaves ? 0 : make_pipe(&t.to_root);
    for (int l = 0; l < t.leaves && !failed; l++) {
        failed = make_pipe(&t.to_leaf[l]) || make_pipe(&t.leaf_up[l]) ||
                 make_pipe(&t.leaf_answers[l]) || make_pipe(&t.counts[l]);
    }
    for (int m = 0; m < t.mids && !failed; m++) {
        failed = make_pipe(&t.mid_up[m]) || make_pipe(&t.mid_answers[m]) ||
                 make_pipe(&t.counts[MAX_LEAVES + m]);
    }
    if (failed) {
        perror("pipe");
        return 1;
    }
    pid_t pids[2 * MAX_LEAVES + 1];
    int n_pids = 0;
    pids[n_pids++] = spawn(&t, root_body, 0);
    for (int m = 0; m < t.mids; m++) {
        pids[n_pids++] = spawn(&t, mid_process, m);
    }
    for (int l = 0; l < t.leaves; l++) {
        pids[n_pids++] = t.leaf_pid[l] = spawn(&t, leaf_process, l);
    }
    static generator g;
    g.t = &t;
    g.n_out = leaves;
    g.dest = t.leaf_of;
    g.seq = calloc((size_t)t.ranks, sizeof *g.seq);
    int keep[MAX_LEAVES];
    for (int o = 0; o < leaves; o++) {
        keep[o] = g.fd[o] = t.leaves ? t.to_leaf[o].wr : t.to_root.wr;
    }
    keep_only(&t, keep, leaves);
    generate(&t, &g);
    waitpid(pids[0], NULL, 0);
    for (int i = 1; i < n_pids; i++) {
        collect_stage(&t, pids[i], i <= t.mids ? MAX_LEAVES + i - 1 : i - 1 - t.mids);
    }
    uint64_t calls = (uint64_t)t.ranks * 3u * (uint64_t)t.iterations + 2u;
    printf("ranks %d%s, %d leaves, %d middle stages, %d iterations%s:\n", t.ranks,
           t.cyclic ? " round robin" : "", t.leaves, t.mids, t.iterations,
           t.kill ? ", leaf 1 killed halfway" : "");
    report(&t, g.records, calls);
    for (int o = 0; o < leaves; o++) {
        agent_proto_buf_free(&g.out[o]);
    }
    free(g.seq);
    /* a killed leaf hides the planted deadlock: the ranks next to its lost ones wait for them,
     * and the Allreduce after that for those */
    const root_figures *r = &t.out->root;
    int32_t lost;
    free(leaf_ranks(&t, 1, 2, &lost));
    int32_t lost_first = 0;
    while (lost_first < t.ranks && t.leaf_of[lost_first] != 1) {
        lost_first++;
    }
    free(t.leaf_of);
    if (t.kill) {
        return r->f.failed || r->lost != lost || r->lost_first != lost_first || r->findings == 0;
    }
    return r->f.failed || r->first_kind != DL_FINDING_DEADLOCK || r->knot[0] != 0 ||
           r->knot[1] != t.ranks - 1;
}
