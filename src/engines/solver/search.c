/* DFS, COMPI's bounded DFS, random-branch, uniform-random, CFG-directed and uncovered-first
 * choice (docs/design/concolic-solver.md §7; dissertation §2.2.2). */
#include "search.h"

#include "search_internal.h"

#include <stdlib.h>
#include <string.h>

#include "mg_array.h"
#include "mg_error.h"

void search_params_default(search_params *p)
{
    p->kind = SEARCH_BOUNDED_DFS;
    p->dfs_phase_runs = 50;
    p->bound_round = 100;
    p->fixed_bound = 0;
    p->cfg_depth = 3;
}

int search_create(const search_params *p, search_state **out)
{
    if (!p || !out || p->kind < 0 || p->kind >= SEARCH_KIND_END || p->bound_round == 0)
        return MG_ERROR_EINVAL;
    search_state *s = calloc(1, sizeof *s);
    if (!s)
        return MG_ERROR_ENOMEM;
    s->p = *p;
    if (p->kind == SEARCH_BOUNDED_DFS || p->kind == SEARCH_UNCOVERED_DFS)
        s->bound = p->fixed_bound;
    *out = s;
    return 0;
}

static void free_level(search_internal_level *l)
{
    free(l->path);
    free(l->tried);
    memset(l, 0, sizeof *l);
}

static void pop_to(search_state *s, uint32_t depth)
{
    while (s->depth > depth)
        free_level(&s->levels[--s->depth]);
}

void search_destroy(search_state *s)
{
    if (!s)
        return;
    pop_to(s, 0);
    free(s->levels);
    free(s);
}

uint32_t search_depth(const search_state *s)
{
    return s->depth;
}

uint32_t search_bound(const search_state *s)
{
    return s->bound;
}

static int is_dfs(const search_state *s)
{
    return s->p.kind == SEARCH_DFS || s->p.kind == SEARCH_BOUNDED_DFS ||
           s->p.kind == SEARCH_UNCOVERED_DFS;
}

static int make_level(search_internal_level *l, const search_step *path, uint32_t n, uint32_t start)
{
    memset(l, 0, sizeof *l);
    size_t bytes = (size_t)(n ? n : 1);
    l->path = malloc(bytes * sizeof *l->path);
    l->tried = calloc(bytes, 1);
    if (!l->path || !l->tried) {
        free_level(l);
        return MG_ERROR_ENOMEM;
    }
    if (n)
        memcpy(l->path, path, (size_t)n * sizeof *path);
    l->n = n;
    l->next = start;
    return 0;
}

/* Phase one of bounded DFS watches the longest path; its end fixes the bound (§2.2.2). */
static void account_run(search_state *s, uint32_t n)
{
    s->runs++;
    if ((s->p.kind != SEARCH_BOUNDED_DFS && s->p.kind != SEARCH_UNCOVERED_DFS) || s->bound != 0)
        return;
    if (n > s->longest)
        s->longest = n;
    if (s->runs >= s->p.dfs_phase_runs)
        s->bound = (s->longest / s->p.bound_round + 1) * s->p.bound_round;
}

/* Loop reduction (§2.4.3) records a loop test only when its outcome flips, so a run that leaves
 * a loop later than its parent did records that exit where the parent's was, the same arm: the
 * negated test is folded away, and the constraint there is the new exit, which no run has
 * negated (a full path would have it one place further on, where a DFS child starts). 1 when
 * path, the child of the top of s's stack by its constraint i, is such a run. */
static int folds(const search_state *s, const search_step *path, uint32_t n, uint32_t i)
{
    const search_internal_level *parent = s->depth ? &s->levels[s->depth - 1] : NULL;
    return parent && i < n && i < parent->n && path[i].branch_id == parent->path[i].branch_id &&
           path[i].taken == parent->path[i].taken;
}

