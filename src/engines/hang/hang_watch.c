/* The watch loop as a step object (hang_watch.h). */
#include "hang_watch.h"

#include "hang_model.h"
#include "hang_timeout.h"
#include "mg_error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int model_sampled(const void *self, const int **ranks, size_t *count)
{
    return hang_model_sampled(self, ranks, count);
}

static int model_delay(void *self, double *delay)
{
    return hang_model_next_delay(self, delay);
}

static int model_observe(void *self, size_t out_mpi, double now, struct hang_verdict *v)
{
    return hang_model_observe(self, out_mpi, now, v);
}

static int model_resume(void *self)
{
    return hang_model_resume(self);
}

static int timeout_sampled(const void *self, const int **ranks, size_t *count)
{
    return hang_timeout_sampled(self, ranks, count);
}

static int timeout_delay(void *self, double *delay)
{
    return hang_timeout_next_delay(self, delay);
}

static int timeout_observe(void *self, size_t out_mpi, double now, struct hang_verdict *v)
{
    return hang_timeout_observe(self, out_mpi, now, v);
}

static int timeout_resume(void *self)
{
    return hang_timeout_resume(self);
}

struct hang_watch_detector hang_watch_detector_model(struct hang_model *m)
{
    return (struct hang_watch_detector){m, model_sampled, model_delay, model_observe, model_resume};
}

struct hang_watch_detector hang_watch_detector_timeout(struct hang_timeout *t)
{
    return (struct hang_watch_detector){t, timeout_sampled, timeout_delay, timeout_observe,
                                        timeout_resume};
}

void hang_watch_params_default(struct hang_watch_params *p)
{
    *p = (struct hang_watch_params){.verify = true,
                                    .nscans = 3,
                                    .scan_gap = 1.0,
                                    .max_stretch = 10,
                                    .gap_slices = 2000,
                                    .stretch_said = 1.5,
                                    .still_after = 15,
                                    .still_every = 3,
                                    .stuck_after = 3,
                                    .halted_after = 3,
                                    .held_after = 5};
}

enum phase {
    WATCHING,   /* the last step was the detector's SAMPLE */
    STOP_CHECK, /* every sampled rank was stopped: a SCAN tells a suspended job */
    STILL_SCAN, /* the first-call rule's SCAN */
    VERIFYING,  /* a verification SCAN */
    DONE
};

/* What the held-in-poll rule knows of a rank, from every reading that names it. */
struct poll_hold {
    bool seen;  /* counter is its last known count, read at read_at */
    bool moved; /* that reading found the counter moved since the one before */
    bool still; /* that reading found it where the one before left it */
    uint64_t counter;
    double read_at;
    double held_since;    /* since when it stands inside a polling call at that count; negative:
                             it does not */
    double progressed_at; /* the latest reading that found a call that does not poll */
};

/* A rank's CPU account at a verification scan, for the time it had until the next. */
struct cpu_mark {
    bool exited, runnable;
    double cpu_s, slices, share;
};

struct hang_watch {
    struct hang_watch_params p;
    struct hang_watch_detector det;
    size_t n;
    enum phase phase;
    size_t pending_out, pending_count; /* the sample held back by a STOP_CHECK */
    bool stopped_said;                 /* the job's stop was said (HANG_WATCH_JOB_STOPPED) */
    double running_at;                 /* when the job was last seen running */
    bool built, active; /* the detector left BUILDING; it observed some rank out of MPI */
    double built_at;    /* when it left BUILDING */
    bool stopped_seen;  /* a rank was last seen stopped from outside: the first-call rule goes on
                           after the detector is built, as a detector that learnt a rank
                           stopped before it was built takes that for normal */
    double next_still;  /* the first-call rule's next scan */
    bool proving;       /* past the rules' time (still_rule_on false): samples found every rank
                           they read at rest, or the last scan found the job stuck, so the rule's
                           scans go on for stuck's proof alone */
    struct hang_diag_rank *still_ref;  /* the scan every rank has been blocked since */
    struct hang_diag_rank *still_last; /* the rule's previous scan: whether a counter moved */
    bool still_valid;
    double still_since;
    bool past_start;    /* a rank's counter moved in two successive gaps between its readings
                           (note_hold) */
    int halted_rank;    /* the rank outside MPI whose halt rule's verification this is, or -1 */
    bool still_gap;     /* the verification's gap being closed is the still period (verify_still) */
    bool from_detector; /* the verification answers a detector's HANG (resume it on set-aside) */
    size_t scan_k;      /* verification scan being taken */
    bool retaking;      /* it was read before in its gap (a retake: feed_verification) */
    double before_at;   /* time of the previous verification scan */
    int starved_rank;
    struct hang_diag_rank *scans; /* nscans * n */
    struct hang_diag_rank *view;  /* n: the last readings, for hang_diag_job_stopped */
    struct cpu_mark *before;
    struct hang_diag_cpu *cpu;
    uint8_t *conduct; /* per rank, over the verification: SPUN, WAITED_QUIETLY, STOPPED bits */
    double *own_sum;  /* per rank, over the verification: its own time while it ran inside MPI at
                         one count (gap_owed); negative once it did not */
    double *owed;     /* per rank: the own time the gap being closed asks of it */
    int *faulty;
    struct poll_hold *holds;
    /* the latest counter move seen, its rank, and the latest by any other rank: whether a rank
     * other than r moved since t, in constant time */
    double last_move_at, other_move_at;
    size_t last_move_rank;
    double moved_after; /* the latest time some counter is known to have moved after: the reading
                           before the one that saw it move */
    int held_rank;      /* the rank held in a polling call whose verification this is, or -1 */
    bool *been_in_mpi;  /* per rank: read inside MPI since the watch began (start_unseen) */
};

/* What a rank did in every gap of a verification (culprit naming); STOPPED: in every scan. */
enum { SPUN = 1, WAITED_QUIETLY = 2, STOPPED = 4 };

