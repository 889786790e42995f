/* Unit tests of the watch engine (hang_watch.h): every transition, the suspended-job rule, the
 * verification and the rule for hangs from the first call, over a scripted detector. */
#include "hang_facts.h"
#include "hang_model.h"
#include "hang_watch.h"
#include "mg_error.h"
#include "mg_test.h"

#include <math.h>
#include <string.h>

enum { ALLREDUCE, RECV, TEST, FINALIZE, NFUNCS };
static const bool polling[NFUNCS] = {[TEST] = true};

#define NR 4

/* A detector that samples ranks 1 and 3 every 0.5 s and answers what the test says. */
struct scripted {
    int ranks[2];
    enum hang_verdict_kind answer;
    size_t last_out, observations;
    int resumes;
};

static int scripted_sampled(const void *self, const int **ranks, size_t *count)
{
    const struct scripted *d = self;
    *ranks = d->ranks;
    *count = 2;
    return MG_ERROR_OK;
}

static int scripted_delay(void *self, double *delay)
{
    (void)self;
    *delay = 0.5;
    return MG_ERROR_OK;
}

static int scripted_observe(void *self, size_t out_mpi, double now, struct hang_verdict *v)
{
    (void)now;
    struct scripted *d = self;
    d->last_out = out_mpi;
    d->observations++;
    *v = (struct hang_verdict){.kind = d->answer};
    return MG_ERROR_OK;
}

static int scripted_resume(void *self)
{
    ((struct scripted *)self)->resumes++;
    return MG_ERROR_OK;
}

static struct scripted det_state;
static struct hang_watch_detector det;
static struct hang_watch *w;
static struct hang_watch_step step;
static struct hang_watch_reading readings[NR];

/* The next start's watch is of a job attached to (hang_watch_params.start_unseen). */
static bool start_unseen;

static void start(bool still_rule)
{
    det_state = (struct scripted){.ranks = {1, 3}, .answer = HANG_VERDICT_BUILDING};
    det = (struct hang_watch_detector){&det_state, scripted_sampled, scripted_delay,
                                       scripted_observe, scripted_resume};
    struct hang_watch_params p;
    hang_watch_params_default(&p);
    p.polling = polling;
    p.npolling = NFUNCS;
    if (!still_rule)
        p.still_after = 0;
    p.start_unseen = start_unseen;
    hang_watch_destroy(w);
    w = NULL;
    MG_CHECK_INT(hang_watch_create(&p, &det, NR, &w), MG_ERROR_OK);
    MG_CHECK_INT(hang_watch_begin(w, 0, &step), MG_ERROR_OK);
}

/* A rank blocked in MPI_Allreduce with its counter at 7, having had all its time. */
static struct hang_watch_reading blocked_rank(void)
{
    return (struct hang_watch_reading){.known = true,
                                       .in_mpi = true,
                                       .counter_known = true,
                                       .func = ALLREDUCE,
                                       .counter = 7,
                                       .cpu_s = 0,
                                       .slices = 0,
                                       .cpu_share = 1};
}

static void all_blocked(void)
{
    for (int r = 0; r < NR; r++)
        readings[r] = blocked_rank();
}

static int feed(double now)
{
    return hang_watch_feed(w, readings, now, &step);
}

/* A watch without the first-call rule whose detector suspects every rank blocked at 0.5 s. */
static void suspect_all_blocked(void)
{
    start(false);
    all_blocked();
    det_state.answer = HANG_VERDICT_HANG;
    MG_CHECK_INT(feed(0.5), MG_ERROR_OK);
}

static void samples_feed_the_detector(void)
{
    start(false);
    MG_CHECK_INT(step.action, HANG_WATCH_SAMPLE);
    MG_CHECK_NEAR(step.at, 0.5, 1e-12);
    MG_CHECK_INT(step.count, 2);
    MG_CHECK_INT(step.ranks[1], 3);
    all_blocked();
    readings[0].progressed = true; /* counts: a rank that completed a call since its last reading */
    MG_CHECK_INT(feed(0.5), MG_ERROR_OK);
    MG_CHECK_INT(det_state.last_out, 1);
    MG_CHECK_INT(step.events, HANG_WATCH_OBSERVED);
    MG_CHECK_INT(step.out_mpi, 1);
    MG_CHECK_INT(step.sampled, 2);
    MG_CHECK_INT(step.action, HANG_WATCH_SAMPLE);
    MG_CHECK_NEAR(step.at, 1.0, 1e-12);
    all_blocked();
    readings[0].exited = true;  /* outside MPI: ranks leave one by one at a job's end */
    readings[1].in_mpi = false; /* computing */
    det_state.answer = HANG_VERDICT_NORMAL;
    MG_CHECK_INT(feed(1.0), MG_ERROR_OK);
    MG_CHECK_INT(det_state.last_out, 2);
    MG_CHECK_INT(step.events, HANG_WATCH_OBSERVED | HANG_WATCH_BUILT);
    all_blocked();
    MG_CHECK_INT(feed(1.5), MG_ERROR_OK);
    MG_CHECK_INT(step.events, HANG_WATCH_OBSERVED); /* built is said once */
    MG_CHECK_INT(det_state.last_out, 0);
}

/* The detector's HANG starts three scans of every rank, 1 s apart; with nothing moving, a
 * communication hang. */
static void suspicion_verified_to_a_verdict(void)
{
    suspect_all_blocked();
    MG_CHECK_INT(step.events, HANG_WATCH_OBSERVED | HANG_WATCH_BUILT | HANG_WATCH_SUSPECTED);
    MG_CHECK_INT(step.action, HANG_WATCH_SCAN);
    MG_CHECK(step.with_cpu);
    MG_CHECK_INT(step.count, NR);
    MG_CHECK_NEAR(step.at, 0.5, 1e-12);
    MG_CHECK_INT(feed(0.5), MG_ERROR_OK);
    MG_CHECK_INT(step.action, HANG_WATCH_SCAN);
    MG_CHECK_NEAR(step.at, 1.5, 1e-12);
    MG_CHECK_INT(feed(1.5), MG_ERROR_OK);
    MG_CHECK_NEAR(step.at, 2.5, 1e-12);
    MG_CHECK_INT(feed(2.5), MG_ERROR_OK);
    MG_CHECK_INT(step.action, HANG_WATCH_VERDICT);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_COMMUNICATION);
    MG_CHECK(!step.from_start);
    MG_CHECK_STR(hang_watch_decided_by(&step), "model");
    MG_CHECK_INT(step.starved_rank, -1);
    MG_CHECK_INT(hang_watch_last_scan(w)[2].func, ALLREDUCE);
    MG_CHECK_INT(feed(3), MG_ERROR_ESTATE);
    MG_CHECK_INT(det_state.resumes, 0);
}

/* The three scans after a suspicion, rank 2 outside MPI in each: a computation hang naming it. */
static void verify_rank_2_computing(void)
{
    readings[2].in_mpi = false;
    for (int k = 0; k < 3; k++)
        MG_CHECK_INT(feed(0.5 + k), MG_ERROR_OK);
    MG_CHECK_INT(step.action, HANG_WATCH_VERDICT);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_COMPUTATION);
    MG_CHECK_INT(step.result.nfaulty, 1);
    MG_CHECK_INT(hang_watch_faulty(w)[0], 2);
}

static void computation_hang_names_the_rank(void)
{
    suspect_all_blocked();
    verify_rank_2_computing();
    MG_CHECK(hang_watch_last_scan(w)[2].out_mpi);
}

/* A rank that cannot be read while its process lives (ptrace refused, a read timed out) is no
 * evidence, as an exited one, but the last scan keeps it unreadable, never exited (issue 29). */
static void an_unreadable_rank_is_not_exited(void)
{
    const struct hang_watch_reading unreadable = {.unreadable = true, .func = -1, .cpu_s = -1};
    start(false);
    all_blocked();
    readings[1] = unreadable; /* the sample's second rank, 3 */
    det_state.answer = HANG_VERDICT_HANG;
    MG_CHECK_INT(feed(0.5), MG_ERROR_OK);
    MG_CHECK_INT(det_state.last_out, 1); /* never looks stuck */
    all_blocked();
    readings[3] = unreadable;
    verify_rank_2_computing();
    const struct hang_diag_rank *last = hang_watch_last_scan(w);
    MG_CHECK(last[3].unreadable);
    MG_CHECK(!last[3].exited);
    MG_CHECK(!last[3].out_mpi);
    MG_CHECK(hang_diag_rank_absent(&last[3]));
    MG_CHECK(!last[2].unreadable);
}

/* A counter that moves during verification clears the suspicion: the detector resumes and the
 * next step is a sample again. */
static void progress_sets_the_suspicion_aside(void)
{
    suspect_all_blocked();
    MG_CHECK_INT(feed(0.5), MG_ERROR_OK);
    readings[3].counter = 8;
    MG_CHECK_INT(feed(1.5), MG_ERROR_OK);
    MG_CHECK_INT(feed(2.5), MG_ERROR_OK);
    MG_CHECK_INT(step.events, HANG_WATCH_SET_ASIDE);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_PROGRESS);
    MG_CHECK_INT(step.result.progress_rank, 3);
    char why[256];
    MG_CHECK_STR(hang_watch_set_aside_reason(&step, why, sizeof why), "resume");
    MG_CHECK_STR(why, "rank 3 made progress (a transient slowdown)");
    MG_CHECK_INT(det_state.resumes, 1);
    MG_CHECK_INT(step.action, HANG_WATCH_SAMPLE);
    MG_CHECK_NEAR(step.at, 3.0, 1e-12);
}

/* A gap lasts until every live rank had it for itself: a runnable rank that got 0.2 s of CPU in a
 * 1 s gap is scanned again 0.8 s later, a scan that only measures the gap (gap_only), followed by
 * a full one once the gap is long enough; one the node never lets run stretches the gap to its
 * limit (10 gaps), which is said, and leaves the verification starved: no verdict. */
