/* Unit tests of a campaign's search as one object (search_session.h), with real Z3, over a
 * simulated program whose path logs are built here the way the runtime would log them:
 *
 *   inputs x, y; rank = MPI_Comm_rank(world); np = MPI_Comm_size(world)
 *   b0: if (x > 10) { b1: if (y == 7) ... }
 *   b2: if (rank == 2) ...
 *
 * Six arms; rank 2 needs at least three processes. With loop_trips > 0 the x > 10 arm first
 * runs a loop, branch b3, `y > i` for i < loop_trips: one branch, many constraints, a deep DFS
 * subtree that covers nothing new after its first two paths. With checked, b5: `if (x <= 10)`
 * first checks x, as an input reader does, and both its arms count as covered (by an earlier read
 * of the same input, as in hpcc), so b0's x > 10 is decided on the path before b0. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mg_error.h"
#include "mg_rng.h"
#include "mg_test.h"
#include "search_session.h"
#include "search_session_text.h"

#define MAX_NP 4

static int loop_trips;
static int tuning;    /* campaign_start's sessions tune their solutions */
static int rejecting; /* step's runs end in the program's own refusal of their inputs */
static int reread;    /* the program reads a third input z and tests it at b0 again (below) */
static int checked;   /* b5 checks x before b0 (above) */

typedef struct program_run {
    int64_t x, y;
    uint32_t np, focus;
    int64_t z;
} program_run;

static sym_var var(uint32_t id, int kind, int64_t value)
{
    return (sym_var){id, (uint8_t)kind, SYM_VAR_SORT_INT, 0, 0, SYM_VAR_NO_COMM, value};
}

/* Appends branch id's record: var op k held on the taken arm (the op is oriented here). */
static void branch(path_log *log, uint32_t id, uint32_t v, int op, int64_t k, int taken)
{
    sym_expr lhs, rhs;
    MG_CHECK_INT(sym_expr_init_var(&lhs, v, 1), 0);
    sym_expr_init_const(&rhs, k);
    path_log_branch *b = &log->branches[log->nbranches++];
    b->branch_id = id;
    b->taken = (uint8_t)taken;
    MG_CHECK_INT(
        sym_expr_pred_make(&b->pred, &lhs, taken ? op : sym_expr_op_negate(op), &rhs, 0, 0), 0);
    sym_expr_free(&lhs);
}

/* The focus's path log of one run, and the arms every rank covered into cov. */
static void run_program(const program_run *r, path_log *log, coverage_set *cov)
{
    memset(log, 0, sizeof *log);
    log->header = (path_log_header){PATH_LOG_HEAVY, 1, 1, r->focus, r->np, PATH_LOG_VERSION};
    log->vars = calloc(5, sizeof *log->vars);
    log->branches = calloc(6 + (size_t)loop_trips, sizeof *log->branches);
    MG_CHECK(log->vars && log->branches);
    log->vars[0] = var(0, SYM_VAR_INT, r->x);
    log->vars[1] = var(1, SYM_VAR_INT, r->y);
    log->vars[2] = var(2, SYM_VAR_RANK_WORLD, r->focus);
    log->vars[3] = var(3, SYM_VAR_SIZE_WORLD, r->np);
    log->vars[4] = var(4, SYM_VAR_INT, r->z);
    log->nvars = reread ? 5 : 4;
    if (checked)
        branch(log, 5, 0, SYM_EXPR_LE, 10, r->x <= 10);
    branch(log, 0, 0, SYM_EXPR_GT, 10, r->x > 10);
    for (int i = 0; r->x > 10 && i < loop_trips; i++)
        branch(log, 3, 1, SYM_EXPR_GT, i, r->y > i);
    if (r->x > 10)
        branch(log, 1, 1, SYM_EXPR_EQ, 7, r->y == 7);
    if (reread) {
        branch(log, 0, 4, SYM_EXPR_GT, 10, r->z > 10);
        if (r->z > 10)
            branch(log, 4, 4, SYM_EXPR_EQ, 20, r->z == 20);
    }
    branch(log, 2, 2, SYM_EXPR_EQ, 2, r->focus == 2);
    for (uint32_t rank = 0; rank < r->np; rank++) {
        uint32_t arms[5] = {coverage_arm(0, r->x > 10), coverage_arm(2, rank == 2),
                            coverage_arm(1, r->y == 7), coverage_arm(3, 0), coverage_arm(3, 1)};
        size_t n = r->x <= 10 ? 2 : loop_trips == 0 ? 3 : 5;
        /* the loop's arms: false when y <= 0 ends it at once, both otherwise */
        if (n == 5 && r->y <= 0)
            n = 4;
        if (n == 5 && r->y >= loop_trips)
            arms[3] = arms[4], n = 4;
        MG_CHECK_INT(coverage_set_add(cov, arms, n), 0);
        uint32_t again[2] = {coverage_arm(0, r->z > 10), coverage_arm(4, r->z == 20)};
        if (reread)
            MG_CHECK_INT(coverage_set_add(cov, again, r->z > 10 ? 2 : 1), 0);
        uint32_t check[2] = {coverage_arm(5, 0), coverage_arm(5, 1)};
        if (checked)
            MG_CHECK_INT(coverage_set_add(cov, check, 2), 0);
    }
}