int hang_watch_create(const struct hang_watch_params *p, const struct hang_watch_detector *det,
                      size_t nranks, struct hang_watch **out)
{
    if (!p || !det || !out || nranks == 0 || !det->sampled || !det->next_delay || !det->observe ||
        !det->resume || p->nscans < 2 || !(p->scan_gap > 0) || !(p->max_stretch > 0) ||
        !(p->still_after >= 0) || (p->still_after > 0 && !(p->still_every > 0)) ||
        !(p->stuck_after >= 0) || !(p->halted_after >= 0) || !(p->held_after >= 0) ||
        (!p->polling && p->npolling > 0))
        return MG_ERROR_EINVAL;
    struct hang_watch *w = calloc(1, sizeof *w);
    if (!w)
        return MG_ERROR_ENOMEM;
    *w = (struct hang_watch){.p = *p,
                             .det = *det,
                             .n = nranks,
                             .starved_rank = -1,
                             .last_move_at = -INFINITY,
                             .moved_after = -INFINITY,
                             .other_move_at = -INFINITY,
                             .last_move_rank = SIZE_MAX,
                             .held_rank = -1,
                             .halted_rank = -1};
    w->still_ref = calloc(nranks, sizeof *w->still_ref);
    w->still_last = calloc(nranks, sizeof *w->still_last);
    w->scans = calloc(p->nscans * nranks, sizeof *w->scans);
    w->view = calloc(nranks, sizeof *w->view);
    w->before = calloc(nranks, sizeof *w->before);
    w->cpu = calloc(nranks, sizeof *w->cpu);
    w->conduct = calloc(nranks, sizeof *w->conduct);
    w->faulty = calloc(nranks, sizeof *w->faulty);
    w->holds = calloc(nranks, sizeof *w->holds);
    w->own_sum = calloc(nranks, sizeof *w->own_sum);
    w->owed = calloc(nranks, sizeof *w->owed);
    w->been_in_mpi = calloc(nranks, sizeof *w->been_in_mpi);
    if (!w->still_ref || !w->still_last || !w->scans || !w->view || !w->before || !w->cpu ||
        !w->conduct || !w->faulty || !w->holds || !w->own_sum || !w->owed || !w->been_in_mpi) {
        hang_watch_destroy(w);
        return MG_ERROR_ENOMEM;
    }
    *out = w;
    return MG_ERROR_OK;
}

void hang_watch_destroy(struct hang_watch *w)
{
    if (!w)
        return;
    free(w->still_ref);
    free(w->still_last);
    free(w->scans);
    free(w->view);
    free(w->before);
    free(w->cpu);
    free(w->conduct);
    free(w->faulty);
    free(w->holds);
    free(w->own_sum);
    free(w->owed);
    free(w->been_in_mpi);
    free(w);
}

/* Whether the job's counters, seen to move before, are not known to have moved since the detector
 * was built: it may have learnt a job that stopped as its normal, so the first-call rule's scans
 * go on (and the halt rule's) until one moves. A job attached to may have stopped before the
 * watch began: never seen to move is no better. */
static bool still_since_built(const struct hang_watch *w)
{
    return w->built && (isfinite(w->moved_after) || w->p.start_unseen) &&
           w->moved_after < w->built_at;
}

/* Whether the first-call rule's scans (and the halt rule's) go on. */
static bool still_rule_on(const struct hang_watch *w)
{
    return w->p.still_after > 0 &&
           (!w->built || !w->active || w->stopped_seen || still_since_built(w));
}

/* The next step: the first-call rule's scan when it is due, else the detector's next sample. */
static int next_sample(struct hang_watch *w, double now, struct hang_watch_step *step)
{
    if ((still_rule_on(w) || w->proving) && now >= w->next_still) {
        w->phase = STILL_SCAN;
        w->next_still = now + w->p.still_every;
        step->action = HANG_WATCH_SCAN;
        step->at = now;
        step->count = w->n;
        step->with_cpu = true; /* the CPU times of the still period (verify_still) */
        return MG_ERROR_OK;
    }
    double delay;
    int rc = w->det.next_delay(w->det.self, &delay);
    if (rc == MG_ERROR_OK)
        rc = w->det.sampled(w->det.self, &step->ranks, &step->count);
    if (rc != MG_ERROR_OK)
        return rc;
    w->phase = WATCHING;
    step->action = HANG_WATCH_SAMPLE;
    step->at = now + delay;
    step->with_cpu = false;
    return MG_ERROR_OK;
}

int hang_watch_begin(struct hang_watch *w, double now, struct hang_watch_step *step)
{
    if (!w || !step)
        return MG_ERROR_EINVAL;
    *step = (struct hang_watch_step){.starved_rank = -1, .held_rank = -1, .halted_rank = -1};
    w->running_at = now;
    w->next_still = now + w->p.still_every;
    return next_sample(w, now, step);
}

/* Gone or unreadable: what the rank does is not known, so it is never evidence of a hang. */
static bool absent(const struct hang_watch_reading *r)
{
    return r->exited || r->unreadable;
}

static bool polls(const struct hang_watch *w, int func)
{
    return func >= 0 && (size_t)func < w->p.npolling && w->p.polling[func];
}

static struct hang_diag_rank diag_rank(const struct hang_watch_reading *r)
{
    return (struct hang_diag_rank){.out_mpi = !r->in_mpi && !absent(r),
                                   .exited = r->exited,
                                   .unreadable = r->unreadable,
                                   .counter_known = r->counter_known,
                                   .stopped = r->stopped,
                                   .progressed = r->progressed,
                                   .func = r->func,
                                   .counter = r->counter,
                                   .exit_order = r->exited ? r->exit_order : 0};
}

/* Whether the n ranks read show the whole job stopped from outside (hang_diag_job_stopped). */
static bool job_stopped(struct hang_watch *w, const struct hang_watch_reading *readings, size_t n)
{
    for (size_t i = 0; i < n; i++)
        w->view[i] = diag_rank(&readings[i]);
    return hang_diag_job_stopped(w->view, n);
}

/* Verification of a suspicion: the detector's (from_detector), the first-call rule's, or the
 * held-in-poll rule's (held_rank >= 0). */
static int start_verification(struct hang_watch *w, bool from_detector, int held_rank, double now,
                              struct hang_watch_step *step)
{
    w->held_rank = held_rank;
    w->halted_rank = -1;
    if (!w->p.verify) {
        w->phase = DONE;
        step->action = HANG_WATCH_VERDICT;
        step->result = (struct hang_diag_result){.kind = HANG_DIAG_COMMUNICATION,
                                                 .progress_rank = -1};
        return MG_ERROR_OK;
    }
    w->phase = VERIFYING;
    w->from_detector = from_detector;
    memset(w->conduct, SPUN | WAITED_QUIETLY, w->n);
    memset(w->own_sum, 0, w->n * sizeof *w->own_sum);
    w->scan_k = 0;
    w->starved_rank = -1;
    step->action = HANG_WATCH_SCAN;
    step->at = now;
    step->count = w->n;
    step->with_cpu = true;
    return MG_ERROR_OK;
}