/* The DFS levels' tried flags, which only the random and CFG strategies use otherwise, mark a
 * folded exit (so a snapshot keeps it): held until a choice after it makes no run for an
 * uncovered arm, then wanted, then spent once negated; with that, how many negations of a folded
 * exit in a row made the level without covering anything new (fold_note). After
 * SEARCH_INTERNAL_FOLD_BARREN such lengthenings the exit is not held: a loop made longer trip by
 * trip for an arm that no trip count reaches (heat, 21 runs) has no end of its own under reduction,
 * while one that does reach its arm usually needs few (real_builds' `n == 7`: two from n = 5, the
 * first of them barren). */
enum { FOLD_HELD, FOLD_WANTED, FOLD_SPENT };

static uint8_t fold_note(uint32_t barren, int state)
{
    return (uint8_t)(1 + 3 * barren + (uint32_t)state);
}

static int fold_state(uint8_t note)
{
    return (note - 1) % 3;
}

static uint32_t fold_barren(uint8_t note)
{
    return (note - 1u) / 3;
}

/* The top level's folded exit, or UINT32_MAX. */
static uint32_t folded_exit(const search_state *s)
{
    const search_internal_level *top = s->depth ? &s->levels[s->depth - 1] : NULL;
    for (uint32_t i = 0; top && i < top->n; i++)
        if (top->tried[i])
            return i;
    return UINT32_MAX;
}

/* Notes, before the next choice, that the last one made no run (unsatisfiable, or skipped):
 * when it was after a folded exit and aimed at an arm no run has covered (the bug after
 * real_builds' loop, `n == 7` on the path of n = 5, whose exit says n <= 5), that exit is to
 * be negated once the level's other constraints are tried (next_dfs). */
static void note_no_run(search_state *s, const coverage_set *cov)
{
    uint32_t f = folded_exit(s);
    if (!s->pending || f == UINT32_MAX || s->pending_index <= f)
        return;
    search_internal_level *top = &s->levels[s->depth - 1];
    if (fold_state(top->tried[f]) == FOLD_SPENT)
        return;
    const search_step *aim = &top->path[s->pending_index];
    if (!cov || !coverage_set_contains(cov, coverage_arm(aim->branch_id, !aim->taken)))
        top->tried[f] = fold_note(fold_barren(top->tried[f]), FOLD_WANTED);
}

/* The note of the folded exit at i of a run that the pending choice made, or 0 when the exit is
 * not to be negated: the barren lengthenings before it, one more when the choice was the
 * parent's folded exit and the run covered nothing new. */
static uint8_t fold_of_child(const search_state *s, uint32_t i, int covered_new)
{
    uint32_t f = folded_exit(s), barren = 0;
    if (f == i && !covered_new)
        barren = fold_barren(s->levels[s->depth - 1].tried[f]) + 1;
    return barren < SEARCH_INTERNAL_FOLD_BARREN ? fold_note(barren, FOLD_HELD) : 0;
}

int search_observe_run(search_state *s, const search_step *path, uint32_t n, int covered_new,
                       uint32_t *level)
{
    if (!s || (!path && n))
        return MG_ERROR_EINVAL;
    uint32_t keep = 0, start = 0;
    if (s->pending && s->p.kind == SEARCH_CFG && !covered_new) {
        /* CREST's CFG search: a run that reached nothing new is searched below, a few levels
         * deep, from just after the negated constraint; past that it is dropped and the next
         * candidate of the path it came from is tried. One that did reach something new
         * becomes the only path. */
        if (s->depth > s->p.cfg_depth) {
            s->pending = 0;
            s->runs++;
            if (level)
                *level = SEARCH_DISCARDED;
            return 0;
        }
        keep = s->depth;
        start = s->pending_index + 1;
    } else if (s->pending && (is_dfs(s) || s->p.kind == SEARCH_UNIFORM_RANDOM)) {
        /* A DFS child goes above the chosen level; a random walk goes on after its choice. */
        keep = is_dfs(s) ? s->depth : 0;
        start = s->pending_index + 1;
    }
    int rc = mg_array_reserve((void **)&s->levels, &s->cap, (size_t)keep + 1, sizeof *s->levels);
    if (rc != 0)
        return rc;
    search_internal_level fresh;
    rc = make_level(&fresh, path, n, start);
    if (rc != 0)
        return rc;
    if (is_dfs(s) && s->pending && folds(s, path, n, s->pending_index))
        fresh.tried[s->pending_index] = fold_of_child(s, s->pending_index, covered_new);
    pop_to(s, keep);
    s->levels[s->depth++] = fresh;
    s->pending = 0;
    account_run(s, n);
    if (level)
        *level = keep;
    return 0;
}