static void verification_waits_with(bool called)
{
    suspect_all_blocked();
    for (int r = 0; r < NR; r++) {
        readings[r].runnable = true;
        readings[r].slices = r == 1 ? -1 : 10; /* rank 1: CPU time known, its slices not */
    }
    MG_CHECK_INT(feed(0.5), MG_ERROR_OK);
    MG_CHECK(step.with_cpu && !step.gap_only);
    readings[1].cpu_s = 0.2;
    readings[0].cpu_s = readings[2].cpu_s = readings[3].cpu_s = 1.0;
    MG_CHECK_INT(feed(1.5), MG_ERROR_OK);
    MG_CHECK_INT(step.action, HANG_WATCH_SCAN);
    MG_CHECK_NEAR(step.at, 2.3, 1e-9); /* the scan again, not the next one */
    MG_CHECK(step.with_cpu && step.gap_only);
    readings[2]
        .in_mpi = false; /* what a gap_only reading says of where a rank is counts for nothing */
    readings[3].progressed = called;
    MG_CHECK_INT(feed(2.3), MG_ERROR_OK);
    readings[3].progressed = false;
    MG_CHECK_NEAR(step.at, 3.1, 1e-9); /* still 0.8 s short */
    MG_CHECK(step.gap_only);
    readings[0].cpu_s = readings[2].cpu_s = readings[3].cpu_s = 10.0; /* they run, it does not */
    MG_CHECK_INT(feed(10.5), MG_ERROR_OK);                                  /* 10 s: the stretch limit */
    MG_CHECK_INT(step.action, HANG_WATCH_SCAN);
    MG_CHECK_NEAR(step.at, 10.5, 1e-9); /* at once, the scan that says where the ranks are */
    MG_CHECK(step.with_cpu && !step.gap_only);
    MG_CHECK(!(step.events & HANG_WATCH_STRETCHED));
    readings[2].in_mpi = true;
    MG_CHECK_INT(feed(10.5), MG_ERROR_OK);
    MG_CHECK(step.events & HANG_WATCH_STRETCHED);
    MG_CHECK(!step.gap_only);
    MG_CHECK_INT(step.scan_number, 2);
    MG_CHECK_INT(step.short_rank, 1);
    MG_CHECK_NEAR(step.gap_took, 10.0, 1e-9);
    for (int r = 0; r < NR; r++)
        readings[r].cpu_s += 1.0;
    MG_CHECK_INT(feed(11.5), MG_ERROR_OK);
    MG_CHECK_INT(step.events, HANG_WATCH_SET_ASIDE);
    MG_CHECK_INT(step.result.kind, called ? HANG_DIAG_PROGRESS : HANG_DIAG_STARVED);
    MG_CHECK_INT(step.result.progress_rank, called ? 3 : -1);
    MG_CHECK_INT(step.starved_rank, 1);
    char why[256];
    MG_CHECK_STR(hang_watch_set_aside_reason(&step, why, sizeof why),
                 called ? "resume" : "starved");
    MG_CHECK_STR(why, called ? "rank 3 made progress (a transient slowdown)"
                             : "rank 1 was kept from running during verification (a busy node, a "
                               "CPU quota), so its silence says nothing");
    MG_CHECK_INT(det_state.resumes, 1);
}

static void verification_waits_for_each_ranks_own_time(void)
{
    /* called: rank 3 made a non-polling call that only the first retake saw, the readings after
     * it counting from there (a probe's reading counts the calls since its previous one): it
     * progressed all the same */
    for (int called = 0; called < 2; called++)
        verification_waits_with(called);
}

/* srun on a loaded node: every busy rank of the job got 2-3% of a CPU (one session's share) where
 * cores over ranks is 1. The gap still stretches to its limit, but none was kept from running
 * beside the others: the scans count, and the stopped rank's hang gets its verdict. */
static void a_job_starved_as_a_whole_still_gets_a_verdict(void)
{
    suspect_all_blocked();
    for (int r = 0; r < NR; r++) {
        readings[r].runnable = r != 1;
        readings[r].stopped = r == 1;
        readings[r].slices = 0;
    }
    for (int scan = 1; scan <= 3; scan++) {
        MG_CHECK_INT(feed(0.5 + 10.0 * (scan - 1)), MG_ERROR_OK);
        MG_CHECK_INT(step.action, scan < 3 ? HANG_WATCH_SCAN : HANG_WATCH_VERDICT);
        for (int r = 0; r < NR; r++) {
            readings[r].cpu_s += r == 1 ? 0 : 0.2 + 0.05 * r; /* 2-3.5% of 10 s */
            readings[r].slices += r == 1 ? 0 : 60;
        }
    }
    MG_CHECK_INT(step.starved_rank, -1);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_COMMUNICATION);
}

/* Verifies with every rank blocked, rank 2 as culprit_case sets it between the scans; each gap
 * 1 s, every rank runnable; the others wait as `others` says: yielding in short slices, or
 * busy-polling in long ones. */
static void verify_with(int culprit_case, bool others_yield)
{
    suspect_all_blocked();
    for (int k = 0; k < 3; k++) {
        for (int r = 0; r < NR; r++) {
            readings[r].runnable = true;
            readings[r].cpu_s = 1.0 * k;
            readings[r].slices = others_yield ? 100000.0 * k : 10.0 * k;
        }
        if (culprit_case == 1) { /* SIGSTOPped inside MPI */
            readings[2].stopped = true;
            readings[2].runnable = false;
            readings[2].cpu_s = 0;
        } else if (culprit_case == 2) { /* a handler spinning inside MPI: long slices */
            readings[2].slices = 10.0 * k;
        }
        MG_CHECK_INT(feed(0.5 + k), MG_ERROR_OK);
    }
    MG_CHECK_INT(step.action, HANG_WATCH_VERDICT);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_COMMUNICATION);
}

/* A communication hang's culprit: a rank stopped from outside in every scan, or one spinning the
 * CPU while every other rank waits by yielding it. Busy-polling waiters (MPICH) tell nothing:
 * none is named then; nor when no rank stands out. */
static void culprit_of_a_communication_hang(void)
{
    verify_with(1, true);
    MG_CHECK_INT(step.result.nfaulty, 1);
    MG_CHECK_INT(hang_watch_faulty(w)[0], 2);
    verify_with(1, false);
    MG_CHECK_INT(step.result.nfaulty, 1);
    MG_CHECK_INT(hang_watch_faulty(w)[0], 2);
    verify_with(2, true);
    MG_CHECK_INT(step.result.nfaulty, 1);
    MG_CHECK_INT(hang_watch_faulty(w)[0], 2);
    verify_with(2, false);
    MG_CHECK_INT(step.result.nfaulty, 0);
    verify_with(0, true);
    MG_CHECK_INT(step.result.nfaulty, 0);
}

/* A symmetric send-send deadlock under Open MPI on a loaded node (CI, 2 cores, 4 ranks: a share of
 * 0.5): ranks 0, 2 and 3 yield in short slices; rank 1, starved, got 30 ms in 6 slices of 5 ms
 * in each gap, stretched to its 10 s limit. Its siblings ran less still (yielding), so it was not
 * starved beside them and the scans counted; its long slices are no evidence of spinning when it
 * never had a gap for itself: no culprit. Given its gap's CPU, the same slices name it. */
static void a_starved_rank_is_not_a_spinner(void)
{
    for (int given = 0; given <= 1; given++) {
        start(false);
        all_blocked();
        det_state.answer = HANG_VERDICT_HANG;
        MG_CHECK_INT(feed(0.5), MG_ERROR_OK);
        for (int k = 0; k < 3; k++) {
            for (int r = 0; r < NR; r++) {
                readings[r].runnable = true;
                readings[r].cpu_share = 0.5;
                readings[r].cpu_s = 0.05 * k;
                readings[r].slices = 20000.0 * k;
            }
            readings[1].cpu_s = (given ? 0.6 : 0.03) * k;
            readings[1].slices = 6.0 * k;
            MG_CHECK_INT(feed(0.5 + 10.0 * k), MG_ERROR_OK);
        }
        MG_CHECK_INT(step.action, HANG_WATCH_VERDICT);
        MG_CHECK_INT(step.result.kind, HANG_DIAG_COMMUNICATION);
        MG_CHECK_INT(step.starved_rank, -1);
        MG_CHECK_INT(step.result.nfaulty, given);
        if (given)
            MG_CHECK_INT(hang_watch_faulty(w)[0], 1);
    }
}

/* A verification on a loaded node (a share of 0.5, as 4 ranks on 2 cores): rank 2 spins inside
 * MPI (culprit 0), is stopped there (1), computes outside MPI (2), or waits as the others (3);
 * ranks 1 and 2 compute (4); every rank computes (5); rank 2 computes while rank 0 polls
 * MPI_Test at its count (6: a master testing for results); rank 2 spins inside MPI while rank 0
 * busy-polls MPI_Test, its count moving by its polls alone (7: a master testing for a lost
 * worker's result). The others yield the CPU (Open MPI)
 * or busy-poll (MPICH) at their count; a rank on the CPU gets 6% of one, in 4 ms slices, a
 * yielding one 1%, in 2 us slices. Rank 2's counter moves at moves_at (its call returns, or its
 * compute ends in a call). Each scan is read when the last step asks, until the verdict or a
 * suspicion set aside; returns that step's time. */