/* Feeds the observation to the detector; on HANG, verification begins. */
static int observe(struct hang_watch *w, size_t out, size_t count, double now,
                   struct hang_watch_step *step)
{
    struct hang_verdict v;
    int rc = w->det.observe(w->det.self, out, now, &v);
    if (rc != MG_ERROR_OK)
        return rc;
    step->events |= HANG_WATCH_OBSERVED;
    step->out_mpi = out;
    step->sampled = count;
    w->active = w->active || out > 0;
    if (!w->built && v.kind != HANG_VERDICT_BUILDING) {
        w->built = true;
        w->built_at = now;
        step->events |= HANG_WATCH_BUILT;
    }
    if (v.kind != HANG_VERDICT_HANG)
        return next_sample(w, now, step);
    step->events |= HANG_WATCH_SUSPECTED;
    return start_verification(w, true, -1, now, step);
}

/* Whether every sampled rank is alive and where its previous reading left it: a job that may have
 * halted; with polls_rest, inside MPI with its wait known, or polling with no other call since
 * (stuck's one poller): a job that may be stuck (a wait not known never is: no scan for it, as in
 * the simulator, whose ranks publish none). */
static bool sampled_still(const struct hang_watch *w, const struct hang_watch_reading *readings,
                          const int *ranks, size_t count, bool polls_rest)
{
    bool still = count > 0;
    for (size_t i = 0; i < count && still; i++) {
        const struct hang_watch_reading *x = &readings[i];
        bool polling = x->in_mpi && polls(w, x->func) && !x->progressed;
        bool known = x->in_mpi && x->wait.kind != HANG_WATCH_WAIT_UNKNOWN;
        still = !absent(x) && (polls_rest ? known && (w->holds[ranks[i]].still || polling)
                                          : w->holds[ranks[i]].still);
    }
    return still;
}

static int feed_sample(struct hang_watch *w, const struct hang_watch_reading *readings, double now,
                       struct hang_watch_step *step)
{
    size_t count = step->count, out = 0;
    /* A halt is seen at the rule's next scan, up to still_every after it began (a fifth of the
     * halt rule's delay: docs/hang-measurements.md "A fault before the model"); samples that find
     * their ranks halted bring that scan forward, to a gap after the last one. */
    bool rules_on = still_rule_on(w);
    bool proof_on = w->p.still_after > 0 && w->p.stuck_after > 0 && w->built && !rules_on;
    /* Once the detector decides, the still evidence still does when it is proof (stuck): samples
     * that find their ranks at rest bring a scan forward the same way. A master polling for a
     * worker's result that never comes moves its counter by its polls after the build, which
     * ended the rule's scans: 8-rank master-worker deadlocks were left to the model, 28.5 and
     * 35.0 s after the fault (issue 29, runs 148027 and 148083). */
    if ((w->p.halted_after > 0 && w->past_start && rules_on &&
         sampled_still(w, readings, step->ranks, count, false)) ||
        (proof_on && sampled_still(w, readings, step->ranks, count, true))) {
        w->next_still = fmin(w->next_still,
                             fmax(now, w->next_still - w->p.still_every + w->p.scan_gap));
        w->proving = proof_on;
    }
    /* S_out counts ranks outside MPI, and ranks that completed an MPI call since their last
     * reading: a communication-bound job is inside MPI at nearly every sample, and only progress
     * tells a healthy one from a stuck one. A rank that exited is outside MPI too (ranks leave one
     * by one at a job's end), and one that cannot be seen must never look stuck. */
    for (size_t i = 0; i < count; i++) {
        const struct hang_watch_reading *r = &readings[i];
        out += absent(r) || !r->in_mpi || r->progressed;
        w->stopped_seen = w->stopped_seen || (r->stopped && !absent(r));
    }
    /* A suspended job's silence is no evidence; every rank is read only when every sampled one
     * is stopped, which a healthy job never is. */
    if (job_stopped(w, readings, count)) {
        w->phase = STOP_CHECK;
        w->pending_out = out;
        w->pending_count = count;
        step->action = HANG_WATCH_SCAN;
        step->at = now;
        step->count = w->n;
        step->with_cpu = false;
        return MG_ERROR_OK;
    }
    return observe(w, out, count, now, step);
}

/* The job was seen running at now: said once after it was said stopped. */
static void seen_running(struct hang_watch *w, double now, struct hang_watch_step *step)
{
    if (w->stopped_said) {
        step->events |= HANG_WATCH_JOB_RUNS;
        step->stopped_for = now - w->running_at;
        w->stopped_said = false;
    }
    w->running_at = now;
}

static int feed_stop_check(struct hang_watch *w, const struct hang_watch_reading *readings,
                           double now, struct hang_watch_step *step)
{
    if (job_stopped(w, readings, w->n)) {
        if (!w->stopped_said)
            step->events |= HANG_WATCH_JOB_STOPPED;
        w->stopped_said = true;
        return next_sample(w, now, step);
    }
    seen_running(w, now, step);
    return observe(w, w->pending_out, w->pending_count, now, step);
}

/* Blocked: alive, seen, inside a non-polling MPI function. */
static bool blocked(const struct hang_watch *w, const struct hang_watch_reading *r)
{
    return r->known && !absent(r) && r->in_mpi && !polls(w, r->func) &&
           (r->counter_known || r->func >= 0);
}

/* Held for the first-call rule: blocked; stopped from outside (SIGSTOP, a debugger: whatever it
 * was doing, the others wait for it sooner or later); or, while another rank is so stopped, still
 * starting (alive, its state not published: in MPI_Init, whose wait for every rank it shares, or
 * before it). */
static bool held(const struct hang_watch *w, const struct hang_watch_reading *r, bool one_stopped)
{
    bool starting = !r->known && !absent(r) && r->in_mpi;
    return blocked(w, r) || (r->stopped && !absent(r)) || (one_stopped && starting);
}

/* Polling for the first-call rule: alive, seen inside a polling call, its counter moved since the
 * rule's previous scan (last). A poll returns at once, so a poller calls over and over; one in a
 * polling function at a still count is not known to wait (under ptrace a sample that timed out
 * repeats the function last seen, of a rank that may compute since: run 51020 of issue 29). */
static bool polling_on(const struct hang_watch *w, const struct hang_watch_reading *r,
                       const struct hang_diag_rank *last)
{
    return r->known && !absent(r) && r->in_mpi && polls(w, r->func) && r->counter_known &&
           last->counter_known && r->counter != last->counter;
}

/* Whether the rank is where the reference scan saw it: stopped or not as then, and its counter
 * still, or without a counter (or polling: its counter moves by its polls), in the same
 * function. */
static bool unchanged(const struct hang_diag_rank *ref, const struct hang_watch_reading *r,
                      bool polling)
{
    if (ref->counter_known != r->counter_known || ref->stopped != r->stopped)
        return false;
    return r->counter_known && !polling ? ref->counter == r->counter : ref->func == r->func;
}