/* A simulated campaign: the session, the rng of its choices, the coverage so far. */
typedef struct campaign {
    search_session s;
    mg_rng rng;
    coverage_set cov;
} campaign;

static void campaign_start(campaign *c, int kind, int fixed, int solving, uint32_t stall,
                           int64_t max_np, uint64_t seed)
{
    search_session_params p;
    search_session_params_default(&p);
    p.stall_runs = stall;
    p.search.kind = kind;
    p.sem.max_np = max_np;
    p.fixed = fixed;
    p.solving = solving;
    p.tune = tuning;
    MG_CHECK_INT(search_session_start(&c->s, &p), 0);
    mg_rng_seed(&c->rng, seed);
    coverage_set_init(&c->cov);
}

static void campaign_end(campaign *c)
{
    coverage_set_free(&c->cov);
    search_session_end(&c->s);
}

/* One iteration as the driver does it: run, observe, ask for the next run. Returns its kind. */
static int step(campaign *c, program_run *r)
{
    path_log log;
    size_t before = c->cov.n;
    run_program(r, &log, &c->cov);
    MG_CHECK_INT(search_session_observe(&c->s, &log, c->cov.n > before, rejecting), 0);
    MG_CHECK_INT(log.nbranches, 0); /* moved into the session */
    size_t n = reread ? 3 : 2;
    int64_t in[3] = {r->x, r->y, r->z};
    search_session_run last = {in, n, r->np, r->focus}, next;
    search_cfg cfg = {NULL, 0};
    int kind = -1;
    MG_CHECK_INT(
        search_session_next(&c->s, &last, &c->cov, &cfg, &c->rng, NULL, NULL, &kind, &next), 0);
    MG_CHECK_INT(next.ninputs, n);
    *r = (program_run){next.inputs[0], next.inputs[1], next.np, next.focus,
                       reread ? next.inputs[2] : 0};
    search_session_run_free(&next);
    return kind;
}

/* DFS from x = y = 0 on two processes: solving reaches every arm, rank 2 on three or more
 * processes, and x > 10 with y == 7 from the inputs the solver chose. */
static void test_reaches_every_arm(void)
{
    campaign c;
    campaign_start(&c, SEARCH_DFS, 0, 1, 0, MAX_NP, 1);
    program_run r = {0, 0, 2, 0, 0};
    int rank2 = 0, y7 = 0, solved = 0;
    for (int i = 0; i < 8 && c.cov.n < 6; i++) {
        solved += step(&c, &r) == SEARCH_SESSION_NEXT_SOLVED;
        MG_CHECK(r.np >= 1 && r.np <= MAX_NP && r.focus < r.np);
        rank2 |= r.focus == 2 && r.np >= 3;
        y7 |= r.x > 10 && r.y == 7;
    }
    MG_CHECK_INT(c.cov.n, 6);
    MG_CHECK(rank2);
    MG_CHECK(y7);
    MG_CHECK(solved >= 3);
    MG_CHECK_INT(c.s.sat, (uint64_t)solved);
    MG_CHECK(c.s.solves >= c.s.sat);
    campaign_end(&c);
}

