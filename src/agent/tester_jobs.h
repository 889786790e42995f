/* The jobs of `mpiguard collectives`: each test of a collective at (s, P, n) a job of the bundled
 * tester, and the cost measurement at P a job of the bundled measurement (src/tester), run with
 * the user's launcher words; a failed job's output kept in a directory of logs
 * (docs/collectives.md). The search over them is the scaling engine's (coll_search.h). */
#ifndef TESTER_JOBS_H
#define TESTER_JOBS_H

#include "bounds_file.h"
#include "coll_search.h"
#include "scaling_coll.h"

#include <stdint.h>

/* The largest element size the tester runs, in bytes. */
#define TESTER_JOBS_MAX_TYPE_SIZE 8
/* The most launcher words a job takes before the tester's own. */
#define TESTER_JOBS_MAX_LAUNCHER 32

typedef struct tester_jobs {
    char **launcher; /* the words before the tester: the user's launcher and its options */
    int nlauncher;   /* at most TESTER_JOBS_MAX_LAUNCHER */
    char tester[4096];
    char costs[4096]; /* the cost measurement (src/tester/coll_costs.c) */
    const char *name; /* the collective under test: "Igather", "Alltoall_inplace" */
    scaling_coll coll;
    int in_place;
    uint64_t memory_limit; /* a test that needs more is not run (COLL_SEARCH_NO_MEMORY) */
    double deadline;       /* monotonic seconds; 0: none */
    int interrupted;       /* the signal that stopped a job, or 0: no job is started after it */
    int quiet;             /* no line per job on stderr */
    char token[48]; /* the MPIGUARD_JOB_TOKEN of this run's jobs, once the first one started */
    /* Each job's output (the tester's and the launcher's: a crash's backtrace) goes to running,
     * in the directory logs; a failed test's is kept there as NNN-<test>.log, a failed cost
     * measurement's as costs-P<P>.log, a passed one's dropped. */
    char logs[4096], running[4200];
    unsigned kept_logs;
} tester_jobs;

/* Makes the directory of the jobs' output, "<output>.logs", without the failed jobs' outputs of
 * an earlier run. Returns 0, or MG_EXIT_CANTCREAT after saying why. */
int tester_jobs_open_logs(tester_jobs *x, const char *output);
/* Removes the running job's output, and the directory unless a failed job's output is in it. */
void tester_jobs_close_logs(tester_jobs *x);

/* One test of x->name at (s, P, n) within limit seconds, a coll_search_test_fn for
 * coll_search_bound (vctx: the tester_jobs). A test whose job fails is run again: only a failure
 * that reproduces counts. *elapsed: the passing or last job's seconds. */
coll_search_outcome tester_jobs_test(void *vctx, uint64_t s, uint64_t P, uint64_t n, double limit,
                                     double *elapsed);

/* The cost model at P (bounds_file.h, "costs"), measured by one job unless doc has it from an
 * earlier run: kept in doc, or, where the job fails, left out with a warning (the protection
 * module then uses the engine's defaults at that P). */
void tester_jobs_measure_costs(tester_jobs *x, uint64_t P, bounds_file_doc *doc);

#endif