static double scan_loaded(int culprit, bool others_yield, double moves_at)
{
    suspect_all_blocked();
    double t = 0.5;
    while (step.action == HANG_WATCH_SCAN && !(step.events & HANG_WATCH_SET_ASIDE) && t < 60) {
        t = step.at;
        for (int r = 0; r < NR; r++) {
            bool computes = culprit == 5 ||
                            (r == 2 && (culprit == 2 || (culprit >= 4 && culprit <= 6))) ||
                            (r == 1 && culprit == 4);
            bool on_cpu = r == 2 && (culprit < 3 || culprit == 7)
                              ? culprit != 1
                              : computes || !others_yield || (r == 0 && culprit == 7);
            readings[r].in_mpi = !computes;
            readings[r].runnable = true;
            readings[r].cpu_share = 0.5;
            readings[r].cpu_s = (on_cpu ? 0.06 : 0.01) * (t - 0.5);
            readings[r].slices = readings[r].cpu_s / (on_cpu ? 4e-3 : 2e-6);
        }
        readings[0].func = culprit >= 6 ? TEST : ALLREDUCE;
        readings[0].counter += culprit == 7 ? 1000 : 0;
        readings[2].stopped = culprit == 1;
        readings[2].runnable = culprit != 1;
        readings[2].counter = t > moves_at ? 8 : 7;
        MG_CHECK_INT(feed(t), MG_ERROR_OK);
    }
    return t;
}

static double verify_loaded(int culprit, bool others_yield)
{
    double t = scan_loaded(culprit, others_yield, INFINITY);
    MG_CHECK_INT(step.action, HANG_WATCH_VERDICT);
    MG_CHECK_INT(step.starved_rank, -1);
    return t;
}

/* A gap asks each rank for a second of its own time, 8.3 s of the clock at 6% of a CPU. A rank
 * that ran in its call at one count through the first gap, while another rank waited asleep,
 * yielding or stopped, had its second: the second gap ends after a second of the clock (issue 29:
 * both gaps at their 10 s limit where the culprit spins). Where every rank so ran, and for a rank
 * computing outside MPI, each gap asks its own second. */
static void a_rank_spinning_in_its_call_owes_one_gap(void)
{
    MG_CHECK(verify_loaded(0, true) < 11); /* Open MPI, a handler spinning inside MPI */
    MG_CHECK_INT(step.result.kind, HANG_DIAG_COMMUNICATION);
    MG_CHECK_INT(step.result.nfaulty, 1);
    MG_CHECK_INT(hang_watch_faulty(w)[0], 2);
    MG_CHECK(verify_loaded(1, false) < 11); /* MPICH, a rank stopped inside MPI */
    MG_CHECK_INT(step.result.nfaulty, 1);
    MG_CHECK_INT(hang_watch_faulty(w)[0], 2);
    MG_CHECK(verify_loaded(3, false) > 16); /* MPICH, every rank busy-polling */
    MG_CHECK_INT(step.result.kind, HANG_DIAG_COMMUNICATION);
    MG_CHECK(verify_loaded(2, true) > 16); /* computing outside MPI */
    MG_CHECK_INT(step.result.kind, HANG_DIAG_COMPUTATION);
}

/* A rank that busy-polls at one count of its other calls, its count moving by its polls alone,
 * owes one gap over the verification as a spinner does: with a master polling for the result of
 * a worker spinning inside MPI, the second gap ends after a second of the clock, not 8 (issue 29:
 * 5-10 s gaps, the master kept from running). */
static void a_rank_polling_at_one_count_owes_one_gap(void)
{
    MG_CHECK(verify_loaded(7, true) < 11);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_COMMUNICATION);
}

/* hpcc's MPIRandomAccess on a node at load 60 (issue 29, run 404003): rank 0 polls MPI_Testany,
 * giving the CPU away at every poll (5 us slices), as ranks 1-3 do waiting for its updates; it
 * comes on a CPU polls_per_s times a second, and its loop makes a call that does not poll at
 * calls_at. Each scan is read when the last step asks, until the verdict or a suspicion set
 * aside; returns that step's time. */
static double verify_polling(double polls_per_s, double calls_at)
{
    suspect_all_blocked();
    double t = 0.5;
    while (step.action == HANG_WATCH_SCAN && !(step.events & HANG_WATCH_SET_ASIDE) && t < 60) {
        t = step.at;
        for (int r = 0; r < NR; r++) {
            readings[r].runnable = true;
            readings[r].cpu_share = 0.5;
            readings[r].slices = polls_per_s * t;
            readings[r].cpu_s = 5e-6 * readings[r].slices;
        }
        readings[0].func = TEST;
        readings[0].counter = 7 + (uint64_t)(polls_per_s * t);
        readings[0].progressed = t > calls_at;
        MG_CHECK_INT(feed(t), MG_ERROR_OK);
    }
    return t;
}

/* A rank polling in a loop owes each gap its slices: hpcc's rank 0, 100 polls a second and a call
 * that does not poll 3.5 s after the suspicion (350 polls, the median at any load), was reported
 * hung after two gaps of the clock's second; now the first gap waits for its polls and sees the
 * call. A master polling for a lost worker's result 20 000 times a second (Open MPI at load 38) is
 * still found after two 1 s gaps; one that came on a CPU 50 times a second was kept from running,
 * and no verdict is given. */
static void a_rank_polling_in_a_loop_owes_its_polls(void)
{
    MG_CHECK(verify_polling(100, 4.0) > 4);
    MG_CHECK(step.events & HANG_WATCH_SET_ASIDE);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_PROGRESS);
    MG_CHECK_INT(step.result.progress_rank, 0);
    MG_CHECK(verify_polling(20000, INFINITY) < 3);
    MG_CHECK_INT(step.action, HANG_WATCH_VERDICT);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_COMMUNICATION);
    verify_polling(50, INFINITY);
    MG_CHECK(step.events & HANG_WATCH_SET_ASIDE);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_STARVED);
    MG_CHECK_INT(step.starved_rank, 0);
}

/* Healthy long compute phases keep both gaps, each a second of the computing ranks' own time: a
 * rank that computes alone while the others wait in a collective, its compute ending 1.5 s of its
 * own time after the first scan (12.5 s of the clock here); ranks computing side by side, all of
 * them, or one beside a poller, their compute ending 3 s after the first gap. Issue 29: a
 * compute-loop culprit owing one second over the verification, as a spinner does, reported a
 * healthy MPICH job whose rank 0 computed 1.5 s bursts (load 26), which two seconds set aside. */
static void a_long_compute_phase_is_not_a_hang(void)
{
    static const int cases[] = {2, 4, 5, 6};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        scan_loaded(cases[i], true, cases[i] == 2 ? 13 : 12);
        MG_CHECK(step.events & HANG_WATCH_SET_ASIDE);
        MG_CHECK_INT(step.result.kind, HANG_DIAG_PROGRESS);
        MG_CHECK_INT(step.result.progress_rank, 2);
    }
}

/* The same spinning rank, its call returning in the second gap: the shorter gap still sees it. */
static void a_call_returning_in_the_second_gap_is_progress(void)
{
    scan_loaded(0, true, 9);
    MG_CHECK(step.events & HANG_WATCH_SET_ASIDE);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_PROGRESS);
    MG_CHECK_INT(step.result.progress_rank, 2);
}

/* Every sampled rank stopped: every rank is read at once; a whole job stopped is said once and not
 * observed, and its running again is said with how long it was stopped at most. One stopped rank
 * among running ones is observed as usual (a frozen node is a hang). */
static void a_suspended_job_is_not_observed(void)
{
    start(false);
    all_blocked();
    for (int r = 0; r < NR; r++)
        readings[r].stopped = true;
    MG_CHECK_INT(feed(0.5), MG_ERROR_OK);
    MG_CHECK_INT(step.action, HANG_WATCH_SCAN);
    MG_CHECK(!step.with_cpu);
    MG_CHECK_NEAR(step.at, 0.5, 1e-12);
    MG_CHECK_INT(feed(0.5), MG_ERROR_OK);
    MG_CHECK_INT(step.events, HANG_WATCH_JOB_STOPPED);
    MG_CHECK_INT(det_state.observations, 0);
    MG_CHECK_INT(step.action, HANG_WATCH_SAMPLE);
    MG_CHECK_INT(feed(1.0), MG_ERROR_OK);
    MG_CHECK_INT(feed(1.0), MG_ERROR_OK);
    MG_CHECK_INT(step.events, 0); /* said once */
    all_blocked();
    MG_CHECK_INT(feed(1.5), MG_ERROR_OK);
    MG_CHECK_INT(step.events, HANG_WATCH_JOB_RUNS | HANG_WATCH_OBSERVED);
    MG_CHECK_NEAR(step.stopped_for, 1.5, 1e-12);
    /* both sampled ranks stopped (readings in the sample's order), ranks 2 and 3 running: observed
     * after the scan */
    readings[0].stopped = readings[1].stopped = true;
    MG_CHECK_INT(feed(2.0), MG_ERROR_OK);
    MG_CHECK_INT(step.action, HANG_WATCH_SCAN);
    MG_CHECK_INT(feed(2.0), MG_ERROR_OK);
    MG_CHECK_INT(step.events, HANG_WATCH_OBSERVED);
    MG_CHECK_INT(det_state.observations, 2);
}

/* Feeds samples and the first-call rule's scans until `until`, with readings as they are. */
static void watch_until(double until)
{
    do
        MG_CHECK_INT(feed(step.at), MG_ERROR_OK);
    while (step.action != HANG_WATCH_VERDICT && step.at <= until &&
           !(step.events & (HANG_WATCH_STILL | HANG_WATCH_SET_ASIDE)));
}

/* A watch whose detector is built and has seen a rank outside MPI. */
static void start_built_and_active(void)
{
    start(true);
    det_state.answer = HANG_VERDICT_NORMAL;
    all_blocked();
    readings[1].in_mpi = false;
    MG_CHECK_INT(feed(0.5), MG_ERROR_OK);
}