/* --fixed: a solution naming rank 2 keeps the process count and focus of the last run. */
static void test_fixed_keeps_np_and_focus(void)
{
    campaign c;
    campaign_start(&c, SEARCH_DFS, 1, 1, 0, MAX_NP, 2);
    program_run r = {0, 0, 2, 1, 0};
    for (int i = 0; i < 6; i++) {
        step(&c, &r);
        MG_CHECK_INT(r.np, 2);
        MG_CHECK_INT(r.focus, 1);
    }
    campaign_end(&c);
}

/* An exhausted tree, and random testing, restart: inputs in [-100, 100], np in [1, max]. */
static void test_restarts(void)
{
    for (int solving = 0; solving <= 1; solving++) {
        campaign c;
        campaign_start(&c, SEARCH_DFS, 0, solving, 0, MAX_NP, 3);
        program_run r = {0, 0, 1, 0, 0};
        int restarts = 0;
        for (int i = 0; i < 20; i++) {
            int kind = step(&c, &r);
            restarts += kind == SEARCH_SESSION_NEXT_RESTART;
            MG_CHECK(kind != SEARCH_SESSION_NEXT_STOPPED);
            if (kind == SEARCH_SESSION_NEXT_RESTART) {
                MG_CHECK(r.x >= -100 && r.x <= 100 && r.y >= -100 && r.y <= 100);
                MG_CHECK(r.np >= 1 && r.np <= MAX_NP && r.focus < r.np);
            }
        }
        MG_CHECK(solving ? restarts >= 1 : restarts == 20);
        MG_CHECK_INT(c.s.restarts, (uint64_t)restarts);
        if (!solving)
            MG_CHECK_INT(c.s.solves, 0);
        campaign_end(&c);
    }
}

static int always(void *arg)
{
    (void)arg;
    return 1;
}

/* A stop before any solve chooses nothing: the driver repeats the last run on resume. */
static void test_stop(void)
{
    campaign c;
    campaign_start(&c, SEARCH_BOUNDED_DFS, 0, 1, 0, MAX_NP, 4);
    path_log log;
    program_run r = {0, 0, 2, 0, 0};
    run_program(&r, &log, &c.cov);
    MG_CHECK_INT(search_session_observe(&c.s, &log, 1, 0), 0);
    int64_t in[2] = {0, 0};
    search_session_run last = {in, 2, 2, 0}, next;
    int kind = -1;
    MG_CHECK_INT(search_session_next(&c.s, &last, &c.cov, NULL, &c.rng, always, NULL, &kind, &next),
                 0);
    MG_CHECK_INT(kind, SEARCH_SESSION_NEXT_STOPPED);
    MG_CHECK_INT(c.s.solves, 0);
    MG_CHECK(next.inputs == NULL);
    MG_CHECK_INT(search_session_next(&c.s, NULL, &c.cov, NULL, &c.rng, NULL, NULL, &kind, &next),
                 MG_ERROR_EINVAL);
    campaign_end(&c);
}

/* A restored strategy must be of the session's kind and no deeper than its stack of logs. */
static void test_restore_checks(void)
{
    campaign c;
    campaign_start(&c, SEARCH_DFS, 0, 1, 0, MAX_NP, 7);
    search_params p;
    search_params_default(&p);
    search_state *other;
    MG_CHECK_INT(search_create(&p, &other), 0); /* bounded DFS */
    MG_CHECK_INT(search_session_restore(&c.s, other), MG_ERROR_EFORMAT);
    search_destroy(other);
    p.kind = SEARCH_DFS;
    search_state *deeper;
    MG_CHECK_INT(search_create(&p, &deeper), 0);
    search_step st = {0, 1};
    MG_CHECK_INT(search_observe(deeper, &st, 1), 0);
    MG_CHECK_INT(search_session_restore(&c.s, deeper), MG_ERROR_EFORMAT);
    search_destroy(deeper);
    search_session_params bad;
    search_session_params_default(&bad);
    bad.sem.max_np = 0;
    search_session t;
    MG_CHECK_INT(search_session_start(&t, &bad), MG_ERROR_EINVAL);
    search_session_end(&t);
    campaign_end(&c);
}

