/* The search of a campaign: strategy, path logs, solving, next run (search_session.h). */
#include "search_session.h"

#include <stdlib.h>
#include <string.h>

#include "focus_select.h"
#include "mg_error.h"
#include "search_snapshot.h"
#include "solver_query.h"

/* Bounds the solves of one choice: a strategy that keeps offering unsatisfiable negations ends
 * in a restart rather than looping. */
#define SEARCH_SESSION_MAX_TRIES 100000
/* Bounds the re-tunings of one solution past runs already made (try_choice): each costs a
 * tuning, and a negation whose next smallest values were all run is better left for the
 * strategy's next choice. */
#define SEARCH_SESSION_MAX_RETUNES 8

void search_session_params_default(search_session_params *p)
{
    memset(p, 0, sizeof *p);
    search_params_default(&p->search);
    solver_z3_params_default(&p->z3);
    mpi_semantics_params_default(&p->sem);
    p->solving = 1;
    p->stall_runs = SEARCH_SESSION_DEFAULT_STALL_RUNS;
}

int search_session_start(search_session *s, const search_session_params *p)
{
    memset(s, 0, sizeof *s);
    coverage_set_init(&s->leave_tried);
    if (!p || p->sem.max_np < 1 || p->sem.max_np > UINT32_MAX)
        return MG_ERROR_EINVAL;
    s->p = *p;
    int rc = search_create(&p->search, &s->strategy);
    if (!rc)
        rc = solver_z3_create(&p->z3, &s->z3);
    if (rc)
        search_session_end(s);
    return rc;
}

static void pop_logs(search_session *s, size_t depth)
{
    while (s->nstack > depth)
        path_log_free(&s->stack[--s->nstack]);
}

void search_session_end(search_session *s)
{
    pop_logs(s, 0);
    free(s->stack);
    for (size_t i = 0; i < s->nran; i++)
        search_session_run_free(&s->ran[i]);
    free(s->ran);
    free(s->refused);
    focus_frontier_free(&s->frontier);
    coverage_set_free(&s->leave_tried);
    search_destroy(s->strategy);
    solver_z3_destroy(s->z3);
    memset(s, 0, sizeof *s);
}

int search_session_restore(search_session *s, search_state *strategy)
{
    if (search_snapshot_kind_of(strategy) != s->p.search.kind || search_depth(strategy) > s->nstack)
        return MG_ERROR_EFORMAT;
    search_destroy(s->strategy);
    s->strategy = strategy;
    return 0;
}

int search_session_observe_rank(search_session *s, uint32_t rank, const coverage_set *arms,
                                int was_focus)
{
    if (s->aiming && coverage_set_contains(arms, s->aim))
        s->aim_reached = 1;
    return focus_frontier_observe(&s->frontier, rank, arms, was_focus);
}

/* Stores the new path's log at the level the strategy keeps it at, releasing those above. The
 * strategy counts its levels from the same observations, so a level past the stack cannot
 * happen; it is refused rather than gone on from. */
static int keep_log(search_session *s, path_log *log, uint32_t level)
{
    if (level == SEARCH_DISCARDED)
        return 0;
    pop_logs(s, level);
    if (s->nstack < level)
        return MG_ERROR_ESTATE;
    path_log *grown = realloc(s->stack, (s->nstack + 1) * sizeof *grown);
    if (!grown)
        return MG_ERROR_ENOMEM;
    s->stack = grown;
    s->stack[s->nstack++] = *log;
    memset(log, 0, sizeof *log);
    return 0;
}

int search_session_observe(search_session *s, path_log *log, int covered_new, int rejected)
{
    if (!s || !log)
        return MG_ERROR_EINVAL;
    s->last_rejected = rejected;
    s->float_missed += s->aiming && !s->aim_reached;
    s->aiming = 0;
    search_step *steps = calloc((size_t)log->nbranches + 1, sizeof *steps);
    int rc = steps ? 0 : MG_ERROR_ENOMEM;
    for (uint32_t i = 0; steps && i < log->nbranches; i++)
        steps[i] = (search_step){log->branches[i].branch_id, log->branches[i].taken};
    if (covered_new) {
        s->stalled = 0;
        coverage_set_free(&s->leave_tried);
    } else {
        s->stalled++;
    }
    uint32_t level = SEARCH_DISCARDED;
    if (!rc)
        rc = search_observe_run(s->strategy, steps, log->nbranches, covered_new, &level);
    free(steps);
    if (!rc)
        rc = keep_log(s, log, level);
    path_log_free(log);
    return rc;
}