/* hpcc's spin inside MPI: ranks 0, 2 and 3 poll MPI_Test, their counters moving by 1000 a reading,
 * while rank 1 stands in MPI_Test at one count unless it `moves`. Fills the readings the step asks
 * for (a sample's ranks in its order), with CPU times for a scan's k-th gap: the pollers yield the
 * CPU (short slices) unless `busy` (MPICH), rank 1 spins. */
static void read_polling_job(bool moves, bool busy, int k, bool held_in_mpi)
{
    static uint64_t calls[NR];
    for (size_t i = 0; i < step.count; i++) {
        int r = step.action == HANG_WATCH_SAMPLE ? step.ranks[i] : (int)i;
        calls[r] += r != 1 || moves ? 1000 : 0;
        readings[i] = blocked_rank();
        readings[i].func = TEST;
        readings[i].in_mpi = r != 1 || held_in_mpi;
        readings[i].counter = calls[r];
        readings[i].runnable = true;
        readings[i].cpu_s = 1.0 * k;
        readings[i].slices = r == 1 || busy ? 10.0 * k : 100000.0 * k;
    }
}

/* Feeds the polling job's samples until the watch turns to a scan or `until` passes; rank 1
 * returned from its poll and computes unless held_in_mpi. */
static void poll_around_held_rank(double until, bool held_in_mpi)
{
    do {
        read_polling_job(false, false, 0, held_in_mpi);
        MG_CHECK_INT(feed(step.at), MG_ERROR_OK);
    } while (step.action == HANG_WATCH_SAMPLE && step.at <= until);
}

/* The three verification scans 1 s apart (read_polling_job). */
static void verify_held(bool moves, bool busy)
{
    for (int k = 0; k < 3; k++) {
        read_polling_job(moves, busy, k, true);
        MG_CHECK_INT(feed(step.at), MG_ERROR_OK);
    }
}

/* A rank held inside a polling call while the others' polling keeps every sample busy (the
 * detector never suspects): verified after 5 s without the detector, and named, whether the
 * others yield the CPU (Open MPI) or busy-poll (MPICH: the held rank is named all the same). */
static void a_rank_held_in_a_polling_call_is_a_hang(void)
{
    for (int busy = 0; busy < 2; busy++) {
        start(false);
        poll_around_held_rank(100, true);
        MG_CHECK(step.events & HANG_WATCH_HELD);
        MG_CHECK_INT(step.held_rank, 1);
        MG_CHECK_NEAR(step.held_since, 0.5, 1e-12); /* the first sample */
        MG_CHECK_NEAR(step.at, 5.5, 1e-12);
        MG_CHECK_INT(step.action, HANG_WATCH_SCAN);
        MG_CHECK(step.with_cpu);
        verify_held(false, busy);
        MG_CHECK_INT(step.action, HANG_WATCH_VERDICT);
        MG_CHECK_INT(step.result.kind, HANG_DIAG_COMMUNICATION);
        MG_CHECK_INT(step.held_rank, 1);
        MG_CHECK(!step.from_start);
        MG_CHECK_STR(hang_watch_decided_by(&step), "held-in-poll rule");
        MG_CHECK_INT(step.result.nfaulty, 1);
        MG_CHECK_INT(hang_watch_faulty(w)[0], 1);
        MG_CHECK_INT(det_state.resumes, 0);
    }
}

/* hpcc's MPIRandomAccess under ptrace (issue 29, 2 false alarms in 2 runs at e4ab9de): every rank
 * spends its time in MPI_Testany and posts its sends and receives in between, so each scan catches
 * each rank in MPI_Testany, its counter moved by polls and by those calls alike; the reader tells
 * the calls beyond the polls (progressed). With them the suspicion is set aside; where only rank 3
 * is stopped and the others poll (run 81084's fault), nobody's calls go beyond its polls and the
 * hang is found, rank 3 named. */
static void ranks_posting_between_polls_are_not_hung(void)
{
    for (int stop = 0; stop < 2; stop++) {
        start(false);
        all_blocked();
        det_state.answer = HANG_VERDICT_HANG;
        MG_CHECK_INT(feed(0.5), MG_ERROR_OK);
        MG_CHECK(step.events & HANG_WATCH_SUSPECTED);
        for (int k = 0; k < 3; k++) {
            for (int r = 0; r < NR; r++) {
                readings[r].func = TEST;
                readings[r].counter = 1000 + 500 * (uint64_t)k;
                readings[r].progressed = !stop && k > 0;
            }
            readings[3].stopped = stop;
            readings[3].counter = 1000;
            MG_CHECK_INT(feed(0.5 + k), MG_ERROR_OK);
        }
        if (!stop) {
            MG_CHECK_INT(step.action, HANG_WATCH_SAMPLE);
            MG_CHECK_INT(step.events, HANG_WATCH_SET_ASIDE);
            MG_CHECK_INT(step.result.kind, HANG_DIAG_PROGRESS);
            MG_CHECK_INT(step.result.progress_rank, 0);
            MG_CHECK_INT(det_state.resumes, 1);
            continue;
        }
        MG_CHECK_INT(step.action, HANG_WATCH_VERDICT);
        MG_CHECK_INT(step.result.kind, HANG_DIAG_COMMUNICATION);
        MG_CHECK_INT(step.result.nfaulty, 1);
        MG_CHECK_INT(hang_watch_faulty(w)[0], 3);
    }
}

/* What keeps the held-in-poll rule quiet: a rank in a polling call whose siblings do not move
 * either (blocked: the other rules' case), one outside MPI after its poll (computing), and a held
 * rank that moves again during verification (set aside, and tried again only held_after later). */
static void a_rank_slow_in_a_polling_call_is_not_a_hang(void)
{
    start(false);
    all_blocked();
    readings[1].func = TEST;
    watch_until(60);
    MG_CHECK_INT(step.events & HANG_WATCH_HELD, 0);
    start(false);
    poll_around_held_rank(60, false);
    MG_CHECK_INT(step.events & HANG_WATCH_HELD, 0);
    MG_CHECK_INT(step.action, HANG_WATCH_SAMPLE);
    start(false);
    poll_around_held_rank(100, true);
    MG_CHECK(step.events & HANG_WATCH_HELD);
    verify_held(true, false);
    MG_CHECK_INT(step.events, HANG_WATCH_SET_ASIDE);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_PROGRESS);
    MG_CHECK_INT(step.result.progress_rank, 1);
    MG_CHECK_INT(step.held_rank, 1);
    double aside = step.at - 0.5; /* the last scan; the next sample is half a second on */
    poll_around_held_rank(100, true);
    MG_CHECK(step.events & HANG_WATCH_HELD);
    MG_CHECK_NEAR(step.held_since, aside, 1e-12);
    MG_CHECK_NEAR(step.at, aside + 5.0, 1e-12);
}

/* Hangs from the first call: with the detector still building, every rank blocked with nothing
 * moving for 15 s (scans 3 s apart) is verified, and reported without the detector. */
static void every_rank_still_from_the_start_is_a_hang(void)
{
    start(true);
    all_blocked();
    watch_until(100);
    MG_CHECK(step.events & HANG_WATCH_STILL);
    MG_CHECK(!(step.events & HANG_WATCH_STRETCHED)); /* the still period is no stretched gap */
    MG_CHECK_NEAR(step.still_since, 3.0, 1e-9);      /* the first scan */
    MG_CHECK_INT(step.action, HANG_WATCH_SCAN);
    MG_CHECK_NEAR(step.at, 19.0, 1e-9); /* the last scan, one gap on: the still period was one */
    watch_until(100);
    MG_CHECK_INT(step.action, HANG_WATCH_VERDICT);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_COMMUNICATION);
    MG_CHECK(step.from_start);
    MG_CHECK_INT(det_state.resumes, 0);
}

/* Two jobs per core: every rank busy-polls in MPI (MPICH), runnable, and gets 5% of a CPU where its
 * share is a quarter, a fifth of the time it would have alone; a gap of 1 s stretches to 5 s. The
 * still period (15 s, 3 s of each rank's own time) is the verification's first gap: the verdict
 * comes one stretched gap after the rule fires, not two (issue 29: 5-10 s at a batch's load). A
 * rank that got less than its siblings over the whole period is starved: no verdict. */
static void a_hang_from_the_start_under_load_waits_one_gap(void)
{
    for (int starved = 0; starved <= 1; starved++) {
        start(true);
        all_blocked();
        for (int r = 0; r < NR; r++) {
            readings[r].runnable = true;
            readings[r].cpu_share = 0.25;
        }
        double fired = -1, last = 0;
        while (step.action != HANG_WATCH_VERDICT && !(step.events & HANG_WATCH_SET_ASIDE)) {
            double at = step.at;
            for (int r = 0; r < NR; r++) {
                double rate = starved && r == 2 ? 0.001 : 0.05;
                readings[r].cpu_s = rate * at;
                readings[r].slices = readings[r].cpu_s / 0.0005; /* polling, not yielding */
            }
            MG_CHECK_INT(feed(at), MG_ERROR_OK);
            last = at;
            MG_CHECK(!(step.events & HANG_WATCH_STRETCHED) || fired >= 0);
            if (step.events & HANG_WATCH_STILL)
                fired = at;
            MG_CHECK(at < 100);
        }
        MG_CHECK_NEAR(fired, 18.0, 1e-9);
        if (starved) {
            MG_CHECK_INT(step.result.kind, HANG_DIAG_STARVED);
            MG_CHECK_INT(step.starved_rank, 2);
            continue;
        }
        MG_CHECK_INT(step.action, HANG_WATCH_VERDICT);
        MG_CHECK(step.from_start);
        MG_CHECK(last > 22.5 && last < 24.5); /* 18 s, then one gap of 5 s */
    }
}