/* Rank 2's arm waits below a loop's deep subtree for plain DFS; after 3 runs that covered
 * nothing new, the search leaves for it (the bottom path's constraint rank == 2). */
static void test_stall_leaves_the_subtree(void)
{
    loop_trips = 30;
    int first_rank2[2] = {0, 0};
    for (int stall = 0; stall <= 1; stall++) {
        campaign c;
        campaign_start(&c, SEARCH_DFS, 0, 1, stall ? 3 : 0, MAX_NP, 5);
        program_run r = {0, 0, 2, 0, 0};
        for (int i = 1; i <= 30 && !first_rank2[stall]; i++) {
            MG_CHECK_INT(step(&c, &r), SEARCH_SESSION_NEXT_SOLVED);
            if (r.focus == 2)
                first_rank2[stall] = i;
        }
        MG_CHECK_INT(c.s.leaves, stall);
        campaign_end(&c);
    }
    MG_CHECK_INT(first_rank2[0], 0);
    MG_CHECK(first_rank2[1] > 0 && first_rank2[1] <= 10);
    loop_trips = 0;
}

/* With at most two processes rank 2 cannot be reached, and y == 7 cannot be reached from the
 * loop's paths so far (each holds y below 7): nothing to leave for, so the stall moves: the
 * loop's next solution runs on two processes instead of one. */
static void test_stall_moves_np(void)
{
    loop_trips = 30;
    campaign c;
    campaign_start(&c, SEARCH_DFS, 0, 1, 3, 2, 6);
    program_run r = {0, 0, 1, 0, 0};
    int moved = 0;
    for (int i = 0; i < 30 && !moved; i++) {
        program_run before = r;
        int kind = step(&c, &r);
        MG_CHECK(kind == SEARCH_SESSION_NEXT_SOLVED || kind == SEARCH_SESSION_NEXT_MOVED);
        if (kind == SEARCH_SESSION_NEXT_MOVED) {
            moved = 1;
            MG_CHECK_INT(before.np, 1);
            MG_CHECK_INT(r.np, 2);
            MG_CHECK(r.x > 10); /* the loop's subtree goes on */
        }
    }
    MG_CHECK(moved);
    MG_CHECK_INT(c.s.leaves, 0);
    MG_CHECK_INT(c.s.moves, 1);
    campaign_end(&c);
    loop_trips = 0;
}

/* With reread, z > 10 (after the loop, as hpcc reads HPL's input file a second time after its
 * own set-up) is b0's arm that x > 10 covered, and behind it lies b4. A stalled search leaves
 * for it, since no run varied z: b4 within 12 runs; with only uncovered arms to leave for, the
 * loop's subtree holds the search past 30. */
static void test_stall_leaves_for_unvaried_input(void)
{
    loop_trips = 30;
    reread = 1;
    tuning = 1;
    campaign c;
    campaign_start(&c, SEARCH_DFS, 0, 1, 3, 2, 5);
    program_run r = {0, 0, 1, 0, 0};
    int reached = 0;
    for (int i = 1; i <= 30 && !reached; i++) {
        step(&c, &r);
        if (r.z > 10)
            reached = i;
    }
    MG_CHECK(reached > 0 && reached <= 12);
    MG_CHECK(c.s.leaves >= 1);
    campaign_end(&c);
    tuning = 0;
    reread = 0;
    loop_trips = 0;
}

/* Tuned: the first run's uncovered arm x > 10 is unsatisfiable on its path, whose check x <= 10
 * came first; the next run leaves the path at the check, rather than go to rank 2's arm. */
static void test_uncovered_past_its_check(void)
{
    checked = 1;
    tuning = 1;
    campaign c;
    campaign_start(&c, SEARCH_UNCOVERED_DFS, 0, 1, 0, MAX_NP, 1);
    program_run r = {0, 0, 2, 0, 0};
    MG_CHECK_INT(step(&c, &r), SEARCH_SESSION_NEXT_SOLVED);
    MG_CHECK_INT(r.x, 11);
    MG_CHECK_INT(r.np, 2);
    campaign_end(&c);
    tuning = 0;
    checked = 0;
}