void search_session_run_free(search_session_run *r)
{
    free(r->inputs);
    memset(r, 0, sizeof *r);
}

/* 1 when input i (the i-th non-MPI variable) is a float in the newest kept path. */
static int input_is_float(const search_session *s, size_t i)
{
    const path_log *kept = s->nstack ? &s->stack[s->nstack - 1] : NULL;
    for (uint32_t v = 0; kept && v < kept->nvars; v++)
        if (!sym_var_is_mpi(kept->vars[v].kind) && i-- == 0)
            return sym_var_is_float(kept->vars[v].kind);
    return 0;
}

int search_session_restart(search_session *s, const search_session_run *last, size_t n, mg_rng *rng,
                           search_session_run *next)
{
    memset(next, 0, sizeof *next);
    if (n < s->p.restart_inputs)
        n = s->p.restart_inputs;
    next->inputs = calloc(n + 1, sizeof *next->inputs);
    if (!next->inputs)
        return MG_ERROR_ENOMEM;
    next->ninputs = n;
    for (size_t i = 0; i < n; i++)
        next->inputs[i] = input_is_float(s, i)
                              ? sym_var_real_bits(((double)mg_rng_below(rng, 20001) - 10000) / 100)
                              : (int64_t)mg_rng_below(rng, 201) - 100;
    next->np = last->np;
    next->focus = last->focus;
    if (!s->p.fixed) {
        next->np = 1 + (uint32_t)mg_rng_below(rng, (uint64_t)s->p.sem.max_np);
        next->focus = (uint32_t)mg_rng_below(rng, next->np);
    }
    s->restarts++;
    return 0;
}

/* The next run from solved values: the i-th non-MPI variable is input i, the inputs past them
 * stay last's. */
static int take_values(const search_session *s, const path_log *log, const int64_t *values,
                       const search_session_run *last, focus_select_setup chosen,
                       search_session_run *next)
{
    size_t n = 0;
    for (uint32_t v = 0; v < log->nvars; v++)
        n += !sym_var_is_mpi(log->vars[v].kind);
    size_t total = n > last->ninputs ? n : last->ninputs;
    memset(next, 0, sizeof *next);
    next->inputs = calloc(total + 1, sizeof *next->inputs);
    if (!next->inputs)
        return MG_ERROR_ENOMEM;
    if (last->ninputs)
        memcpy(next->inputs, last->inputs, last->ninputs * sizeof *next->inputs);
    size_t k = 0;
    for (uint32_t v = 0; v < log->nvars; v++)
        if (!sym_var_is_mpi(log->vars[v].kind))
            next->inputs[k++] = values[v];
    next->ninputs = total;
    next->np = s->p.fixed ? last->np : chosen.np;
    next->focus = s->p.fixed ? last->focus : chosen.focus;
    return 0;
}

static int same_inputs(const search_session_run *a, const search_session_run *b)
{
    return a->ninputs == b->ninputs &&
           !memcmp(a->inputs, b->inputs, a->ninputs * sizeof *a->inputs);
}

static int same_run(const search_session_run *a, const search_session_run *b)
{
    return a->np == b->np && a->focus == b->focus && same_inputs(a, b);
}

/* 1 + the index of r among the runs made, 0 when it is not one. */
static size_t find_run(const search_session *s, const search_session_run *r)
{
    for (size_t i = s->nran; i-- > 0;)
        if (same_run(&s->ran[i], r))
            return i + 1;
    return 0;
}

static int has_run(const search_session *s, const search_session_run *r)
{
    return find_run(s, r) != 0;
}

int search_session_remember_run(search_session *s, const search_session_run *r)
{
    if (has_run(s, r))
        return 0;
    uint8_t *refused = realloc(s->refused, s->nran + 1);
    if (!refused)
        return MG_ERROR_ENOMEM;
    s->refused = refused;
    s->refused[s->nran] = 0;
    search_session_run *grown = realloc(s->ran, (s->nran + 1) * sizeof *grown);
    if (!grown)
        return MG_ERROR_ENOMEM;
    s->ran = grown;
    search_session_run *copy = &s->ran[s->nran];
    *copy = *r;
    copy->inputs = malloc((r->ninputs + 1) * sizeof *copy->inputs);
    if (!copy->inputs)
        return MG_ERROR_ENOMEM;
    if (r->ninputs)
        memcpy(copy->inputs, r->inputs, r->ninputs * sizeof *copy->inputs);
    s->nran++;
    return 0;
}

