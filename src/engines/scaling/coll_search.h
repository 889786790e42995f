/* The tester's search for a collective's safe bound at one (s, P) (Li et al., "Non-Intrusively
 * Avoiding Scaling Problems in and out of MPI Collectives", 2018, §III.B;
 * docs/design/collectives.md, "The tester"): step 1 doubles n from 1, each test limited to 10 times
 * the previous one's time, until a failure, n_max or the memory budget; step 2 refines in steps of
 * Δ = n'_s / f between n'_s and 2 n'_s. Then, for a failure, the verification at (s, 2P) and (2s,
 * P) that Table 4.9 and its (P - 1) rows classify (scaling_bounds.h). The tests themselves are a
 * callback, so the search runs the same against real MPI jobs and in unit tests. A search can go on
 * from where an earlier one stopped short of a failure (n_passed). */
#ifndef MG_COLL_SEARCH_H
#define MG_COLL_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "bounds_file.h"
#include "scaling_bounds.h"

typedef enum coll_search_outcome {
    COLL_SEARCH_PASS,
    COLL_SEARCH_WRONG,     /* the job ended with wrong bytes */
    COLL_SEARCH_CRASH,     /* the job failed otherwise (a signal, an MPI error) */
    COLL_SEARCH_HANG,      /* the job passed its time limit and was stopped */
    COLL_SEARCH_NO_MEMORY, /* not run: the memory it needs is over the budget */
    COLL_SEARCH_NO_TIME,   /* not run: the tester's total time budget is spent */
} coll_search_outcome;

/* Runs collective test (s, P, n) within limit_s seconds; *elapsed is its time. */
typedef coll_search_outcome coll_search_test_fn(void *ctx, uint64_t s, uint64_t P, uint64_t n,
                                                double limit_s, double *elapsed);

typedef struct coll_search_opts {
    uint64_t f;         /* Δ = n'_s / f (16 in the paper) */
    uint64_t n_max;     /* largest n tried (INT_MAX) */
    double first_limit; /* time limit of the first test (60 s in the paper) */
    double min_limit;   /* floor of the later limits (a job's launch alone takes ~0.5 s here) */
    uint64_t n_passed;  /* the largest n an earlier run passed: step 1 goes on from 2 n_passed
                           (0: from n = 1) */
} coll_search_opts;

typedef enum coll_search_status {
    COLL_SEARCH_BOUNDED,
    COLL_SEARCH_UNBOUNDED,
    COLL_SEARCH_SKIPPED
} coll_search_status;

typedef struct coll_search_result {
    coll_search_status status;
    uint64_t n_safe;             /* n_s (BOUNDED), or the largest n that passed (UNBOUNDED) */
    uint64_t delta;              /* Δ (BOUNDED) */
    uint64_t n_fail;             /* the smallest failing n seen (BOUNDED) */
    coll_search_outcome failure; /* how it failed (BOUNDED); why it stopped otherwise */
    double limit; /* the time limit the refinement used (for the verification tests) */
    int tests;
} coll_search_result;

/* The two steps at (s, P). SKIPPED when not even n = 1 could run (memory, time) or n = 1 fails;
 * UNBOUNDED at n_passed, without a test, when n_passed is at least n_max.
 * Returns 0 or MG_ERROR_EINVAL. */
int coll_search_bound(coll_search_test_fn *test, void *ctx, uint64_t s, uint64_t P,
                      const coll_search_opts *o, coll_search_result *out);

/* The two points the paper verifies a bound at, from the tested (s, P). */
typedef enum coll_search_verify_at {
    COLL_SEARCH_VERIFY_2P,
    COLL_SEARCH_VERIFY_2S
} coll_search_verify_at;

/* The paper's verification of the bound b found at (s, P), at (s, 2P) or (2s, P): n_s/2 when
 * (n_s + Δ)/2 fails and n_s/2 passes, else n_s when n_s passes and n_s + Δ fails, else 0 (neither:
 * Class X). At (s, 2P), where n_s/2 fails too, the (P - 1) points of scaling_bounds_pm1_window
 * follow (P >= 2): its lower end when its upper end fails and the lower one passes (a bound of a
 * (P - 1) form, which moves to n_s (P - 1)/(2P - 1), under n_s/2, when P doubles). *complete 0 when
 * a test could not run (memory, time): the point is then unknown and the caller classifies X. */
uint64_t coll_search_verify(coll_search_test_fn *test, void *ctx, uint64_t s, uint64_t P,
                            coll_search_verify_at at, const coll_search_result *b, int *complete,
                            int *tests);

/* The class and form of the bound b found at (s, P) (Table 4.9): both verifications run, the one at
 * (2s, P) only when 2s is at most s_max (the largest type size the tests can run), and their
 * points classify the bound (scaling_bounds_classify); a verification that could not complete, or
 * was not run, leaves Class X (*form SCALING_BOUNDS_FORM_N). The verification tests are added to
 * b->tests. */
void coll_search_classify(coll_search_test_fn *test, void *ctx, uint64_t s, uint64_t P,
                          uint64_t s_max, coll_search_result *b, scaling_bounds_class *cls,
                          scaling_bounds_form *form);

/* What a search resumed from a safe-bounds file (--resume) does with the point (name, s, P): *at
 * is its index among the file's n entries (n when it has none), *n_passed where the search goes on
 * from (coll_search_opts.n_passed; 0: from n = 1). */
typedef enum coll_search_resume_kind {
    COLL_SEARCH_RESUME_SEARCH, /* search it: a new point, or one the earlier run skipped (from n =
                           1), or left unbounded (from twice its n) */
    COLL_SEARCH_RESUME_KEPT    /* bounded by the earlier run: kept, not tested again */
} coll_search_resume_kind;
coll_search_resume_kind coll_search_resume(const bounds_file_entry *entries, size_t n,
                                           const char *name, uint64_t s, uint64_t P, size_t *at,
                                           uint64_t *n_passed);

/* The safe-bounds file's entry of the search b at (name, s, P): its status and n, and for a bound
 * the class and form coll_search_classify gave it. */
void coll_search_entry(const char *name, uint64_t s, uint64_t P, const coll_search_result *b,
                       scaling_bounds_class cls, scaling_bounds_form form, bounds_file_entry *e);

/* How a test ended, for people: "pass", "wrong bytes", "crash", "hang (time limit)", ... */
const char *coll_search_outcome_name(coll_search_outcome o);

#endif