int search_observe(search_state *s, const search_step *path, uint32_t n)
{
    return search_observe_run(s, path, n, 1, NULL);
}

/* A folded exit is negated last on its level, and only when a choice after it made no run for
 * an uncovered arm (note_no_run): tuned, each negation of an exit makes the loop one trip
 * longer, and a chain of them, which a full path's length bound would end, has no end of its own
 * under reduction; lengthening the loop only for an arm its exit kept out ends it. */
static int next_dfs(search_state *s, search_choice *out)
{
    while (s->depth > 0) {
        search_internal_level *top = &s->levels[s->depth - 1];
        uint32_t limit = s->bound && s->bound < top->n ? s->bound : top->n;
        uint32_t f = folded_exit(s);
        if (top->next >= limit && f != UINT32_MAX && fold_state(top->tried[f]) == FOLD_WANTED) {
            top->tried[f] = fold_note(fold_barren(top->tried[f]), FOLD_SPENT);
            out->level = s->depth - 1;
            out->index = f;
            return 0;
        }
        if (top->next < limit) {
            out->level = s->depth - 1;
            out->index = top->next++;
            return 0;
        }
        free_level(top);
        s->depth--;
    }
    out->exhausted = 1;
    return 0;
}

/* Plain DFS keeps to the top of its stack: on HPL (issue 30) the paths of its first valid runs
 * hold thousands of constraints of the factorisation's loops, all of whose other arms are
 * covered, and the variant switches that reach the functions no run has entered (broadcasts,
 * swaps) sit below them, negated only once those subtrees are done. Going first to a negation
 * for an uncovered arm gives up the covered-arm negations it passes: those lead to paths whose
 * arms are covered already, what the budget is least worth spending on. 1 when chosen. */
static int next_uncovered(search_state *s, const coverage_set *cov, search_choice *out)
{
    for (uint32_t d = s->depth; d-- > 0;) {
        search_internal_level *l = &s->levels[d];
        uint32_t limit = s->bound && s->bound < l->n ? s->bound : l->n;
        for (uint32_t i = l->next; i < limit; i++) {
            const search_step *st = &l->path[i];
            /* A folded exit (its tried note) is next_dfs's to negate, last. */
            if (l->tried[i] || coverage_set_contains(cov, coverage_arm(st->branch_id, !st->taken)))
                continue;
            pop_to(s, d + 1);
            l->next = i + 1;
            out->level = d;
            out->index = i;
            return 1;
        }
    }
    return 0;
}

static uint32_t untried(const search_internal_level *l)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < l->n; i++)
        k += !l->tried[i];
    return k;
}

static int next_random_branch(search_internal_level *l, mg_rng *rng, search_choice *out)
{
    uint32_t left = untried(l);
    if (left == 0) {
        out->exhausted = 1;
        return 0;
    }
    uint64_t pick = mg_rng_below(rng, left);
    uint32_t i = 0;
    while (l->tried[i] || pick-- != 0)
        i++;
    out->index = i;
    return 0;
}

/* A walk from `next`: each untried constraint is taken with probability 1/2; a walk that falls
 * off the end restarts at the front, and a whole fruitless pass takes the first untried one so
 * the choice always terminates. */
static int next_uniform(search_internal_level *l, mg_rng *rng, search_choice *out)
{
    uint32_t first = UINT32_MAX;
    for (uint32_t i = 0; i < l->n; i++)
        if (!l->tried[i] && first == UINT32_MAX)
            first = i;
    if (first == UINT32_MAX) {
        out->exhausted = 1;
        return 0;
    }
    for (uint32_t step = 0, i = l->next; step < l->n; step++, i = (i + 1) % l->n) {
        if (i >= l->n)
            i = 0;
        if (!l->tried[i] && (mg_rng_next(rng) & 1)) {
            out->index = i;
            return 0;
        }
    }
    out->index = first;
    return 0;
}