static void mark_cpu(struct hang_watch *w, const struct hang_watch_reading *readings)
{
    for (size_t r = 0; r < w->n; r++) {
        const struct hang_watch_reading *x = &readings[r];
        w->before[r] = (struct cpu_mark){.exited = absent(x),
                                         .runnable = x->runnable,
                                         .cpu_s = x->cpu_s,
                                         .slices = x->slices,
                                         .share = x->cpu_share};
    }
}

static int verify_still(struct hang_watch *w, const struct hang_watch_reading *readings,
                        int halted_rank, double now, struct hang_watch_step *step);

/* Whether a receive d of rank `to` may match a send s of rank `from`: from its sender or any, its
 * tag or any, on the same communicator, where both are published; a side known by its direction
 * alone (ptrace reads the function, not its arguments) matches on what the other side tells. A
 * poller's requests (REQUESTS) may hold either side: a send to its peer, or to anyone when they
 * name several, and a receive. */
static bool may_match(const struct hang_watch_wait *s, size_t from, const struct hang_watch_wait *d,
                      size_t to)
{
    bool requests = s->kind == HANG_WATCH_WAIT_REQUESTS;
    bool both = !s->direction_only && !d->direction_only;
    return (d->kind == HANG_WATCH_WAIT_RECV || d->kind == HANG_WATCH_WAIT_REQUESTS) && from != to &&
           (s->direction_only || s->peer == (int)to || (requests && s->peer < 0)) &&
           (d->direction_only || d->peer < 0 || d->peer == (int)from) &&
           (!both || ((d->tag < 0 || s->tag < 0 || d->tag == s->tag) && d->comm == s->comm));
}

/* Polling on its published requests at one count: alive, seen inside a polling call, no call but
 * polls since its previous reading (which a poll at one count also is: polling_on says whether it
 * polls). */
static bool polls_on_requests(const struct hang_watch *w, const struct hang_watch_reading *r)
{
    return r->known && !absent(r) && r->in_mpi && polls(w, r->func) && r->counter_known &&
           !r->progressed && r->wait.kind == HANG_WATCH_WAIT_REQUESTS && !r->stopped;
}

/* Blocked, and not stopped from outside, which moves no byte whatever it waits in; with
 * requests, also polling on its requests, which MPI progresses at each poll. */
static bool sends_or_receives(const struct hang_watch *w, const struct hang_watch_reading *r,
                              bool requests)
{
    return (blocked(w, r) && !r->stopped) || (requests && polls_on_requests(w, r));
}

/* A blocked rank sending to one blocked in a receive that may match it (with requests, a poller's
 * requests on either side too): MPI matches the two, so neither waits for good, however long the
 * message takes to move (a strided one of seconds while a poller waits for its end:
 * tests/integration/hang_start.sh poll-transfer). */
static bool in_flight(const struct hang_watch *w, const struct hang_watch_reading *readings,
                      bool requests)
{
    for (size_t r = 0; r < w->n; r++) {
        const struct hang_watch_wait *s = &readings[r].wait;
        bool anyone = s->direction_only || (s->kind == HANG_WATCH_WAIT_REQUESTS && s->peer < 0);
        if ((s->kind != HANG_WATCH_WAIT_SEND && s->kind != HANG_WATCH_WAIT_REQUESTS) ||
            !sends_or_receives(w, &readings[r], requests) ||
            (!anyone && (s->peer < 0 || (size_t)s->peer >= w->n)))
            continue;
        size_t first = anyone ? 0 : (size_t)s->peer;
        size_t end = anyone ? w->n : first + 1;
        for (size_t t = first; t < end; t++)
            if (sends_or_receives(w, &readings[t], requests) &&
                may_match(s, r, &readings[t].wait, t))
                return true;
    }
    return false;
}

/* Nothing can complete: every rank blocked in a call whose wait is known, but one at most polling
 * on its requests, no match in flight, and not every rank in a collective on one communicator,
 * the only one that could still be moving data (a large first all-to-all). A collective with a
 * rank elsewhere, a send or receive without its match, wait for good: no need to wait still_after
 * for a transfer to end. The poller makes no call but polls, so it enters no collective and posts
 * nothing: only what it posted before may match. */
static bool stuck(const struct hang_watch *w, const struct hang_watch_reading *readings)
{
    bool one_comm = true;
    size_t pollers = 0;
    for (size_t r = 0; r < w->n; r++) {
        const struct hang_watch_wait *x = &readings[r].wait;
        bool polling = polls_on_requests(w, &readings[r]);
        pollers += polling;
        if (pollers > 1 ||
            (!polling && (x->kind == HANG_WATCH_WAIT_UNKNOWN ||
                          x->kind == HANG_WATCH_WAIT_REQUESTS || !blocked(w, &readings[r]))))
            return false;
        one_comm = one_comm && x->kind == HANG_WATCH_WAIT_COLLECTIVE &&
                   x->comm == readings[0].wait.comm;
    }
    return !one_comm && (pollers == 0 || !in_flight(w, readings, true));
}

/* Outside MPI from the job's unseen start: a job attached to whose rank r was never read inside
 * MPI (a rank already looping when the watch began leaves every counter still, so past_start
 * never comes). */
static bool outside_since_attach(const struct hang_watch *w, size_t r)
{
    return w->p.start_unseen && !w->been_in_mpi[r];
}

/* Outside MPI for the halt rule: alive, seen, not stopped, its counter known (a counter, not a
 * sample's function, says it made no call since), the job past its start or the rank outside
 * since the watch began. */
static bool halted_outside(const struct hang_watch *w, size_t rank,
                           const struct hang_watch_reading *r)
{
    return w->p.halted_after > 0 && (w->past_start || outside_since_attach(w, rank)) && r->known &&
           !absent(r) && !r->in_mpi && !r->stopped && r->counter_known;
}

/* Hangs from the first call (docs/hang.md): every rank held (blocked in MPI, or stopped from
 * outside while the others wait or start), but for at most one that polls, with nothing moving
 * since a scan still_after ago is verified at once, without the detector, which a job hung from
 * its start never lets build. One poller among ranks that all stand still has nobody to hear from
 * (a master polling for the result of a worker deadlocked at its first receive, while the others
 * wait in the job's last collective: run 51035 of issue 29); two could be talking to each other,
 * and so could a sender and its receiver, both blocked while their message moves (in_flight).
 * The halt rule: a job past its start whose every counter stands still, every rank blocked but one
 * outside MPI, halted_after, is verified as well: a detector still building takes the halt for the
 * job's normal (run 291009 of issue 29: a compute-loop 2 s before the model was built, found
 * 148 s later). Both go on after the build while no counter is known to have moved since. In a job
 * attached to, a rank outside MPI since the watch began counts as halted after still_after, past
 * start or not (one already looping was the model's alone, after 93 s: issue 29). After that, a
 * stuck job (proof: no detector can know better) is still verified after stuck_after. */
