/* Search strategies: which constraint of which observed path to negate next
 * (docs/design/concolic-solver.md §7; spec: dissertation §2.2.2, docs/design/concolic.md "Search").
 * Pure decisions over branch sequences, coverage and a caller-seeded rng; no solving and no running
 * here. */
#ifndef SEARCH_H
#define SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "coverage_set.h"
#include "mg_rng.h"

enum search_kind {
    SEARCH_DFS = 0,        /* depth-first over the execution tree, unbounded */
    SEARCH_BOUNDED_DFS,    /* COMPI's two phases: DFS, then DFS bounded by the longest path seen */
    SEARCH_RANDOM_BRANCH,  /* a uniformly random untried constraint of the newest path */
    SEARCH_UNIFORM_RANDOM, /* a random walk down the tree: each constraint with probability 1/2 */
    SEARCH_CFG,            /* the constraint whose other arm is nearest to an uncovered arm,
                              below the last path that covered something new (CREST) */
    SEARCH_UNCOVERED_DFS,  /* bounded DFS that first negates, nearest the top of its stack, a
                              constraint whose other arm no run has covered (search_next) */
    SEARCH_KIND_END
};

typedef struct search_params {
    int kind;                /* enum search_kind */
    uint32_t dfs_phase_runs; /* bounded DFS: runs of plain DFS before the bound is fixed */
    uint32_t bound_round;    /* bounded DFS: the bound is the longest path seen rounded up to a
                               multiple of this, strictly above it */
    uint32_t fixed_bound;    /* bounded DFS: > 0 skips phase one and uses this bound */
    uint32_t cfg_depth;      /* CFG: levels of runs that reached nothing new searched below the
                                last path that did (CREST searches 3 deep); 0: none */
} search_params;

/* Defaults: bounded DFS, 50 phase-one runs (the dissertation used 50 for SUSY-HMC and 1000 for
 * HPL), bounds rounded to multiples of 100 (its bounds were 300, 500, 600), no fixed bound, CFG
 * depth 3. */
void search_params_default(search_params *p);

/* One symbolic branch of a path, in path order (index i is constraint i of the path log). */
typedef struct search_step {
    uint32_t branch_id;
    uint8_t taken;
} search_step;

/* Distance table for SEARCH_CFG, indexed by arm (coverage_arm()): how far that arm is from the
 * nearest uncovered arm (cfg_distance_to_uncovered(): control-flow edges); UINT32_MAX (or an
 * arm past n) means none is reachable, and such a negation is never chosen. Arms not yet covered
 * score 0 whatever it says. */
typedef struct search_cfg {
    const uint32_t *dist;
    size_t n;
} search_cfg;

/* What to do next. When exhausted is 0: negate constraint `index` of the path observed at stack
 * `level` (the paths of higher levels are finished and may be released by the caller). For the
 * random strategies level is always 0 (the newest path). exhausted = 1: DFS has explored
 * the whole (bounded) tree, or a random/CFG strategy has tried every useful constraint of the
 * newest path (the caller may restart from fresh random inputs). */
typedef struct search_choice {
    int exhausted;
    uint32_t level;
    uint32_t index;
} search_choice;

typedef struct search_state search_state;

/* MG_ERROR_EINVAL for an unknown kind or bound_round 0; MG_ERROR_ENOMEM. */
int search_create(const search_params *p, search_state **out);
void search_destroy(search_state *s);

/* Reports the path of the run that just finished (copied). After a choice it is the path that
 * choice produced (DFS continues below the negated constraint); otherwise (the first run, or a
 * run from fresh inputs) it restarts the search at this path. MG_ERROR_ENOMEM leaves the state as
 * it was; MG_ERROR_EINVAL for NULL with n > 0. */
int search_observe(search_state *s, const search_step *path, uint32_t n);

/* search_observe with what the run achieved. covered_new: 1 when the run covered a branch arm
 * no earlier run had. SEARCH_CFG (as CREST's CFG search) makes such a path the only one; a path
 * that reached nothing new is pushed above the one its choice was made on, to be searched from
 * after the negated constraint, up to cfg_depth levels, and dropped beyond (the path below then
 * gives its next candidate). The other strategies ignore covered_new. *level (may be NULL)
 * receives the stack level the path is kept at, or SEARCH_DISCARDED. The caller keeps its own
 * copy of each level's path (the logs it solves) in step with it. Errors as search_observe. */
#define SEARCH_DISCARDED UINT32_MAX
int search_observe_run(search_state *s, const search_step *path, uint32_t n, int covered_new,
                       uint32_t *level);

/* The next constraint to negate. Calling it again without search_observe means the previous
 * choice was skipped (unsatisfiable, timed out): the search goes on past it. cov may be NULL
 * except for SEARCH_CFG, which also needs cfg, and SEARCH_UNCOVERED_DFS (MG_ERROR_EINVAL
 * otherwise); rng is needed by the random strategies and SEARCH_CFG (ties). MG_ERROR_ESTATE before
 * the first search_observe. SEARCH_UNCOVERED_DFS takes, from the top level of its stack down and on
 * each level from its next constraint on (within the bound), the first constraint whose other arm
 * cov lacks; the levels above are given up and the constraints it passes on its level are not
 * tried (their other arms are covered). With no such constraint it chooses as bounded DFS. */
int search_next(search_state *s, const coverage_set *cov, const search_cfg *cfg, mg_rng *rng,
                search_choice *out);

/* DFS and bounded DFS: makes constraint `index` of the path at `level` the pending choice, as
 * if search_next had returned it; the levels above are given up (a driver that leaves a
 * subtree for a constraint below it). MG_ERROR_EINVAL for another kind, or a level or index past
 * the stack. */
int search_choose(search_state *s, uint32_t level, uint32_t index);

/* The levels of the stack: paths kept, each with constraints still to try. */
uint32_t search_depth(const search_state *s);

/* The depth bound in force: 0 while unbounded (DFS, bounded DFS in phase one). */
uint32_t search_bound(const search_state *s);

#endif