static uint32_t cfg_score(const search_step *st, const coverage_set *cov, const search_cfg *cfg)
{
    uint32_t arm = coverage_arm(st->branch_id, !st->taken);
    if (!coverage_set_contains(cov, arm))
        return 0;
    return arm < cfg->n ? cfg->dist[arm] : UINT32_MAX;
}

/* The untried constraint of l from l->next on with the smallest finite score; ties are broken
 * uniformly (reservoir). 0 when there is none. */
static int best_cfg(const search_internal_level *l, const coverage_set *cov, const search_cfg *cfg,
                    mg_rng *rng, uint32_t *index)
{
    uint32_t best = UINT32_MAX, ties = 0;
    for (uint32_t i = l->next; i < l->n; i++) {
        if (l->tried[i])
            continue;
        uint32_t sc = cfg_score(&l->path[i], cov, cfg);
        if (sc == UINT32_MAX || sc > best)
            continue;
        if (sc < best) {
            best = sc;
            ties = 0;
        }
        if (mg_rng_below(rng, ++ties) == 0)
            *index = i;
    }
    return best != UINT32_MAX;
}

/* The best candidate of the top level; a level without one is finished (the path it came from
 * has its next candidate tried), except the bottom one, which stays until a new path replaces
 * it: then the search is exhausted. */
static int next_cfg(search_state *s, const coverage_set *cov, const search_cfg *cfg, mg_rng *rng,
                    search_choice *out)
{
    while (s->depth > 0) {
        search_internal_level *top = &s->levels[s->depth - 1];
        if (best_cfg(top, cov, cfg, rng, &out->index)) {
            top->tried[out->index] = 1;
            out->level = s->depth - 1;
            return 0;
        }
        if (s->depth == 1)
            break;
        free_level(top);
        s->depth--;
    }
    out->exhausted = 1;
    return 0;
}

int search_choose(search_state *s, uint32_t level, uint32_t index)
{
    if (!s || !is_dfs(s) || level >= s->depth || index >= s->levels[level].n)
        return MG_ERROR_EINVAL;
    pop_to(s, level + 1);
    s->pending = 1;
    s->pending_index = index;
    return 0;
}

int search_next(search_state *s, const coverage_set *cov, const search_cfg *cfg, mg_rng *rng,
                search_choice *out)
{
    if (!s || !out)
        return MG_ERROR_EINVAL;
    if (!is_dfs(s) && !rng)
        return MG_ERROR_EINVAL;
    if (s->p.kind == SEARCH_CFG && (!cov || !cfg || (!cfg->dist && cfg->n)))
        return MG_ERROR_EINVAL;
    if (s->p.kind == SEARCH_UNCOVERED_DFS && !cov)
        return MG_ERROR_EINVAL;
    if (s->runs == 0)
        return MG_ERROR_ESTATE;
    memset(out, 0, sizeof *out);
    if (is_dfs(s))
        note_no_run(s, cov);
    s->pending = 0;
    int rc;
    if (s->p.kind == SEARCH_UNCOVERED_DFS && next_uncovered(s, cov, out)) {
        rc = 0;
    } else if (is_dfs(s)) {
        rc = next_dfs(s, out);
    } else if (s->p.kind == SEARCH_CFG) {
        rc = next_cfg(s, cov, cfg, rng, out);
    } else {
        search_internal_level *l = &s->levels[0];
        if (s->p.kind == SEARCH_RANDOM_BRANCH)
            rc = next_random_branch(l, rng, out);
        else
            rc = next_uniform(l, rng, out);
        if (rc == 0 && !out->exhausted)
            l->tried[out->index] = 1;
    }
    if (rc == 0 && !out->exhausted) {
        s->pending = 1;
        s->pending_index = out->index;
    }
    return rc;
}