static int feed_still_scan(struct hang_watch *w, const struct hang_watch_reading *readings,
                           double now, struct hang_watch_step *step)
{
    bool one_stopped = false;
    for (size_t r = 0; r < w->n; r++)
        one_stopped = one_stopped || (readings[r].stopped && !absent(&readings[r]));
    w->stopped_seen = one_stopped;
    /* once the detector is built and has seen the job work, it decides, unless a rank is stopped,
     * it learnt a still job, or the job is stuck */
    bool rules_on = !w->built || !w->active || one_stopped || still_since_built(w);
    bool all_held = !job_stopped(w, readings, w->n) && !in_flight(w, readings, false);
    bool same = w->still_valid, counted = true;
    size_t pollers = 0, outside = 0;
    int halted_rank = -1;
    for (size_t r = 0; r < w->n && all_held; r++) {
        bool polling = polling_on(w, &readings[r], &w->still_last[r]);
        bool out = halted_outside(w, r, &readings[r]);
        pollers += polling;
        outside += out;
        halted_rank = out ? (int)r : halted_rank;
        counted = counted && readings[r].counter_known;
        all_held = (held(w, &readings[r], one_stopped) || polling || out) && pollers <= 1 &&
                   pollers < w->n && outside <= 1 && (outside == 0 || (pollers == 0 && counted));
        /* a poller's count moves by its polls: a call of another kind is read as progress */
        same = same && unchanged(&w->still_ref[r], &readings[r], polling) &&
               w->holds[r].progressed_at <= w->still_since;
    }
    bool is_stuck = all_held && stuck(w, readings);
    all_held = all_held && (rules_on || is_stuck);
    w->proving = !rules_on && all_held;
    for (size_t r = 0; r < w->n; r++)
        w->still_last[r] = diag_rank(&readings[r]);
    if (!all_held) {
        w->still_valid = false;
        return next_sample(w, now, step);
    }
    if (!same) {
        for (size_t r = 0; r < w->n; r++)
            w->still_ref[r] = diag_rank(&readings[r]);
        mark_cpu(w, readings); /* kept: only a verification marks, and it ends the still period */
        w->still_valid = true;
        w->still_since = now;
    }
    /* a rank outside since an unseen start may be a start's slow rank: the first-call rule's
     * time, not a halt's */
    double after = outside && w->past_start ? w->p.halted_after
                   : is_stuck               ? w->p.stuck_after
                                            : w->p.still_after;
    if (now - w->still_since < after) {
        /* the scan that may end it comes when it is due, not at the next period's */
        w->next_still = fmin(w->next_still, w->still_since + after);
        return next_sample(w, now, step);
    }
    step->events |= outside ? HANG_WATCH_HALTED : HANG_WATCH_STILL;
    step->still_since = w->still_since;
    step->halted_rank = halted_rank;
    return verify_still(w, readings, halted_rank, now, step);
}

/* What each rank did with the CPU since the previous verification scan. */
static void cpu_since_before(struct hang_watch *w, const struct hang_watch_reading *readings)
{
    for (size_t r = 0; r < w->n; r++) {
        const struct cpu_mark *a = &w->before[r];
        const struct hang_watch_reading *b = &readings[r];
        bool ran_known = a->cpu_s >= 0 && b->cpu_s >= 0;
        bool slices_known = a->slices >= 0 && b->slices >= 0;
        w->cpu[r] = (struct hang_diag_cpu){
            .alive = !a->exited && !b->exited,
            .runnable = a->runnable && b->runnable,
            .ran_s = ran_known ? b->cpu_s - a->cpu_s : -1,
            .slices = slices_known ? b->slices - a->slices : -1,
            .share = b->cpu_share,
        };
    }
}

/* Ran in slices longer than a yield: computed, or busy-polled, rather than gave the CPU away. */
static bool long_slices(const struct hang_diag_cpu *c)
{
    return c->ran_s >= 0 && c->slices > 0 && c->ran_s >= c->slices * HANG_DIAG_YIELD_SLICE_S;
}

/* Whether rank r polled through the gap just read, giving the CPU away at each poll: inside a
 * polling call at both of its scans, no other call made in between, runnable in short slices. */
static bool polled_yielding(const struct hang_watch *w, size_t r, const struct hang_diag_rank *scan)
{
    const struct hang_diag_cpu *c = &w->cpu[r];
    const struct hang_diag_rank *a = &scan[r] - w->n, *b = &scan[r];
    return w->p.gap_slices > 0 && c->alive && c->runnable && c->slices >= 0 && !long_slices(c) &&
           !hang_diag_rank_absent(a) && !hang_diag_rank_absent(b) && !a->out_mpi && !b->out_mpi &&
           !b->progressed && polls(w, a->func) && polls(w, b->func);
}

/* The own time rank r had in the gap just read (hang_diag_own_time), where a rank that polled
 * through it yielding (polled_yielding) had scan_gap per gap_slices times it came on a CPU: it
 * gives the CPU away at every poll, yet runs its own loop between two polls, so its slices, not its
 * CPU time, say how far the node let it go. hpcc's MPIRandomAccess makes one call that does not
 * poll per 340-370 polls (median) at any load; at load 60 it came on a CPU 50-100 times a second
 * and such calls were seconds apart, while its CPU time, in 5 us slices, read as a rank that had
 * all its time: a verification of 2 s reported it hung (issue 29, run 404003). */
static double own_time(const struct hang_watch *w, size_t r, const struct hang_diag_rank *scan,
                       double elapsed_s)
{
    const struct hang_diag_cpu *c = &w->cpu[r];
    double own = hang_diag_own_time(elapsed_s, c->ran_s, c->slices, c->runnable, c->share);
    if (polled_yielding(w, r, scan))
        own = fmin(own, w->p.scan_gap * c->slices / w->p.gap_slices);
    return own;
}

/* Whether rank r ran on the CPU in the gap just read (w->cpu), in long slices, and is, in the scan
 * that closes it, inside MPI at the count of the verification's first scan, or polling there as
 * then with no other call made since the scan before: a poller's count moves by its polls alone
 * (a master's MPI_Test for a lost worker's result, which a loaded node gave too little time to
 * owe each gap in full: both gaps at 5-10 s, issue 29's p90). */