static int same_program_run(const program_run *a, const program_run *b)
{
    return a->x == b->x && a->y == b->y && a->np == b->np && a->focus == b->focus;
}

/* --fixed keeps np and focus, so a solution of rank == 2 is the last run again. Tuned, it is
 * not run (counted in repeats): the search takes its next choice and no run is made twice.
 * Capped (COMPI's search), the repeat runs. */
static void test_repeat_not_run(void)
{
    int twice[2] = {0, 0};
    for (tuning = 0; tuning <= 1; tuning++) {
        campaign c;
        campaign_start(&c, SEARCH_DFS, 1, 1, 0, MAX_NP, 10);
        program_run runs[6] = {{0, 0, 3, 0, 0}};
        for (int i = 1; i < 6; i++) {
            runs[i] = runs[i - 1];
            step(&c, &runs[i]);
            for (int j = 0; j < i; j++)
                twice[tuning] += same_program_run(&runs[i], &runs[j]);
        }
        MG_CHECK(tuning ? c.s.repeats >= 2 : c.s.repeats == 0);
        campaign_end(&c);
    }
    MG_CHECK(twice[0] >= 1);
    MG_CHECK_INT(twice[1], 0);
    tuning = 0;
}

/* Tuned, the solution of x <= 10 from x = 11 is x = 0. When that run was already made (a
 * resumed campaign's, or one the search came back to), the same negation is tuned again past
 * it: x = 1, the rest of the run unchanged, counted in retunes, not skipped for the strategy's
 * next choice (counted in repeats: without the re-tuning, retunes 0 and repeats 1). */
static void test_repeat_retuned(void)
{
    tuning = 1;
    program_run first = {11, 0, 3, 0, 0}, made = first, r = first;
    campaign c;
    campaign_start(&c, SEARCH_DFS, 0, 1, 0, MAX_NP, 3);
    step(&c, &made);
    MG_CHECK_INT(made.x, 0);
    campaign_end(&c);
    campaign_start(&c, SEARCH_DFS, 0, 1, 0, MAX_NP, 3);
    int64_t in[2] = {made.x, made.y};
    search_session_run ran = {in, 2, made.np, made.focus};
    MG_CHECK_INT(search_session_remember_run(&c.s, &ran), 0);
    MG_CHECK_INT(step(&c, &r), SEARCH_SESSION_NEXT_SOLVED);
    MG_CHECK_INT(r.x, 1);
    MG_CHECK(r.y == made.y && r.np == made.np && r.focus == made.focus);
    MG_CHECK_INT(c.s.retunes, 1);
    MG_CHECK_INT(c.s.repeats, 0);
    campaign_end(&c);
    tuning = 0;
}

/* On three processes, focus 0, rank 2 takes its arm of rank == 2 in every run: the solution of
 * rank == 2 keeps the run's inputs and moves the focus to rank 2 (the move mpiguard demo needs
 * to reach rank 1's crash). A new run, tuned or not, never a repeat. */
static void test_focus_move_is_run(void)
{
    for (tuning = 0; tuning <= 1; tuning++) {
        campaign c;
        campaign_start(&c, SEARCH_DFS, 0, 1, 0, MAX_NP, 8);
        program_run r = {0, 0, 3, 0, 0};
        int moved = 0;
        for (int i = 0; i < 4 && !moved; i++) {
            program_run before = r;
            step(&c, &r);
            moved = before.focus != 2 && r.focus == 2 && r.x == before.x && r.y == before.y;
        }
        MG_CHECK(moved);
        MG_CHECK_INT(c.s.repeats, 0);
        campaign_end(&c);
    }
    tuning = 0;
}

/* The focus move of test_focus_move_is_run after rejected runs, from np 3 (rank 2's arm of
 * rank == 2 covered: every rank refused the inputs, rank 2 too) and from np 2 (no rank 2 yet).
 * Tuned, the covered arm's move is not run (counted in repeats) and the uncovered one's is;
 * capped, both run. */