/* What keeps the rule from firing: a rank computing, one that has not published its state, one
 * polling MPI_Test, a counter that moves (the still time counts from there), a job that has shown
 * activity once the detector is built; and a verification that sees progress. */
static void a_long_start_is_not_a_hang(void)
{
    start(true);
    all_blocked();
    readings[2].in_mpi = false;
    watch_until(60);
    MG_CHECK_INT(step.events & HANG_WATCH_STILL, 0);
    all_blocked();
    readings[2] = (struct hang_watch_reading){.in_mpi = true, .func = -1}; /* before MPI_Init */
    watch_until(120);
    MG_CHECK_INT(step.events & HANG_WATCH_STILL, 0);
    all_blocked();
    readings[0].func = TEST;
    watch_until(180);
    MG_CHECK_INT(step.events & HANG_WATCH_STILL, 0);
    all_blocked();
    readings[1].counter_known = false; /* ptrace: a function, and no counter */
    readings[1].func = RECV;
    watch_until(190);
    readings[3].counter = 9;
    watch_until(step.at + 20);
    MG_CHECK(step.events & HANG_WATCH_STILL);
    MG_CHECK(step.still_since > 190);
    readings[3].counter = 10; /* moves before the verification's last scan */
    watch_until(step.at + 10);
    MG_CHECK(step.events & HANG_WATCH_SET_ASIDE);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_PROGRESS);
    MG_CHECK_INT(det_state.resumes, 0); /* the detector had not suspected anything */
    /* built and active: the rule is off, the detector decides */
    start_built_and_active();
    all_blocked();
    watch_until(100);
    MG_CHECK_INT(step.events & HANG_WATCH_STILL, 0);
    MG_CHECK_INT(step.action, HANG_WATCH_SAMPLE);
}

/* A rank stopped from outside before the model exists holds the others, seen by its process state
 * alone: stopped before MPI_Init (nothing published) while the others wait in MPI_Init or start,
 * or stopped outside MPI while the others wait in their first collective. The rule fires 15 s
 * after the stop and names it; with nobody stopped, ranks still starting never fire it. Once the
 * detector is built and has seen activity, a rank seen stopped in a sample turns the rule on. */
static void a_rank_stopped_before_the_model_is_a_hang(void)
{
    start(true);
    /* asleep in MPI_Init's wait for every rank, or before it */
    struct hang_watch_reading starting = {.in_mpi = true, .func = -1};
    for (int r = 0; r < NR; r++)
        readings[r] = starting;
    readings[2].stopped = true;
    watch_until(100);
    MG_CHECK(step.events & HANG_WATCH_STILL);
    MG_CHECK_NEAR(step.still_since, 3.0, 1e-9);
    watch_until(100);
    MG_CHECK_INT(step.action, HANG_WATCH_VERDICT);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_COMMUNICATION);
    MG_CHECK_INT(step.result.nfaulty, 1);
    MG_CHECK_INT(hang_watch_faulty(w)[0], 2);
    MG_CHECK(step.from_start);
    start(true);
    all_blocked();
    readings[2].in_mpi = false;
    readings[2].stopped = true;
    watch_until(100);
    MG_CHECK(step.events & HANG_WATCH_STILL);
    watch_until(100);
    MG_CHECK_INT(step.action, HANG_WATCH_VERDICT);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_COMPUTATION);
    MG_CHECK_INT(hang_watch_faulty(w)[0], 2);
    /* stopped, continued, stopped again: the still time counts from the last stop */
    start(true);
    for (int r = 0; r < NR; r++)
        readings[r] = starting;
    readings[2].stopped = true;
    watch_until(8);
    readings[2].stopped = false;
    watch_until(10);
    MG_CHECK_INT(step.events & HANG_WATCH_STILL, 0);
    readings[2].stopped = true;
    watch_until(100);
    MG_CHECK(step.events & HANG_WATCH_STILL);
    MG_CHECK(step.still_since > 8);
    start(true);
    for (int r = 0; r < NR; r++)
        readings[r] = starting;
    watch_until(60);
    MG_CHECK_INT(step.events & HANG_WATCH_STILL, 0);
    /* built and active, the rule is off until a sample sees a rank stopped */
    start_built_and_active();
    all_blocked();
    readings[1].stopped = true; /* a sample's second rank (3), a scan's rank 1 */
    watch_until(100);
    MG_CHECK(step.events & HANG_WATCH_STILL);
    watch_until(100);
    MG_CHECK_INT(step.action, HANG_WATCH_VERDICT);
    MG_CHECK_INT(hang_watch_faulty(w)[0], 1);
}

/* Run 51035 of issue 29 (MPICH, ptrace, the model never built): worker 3 deadlocked at its first
 * receive, workers 1 and 2 were stopped and wait in the job's last collective, and the master
 * polls MPI_Test for worker 3's result for good, its counter moving by its polls. Fills the
 * readings the step asks for; `pollers` ranks from 0 poll so, ranks 1 to 3 not polling block. */
static struct hang_watch_wait waits[NR]; /* what each rank's call waits on, as published */

static void read_master_waiting_for_worker(size_t pollers)
{
    static uint64_t polls;
    polls += 1000;
    for (size_t i = 0; i < step.count; i++) {
        size_t r = step.action == HANG_WATCH_SAMPLE ? (size_t)step.ranks[i] : i;
        readings[i] = blocked_rank();
        readings[i].func = r < pollers ? TEST : r == 3 ? RECV : ALLREDUCE;
        readings[i].counter = r < pollers ? polls : readings[i].counter;
        readings[i].wait = waits[r];
    }
}

/* Feeds the job of read_master_waiting_for_worker until the watch begins verifying or `until`. */
static void watch_master_until(size_t pollers, double until)
{
    do {
        read_master_waiting_for_worker(pollers);
        MG_CHECK_INT(feed(step.at), MG_ERROR_OK);
    } while (step.action != HANG_WATCH_VERDICT && step.at <= until &&
             !(step.events & (HANG_WATCH_STILL | HANG_WATCH_SET_ASIDE)));
}

/* One rank polling while every other stands still in a blocking call has nobody to hear from: the
 * first-call rule verifies it and the verification confirms a communication hang. Two pollers
 * could be talking to each other, and a rank at one count in MPI_Test polls nothing (see
 * a_long_start_is_not_a_hang): neither fires the rule. */
static void a_master_polling_for_a_deadlocked_worker_is_a_hang(void)
{
    start(true);
    watch_master_until(1, 100);
    MG_CHECK(step.events & HANG_WATCH_STILL);
    MG_CHECK_NEAR(step.still_since, 6.0, 1e-9); /* the second scan: the first saw no poll move */
    watch_master_until(1, 100);
    MG_CHECK_INT(step.action, HANG_WATCH_VERDICT);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_COMMUNICATION);
    MG_CHECK(step.from_start);
    start(true);
    watch_master_until(2, 100);
    MG_CHECK_INT(step.events & HANG_WATCH_STILL, 0);
}

/* tests/integration/hang_start.sh poll-transfer: the master polls for what rank 2 sends once its
 * long message to rank 3 has moved, both blocked meanwhile. A send and a receive that matches it
 * (from its sender or any, its tag or any, the same communicator) are no hang however long they
 * stand: the rule stays quiet. Unmatched (another tag, another source, another communicator, two
 * sends), nothing can move and it fires. */
static void a_message_in_flight_is_not_a_hang(void)
{
    const struct hang_watch_wait send = {HANG_WATCH_WAIT_SEND, 3, 9, 1, false};
    const struct hang_watch_wait matched[] = {{HANG_WATCH_WAIT_RECV, 2, 9, 1, false},
                                              {HANG_WATCH_WAIT_RECV, -1, -1, 1, false}};
    const struct hang_watch_wait unmatched[] = {{HANG_WATCH_WAIT_RECV, 2, 8, 1, false},
                                                {HANG_WATCH_WAIT_RECV, 0, 9, 1, false},
                                                {HANG_WATCH_WAIT_RECV, 2, 9, 2, false},
                                                {HANG_WATCH_WAIT_SEND, 2, 9, 1, false}};
    for (size_t k = 0; k < sizeof matched / sizeof *matched; k++) {
        start(true);
        waits[2] = send, waits[3] = matched[k];
        watch_master_until(1, 100);
        MG_CHECK_INT(step.events & HANG_WATCH_STILL, 0);
        MG_CHECK(step.at > 100);
    }
    for (size_t k = 0; k < sizeof unmatched / sizeof *unmatched; k++) {
        start(true);
        waits[2] = send, waits[3] = unmatched[k];
        watch_master_until(1, 100);
        MG_CHECK(step.events & HANG_WATCH_STILL);
        MG_CHECK_NEAR(step.still_since, 6.0, 1e-9);
        MG_CHECK_NEAR(step.at, 22.0, 1e-9); /* a poller: the still period stays 15 s */
    }
    memset(waits, 0, sizeof waits);
}

/* poll-transfer under ptrace: nothing published, each side known by its function alone (MPI_Send,
 * MPI_Recv), a sender and a receiver may be matched and the rule stays quiet; two senders, or two
 * receivers without a sender, fire it. */
static void a_message_in_flight_is_not_a_hang_under_ptrace(void)
{
    const struct hang_watch_wait send = {HANG_WATCH_WAIT_SEND, 0, 0, 0, true};
    const struct hang_watch_wait recv = {HANG_WATCH_WAIT_RECV, 0, 0, 0, true};
    start(true);
    waits[2] = send, waits[3] = recv;
    watch_master_until(1, 100);
    MG_CHECK_INT(step.events & HANG_WATCH_STILL, 0);
    MG_CHECK(step.at > 100);
    /* a published receive from the sender matches a send known by its direction alone */
    start(true);
    waits[3] = (struct hang_watch_wait){HANG_WATCH_WAIT_RECV, 2, 9, 1, false};
    watch_master_until(1, 100);
    MG_CHECK_INT(step.events & HANG_WATCH_STILL, 0);
    const struct hang_watch_wait unmatched[][2] = {{send, send}, {recv, recv}};
    for (size_t k = 0; k < sizeof unmatched / sizeof *unmatched; k++) {
        start(true);
        waits[2] = unmatched[k][0], waits[3] = unmatched[k][1];
        watch_master_until(1, 100);
        MG_CHECK(step.events & HANG_WATCH_STILL);
        MG_CHECK_NEAR(step.still_since, 6.0, 1e-9);
    }
    memset(waits, 0, sizeof waits);
}