static bool ran_in_call(const struct hang_watch *w, size_t r, const struct hang_diag_rank *scan)
{
    const struct hang_diag_cpu *c = &w->cpu[r];
    const struct hang_diag_rank *first = &w->scans[r], *x = &scan[r];
    return c->alive && c->runnable && long_slices(c) && !hang_diag_rank_absent(x) && !x->out_mpi &&
           !x->progressed && x->counter_known && first->counter_known &&
           (x->counter == first->counter || (polls(w, x->func) && polls(w, first->func)));
}

/* Sets the own time each rank is owed in the gap being closed (owed) and returns the least part
 * of a full gap any live rank had (hang_diag_retake_after's least_own_s), *who that rank (SIZE_MAX,
 * with elapsed_s returned, when none is alive). A gap asks scan_gap of every rank, but a rank that
 * ran in its call at one count in every gap so far (ran_in_call: a handler spinning inside MPI, a
 * busy-polling wait) is owed scan_gap over the whole verification, when some live rank did not so
 * run: it was given the time to leave its call and did not, and what the later gaps are to show is
 * the other ranks still, which a rank asleep, yielding or stopped shows at once (a culprit
 * spinning on a loaded node stretched both gaps to their limit, 18-21 s: issue 29). Where every
 * live rank so ran (a long collective moving data), each gap asks its full time. */
static double gap_owed(struct hang_watch *w, const struct hang_diag_rank *scan, double elapsed_s,
                       size_t *who)
{
    bool one_other = false;
    for (size_t r = 0; r < w->n; r++)
        one_other = one_other ||
                    (w->cpu[r].alive && !(w->own_sum[r] >= 0 && ran_in_call(w, r, scan)));
    double most_short = 0;
    *who = SIZE_MAX;
    for (size_t r = 0; r < w->n; r++) {
        const struct hang_diag_cpu *c = &w->cpu[r];
        bool over_all = one_other && w->own_sum[r] >= 0 && ran_in_call(w, r, scan);
        w->owed[r] = over_all ? fmax(0, w->p.scan_gap - w->own_sum[r]) : w->p.scan_gap;
        if (!c->alive)
            continue;
        double own = own_time(w, r, scan, elapsed_s);
        if (*who == SIZE_MAX || w->owed[r] - own > most_short) {
            most_short = w->owed[r] - own;
            *who = r;
        }
    }
    return *who == SIZE_MAX ? elapsed_s : w->p.scan_gap - most_short;
}

/* Keeps, per rank, whether it spun (runnable, and ran in slices longer than a yield: how much it
 * ran is the node's choice, a loaded node gives a spinner little) and whether it waited quietly
 * (asleep, or yielding the CPU in short slices) in every gap so far. A gap of elapsed_s counts as
 * spinning only when the rank had the own time the gap owed it (gap_owed): a yielding rank the
 * node starved got a few slices, each as long as the scheduler made it, and read as a spinner
 * (CI: a send-send deadlock's rank 1, named after two starved gaps). Adds the gap's own time to
 * own_sum of a rank that ran in its call. */
static void note_conduct(struct hang_watch *w, const struct hang_diag_rank *scan, double elapsed_s)
{
    for (size_t r = 0; r < w->n; r++) {
        const struct hang_diag_cpu *c = &w->cpu[r];
        bool slices_known = c->ran_s >= 0 && c->slices > 0;
        double own = own_time(w, r, scan, elapsed_s);
        bool spun = c->alive && c->runnable && long_slices(c) && own >= w->owed[r];
        bool quiet = !c->alive || !c->runnable || (slices_known && !long_slices(c));
        w->conduct[r] &= (uint8_t)((spun ? SPUN : 0) | (quiet ? WAITED_QUIETLY : 0));
        w->own_sum[r] = w->own_sum[r] >= 0 && ran_in_call(w, r, scan) ? w->own_sum[r] + own : -1;
    }
}

/* Whether rank r had exited (or could not be read) in a verification scan. */
static bool absent_in_a_scan(const struct hang_watch *w, size_t r)
{
    bool absent = false;
    for (size_t k = 0; k < w->p.nscans; k++)
        absent = absent || hang_diag_rank_absent(&w->scans[k * w->n + r]);
    return absent;
}

/* Whether rank r stood at one count in every verification scan, alive and known. */
static bool stood_still(const struct hang_watch *w, size_t r)
{
    const struct hang_diag_rank *first = &w->scans[r];
    for (size_t k = 0; k < w->p.nscans; k++) {
        const struct hang_diag_rank *x = &w->scans[k * w->n + r];
        if (hang_diag_rank_absent(x) || !x->counter_known || x->counter != first->counter ||
            (k > 0 && x->progressed))
            return false;
    }
    return true;
}

/* The culprits of a communication hang, from what the scans saw of each rank's process: a rank
 * stopped from outside in every scan (a frozen node: state T) holds the others; so does, when none
 * is stopped, a rank that spun the CPU inside one MPI call in every gap while the others waited
 * quietly, more of them than spun (a signal handler or callback that never returns: the others
 * show, by yielding, what waiting looks like here).
 * Where every rank busy-polls (MPICH), nothing tells a spinner, and none is named. Nor is one
 * beside a stopped rank: MPICH's ranks busy-poll the waits that wait for it, and those waiting
 * in MPI_Finalize sleep, so the pollers looked like spinners against a quiet majority (run 291001
 * of issue 29: a master polling MPI_Test and a rank in MPI_Reduce named with the stopped rank,
 * and the master, read between two polls, made it a computation hang). Sets the faulty ranks
 * unless every live rank would be one. */
static void name_culprits(struct hang_watch *w, struct hang_diag_result *result)
{
    size_t live = 0, loud = 0, spinners = 0, quiet = 0, stopped = 0;
    for (size_t r = 0; r < w->n; r++) {
        bool exited = absent_in_a_scan(w, r), always_stopped = true;
        for (size_t k = 0; k < w->p.nscans; k++)
            always_stopped = always_stopped && w->scans[k * w->n + r].stopped;
        w->conduct[r] = exited ? 0 : always_stopped ? STOPPED : w->conduct[r];
        live += !exited;
        loud += !exited && !w->conduct[r];
        spinners += (w->conduct[r] & SPUN) != 0;
        quiet += w->conduct[r] == WAITED_QUIETLY;
        stopped += w->conduct[r] == STOPPED;
    }
    /* spinning stands out only against a majority that waits quietly */
    bool spinning_stands_out = stopped == 0 && loud == 0 && spinners < quiet;
    size_t named = 0;
    for (size_t r = 0; r < w->n; r++) {
        /* own_sum is kept while the rank ran inside MPI at one count or polling; one whose count
         * moved polled (a master's MPI_Test loop), returning from MPI at each call */
        bool spun_in_a_call = (w->conduct[r] & SPUN) && w->own_sum[r] >= 0 && stood_still(w, r);
        if ((w->conduct[r] & STOPPED) || (spun_in_a_call && spinning_stands_out))
            w->faulty[named++] = (int)r;
    }
    if (named > 0 && named < live)
        result->nfaulty = named;
}