/* 1 when a tuned solution would run again a run already made, or after a rejection keep the
 * refused inputs for a covered arm (try_choice). */
static int repeats_run(const search_session *s, const search_session_run *last,
                       const coverage_set *cov, const path_log_branch *b,
                       const search_session_run *next)
{
    return has_run(s, next) || (s->last_rejected && same_inputs(last, next) &&
                                coverage_set_contains(cov, coverage_arm(b->branch_id, !b->taken)));
}

/* 1 when values leave every input of log's own run as it was and the run's np and focus are
 * kept: the run's own values satisfy the negation. */
static int keeps_path_run(const path_log *log, const int64_t *values,
                          const search_session_run *next)
{
    for (uint32_t v = 0; v < log->nvars; v++)
        if (!sym_var_is_mpi(log->vars[v].kind) && values[v] != log->vars[v].value)
            return 0;
    return next->np == log->header.world_size && next->focus == log->header.rank;
}

/* Solves the negation of constraint ch->index of level ch->level. 1 with *next set when it gives
 * a run within the process limit, 0 when not, or an error (< 0). move: a solution that names
 * neither the process count nor a rank runs on the next process count (np + 1, after max_np 1);
 * *moved says whether it did. */
static int try_choice(search_session *s, const search_choice *ch, const search_session_run *last,
                      const coverage_set *cov, int stopped, int move, int *moved,
                      search_session_run *next)
{
    const path_log *log = &s->stack[ch->level];
    const path_log_branch *b = &log->branches[ch->index];
    size_t stride = (size_t)log->nvars + 1;
    int64_t *values = calloc((SEARCH_SESSION_MAX_RETUNES + 1) * stride, sizeof *values);
    const int64_t *avoid[SEARCH_SESSION_MAX_RETUNES];
    if (!values)
        return MG_ERROR_ENOMEM;
    int rc = 0, found = 0, repeated = 0, cause = SEARCH_SESSION_REPEAT_EXHAUSTED, unchanged = 0;
    size_t retuned = 0;
    for (size_t navoid = 0; !found && rc == 0; navoid++) {
        int64_t *v = values + navoid * stride;
        if (navoid)
            memcpy(v, avoid[navoid - 1], stride * sizeof *v);
        int sat = 0;
        uint32_t tuning_checks = 0;
        rc = s->p.tune ? solver_query_solve_tuned(s->z3, log, ch->index, &s->p.sem, avoid, navoid,
                                                  &sat, v, &tuning_checks)
                       : solver_query_solve(s->z3, log, ch->index, &s->p.sem, &sat, v);
        /* An uncovered arm that an earlier constraint of the path already decided (a program
         * that checks an input, then dispatches on it: HPL's L1 and U forms): reached by leaving
         * the path there, at a constraint whose own other arm may be covered, so that no
         * choice of uncovered-dfs aims at it. Not in bounded DFS, which negates that constraint
         * in its turn: there it cost heat's H5 in 60 runs. Tuned: the solution is canonical
         * whatever the bisection's checks left in the solver. */
        uint32_t at = 0;
        if (rc == 0 && !sat && !navoid && s->p.tune && s->p.search.kind == SEARCH_UNCOVERED_DFS &&
            !coverage_set_contains(cov, coverage_arm(b->branch_id, !b->taken))) {
            rc = solver_query_solve_earlier(s->z3, log, ch->index, &s->p.sem, &sat, v, &at,
                                            &tuning_checks);
        }
        s->tuning_checks += tuning_checks;
        s->solves++;
        s->query_timeouts += rc == MG_ERROR_ETIMEOUT && !stopped;
        focus_select_setup prev = {log->header.world_size, log->header.rank}, chosen;
        int solved_rank = 0;
        if (rc || !sat ||
            focus_select(log->vars, log->nvars, log->comms, log->ncomms, &prev, v, &chosen,
                         &solved_rank) ||
            chosen.np > (uint64_t)s->p.sem.max_np)
            break;
        s->sat += !navoid;
        *moved = move && !solved_rank && chosen.np == prev.np;
        if (*moved)
            chosen.np = prev.np % (uint32_t)s->p.sem.max_np + 1;
        /* The solution names no rank: focus a rank that reaches the coverage frontier
         * (focus_frontier.h) rather than staying where the negated path was. */
        if (!solved_rank)
            chosen.focus = focus_frontier_pick(&s->frontier, cov, chosen.np, chosen.focus);
        rc = take_values(s, log, v, last, chosen, next);
        found = rc == 0;
        /* A run already made would only take its path again (the run is its inputs, np and
         * focus): the next smallest solution of the same negation (solver_tune.h), and with
         * none the strategy's next choice. Not past a run the program refused: the next values
         * of the negation that led to a refusal are refused alike (real_builds' n > 100 tuned
         * to 102, 103, ... on every way back to it). The same inputs at another np or focus are a
         * new run, the focus move that reaches another rank's branches, except after a rejection:
         * every rank refuses those inputs, so the move only reaches the rank-dependent arm of
         * the refusal (rank 0 prints why), worth a run while no run covered it. Tuned only:
         * COMPI's capped search stays as it was (its resumed campaigns make the same runs as
         * uninterrupted ones only while Z3 sees the same queries). */
        if (found && s->p.tune && repeats_run(s, last, cov, b, next)) {
            size_t made = find_run(s, next);
            int retune = navoid < SEARCH_SESSION_MAX_RETUNES && made && !s->refused[made - 1];
            unchanged |= !navoid && keeps_path_run(log, v, next);
            if (!made)
                cause = SEARCH_SESSION_REPEAT_REJECTED;
            else if (s->refused[made - 1])
                cause = SEARCH_SESSION_REPEAT_REFUSED;
            search_session_run_free(next);
            found = 0;
            repeated = 1;
            if (!retune)
                break;
            avoid[navoid] = v;
        }
        retuned = navoid;
    }
    if (repeated && !found) {
        s->repeats++;
        s->repeat_cause[cause]++;
        s->repeat_unchanged += (uint64_t)unchanged;
    }
    s->retunes += found && retuned;
    if (found && sym_expr_pred_is_float(&b->pred)) {
        s->aim = 2 * b->branch_id + !b->taken;
        s->aiming = 1;
        s->aim_reached = 0;
        s->float_solutions++;
    }
    free(values);
    return rc == MG_ERROR_ENOMEM ? rc : found;
}