static void test_rejected_move(void)
{
    for (tuning = 0; tuning <= 1; tuning++) {
        for (uint32_t np = 2; np <= 3; np++) {
            campaign c;
            campaign_start(&c, SEARCH_DFS, 0, 1, 0, MAX_NP, 8);
            rejecting = 1;
            program_run r = {0, 0, np, 0, 0};
            int moved = 0;
            for (int i = 0; i < 4 && !moved; i++) {
                program_run before = r;
                step(&c, &r);
                moved = r.focus == 2 && r.x == before.x && r.y == before.y;
            }
            MG_CHECK_INT(moved, !tuning || np == 2);
            MG_CHECK(tuning && np == 3 ? c.s.repeats >= 1 : c.s.repeats == 0);
            rejecting = 0;
            campaign_end(&c);
        }
    }
    tuning = 0;
}

/* The session's state as search_session_text writes it (a NUL-terminated string, the caller's). */
static char *save_text(const campaign *c)
{
    text_codec_buf t = {0};
    char *text = NULL;
    size_t len;
    search_session_text_write(&c->s, &c->rng, &t);
    MG_CHECK_INT(text_codec_buf_finish(&t, &text, &len), 0);
    return text;
}

/* --resume's text (search_session_text.h): a tuned campaign saved after three runs and read
 * back into a fresh session (another seed) writes the same text, the runs made included, and
 * then chooses the same runs; a text cut short is refused. */
static void test_text_round_trip(void)
{
    campaign a, b;
    loop_trips = 3;
    tuning = 1;
    campaign_start(&a, SEARCH_DFS, 0, 1, 2, MAX_NP, 5);
    coverage_set rank1;
    coverage_set_init(&rank1);
    uint32_t arm = coverage_arm(2, 0);
    MG_CHECK_INT(coverage_set_add(&rank1, &arm, 1), 0);
    MG_CHECK_INT(search_session_observe_rank(&a.s, 1, &rank1, 0), 0);
    coverage_set_free(&rank1);
    program_run ra = {11, 1, 2, 0, 0};
    for (int i = 0; i < 3; i++)
        step(&a, &ra);
    char *saved = save_text(&a);
    campaign_start(&b, SEARCH_DFS, 0, 1, 2, MAX_NP, 99);
    MG_CHECK_INT(coverage_set_add(&b.cov, a.cov.arms, a.cov.n), 0);
    text_codec_cursor cur = {saved, saved + strlen(saved), 0};
    MG_CHECK_INT(search_session_text_read(&b.s, &b.rng, 1, &cur), 0);
    char *again = save_text(&b);
    MG_CHECK_STR(again, saved);
    MG_CHECK_INT(b.s.nran, a.s.nran);
    MG_CHECK(strstr(saved, "\nran 3\n") != NULL);
    program_run rb = ra;
    for (int i = 0; i < 4; i++) {
        MG_CHECK_INT(step(&b, &rb), step(&a, &ra));
        MG_CHECK(ra.x == rb.x && ra.y == rb.y && ra.np == rb.np && ra.focus == rb.focus);
    }
    campaign_end(&b);
    campaign_start(&b, SEARCH_DFS, 0, 1, 2, MAX_NP, 99);
    text_codec_cursor cut = {saved, strstr(saved, "snapshot"), 0};
    MG_CHECK_INT(search_session_text_read(&b.s, &b.rng, 1, &cut), MG_ERROR_EFORMAT);
    free(again);
    free(saved);
    campaign_end(&b);
    campaign_end(&a);
    loop_trips = 0;
    tuning = 0;
}

int main(void)
{
    MG_RUN(test_reaches_every_arm);
    MG_RUN(test_fixed_keeps_np_and_focus);
    MG_RUN(test_restarts);
    MG_RUN(test_stop);
    MG_RUN(test_restore_checks);
    MG_RUN(test_stall_leaves_the_subtree);
    MG_RUN(test_stall_moves_np);
    MG_RUN(test_stall_leaves_for_unvaried_input);
    MG_RUN(test_uncovered_past_its_check);
    MG_RUN(test_repeat_not_run);
    MG_RUN(test_repeat_retuned);
    MG_RUN(test_focus_move_is_run);
    MG_RUN(test_rejected_move);
    MG_RUN(test_text_round_trip);
    MG_TEST_END();
}