/* Whether the rank held in a polling call stood there, at one count, in every verification scan. */
static bool still_held(const struct hang_watch *w, size_t r)
{
    const struct hang_diag_rank *first = &w->scans[r];
    for (size_t k = 0; k < w->p.nscans; k++) {
        const struct hang_diag_rank *x = &w->scans[k * w->n + r];
        if (hang_diag_rank_absent(x) || x->out_mpi || !x->counter_known ||
            x->counter != first->counter || !polls(w, x->func))
            return false;
    }
    return true;
}

/* Names the live ranks still_held, unless every live rank would be one. */
static void name_held(struct hang_watch *w, struct hang_diag_result *result)
{
    size_t named = 0, live = 0;
    for (size_t r = 0; r < w->n; r++) {
        live += !absent_in_a_scan(w, r);
        if (still_held(w, r))
            w->faulty[named++] = (int)r;
    }
    if (named > 0 && named < live)
        result->nfaulty = named;
}

static int conclude(struct hang_watch *w, double now, struct hang_watch_step *step)
{
    struct hang_diag_input in = {.nranks = w->n,
                                 .nscans = w->p.nscans,
                                 .scans = w->scans,
                                 .polling = w->p.polling,
                                 .npolling = w->p.npolling,
                                 .starved = w->starved_rank >= 0};
    int rc = hang_diag_classify(&in, w->faulty, w->n, &step->result);
    if (rc != MG_ERROR_OK)
        return rc;
    step->starved_rank = w->starved_rank;
    step->from_start = !w->from_detector && w->held_rank < 0 && w->halted_rank < 0;
    step->held_rank = w->held_rank;
    step->halted_rank = w->halted_rank;
    if (w->held_rank >= 0 && !still_held(w, (size_t)w->held_rank))
        step->result = (struct hang_diag_result){.kind = HANG_DIAG_PROGRESS,
                                                 .progress_rank = w->held_rank};
    enum hang_diag_kind kind = step->result.kind;
    if (kind == HANG_DIAG_COMPUTATION || kind == HANG_DIAG_COMMUNICATION) {
        if (kind == HANG_DIAG_COMMUNICATION)
            name_culprits(w, &step->result);
        /* where the CPU tells no spinner (every rank busy-polls), the ranks held in a polling call
         * are the ones: the held-in-poll rule's, or one whose readings repeat a poll it left to
         * compute (ptrace samples that timed out: run 51020 of issue 29) */
        if (kind == HANG_DIAG_COMMUNICATION && step->result.nfaulty == 0)
            name_held(w, &step->result);
        w->phase = DONE;
        step->action = HANG_WATCH_VERDICT;
        return MG_ERROR_OK;
    }
    step->events |= HANG_WATCH_SET_ASIDE;
    w->still_valid = false;
    if (w->held_rank >= 0 && w->holds[w->held_rank].held_since >= 0)
        w->holds[w->held_rank].held_since = now; /* held_after more before it is tried again */
    if (w->from_detector && (rc = w->det.resume(w->det.self)) != MG_ERROR_OK)
        return rc;
    return next_sample(w, now, step);
}

/* One verification scan: kept when every live rank had the gap for itself (or the gap reached
 * its stretch limit), else taken again later (hang_diag_retake_after); gap_only: it was such a
 * retake. */
static int feed_verification(struct hang_watch *w, const struct hang_watch_reading *readings,
                             bool gap_only, double now, struct hang_watch_step *step)
{
    struct hang_diag_rank *scan = &w->scans[w->scan_k * w->n];
    for (size_t r = 0; r < w->n; r++) {
        /* a retake overwrites the reading before it, whose calls were made in the gap all the same
         * (each reading counts the calls since the one before) */
        bool progressed = w->retaking && scan[r].progressed;
        scan[r] = diag_rank(&readings[r]);
        scan[r].progressed = scan[r].progressed || progressed;
    }
    if (w->scan_k > 0) {
        cpu_since_before(w, readings);
        size_t who;
        double elapsed = now - w->before_at;
        double own = gap_owed(w, scan, elapsed, &who);
        double wait = hang_diag_retake_after(w->p.scan_gap, elapsed, own, w->p.max_stretch);
        /* A retake only measures the gap: its readings of where each rank is are overwritten by
         * the next. So retakes are gap_only, and the one that finds the gap long enough is
         * followed at once by the scan that says where the ranks are (under ptrace, a retake
         * stopped every rank for nothing: most of the held time on a loaded node). */
        if (wait > 0 || gap_only) {
            w->retaking = true;
            step->action = HANG_WATCH_SCAN;
            step->at = now + (wait > 0 ? wait : 0);
            step->gap_only = wait > 0;
            return MG_ERROR_OK;
        }
        if (elapsed > w->p.stretch_said * w->p.scan_gap && !w->still_gap) {
            step->events |= HANG_WATCH_STRETCHED;
            step->scan_number = w->scan_k + 1;
            step->gap_took = elapsed;
            step->short_rank = who;
        }
        /* a gap that reached its limit: starved if a rank had less than its siblings, or polled
         * short of its slices (its siblings' CPU time says nothing of its polls) */
        size_t alone;
        if (own < w->p.scan_gap && who != SIZE_MAX && polled_yielding(w, who, scan))
            w->starved_rank = (int)who;
        else if (own < w->p.scan_gap &&
                 hang_diag_least_own_time(w->cpu, w->n, elapsed, HANG_DIAG_SHARE_SIBLINGS, &alone) <
                     w->p.scan_gap &&
                 alone != SIZE_MAX)
            w->starved_rank = (int)alone;
        note_conduct(w, scan, elapsed);
    }
    mark_cpu(w, readings);
    w->before_at = now;
    w->still_gap = false;
    w->retaking = false;
    if (++w->scan_k == w->p.nscans)
        return conclude(w, now, step);
    step->action = HANG_WATCH_SCAN;
    step->at = now + w->p.scan_gap;
    return MG_ERROR_OK;
}

