/* The Z3 front end: asserts a conjunction of linear predicates, checks it with a timeout, and
 * reads the model back as variable values. Incremental by default: consecutive queries share the
 * longest common prefix of their predicate lists through push/pop, one scope per predicate
 * (docs/design/concolic-solver.md §5; spec: dissertation §3.2.1, docs/design/platform-notes.md
 * "LLVM-C 14 and Z3"). */
#ifndef SOLVER_Z3_H
#define SOLVER_Z3_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "sym_expr.h"
#include "sym_var.h"

/* Int: unbounded integers (the default). Bit-vector: each variable is as wide as its C kind and
 * each predicate side is computed in the predicate's width with wraparound, so a solution can be
 * an integer overflow the program did not expect. */
enum solver_z3_semantics { SOLVER_Z3_INT = 0, SOLVER_Z3_BITVECTOR = 1 };

/* How float comparisons (SYM_EXPR_NUM_F64 sides) and Real variables are solved (dissertation §3.4):
 * over the reals (the default: a solution is the nearest double to the real Z3 chose, which the
 * next run may find on the wrong side of a strict comparison), or over Z3's IEEE theory (FP:
 * float variables are binary32, double variables binary64, every term and sum rounded to
 * nearest-even in binary64, NaN and infinities excluded; far slower). */
enum solver_z3_floats { SOLVER_Z3_FLOATS_REAL = 0, SOLVER_Z3_FLOATS_FP = 1 };

/* Default resource budget per check: measured here, the 10-pigeon/9-hole problem spent 10^6
 * units in 1.6 s on a loaded 2-core machine, while every query of bench_solver (up to 500 path
 * constraints) stays far below it. */
#define SOLVER_Z3_DEFAULT_RLIMIT 2000000u

/* Default wall-clock limit per check: far above any query of bench_solver, and short enough that a
 * campaign whose queries all run out (HPL's 1,168 queries of one solve, issue 30) still moves. */
#define SOLVER_Z3_DEFAULT_TIMEOUT_MS 5000u

/* Two budgets bound a check; either running out is MG_ERROR_ETIMEOUT. rlimit is Z3's deterministic
 * resource count (the same query stops at the same point on any machine or load, so the engine
 * stays deterministic). timeout_ms is wall-clock, kept by the front end's own watchdog thread
 * (solver_watchdog.h) and not by Z3's "timeout" parameter, whose timer thread pool in Z3
 * 4.8.10-4.8.12 can deadlock (Z3Prover/z3 PR #5371, issue #5990; seen here once in a benchmark
 * on a loaded machine). cancel, when set, stops the check in progress as soon as *cancel becomes
 * non-zero (within 20 ms), and every later check at once: MG_ERROR_ETIMEOUT too. After a check the
 * watchdog stopped, the next one starts in a new context. */
typedef struct solver_z3_params {
    int semantics;       /* enum solver_z3_semantics */
    int floats;          /* enum solver_z3_floats */
    unsigned rlimit;     /* per check, Z3 resource units; 0: none */
    unsigned timeout_ms; /* per check, wall clock; 0: none */
    int incremental;     /* 1: one context, push/pop prefix sharing; 0: a fresh context per check */
    const volatile sig_atomic_t *cancel; /* NULL: none */
} solver_z3_params;

/* Defaults: Int semantics, floats over the reals, rlimit SOLVER_Z3_DEFAULT_RLIMIT, timeout
 * SOLVER_Z3_DEFAULT_TIMEOUT_MS, incremental, no cancel flag. */
void solver_z3_params_default(solver_z3_params *p);

typedef struct solver_z3_stats {
    uint64_t checks;
    uint64_t frames_pushed; /* predicates asserted */
    uint64_t frames_reused; /* predicates kept from the previous query's prefix */
    uint64_t contexts;      /* Z3 contexts created */
} solver_z3_stats;

typedef struct solver_z3 solver_z3;

/* Creates a solver (the Z3 context in incremental mode). MG_ERROR_EINVAL for bad params,
 * MG_ERROR_ENOMEM, MG_ERROR_ESOLVER if Z3 fails. Not thread-safe: one solver per thread. */
int solver_z3_create(const solver_z3_params *p, solver_z3 **out);
/* Frees the solver and its Z3 objects. NULL is ignored. */
void solver_z3_destroy(solver_z3 *s);

/* The variables a check solves (the others keep their values), and among them those that
 * should keep their old values when that is consistent: they are first held under assumptions,
 * and released only if the check is then unsatisfiable. The query layer puts there the world
 * ranks and sizes that only the MPI-semantics block mentions, so a negation that does not need
 * a new focus or process count does not get one by the solver's whim (§2.3.3-§2.3.4). */
typedef struct solver_z3_targets {
    const uint32_t *solve;
    uint32_t nsolve;
    const uint32_t *keep;
    uint32_t nkeep;
} solver_z3_targets;

/* Checks the conjunction preds[0..npreds). vars[0..nvars) describes every variable (id = index;
 * the kind gives the bit-vector width). values[0..nvars) is filled with vars[i].value, then the
 * model's value of each variable in t->solve is written over it when satisfiable (a Real
 * variable's as the bits of a double: the nearest to the real, or the IEEE model's).
 * *sat = 1 satisfiable, 0 unsatisfiable (values then hold the old values).
 * Returns MG_ERROR_ETIMEOUT when the check ran out of its budget, MG_ERROR_ESOLVER when Z3 answered
 * unknown for another reason or failed, MG_ERROR_EINVAL for NULL arguments, a malformed variable
 * (id not its index, sym_var_check), or a predicate or target naming a variable past nvars, or an
 * integer expression naming a Real variable; MG_ERROR_ENOMEM. After a failure other than a timeout
 * the next check starts from an empty scope stack; after any failure values hold the old values and
 * *sat is 0. */
int solver_z3_check(solver_z3 *s, const sym_var *vars, uint32_t nvars,
                    const sym_expr_pred *const *preds, size_t npreds, const solver_z3_targets *t,
                    int *sat, int64_t *values);

/* Counters since creation. */
void solver_z3_get_stats(const solver_z3 *s, solver_z3_stats *out);

#endif