/* A rank's segment as Open MPI's ranks publish it under shm: MPI_COMM_WORLD's handle is the
 * address of a library object, another in each process (ASLR), here those two ranks had. */
static void publish_openmpi(rank_state *s, uint64_t world, int32_t peer, int32_t tag)
{
    memset(s, 0, sizeof *s);
    s->size = NR;
    atomic_init(&s->world_like[0], world);
    atomic_init(&s->world_like[1], world + 0x1000); /* a dup, created after */
    atomic_init(&s->world_like_count, 2);
    atomic_init(&s->wait_on, RANK_STATE_WAIT_PEER);
    atomic_init(&s->wait_peer, peer);
    atomic_init(&s->wait_tag, tag);
    atomic_init(&s->wait_comm, world);
}

/* poll-transfer under Open MPI and shm (issue 29: the rule fired at load 30, rank 2 in MPI_Send,
 * rank 3 in MPI_Recv from 2 tag 9): each side published MPI_COMM_WORLD by its own address, and the
 * two waits, read as published, never matched. Read as the world's first communicator on both
 * sides, they do, and the rule stays quiet; a send on the world and a receive on its dup do not
 * match, and it fires. */
static void a_message_in_flight_under_open_mpi_is_not_a_hang(void)
{
    rank_state sender, receiver;
    publish_openmpi(&sender, 0x55abeab68040, 3, 9);
    publish_openmpi(&receiver, 0x55ab7d4e4040, 2, 9);
    start(true);
    waits[2] = hang_facts_watch_wait(&sender, HANG_WATCH_WAIT_SEND);
    waits[3] = hang_facts_watch_wait(&receiver, HANG_WATCH_WAIT_RECV);
    MG_CHECK_INT(waits[2].kind, HANG_WATCH_WAIT_SEND);
    MG_CHECK_INT(waits[3].kind, HANG_WATCH_WAIT_RECV);
    watch_master_until(1, 100);
    MG_CHECK_INT(step.events & HANG_WATCH_STILL, 0);
    MG_CHECK(step.at > 100);
    atomic_store(&receiver.wait_comm, 0x55ab7d4e4040 + 0x1000);
    start(true);
    waits[3] = hang_facts_watch_wait(&receiver, HANG_WATCH_WAIT_RECV);
    watch_master_until(1, 100);
    MG_CHECK(step.events & HANG_WATCH_STILL);
    /* a communicator not among the world's: its wait is not known */
    atomic_store(&receiver.wait_comm, 0x55ab7d4e9040);
    MG_CHECK_INT(hang_facts_watch_wait(&receiver, HANG_WATCH_WAIT_RECV).kind,
                 HANG_WATCH_WAIT_UNKNOWN);
    memset(waits, 0, sizeof waits);
}

/* A verification that ends on a send and a receive that may match still concludes: a culprit
 * spinning in a signal handler inside its MPI_Send, its receiver blocked (master_worker's spin-in
 * fault), reads as a message in flight, and setting it aside would miss that hang for good. Only
 * the first-call rule keeps quiet on such a pair (it waits for the model then). */
static void a_verification_ending_on_a_send_and_its_receive_concludes(void)
{
    const struct hang_watch_wait send = {HANG_WATCH_WAIT_SEND, 0, 0, 0, true};
    const struct hang_watch_wait recv = {HANG_WATCH_WAIT_RECV, 0, 0, 0, true};
    start(true);
    watch_master_until(1, 100);
    MG_CHECK(step.events & HANG_WATCH_STILL);
    waits[2] = send, waits[3] = recv;
    watch_master_until(1, 100);
    MG_CHECK_INT(step.action, HANG_WATCH_VERDICT);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_COMMUNICATION);
    memset(waits, 0, sizeof waits);
}

/* A deadlock at the start (the examples' deadlock-start, shm): ranks 0, 1 and 3 in the first
 * MPI_Allreduce on the world, rank 2 in a receive nobody sends. Nothing can complete: two scans
 * 3 s apart that agree start the verification, not 15 s. Every rank in the collective (a long
 * first all-to-all), a send with its receive, or a wait not known (ptrace, MPI_Waitall): 15 s. */
static void read_stuck(int variant)
{
    for (size_t i = 0; i < step.count; i++) {
        size_t r = step.action == HANG_WATCH_SAMPLE ? (size_t)step.ranks[i] : i;
        readings[i] = blocked_rank();
        readings[i].wait = (struct hang_watch_wait){HANG_WATCH_WAIT_COLLECTIVE, -1, -1, 1, false};
        if (r == 2 && variant != 1)
            readings[i].wait = (struct hang_watch_wait){HANG_WATCH_WAIT_RECV, -1, 0x7ead, 1, false};
        if (r == 2 && variant == 2)
            readings[i].wait.kind = HANG_WATCH_WAIT_UNKNOWN;
    }
}

static void a_job_stuck_from_the_start_is_verified_sooner(void)
{
    const double want[] = {6.0, 18.0, 18.0};
    for (int variant = 0; variant < 3; variant++) {
        start(true);
        do {
            read_stuck(variant);
            MG_CHECK_INT(feed(step.at), MG_ERROR_OK);
        } while (step.at <= 100 && !(step.events & HANG_WATCH_STILL));
        MG_CHECK(step.events & HANG_WATCH_STILL);
        MG_CHECK_NEAR(step.still_since, 3.0, 1e-9);
        MG_CHECK_NEAR(step.at - 1.0, want[variant], 1e-9); /* the last scan, a gap later */
        if (variant == 0) {
            do {
                read_stuck(variant);
                MG_CHECK_INT(feed(step.at), MG_ERROR_OK);
            } while (step.action != HANG_WATCH_VERDICT && step.at <= 100);
            MG_CHECK_INT(step.result.kind, HANG_DIAG_COMMUNICATION);
            MG_CHECK(step.from_start);
        }
    }
}

/* Run 148083 of issue 29 (Open MPI master_worker, 8 ranks, shm; here 4): the model was built and
 * active when the job hung, 10 s after worker 3 deadlocked at its first task. The master (rank 0)
 * polls MPI_Test for the results it asked of any source (tag 2), its count moving by its polls
 * alone; rank 1 is in MPI_Finalize, rank 2 in MPI_Reduce to root 0, rank 3 in a receive of a tag
 * nobody sends. `variant` changes one thing that leaves it no proof: 1, rank 3's receive takes any
 * tag, which a send among the master's requests may match; 2, the master makes other calls between
 * its polls (a master still handing out tasks); 3, rank 3 waits in MPI_Waitall (its wait not
 * known); 4, a second rank polls (the two could be talking). */
static void read_stuck_master(int variant, uint64_t polls)
{
    for (size_t i = 0; i < step.count; i++) {
        size_t r = step.action == HANG_WATCH_SAMPLE ? (size_t)step.ranks[i] : i;
        readings[i] = blocked_rank();
        readings[i].counter = 40 + r;
        readings[i].wait = (struct hang_watch_wait){HANG_WATCH_WAIT_COLLECTIVE, 0, -1, 0, false};
        readings[i].func = r == 1 ? FINALIZE : ALLREDUCE;
        if (r == 0 || (r == 1 && variant == 4)) {
            readings[i].func = TEST;
            readings[i].counter = polls;
            readings[i].progressed = variant == 2;
            readings[i].wait = (struct hang_watch_wait){HANG_WATCH_WAIT_REQUESTS, -1, 2, 0, false};
        } else if (r == 3) {
            readings[i].func = RECV;
            readings[i].wait = (struct hang_watch_wait){HANG_WATCH_WAIT_RECV, -1,
                                                        variant == 1 ? -1 : 0x7ead, 0, false};
            if (variant == 3)
                readings[i].wait.kind = HANG_WATCH_WAIT_UNKNOWN;
        }
    }
}

/* Feeds the job of read_stuck_master until the watch verifies or `until`. */
static void watch_stuck_master(int variant, double until)
{
    uint64_t polls = 1000;
    do {
        read_stuck_master(variant, polls += 1000);
        MG_CHECK_INT(feed(step.at), MG_ERROR_OK);
    } while (step.action != HANG_WATCH_VERDICT && step.at <= until &&
             !(step.events & (HANG_WATCH_STILL | HANG_WATCH_SET_ASIDE)));
}

/* After the build the still evidence decides when it is proof: every rank but the master blocked
 * in a call nothing can complete, the master polling at one count on requests nothing can match.
 * The samples that find their ranks at rest (from 1.5 s: the second sample after the hang) bring
 * scans forward, a second apart; the second (2.5 s) sees the master's polls move, two scans 3 s
 * apart that agree start the verification, and the verdict comes a gap later: 6 s after the hang,
 * where the model took about 25 s in the run. Without this rule the test fails: no scan comes
 * after the build. */
static void a_job_stuck_after_the_build_is_verified(void)
{
    start_built_and_active();
    watch_stuck_master(0, 100);
    MG_CHECK(step.events & HANG_WATCH_STILL);
    MG_CHECK_NEAR(step.still_since, 2.5, 1e-9);
    watch_stuck_master(0, 100);
    MG_CHECK_INT(step.action, HANG_WATCH_VERDICT);
    MG_CHECK_NEAR(step.at, 6.5, 1e-9);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_COMMUNICATION);
    MG_CHECK_INT(det_state.resumes, 0);
}