/* The first-call rule's verification: the scan every rank has been still since is its first, the
 * still period its first gap, and the scan now its second. A gap asks each rank to have had
 * scan_gap of its own time, and stretches up to max_stretch gaps on a loaded node to get it; a
 * still period of still_after seconds already holds that time (one gap fewer: 5-10 s at two jobs
 * per core, docs/hang-measurements.md "Real runs"). */
static int verify_still(struct hang_watch *w, const struct hang_watch_reading *readings,
                        int halted_rank, double now, struct hang_watch_step *step)
{
    int rc = start_verification(w, false, -1, now, step);
    if (rc != MG_ERROR_OK || w->phase != VERIFYING)
        return rc;
    w->halted_rank = halted_rank;
    memcpy(w->scans, w->still_ref, w->n * sizeof *w->scans);
    w->before_at = w->still_since;
    w->scan_k = 1;
    w->still_gap = true;
    return feed_verification(w, readings, false, now, step);
}

/* Notes a reading of rank r for the held-in-poll rule: when its counter moved, and since when it
 * stands inside a polling call at the same count. */
static void note_hold(struct hang_watch *w, size_t r, const struct hang_watch_reading *x,
                      double now)
{
    struct poll_hold *h = &w->holds[r];
    w->been_in_mpi[r] = w->been_in_mpi[r] || (x->known && !absent(x) && x->in_mpi);
    if (!x->known || absent(x) || !x->counter_known) {
        *h = (struct poll_hold){.held_since = -1, .progressed_at = h->progressed_at};
        return;
    }
    bool moved = h->seen && x->counter != h->counter;
    if (moved && r != w->last_move_rank) {
        w->other_move_at = w->last_move_at;
        w->last_move_rank = r;
    }
    if (moved) {
        w->last_move_at = now;
        w->moved_after = fmax(w->moved_after, h->read_at);
    }
    /* A start moves a rank's counter once between two of its readings, from MPI_Init into the
     * first collective, where one rank may compute long before joining (hang_start.sh
     * slow-first); calls made, read, and more calls made are the job past it. Any reading counts,
     * the detector's samples too: the first-call rule's scans alone, 3 s apart, saw a job hung
     * 2 s after MPI_Init move in one gap, took it for a start, and the model learnt the hang
     * (issue 29). */
    w->past_start = w->past_start || (moved && h->moved);
    if (x->progressed)
        h->progressed_at = now;
    h->moved = moved;
    h->still = h->seen && !moved;
    if (!x->in_mpi || !polls(w, x->func))
        h->held_since = -1;
    else if (moved || !h->seen || h->held_since < 0)
        h->held_since = now;
    h->seen = true;
    h->counter = x->counter;
    h->read_at = now;
}

/* A polling call (MPI_Test*, MPI_Iprobe) returns at once: a rank inside one whose counter stands
 * still for held_after, while another rank's counter moved since, is held there (a signal handler
 * or a callback that does not return), however busy its siblings' polling keeps the detector's
 * samples. Notes the count readings (ids[i] is the rank of readings[i]; NULL: rank i) and returns
 * the first rank so held, or -1. Off without verification: the rule is no baseline's. */
static int find_held(struct hang_watch *w, const struct hang_watch_reading *readings,
                     const int *ids, size_t count, double now)
{
    int held = -1;
    for (size_t i = 0; i < count; i++) {
        size_t r = ids ? (size_t)ids[i] : i;
        note_hold(w, r, &readings[i], now);
        double since = w->holds[r].held_since;
        double others_moved = r == w->last_move_rank ? w->other_move_at : w->last_move_at;
        if (held < 0 && since >= 0 && now - since >= w->p.held_after && others_moved > since)
            held = (int)r;
    }
    return w->p.verify && w->p.held_after > 0 ? held : -1;
}

int hang_watch_feed(struct hang_watch *w, const struct hang_watch_reading *readings, double now,
                    struct hang_watch_step *step)
{
    if (!w || !step || (!readings && step->count > 0))
        return MG_ERROR_EINVAL;
    if (w->phase == DONE)
        return MG_ERROR_ESTATE;
    step->events = 0;
    bool gap_only = step->gap_only;
    step->gap_only = false;
    bool stopped = job_stopped(w, readings, step->count);
    if (w->phase != STOP_CHECK && !stopped)
        seen_running(w, now, step);
    int held = find_held(w, readings, w->phase == WATCHING ? step->ranks : NULL, step->count, now);
    if (held >= 0 && !stopped && (w->phase == WATCHING || w->phase == STILL_SCAN)) {
        step->events |= HANG_WATCH_HELD;
        step->held_rank = held;
        step->held_since = w->holds[held].held_since;
        return start_verification(w, false, held, now, step);
    }
    switch (w->phase) {
    case WATCHING:
        return feed_sample(w, readings, now, step);
    case STOP_CHECK:
        return feed_stop_check(w, readings, now, step);
    case STILL_SCAN:
        return feed_still_scan(w, readings, now, step);
    case VERIFYING:
        return feed_verification(w, readings, gap_only, now, step);
    case DONE:
        break;
    }
    return MG_ERROR_ESTATE;
}

const int *hang_watch_faulty(const struct hang_watch *w)
{
    return w->faulty;
}

const struct hang_diag_rank *hang_watch_last_scan(const struct hang_watch *w)
{
    return &w->scans[(w->p.nscans - 1) * w->n];
}

const char *hang_watch_set_aside_reason(const struct hang_watch_step *step, char *why, size_t len)
{
    switch (step->result.kind) {
    case HANG_DIAG_SUSPENDED:
        snprintf(why, len, "the whole job was stopped during verification");
        return NULL;
    case HANG_DIAG_ALL_EXITED:
        snprintf(
            why, len,
            "no rank could be read during verification (each had exited or could not be read)");
        return NULL;
    case HANG_DIAG_VANISHED:
        snprintf(why, len,
                 "rank %d exited during verification (%s): a rank that dies is named by its "
                 "death, not as a hang",
                 step->result.vanished_rank,
                 step->result.vanished_first ? "the first to"
                                             : "with others, in an order the kernel did not say");
        return "vanished";
    case HANG_DIAG_STARVED:
        snprintf(why, len,
                 "rank %d was kept from running during verification (a busy node, a CPU quota), "
                 "so its silence says nothing",
                 step->starved_rank);
        return "starved";
    default:
        snprintf(why, len, "rank %d made progress (a transient slowdown)",
                 step->result.progress_rank);
        return "resume";
    }
}

const char *hang_watch_decided_by(const struct hang_watch_step *step)
{
    return step->held_rank >= 0     ? "held-in-poll rule"
           : step->halted_rank >= 0 ? "halt rule"
           : step->from_start       ? "first-call rule"
                                    : "model";
}