static int is_dfs_kind(int kind)
{
    return kind == SEARCH_DFS || kind == SEARCH_BOUNDED_DFS || kind == SEARCH_UNCOVERED_DFS;
}

/* varied[i] = 1 when two runs made held different values of input i (a run without it holds
 * none); *n inputs. MG_ERROR_ENOMEM. */
static int varied_inputs(const search_session *s, uint8_t **varied, size_t *n)
{
    *n = 0;
    for (size_t r = 0; r < s->nran; r++)
        if (s->ran[r].ninputs > *n)
            *n = s->ran[r].ninputs;
    *varied = calloc(*n + 1, 1);
    if (!*varied)
        return MG_ERROR_ENOMEM;
    for (size_t i = 0; i < *n; i++) {
        const int64_t *held = NULL;
        for (size_t r = 0; r < s->nran && !(*varied)[i]; r++) {
            if (i >= s->ran[r].ninputs)
                continue;
            (*varied)[i] = held && *held != s->ran[r].inputs[i];
            held = &s->ran[r].inputs[i];
        }
    }
    return 0;
}

/* The input index of variable id in log (the i-th non-MPI variable), SIZE_MAX for an MPI one. */
static size_t input_of(const path_log *log, uint32_t id)
{
    size_t k = 0;
    for (uint32_t v = 0; v < log->nvars; v++) {
        int mpi = sym_var_is_mpi(log->vars[v].kind);
        if (log->vars[v].id == id)
            return mpi ? SIZE_MAX : k;
        k += !mpi;
    }
    return SIZE_MAX;
}

/* 1 + the first input of pred when it is over inputs and every run made held each of them at
 * one value, else 0 (and with no runs kept: untuned, the session keeps none). */
static size_t over_unvaried(const path_log *log, const sym_expr_pred *pred, const uint8_t *varied,
                            size_t n)
{
    size_t first = 0;
    if (!varied)
        return 0;
    const sym_expr *side[2] = {&pred->lhs, &pred->rhs};
    for (int k = 0; k < 2; k++)
        for (uint32_t t = 0; t < side[k]->nterms; t++) {
            size_t i = input_of(log, side[k]->terms[t].var);
            if (i != SIZE_MAX && i < n && varied[i])
                return 0;
            if (i != SIZE_MAX && !first)
                first = i + 1;
        }
    return first;
}

