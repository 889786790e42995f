/* The jobs of `mpiguard collectives` (tester_jobs.h). */
#include "tester_jobs.h"

#include "coll_memory.h"
#include "job_run.h"
#include "mg_clock.h"
#include "mg_exit.h"
#include "mg_env.h"
#include "mg_log.h"

#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The cost measurement's time limit. */
enum { COSTS_LIMIT_S = 600 };

int tester_jobs_open_logs(tester_jobs *x, const char *output)
{
    snprintf(x->logs, sizeof x->logs, "%s.logs", output);
    snprintf(x->running, sizeof x->running, "%s/running.log", x->logs);
    if (mkdir(x->logs, 0777) != 0 && errno != EEXIST) {
        mg_log_error("cannot create %s, the directory of the tests' output: %s", x->logs,
                     strerror(errno));
        return MG_EXIT_CANTCREAT;
    }
    static const char *const kept_names[] = {"[0-9][0-9][0-9]-*.log", "costs-P*.log"};
    for (size_t k = 0; k < sizeof kept_names / sizeof *kept_names; k++) {
        char pattern[4200];
        snprintf(pattern, sizeof pattern, "%s/%s", x->logs, kept_names[k]);
        glob_t old;
        if (glob(pattern, 0, NULL, &old) == 0)
            for (size_t i = 0; i < old.gl_pathc; i++)
                unlink(old.gl_pathv[i]);
        globfree(&old);
    }
    return 0;
}

/* Whether a test's output has the tester's own word that bytes were wrong: a launcher that fails
 * exits 1 too (mpirun.openmpi on an option it does not know). */
static int tester_said_wrong(const char *output)
{
    FILE *f = fopen(output, "re");
    char line[1024];
    int said = 0;
    while (f && !said && fgets(line, sizeof line, f))
        said = strncmp(line, "coll_tester: ", 13) == 0 && strstr(line, ": WRONG bytes after ");
    if (f)
        fclose(f);
    return said;
}

/* Runs the job of argv within limit_ms (0: none), its output to x->running. Its processes carry
 * the run's token, which mpiguard's environment passes through the launcher, so that the ranks a
 * signal or a time limit leaves behind are found and killed (job.h). */
static int run_job(tester_jobs *x, char *const *argv, int limit_ms, int *status, int *hung,
                   char *err, size_t errlen)
{
    if (!x->token[0]) {
        snprintf(x->token, sizeof x->token, "collectives-%d-%ld", (int)getpid(), (long)time(NULL));
        setenv(MG_ENV_JOB_TOKEN, x->token, 1);
    }
    return job_run(argv, x->token, x->running, limit_ms, JOB_STOP_GRACE_SECONDS, status, hung,
                   &x->interrupted, err, errlen);
}

/* argv of a job: the user's launcher words, then tail (NULL-terminated). */
static void job_words(const tester_jobs *x, char **argv, char *const *tail, size_t ntail)
{
    for (int i = 0; i < x->nlauncher; i++)
        argv[i] = x->launcher[i];
    memcpy(argv + x->nlauncher, tail, ntail * sizeof *tail);
}

/* Runs the tester job for (s, P, n) within limit seconds, once. */
static coll_search_outcome run_once(tester_jobs *x, uint64_t s, uint64_t P, uint64_t n,
                                    double limit, double *elapsed)
{
    *elapsed = 0;
    if (x->interrupted || (x->deadline > 0 && mg_clock_seconds() >= x->deadline))
        return COLL_SEARCH_NO_TIME;
    if (coll_memory_bytes(x->coll, x->in_place, s, n, P) > x->memory_limit)
        return COLL_SEARCH_NO_MEMORY;
    char np[24], ss[24], nn[24];
    snprintf(np, sizeof np, "%llu", (unsigned long long)P);
    snprintf(ss, sizeof ss, "%llu", (unsigned long long)s);
    snprintf(nn, sizeof nn, "%llu", (unsigned long long)n);
    char *argv[TESTER_JOBS_MAX_LAUNCHER + 8];
    char *tail[] = {"-n", np, x->tester, (char *)x->name, ss, nn, NULL};
    job_words(x, argv, tail, sizeof tail / sizeof *tail);
    char err[512];
    int status = 0, hung = 0;
    double t0 = mg_clock_seconds(), limit_ms = limit * 1000;
    if (run_job(x, argv, limit_ms < INT_MAX ? (int)limit_ms : INT_MAX, &status, &hung, err,
                sizeof err) != 0) {
        mg_log_error("%s", err);
        return COLL_SEARCH_CRASH;
    }
    *elapsed = mg_clock_seconds() - t0;
    if (x->interrupted) { /* the signal ended the job: no outcome of the collective's */
        unlink(x->running);
        return COLL_SEARCH_NO_TIME;
    }
    coll_search_outcome r = hung                                           ? COLL_SEARCH_HANG
                            : status == 0                                  ? COLL_SEARCH_PASS
                            : status == 1 && tester_said_wrong(x->running) ? COLL_SEARCH_WRONG
                                                                           : COLL_SEARCH_CRASH;
    char kept[4400] = "";
    if (r == COLL_SEARCH_PASS) {
        unlink(x->running);
    } else {
        snprintf(kept, sizeof kept, "%s/%03u-%s-s%llu-P%llu-n%llu.log", x->logs, ++x->kept_logs,
                 x->name, (unsigned long long)s, (unsigned long long)P, (unsigned long long)n);
        if (rename(x->running, kept) != 0)
            kept[0] = '\0';
    }
    if (!x->quiet)
        fprintf(stderr, "mpiguard: collectives: %s s=%llu P=%llu n=%llu: %s (%.2f s%s%s)\n",
                x->name, (unsigned long long)s, (unsigned long long)P, (unsigned long long)n,
                coll_search_outcome_name(r), *elapsed, kept[0] ? "; its output: " : "", kept);
    return r;
}