/* No proof, no verification by the rule once the model is built: it decides (here it never
 * suspects), however long the job stands so. */
static void a_job_still_without_proof_is_the_models(void)
{
    for (int variant = 1; variant <= 4; variant++) {
        start_built_and_active();
        watch_stuck_master(variant, 100);
        MG_CHECK_INT(step.events & HANG_WATCH_STILL, 0);
        MG_CHECK(step.at > 100);
    }
}

/* Run 51020 of issue 29 (MPICH, ptrace): the master left MPI_Test for a compute loop while the
 * workers wait for their next task in MPI_Recv. Its counter stands still from the first scan on;
 * the first scan read it in MPI_Test (its count had moved since its reading before the fault, and
 * a move in a polling function reads as polling), the others outside MPI (`out_in_scans`) or, in
 * samples that timed out, in MPI_Test again. Either way it is named: a computation hang when a
 * scan saw it outside MPI, else a communication hang held by the rank that stands in a poll. */
static void verify_master_gone_computing(bool out_in_scans)
{
    suspect_all_blocked();
    for (int k = 0; k < 3; k++) {
        all_blocked();
        for (int r = 0; r < NR; r++) { /* MPICH: every rank spins, the waiting ones too */
            readings[r].func = RECV;
            readings[r].runnable = true;
            readings[r].cpu_s = 1.0 * k;
            readings[r].slices = 10.0 * k;
        }
        readings[0].func = TEST;
        readings[0].counter = 5000;
        readings[0].in_mpi = k == 0 || !out_in_scans;
        MG_CHECK_INT(feed(0.5 + k), MG_ERROR_OK);
    }
    MG_CHECK_INT(step.action, HANG_WATCH_VERDICT);
    MG_CHECK_INT(step.result.kind, out_in_scans ? HANG_DIAG_COMPUTATION : HANG_DIAG_COMMUNICATION);
    MG_CHECK_INT(step.result.nfaulty, 1);
    MG_CHECK_INT(hang_watch_faulty(w)[0], 0);
}

static void a_master_gone_computing_is_named(void)
{
    verify_master_gone_computing(true);
    verify_master_gone_computing(false);
}

/* Run 291001 of issue 29 (MPICH, master_worker, 8 ranks, shm): rank 5 stopped inside MPI_Recv
 * (`stop`; else spinning in a handler there), rank 0 the master polling MPI_Test for its result
 * (its count moving, read outside MPI between two polls in the last scan), rank 4 busy-polling in
 * MPI_Reduce for rank 5's share, the others asleep in MPI_Finalize. Returns the verdict's faulty
 * ranks in faulty. */
static size_t verify_stop_in_recv(bool stop, int *faulty)
{
    enum { N = 8 };
    struct hang_watch_params p;
    hang_watch_params_default(&p);
    p.polling = polling;
    p.npolling = NFUNCS;
    p.still_after = 0;
    det_state = (struct scripted){.ranks = {1, 3}, .answer = HANG_VERDICT_HANG};
    struct hang_watch *w8 = NULL;
    MG_CHECK_INT(hang_watch_create(&p, &det, N, &w8), MG_ERROR_OK);
    MG_CHECK_INT(hang_watch_begin(w8, 0, &step), MG_ERROR_OK);
    struct hang_watch_reading job[N];
    for (int k = 0; k < 4; k++) {
        for (int r = 0; r < N; r++)
            job[r] = blocked_rank();
        for (int r = 0; r < N; r++) {
            bool spins = r == 0 || r == 4 || (r == 5 && !stop);
            job[r].runnable = spins;
            job[r].cpu_s = spins ? 1.0 * k : 0;
            job[r].slices = spins ? 10.0 * k : 0;
        }
        job[0].func = TEST;
        job[0].counter = 5000 + 100000 * (uint64_t)k;
        job[0].in_mpi = k < 3;
        job[5].func = RECV;
        job[5].stopped = stop;
        MG_CHECK_INT(hang_watch_feed(w8, job, k == 0 ? 0.5 : 0.5 + k, &step), MG_ERROR_OK);
    }
    MG_CHECK_INT(step.action, HANG_WATCH_VERDICT);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_COMMUNICATION);
    size_t nfaulty = step.result.nfaulty;
    memcpy(faulty, hang_watch_faulty(w8), nfaulty * sizeof *faulty);
    hang_watch_destroy(w8);
    return nfaulty;
}

/* The stopped rank is the one named: the master's polls and rank 4's busy wait spin the CPU as a
 * handler would, but they wait for it. With no rank stopped, the rank spinning inside one call is
 * named (rank 4's busy wait cannot be told from it), the master, whose count moves, is not. */
static void busy_polling_waiters_are_not_named_with_a_stopped_rank(void)
{
    int faulty[8];
    MG_CHECK_INT(verify_stop_in_recv(true, faulty), 1);
    MG_CHECK_INT(faulty[0], 5);
    MG_CHECK_INT(verify_stop_in_recv(false, faulty), 2);
    MG_CHECK_INT(faulty[0], 4);
    MG_CHECK_INT(faulty[1], 5);
}

/* A job whose calls move (every rank's counter by one a tenth of a second) from moves_from until
 * halt_at, then halt: every counter still, ranks blocked in MPI_Allreduce but `outside`, outside
 * MPI (-1: none), until resume_at; the detector builds at built_at. Fills the readings the step
 * asks for (a sample's ranks in its order); rank `outside` computes in long slices, the others
 * yield. Feeds them until a verdict, a verification begins or ends, or `until` passes. */
static void watch_halting_job(double moves_from, double halt_at, double resume_at, int outside,
                              double built_at, double until)
{
    do {
        double t = step.at;
        double moved = t < halt_at ? t : t < resume_at ? halt_at : t - (resume_at - halt_at);
        for (size_t i = 0; i < step.count; i++) {
            int r = step.action == HANG_WATCH_SAMPLE ? step.ranks[i] : (int)i;
            bool computes = r == outside && t >= halt_at && t < resume_at;
            readings[i] = blocked_rank();
            readings[i].in_mpi = !computes;
            readings[i].counter = 7 + (uint64_t)(10 * fmax(0, moved - moves_from));
            readings[i].progressed = moved > moves_from && (t < halt_at || t >= resume_at);
            readings[i].runnable = true;
            readings[i].cpu_s = t;
            readings[i].slices = t / (computes ? 4e-3 : 2e-6);
        }
        det_state.answer = t >= built_at ? HANG_VERDICT_NORMAL : HANG_VERDICT_BUILDING;
        MG_CHECK_INT(feed(t), MG_ERROR_OK);
    } while (step.action != HANG_WATCH_VERDICT && step.at <= until &&
             !(step.events & (HANG_WATCH_STILL | HANG_WATCH_HALTED | HANG_WATCH_SET_ASIDE)));
}

/* A job whose counters move from moves_from and halt at halt_at, rank 2 computing, the detector
 * building at 12 s: the halt rule sees it from still_since and verifies it 3 s later (scans that
 * agree), the halt the first gap: a computation hang naming rank 2 before verdict_by. */
static void expect_halt_verdict(double moves_from, double halt_at, double still_since,
                                double verdict_by)
{
    start(true);
    watch_halting_job(moves_from, halt_at, INFINITY, 2, 12, 100);
    MG_CHECK(step.events & HANG_WATCH_HALTED);
    MG_CHECK_INT(step.halted_rank, 2);
    MG_CHECK_NEAR(step.still_since, still_since, 1e-9);
    watch_halting_job(moves_from, halt_at, INFINITY, 2, 12, 100);
    MG_CHECK_INT(step.action, HANG_WATCH_VERDICT);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_COMPUTATION);
    MG_CHECK_INT(step.result.nfaulty, 1);
    MG_CHECK_INT(hang_watch_faulty(w)[0], 2);
    MG_CHECK_INT(step.halted_rank, 2);
    MG_CHECK(!step.from_start);
    MG_CHECK(step.at < verdict_by);
}

/* Run 291009 of issue 29: cg's rank 1 looped outside MPI 2 s before the model was built, which
 * learnt the halted job as its normal and suspected it 148 s later. Here rank 2 computes from
 * 10 s, the detector builds at 12 s: the halt rule's scans go on past the build and see the halt
 * from 10.5 s, when the samples find ranks 1 and 3 where they left them and bring the scan due at
 * 12 s forward. The same with every rank blocked (a deadlock in the build window): the first-call
 * rule goes on past the build and verifies it. */
static void a_job_halted_while_the_model_builds_is_a_hang(void)
{
    expect_halt_verdict(0, 10, 10.5, 15);
    start(true);
    watch_halting_job(0, 10, INFINITY, -1, 12, 100);
    MG_CHECK(step.events & HANG_WATCH_STILL);
    MG_CHECK_NEAR(step.still_since, 10.5, 1e-9);
    watch_halting_job(0, 10, INFINITY, -1, 12, 100);
    MG_CHECK_INT(step.action, HANG_WATCH_VERDICT);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_COMMUNICATION);
}

/* A fault in the job's first seconds (issue 29): the counters move from 4 s (MPI_Init's end) to
 * 6 s, when rank 2 loops outside MPI for good. The first-call rule's scans, 3 s apart, saw them
 * move in one gap only and took the job for one still starting; the samples between saw ranks 1
 * and 3 move reading after reading: the halt rule verifies it from the scans at 6 and 9 s. */
static void a_job_halted_in_its_first_seconds_is_a_hang(void)
{
    expect_halt_verdict(4, 6, 6.0, 11);
}

