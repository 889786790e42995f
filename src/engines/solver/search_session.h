/* The search of a concolic campaign as one object (docs/design/concolic-solver.md §7.1): the
 * strategy's stack with the path log kept at each of its levels, the solver, the MPI semantics, the
 * frontier focus rule, and the choice of the next run's inputs, process count and focus. The
 * driver (src/concolic/concolic_loop.c) launches the runs, reads their logs and writes the files;
 * it hands each run's path here and asks for the next run. No I/O. */
#ifndef SEARCH_SESSION_H
#define SEARCH_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "coverage_set.h"
#include "focus_frontier.h"
#include "mg_rng.h"
#include "mpi_semantics.h"
#include "path_log.h"
#include "search.h"
#include "solver_z3.h"

typedef struct search_session_params {
    search_params search;
    solver_z3_params z3;
    mpi_semantics_params sem; /* sem.max_np also bounds the process count of every next run */
    int fixed;                /* 1: np and focus never change */
    int solving;         /* 0: nothing is solved, every next run is a restart (random testing) */
    uint32_t stall_runs; /* DFS kinds: runs without new coverage before the search moves
                            (search_session_next); 0: never */
    int tune;            /* 1: input tuning (solver_tune.h) on every solution */
    /* A restart draws at least this many values: a run's count is what its focus read, which
     * can be none (a rank other than the one that reads and broadcasts the inputs), and the
     * inputs past a run's values take the program's own; random testing sets it above what a
     * program marks so that no run falls back to them. */
    size_t restart_inputs;
} search_session_params;

/* Bounded DFS on a large program stays in the subtree of its first paths: HPL's campaign kept
 * np 4 and focus 0 for 495 of 516 runs (issue 30). After this many runs that cover nothing new
 * the search leaves the subtree (docs/design/concolic-solver.md §7.1). */
#define SEARCH_SESSION_DEFAULT_STALL_RUNS 20

/* Defaults: search_params_default, solver_z3_params_default, mpi_semantics_params_default,
 * np and focus free, solving, SEARCH_SESSION_DEFAULT_STALL_RUNS, no tuning. */
void search_session_params_default(search_session_params *p);

/* A run: its inputs (input i is the i-th marked non-MPI variable), process count and focus. */
typedef struct search_session_run {
    int64_t *inputs;
    size_t ninputs;
    uint32_t np, focus;
} search_session_run;

void search_session_run_free(search_session_run *r);

/* Why a repeated solution ended its choice (search_session_next). */
enum search_session_repeat_cause {
    SEARCH_SESSION_REPEAT_REFUSED,  /* the run repeated was refused by the program: no re-tuning */
    SEARCH_SESSION_REPEAT_REJECTED, /* after a rejection, the refused inputs again for a covered arm
                                     */
    SEARCH_SESSION_REPEAT_EXHAUSTED, /* re-tuning found no other solution, or hit its bound */
    SEARCH_SESSION_REPEAT_CAUSES
};

/* Public for the campaign's save and restore (search_session_text.c), which writes and
 * reads the stack, the frontier and the strategy; everything else goes through the functions. */
typedef struct search_session {
    search_session_params p;
    search_state *strategy;
    solver_z3 *z3;
    path_log *stack; /* stack[i]: the path kept at level i of the strategy's stack */
    size_t nstack;
    focus_frontier frontier;  /* what each rank reached: the focus when a solution leaves it free */
    uint32_t stalled;         /* runs since the last one that covered something new */
    coverage_set leave_tried; /* arms a leave aimed at since coverage last grew */
    uint64_t solves, sat, query_timeouts, restarts, leaves, moves, tuning_checks;
    /* Tuned: every run this session was handed as last, whole (inputs, np, focus); a solution
     * that would run one of them again is not run, and counted in repeats. A run that differs
     * in the process count or the focus alone is another run (a focus move), never a repeat. */
    search_session_run *ran;
    uint8_t *refused; /* refused[i]: the program refused ran[i]'s inputs (input_rejected) */
    size_t nran;
    uint64_t repeats; /* solutions not run: runs already made with no new one found past them */
    /* repeats by why no new run came of the choice (enum search_session_repeat_cause), and of them
     * those whose first solution left every input, the process count and the focus of the negated
     * path's own run as they were (a constraint whose negation the run's own values satisfy). */
    uint64_t repeat_cause[SEARCH_SESSION_REPEAT_CAUSES];
    uint64_t repeat_unchanged;
    uint64_t retunes;  /* solutions re-tuned past runs already made into a new run */
    int last_rejected; /* the run last observed was refused by the program's own check */
    /* A solved float comparison is checked by the next run (dissertation §3.4: a Real solution
     * is only near a double): float_solutions counts the runs chosen so, float_missed those in
     * which no rank took the arm aimed at (aim, while aiming). */
    uint64_t float_solutions, float_missed;
    uint32_t aim;
    int aiming, aim_reached;
} search_session;