void tester_jobs_measure_costs(tester_jobs *x, uint64_t P, bounds_file_doc *doc)
{
    if (bounds_file_costs(doc, P) || x->interrupted ||
        (x->deadline > 0 && mg_clock_seconds() >= x->deadline))
        return;
    char np[24];
    snprintf(np, sizeof np, "%llu", (unsigned long long)P);
    char *argv[TESTER_JOBS_MAX_LAUNCHER + 8];
    char *tail[] = {"-n", np, x->costs, NULL};
    job_words(x, argv, tail, sizeof tail / sizeof *tail);
    char err[512] = "", line[512];
    int status = 0, hung = 0, found = 0;
    double t0 = mg_clock_seconds();
    bounds_file_cost c;
    if (run_job(x, argv, COSTS_LIMIT_S * 1000, &status, &hung, err, sizeof err) == 0) {
        FILE *f = fopen(x->running, "re");
        while (f && !found && fgets(line, sizeof line, f))
            found = bounds_file_costs_parse(line, &c) == 0 && c.np == P;
        if (f)
            fclose(f);
    }
    if (x->interrupted) {
        unlink(x->running);
        return;
    }
    if (!found || bounds_file_set_costs(doc, &c) != 0) {
        char kept[4400];
        snprintf(kept, sizeof kept, "%s/costs-P%llu.log", x->logs, (unsigned long long)P);
        int have_log = rename(x->running, kept) == 0;
        mg_log_warn(
            "collectives: the cost measurement at P=%llu failed (%s%s%s); `mpiguard protect` "
            "will choose workarounds by the default cost model at this P",
            (unsigned long long)P,
            err[0]   ? err
            : hung   ? "time limit"
            : status ? "the job failed"
                     : "no result line",
            have_log ? "; its output: " : "", have_log ? kept : "");
        return;
    }
    unlink(x->running);
    if (!x->quiet)
        fprintf(stderr,
                "mpiguard: collectives: cost model at P=%llu: call %.1f us, %.3f ns per byte "
                "moved, %.3f ns per byte copied, datatype %.1f us, communicator %.1f us, "
                "Allgather into a strided type %s Allgatherv (%.2f s)\n",
                (unsigned long long)P, c.call_ns / 1000, c.byte_ns, c.copy_byte_ns,
                c.type_ns / 1000, c.comm_ns / 1000,
                c.allgather_block_stride ? "faster than" : "not faster than",
                mg_clock_seconds() - t0);
}

/* A launcher that crashes once while shutting down, as mpirun.openmpi 4.1.4 was seen to do under
 * load, is not a scaling problem; nor is a test slowed past its limit by other jobs. */
coll_search_outcome tester_jobs_test(void *vctx, uint64_t s, uint64_t P, uint64_t n, double limit,
                                     double *elapsed)
{
    tester_jobs *x = vctx;
    coll_search_outcome r = run_once(x, s, P, n, limit, elapsed);
    if (r != COLL_SEARCH_WRONG && r != COLL_SEARCH_CRASH && r != COLL_SEARCH_HANG)
        return r;
    double again;
    /* A hang is retried with a longer limit: on a loaded machine (MPICH busy-polls when
     * oversubscribed) a correct test was seen to pass 10 s twice in a row. */
    double retry_limit = r == COLL_SEARCH_HANG ? (limit * 6 > 60 ? limit * 6 : 60) : limit;
    coll_search_outcome second = run_once(x, s, P, n, retry_limit, &again);
    if (second == COLL_SEARCH_PASS) {
        mg_log_warn(
            "collectives: %s s=%llu P=%llu n=%llu: a failure that did not reproduce; taken as "
            "a pass",
            x->name, (unsigned long long)s, (unsigned long long)P, (unsigned long long)n);
        *elapsed = again;
    }
    return second;
}

void tester_jobs_close_logs(tester_jobs *x)
{
    if (!x->logs[0])
        return;
    unlink(x->running);
    rmdir(x->logs); /* kept where a failed test's output is in it */
}