/* What keeps the halt rule quiet: a compute phase that ends during the verification (progress,
 * and the built detector decides from then on): 4 s, the halt's 3 s and one gap, the longest the
 * rule never takes however its scans fall (the 5.5 s this test had was left alone only when the
 * halt began 2 s before a scan); a halt that begins once the detector is built
 * (the detector learnt the moving job: it decides); a rank computing after a start that moved
 * each counter once between two readings (MPI_Init into the first collective, which the others
 * wait in: hang_start.sh slow-first), however long. */
static void a_halt_the_model_can_judge_is_not_verified(void)
{
    start(true);
    watch_halting_job(0, 10, 14, 2, 12, 100);
    MG_CHECK(step.events & HANG_WATCH_HALTED);
    watch_halting_job(0, 10, 14, 2, 12, 100);
    MG_CHECK(step.events & HANG_WATCH_SET_ASIDE);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_PROGRESS);
    MG_CHECK_INT(step.halted_rank, 2);
    watch_halting_job(0, 10, 14, 2, 12, 100);
    MG_CHECK_INT(step.action, HANG_WATCH_SAMPLE);
    MG_CHECK_INT(step.events & (HANG_WATCH_STILL | HANG_WATCH_HALTED | HANG_WATCH_SET_ASIDE), 0);
    start(true);
    watch_halting_job(0, 10, INFINITY, 2, 8, 100);
    MG_CHECK_INT(step.action, HANG_WATCH_SAMPLE);
    MG_CHECK_INT(step.events & (HANG_WATCH_STILL | HANG_WATCH_HALTED), 0);
    start(true);
    watch_halting_job(4, 4.3, INFINITY, 2, 12, 100);
    MG_CHECK_INT(step.action, HANG_WATCH_SAMPLE);
    MG_CHECK_INT(step.events & (HANG_WATCH_STILL | HANG_WATCH_HALTED), 0);
}

/* A job attached to whose rank 2 already looped when the watch began (issue 29: found by the model
 * alone, after 93 s): no counter moves, so the job is never past its start, but rank 2, never read
 * inside MPI, is taken as halted from the first scan (3 s) for still_after, past the detector's
 * build at 12 s, and verified. A job watched from its start reads the same as a start's slow rank,
 * left to the detector; so does, attached, a rank read inside MPI before it left. */
static void a_rank_looping_before_the_attach_is_a_halt(void)
{
    start_unseen = true;
    start(true);
    watch_halting_job(0, 0, INFINITY, 2, 12, 100);
    MG_CHECK(step.events & HANG_WATCH_HALTED);
    MG_CHECK_INT(step.halted_rank, 2);
    MG_CHECK_NEAR(step.still_since, 3, 1e-9);
    watch_halting_job(0, 0, INFINITY, 2, 12, 100);
    MG_CHECK_INT(step.action, HANG_WATCH_VERDICT);
    MG_CHECK_INT(step.result.kind, HANG_DIAG_COMPUTATION);
    MG_CHECK_INT(step.result.nfaulty, 1);
    MG_CHECK_INT(hang_watch_faulty(w)[0], 2);
    MG_CHECK(step.at < 21);
    start(true);
    watch_halting_job(INFINITY, 5, INFINITY, 2, 12, 100);
    MG_CHECK_INT(step.action, HANG_WATCH_SAMPLE);
    MG_CHECK_INT(step.events & (HANG_WATCH_STILL | HANG_WATCH_HALTED), 0);
    start_unseen = false;
    start(true);
    watch_halting_job(0, 0, INFINITY, 2, 12, 100);
    MG_CHECK_INT(step.action, HANG_WATCH_SAMPLE);
    MG_CHECK_INT(step.events & (HANG_WATCH_STILL | HANG_WATCH_HALTED), 0);
}

/* The timeout baseline's HANG is final: no verification. */
static void unverified_watch_takes_the_verdict(void)
{
    struct hang_watch_params p;
    hang_watch_params_default(&p);
    p.verify = false;
    struct hang_watch *u;
    det_state = (struct scripted){.ranks = {0, 1}, .answer = HANG_VERDICT_HANG};
    MG_CHECK_INT(hang_watch_create(&p, &det, NR, &u), MG_ERROR_OK);
    MG_CHECK_INT(hang_watch_begin(u, 0, &step), MG_ERROR_OK);
    all_blocked();
    MG_CHECK_INT(hang_watch_feed(u, readings, 0.5, &step), MG_ERROR_OK);
    MG_CHECK_INT(step.action, HANG_WATCH_VERDICT);
    MG_CHECK(step.events & HANG_WATCH_SUSPECTED);
    hang_watch_destroy(u);
}

/* The model fits the watch as it is (hang_watch_detector_model). */
static void drives_the_real_model(void)
{
    struct hang_model_params mp;
    hang_model_params_default(&mp);
    struct hang_model *m;
    MG_CHECK_INT(hang_model_create(&mp, NR, 1, &m), MG_ERROR_OK);
    struct hang_watch_detector md = hang_watch_detector_model(m);
    struct hang_watch_params p;
    hang_watch_params_default(&p);
    struct hang_watch *u;
    MG_CHECK_INT(hang_watch_create(&p, &md, NR, &u), MG_ERROR_OK);
    MG_CHECK_INT(hang_watch_begin(u, 0, &step), MG_ERROR_OK);
    MG_CHECK_INT(step.action, HANG_WATCH_SAMPLE);
    MG_CHECK(step.at >= 0.2 && step.at < 0.6);
    MG_CHECK_INT(step.count, NR / 2);
    all_blocked();
    MG_CHECK_INT(hang_watch_feed(u, readings, step.at, &step), MG_ERROR_OK);
    MG_CHECK_INT(step.events, HANG_WATCH_OBSERVED);
    struct hang_model_state st;
    hang_model_state(m, &st);
    MG_CHECK_INT(st.observations, 1);
    hang_watch_destroy(u);
    hang_model_destroy(m);
}

static void bad_arguments(void)
{
    struct hang_watch_params p;
    hang_watch_params_default(&p);
    struct hang_watch *u = NULL;
    MG_CHECK_INT(hang_watch_create(&p, &det, 0, &u), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_watch_create(NULL, &det, NR, &u), MG_ERROR_EINVAL);
    p.nscans = 1;
    MG_CHECK_INT(hang_watch_create(&p, &det, NR, &u), MG_ERROR_EINVAL);
    hang_watch_params_default(&p);
    p.still_every = 0;
    MG_CHECK_INT(hang_watch_create(&p, &det, NR, &u), MG_ERROR_EINVAL);
    hang_watch_params_default(&p);
    p.npolling = 3;
    MG_CHECK_INT(hang_watch_create(&p, &det, NR, &u), MG_ERROR_EINVAL);
    MG_CHECK(u == NULL);
    MG_CHECK_INT(hang_watch_begin(NULL, 0, &step), MG_ERROR_EINVAL);
    MG_CHECK_INT(hang_watch_feed(NULL, readings, 0, &step), MG_ERROR_EINVAL);
}

int main(void)
{
    MG_RUN(samples_feed_the_detector);
    MG_RUN(suspicion_verified_to_a_verdict);
    MG_RUN(computation_hang_names_the_rank);
    MG_RUN(an_unreadable_rank_is_not_exited);
    MG_RUN(progress_sets_the_suspicion_aside);
    MG_RUN(verification_waits_for_each_ranks_own_time);
    MG_RUN(a_job_starved_as_a_whole_still_gets_a_verdict);
    MG_RUN(a_starved_rank_is_not_a_spinner);
    MG_RUN(culprit_of_a_communication_hang);
    MG_RUN(a_rank_spinning_in_its_call_owes_one_gap);
    MG_RUN(a_rank_polling_at_one_count_owes_one_gap);
    MG_RUN(a_rank_polling_in_a_loop_owes_its_polls);
    MG_RUN(a_long_compute_phase_is_not_a_hang);
    MG_RUN(a_call_returning_in_the_second_gap_is_progress);
    MG_RUN(a_rank_held_in_a_polling_call_is_a_hang);
    MG_RUN(a_rank_slow_in_a_polling_call_is_not_a_hang);
    MG_RUN(ranks_posting_between_polls_are_not_hung);
    MG_RUN(a_suspended_job_is_not_observed);
    MG_RUN(every_rank_still_from_the_start_is_a_hang);
    MG_RUN(a_hang_from_the_start_under_load_waits_one_gap);
    MG_RUN(a_long_start_is_not_a_hang);
    MG_RUN(a_rank_stopped_before_the_model_is_a_hang);
    MG_RUN(a_master_polling_for_a_deadlocked_worker_is_a_hang);
    MG_RUN(a_message_in_flight_is_not_a_hang);
    MG_RUN(a_message_in_flight_is_not_a_hang_under_ptrace);
    MG_RUN(a_message_in_flight_under_open_mpi_is_not_a_hang);
    MG_RUN(a_verification_ending_on_a_send_and_its_receive_concludes);
    MG_RUN(a_job_stuck_from_the_start_is_verified_sooner);
    MG_RUN(a_job_stuck_after_the_build_is_verified);
    MG_RUN(a_job_still_without_proof_is_the_models);
    MG_RUN(a_job_halted_while_the_model_builds_is_a_hang);
    MG_RUN(a_job_halted_in_its_first_seconds_is_a_hang);
    MG_RUN(a_halt_the_model_can_judge_is_not_verified);
    MG_RUN(a_rank_looping_before_the_attach_is_a_halt);
    MG_RUN(a_master_gone_computing_is_named);
    MG_RUN(busy_polling_waiters_are_not_named_with_a_stopped_rank);
    MG_RUN(unverified_watch_takes_the_verdict);
    MG_RUN(drives_the_real_model);
    MG_RUN(bad_arguments);
    hang_watch_destroy(w);
    MG_TEST_END();
}