/* Keeps a copy of r (the caller keeps r) among the runs made, once; search_session_next
 * remembers each last itself, the campaign's restore the runs it saved. MG_ERROR_ENOMEM (s
 * unchanged). */
int search_session_remember_run(search_session *s, const search_session_run *r);

/* MG_ERROR_EINVAL for bad parameters, MG_ERROR_ENOMEM, MG_ERROR_ESOLVER when Z3 cannot start. On
 * failure *s is left empty (search_session_end is still safe). */
int search_session_start(search_session *s, const search_session_params *p);
void search_session_end(search_session *s);

/* Replaces the strategy with a restored one (search_snapshot_read) of the same kind, after
 * s->stack was restored: the strategy may have given up levels the stack still holds (they go
 * at the next observation), never the other way round. MG_ERROR_EFORMAT when they disagree (s is
 * unchanged, strategy not taken). */
int search_session_restore(search_session *s, search_state *strategy);

/* Records the arms a rank covered in one run (focus_frontier_observe), and whether it took the
 * arm a float solution aimed at. */
int search_session_observe_rank(search_session *s, uint32_t rank, const coverage_set *arms,
                                int was_focus);

/* Takes the focus's path of the run that just finished (*log is moved in and left empty; an
 * empty log for a run without one), after its ranks' coverage (search_session_observe_rank): a
 * float solution's arm that no rank took is counted missed. covered_new: the run covered an arm
 * none had before; rejected: the program itself refused the run's inputs (its own check ended
 * it), which the next choice weighs (search_session_next).
 * MG_ERROR_ENOMEM, MG_ERROR_EINVAL; the log is freed whatever happens. */
int search_session_observe(search_session *s, path_log *log, int covered_new, int rejected);

enum search_session_next_kind {
    SEARCH_SESSION_NEXT_SOLVED,  /* a negation was solved: its values, np and focus */
    SEARCH_SESSION_NEXT_RESTART, /* nothing left to solve (or not solving): fresh random inputs */
    SEARCH_SESSION_NEXT_STOPPED, /* stop() asked to stop: nothing chosen, next is unset */
    SEARCH_SESSION_NEXT_MOVED    /* stalled with nothing to leave for: a solution on the next np */
};

/* Callback asking the search to give up (a signal, the campaign's time budget); NULL: never. */
typedef int (*search_session_stop_fn)(void *arg);

/* The next run after `last` (the run whose path was observed last): asks the strategy for
 * constraints and solves them until one is satisfiable within the process limit; when none is,
 * a restart: every input random in [-100, 100] and, unless fixed, a random np in [1, max_np]
 * and focus below it. A solution keeps last's inputs past the solved variables; when it names
 * no rank, the focus is the frontier rule's (focus_frontier_pick). Tuned, a solution that is a
 * run already made (inputs, np and focus all equal to a last of this session) is not taken: the
 * same negation is tuned again past it (solver_tune.h: counted in retunes when that gives a new
 * run) unless the program refused that run, and when no new run comes of that the strategy's
 * next choice is taken (counted in repeats); so is, after a rejected run, a solution that
 * keeps its inputs (a rank or size negated: another np or focus) for an arm already covered,
 * since the other rank takes the same rejection (also counted in repeats).
 * A DFS search that has covered nothing new for stall_runs runs first moves: it leaves its
 * subtree for the lowest constraint of its stack (the bottom path first, then up; each path
 * from its first constraint) whose other arm no run has covered and that no leave since
 * coverage last grew aimed at, and goes on below it (search_choose: the subtree above is given
 * up). With no such constraint solvable and np not fixed, it moves: the strategy's own next
 * solution, unless it names the process count or a rank, runs on the next process count
 * (np + 1, after max_np 1) with the frontier rule's focus. cov is the campaign's
 * coverage, cfg the distance table SEARCH_CFG needs (search_next). *kind is enum
 * search_session_next_kind; next (owned by the caller, search_session_run_free) is set unless
 * stopped. MG_ERROR_ENOMEM, MG_ERROR_EINVAL. */
int search_session_next(search_session *s, const search_session_run *last, const coverage_set *cov,
                        const search_cfg *cfg, mg_rng *rng, search_session_stop_fn stop,
                        void *stop_arg, int *kind, search_session_run *next);

/* A restart over n inputs (at least p.restart_inputs) from last's np and focus (kept when
 * fixed): random-all's first run, and the restart of search_session_next. An input that the newest
 * kept path declares as a float gets a random double in [-100, 100] (two decimals).
 * MG_ERROR_ENOMEM. */
int search_session_restart(search_session *s, const search_session_run *last, size_t n, mg_rng *rng,
                           search_session_run *next);

#endif