static int leave_for(search_session *s, const search_session_run *last, const coverage_set *cov,
                     const uint8_t *varied, size_t nvaried, search_session_stop_fn stop,
                     void *stop_arg, search_session_run *next)
{
    uint32_t depth = search_depth(s->strategy);
    for (uint32_t level = 0; level < depth && level < s->nstack; level++) {
        const path_log *log = &s->stack[level];
        for (uint32_t i = 0; i < log->nbranches; i++) {
            if (stop && stop(stop_arg))
                return 0;
            const path_log_branch *b = &log->branches[i];
            uint32_t arm = coverage_arm(b->branch_id, !b->taken), aim = arm;
            if (coverage_set_contains(cov, arm)) {
                size_t input = over_unvaried(log, &b->pred, varied, nvaried);
                if (!input)
                    continue;
                /* A covered arm through this input: an aim of its own, so that a leave for the
                 * first read's constraint does not stand for the second's (high bit: branch ids
                 * that large do not occur). */
                aim = UINT32_C(0x80000000) | ((arm * UINT32_C(2654435761)) ^ (uint32_t)input);
            }
            if (coverage_set_contains(&s->leave_tried, aim))
                continue;
            if (coverage_set_add(&s->leave_tried, &aim, 1))
                return MG_ERROR_ENOMEM;
            search_choice ch = {0, level, i};
            int moved = 0;
            int found = try_choice(s, &ch, last, cov, stop && stop(stop_arg), 0, &moved, next);
            if (found > 0 && search_choose(s->strategy, level, i)) {
                search_session_run_free(next);
                return MG_ERROR_ESTATE;
            }
            if (found)
                return found;
        }
    }
    return 0;
}

/* The leave of search_session_next: 1 with *next set, 0 when no constraint is left to leave
 * for, or an error (< 0). Besides a constraint whose other arm no run covered, tuned, one over
 * inputs no run varied: its other arm may be covered through other inputs at the same branch
 * (hpcc's two reads of HPL's input file: the first's, which hpcc keeps, covers the arms of the
 * second's, which HPL's driver runs with; issue 30), while what these inputs lead to is not. */
static int leave_subtree(search_session *s, const search_session_run *last, const coverage_set *cov,
                         search_session_stop_fn stop, void *stop_arg, search_session_run *next)
{
    uint8_t *varied = NULL;
    size_t nvaried = 0;
    if (s->p.tune && varied_inputs(s, &varied, &nvaried))
        return MG_ERROR_ENOMEM;
    int rc = leave_for(s, last, cov, varied, nvaried, stop, stop_arg, next);
    free(varied);
    return rc;
}

int search_session_next(search_session *s, const search_session_run *last, const coverage_set *cov,
                        const search_cfg *cfg, mg_rng *rng, search_session_stop_fn stop,
                        void *stop_arg, int *kind, search_session_run *next)
{
    if (!s || !last || !kind || !next)
        return MG_ERROR_EINVAL;
    memset(next, 0, sizeof *next);
    int rc = s->p.tune ? search_session_remember_run(s, last) : 0;
    if (rc)
        return rc;
    size_t made = s->p.tune ? find_run(s, last) : 0;
    if (made)
        s->refused[made - 1] |= (uint8_t)(s->last_rejected != 0);
    int move = 0;
    if (s->p.solving && is_dfs_kind(s->p.search.kind) && s->p.stall_runs &&
        s->stalled >= s->p.stall_runs) {
        s->stalled = 0;
        int found = leave_subtree(s, last, cov, stop, stop_arg, next);
        if (found < 0)
            return found;
        if (found) {
            s->leaves++;
            *kind = SEARCH_SESSION_NEXT_SOLVED;
            return 0;
        }
        move = !s->p.fixed;
    }
    for (int tries = 0; s->p.solving && tries < SEARCH_SESSION_MAX_TRIES; tries++) {
        if (stop && stop(stop_arg)) {
            *kind = SEARCH_SESSION_NEXT_STOPPED;
            return 0;
        }
        search_choice ch;
        if (search_next(s->strategy, cov, cfg, rng, &ch) || ch.exhausted || ch.level >= s->nstack)
            break;
        int moved = 0;
        int found = try_choice(s, &ch, last, cov, stop && stop(stop_arg), move, &moved, next);
        if (found < 0)
            return found;
        if (found) {
            s->moves += (uint64_t)moved;
            *kind = moved ? SEARCH_SESSION_NEXT_MOVED : SEARCH_SESSION_NEXT_SOLVED;
            return 0;
        }
    }
    *kind = SEARCH_SESSION_NEXT_RESTART;
    return search_session_restart(s, last, last->ninputs, rng, next);
}
