/* One iteration's job of `mpiguard concolic` (concolic_launch.h). */
#include "concolic_launch.h"

#include "concolic_file.h"
#include "job_run.h"
#include "mg_error.h"
#include "mg_clock.h"
#include "mg_env.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const outcome_names[] = {"clean",     "input_rejected", "signal",  "assertion",
                                            "mpi_error", "timeout",        "overflow"};

const char *concolic_launch_outcome_name(int outcome)
{
    return outcome >= 0 && outcome < CONCOLIC_LAUNCH_OUTCOME_END ? outcome_names[outcome]
                                                                 : "unknown";
}

int concolic_launch_outcome_is_bug(int outcome)
{
    return outcome >= CONCOLIC_LAUNCH_SIGNAL && outcome < CONCOLIC_LAUNCH_OUTCOME_END;
}

static void push(char **argv, int *n, const char *s)
{
    argv[(*n)++] = (char *)s;
}

/* One MPMD segment: -n count exe args. */
static void segment(char **argv, int *n, const concolic_launch *l, const char *count,
                    const char *exe)
{
    if (strcmp(argv[*n - 1], "--oversubscribe") && *n > 1)
        push(argv, n, ":");
    push(argv, n, "-n");
    push(argv, n, count);
    push(argv, n, exe);
    for (int i = 0; i < l->napp_args; i++)
        push(argv, n, l->app_args[i]);
}

/* The words before the inputs tell the runtime to ignore the marks' limits (uncapped) and to keep
 * floats concrete (floats_off) (rt_inputs.c). */
static void write_inputs(const concolic_campaign *c, int uncapped, int floats_off)
{
    char path[2200];
    concolic_campaign_path(c, "run/inputs", path, sizeof path);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    if (uncapped)
        fputs("uncapped\n", f);
    if (floats_off)
        fputs("floats_off\n", f);
    for (size_t i = 0; i < c->ninputs; i++)
        fprintf(f, "%" PRId64 "\n", c->inputs[i]);
    fclose(f);
}

static void clear_run_dir(const concolic_campaign *c, uint32_t upto)
{
    char path[2200], name[64];
    for (uint32_t r = 0; r < upto; r++) {
        snprintf(name, sizeof name, "run/rank-%u.log", r);
        concolic_campaign_path(c, name, path, sizeof path);
        unlink(path);
        snprintf(name, sizeof name, "run/rank-%u.outcome", r);
        concolic_campaign_path(c, name, path, sizeof path);
        unlink(path);
        snprintf(name, sizeof name, "run/rank-%u.overflow", r);
        concolic_campaign_path(c, name, path, sizeof path);
        unlink(path);
    }
}

/* The ranks' start and end readings, gathered while their logs are read. */
typedef struct rank_times {
    uint32_t started;           /* ranks that logged a start */
    uint64_t first_ns, last_ns; /* earliest start, latest end (0: no end logged) */
} rank_times;

static void note_times(rank_times *t, const path_log *log)
{
    if (log->started_ns) {
        t->started++;
        if (!t->first_ns || log->started_ns < t->first_ns)
            t->first_ns = log->started_ns;
    }
    if (log->ended_ns > t->last_ns)
        t->last_ns = log->ended_ns;
}

/* Splits the job's [t0, t1] (CLOCK_MONOTONIC seconds, the clock the ranks read) at the first
 * start and the last end. */
static void split_job(concolic_launch_result *r, const rank_times *t, uint32_t np, double t0,
                      double t1)
{
    if (t->started < np)
        return;
    double first = (double)t->first_ns * 1e-9;
    double last = t->last_ns ? (double)t->last_ns * 1e-9 : t1;
    first = first < t0 ? t0 : first > t1 ? t1 : first;
    last = last < first ? first : last > t1 ? t1 : last;
    r->split = 1;
    r->launch_s = first - t0;
    r->run_s = last - first;
    r->teardown_s = t1 - last;
}

static void read_logs(const concolic_campaign *c, uint64_t run_id, concolic_launch_result *r,
                      rank_times *times)
{
    path_log_expect ex = {.build_id = c->build_id, .run_id = run_id};
    r->rank_cover = calloc(c->np, sizeof *r->rank_cover);
    r->nranks = r->rank_cover ? c->np : 0;
    for (uint32_t k = 0; k < c->np; k++) {
        char name[64], path[2200];
        snprintf(name, sizeof name, "run/rank-%u.log", k);
        concolic_campaign_path(c, name, path, sizeof path);
        size_t len = 0;
        uint8_t *buf = concolic_file_read(path, &len);
        path_log log;
        int rc = buf ? path_log_decode(buf, len, &ex, NULL, &log) : MG_ERROR_ENOENT;
        free(buf);
        r->log_bytes += len;
        if (rc == 0) {
            coverage_set_merge(&r->cover, &log.cover);
            if (k < r->nranks)
                coverage_set_merge(&r->rank_cover[k], &log.cover);
            note_times(times, &log);
            if (k == c->focus && log.header.kind == PATH_LOG_HEAVY) {
                r->heavy = log;
                r->have_heavy = 1;
                continue;
            }
            path_log_free(&log);
        }
        if (k == c->focus && rc)
            snprintf(r->log_problem, sizeof r->log_problem, "the focus's log (rank %u): %s", k,
                     mg_error_string(rc));
    }
}

/* Reads rank k's outcome line: word, number, optional hex offset. 0 when there is none. */
static int read_outcome(const concolic_campaign *c, uint32_t k, char *word, long long *num,
                        unsigned long long *off, unsigned *last)
{
    char name[64], path[2200];
    snprintf(name, sizeof name, "run/rank-%u.outcome", k);
    concolic_campaign_path(c, name, path, sizeof path);
    FILE *f = fopen(path, "r");
    *off = 0;
    *last = UINT32_MAX;
    int n = f ? fscanf(f, "%31s %lld 0x%llx b%u", word, num, off, last) : 0;
    if (f)
        fclose(f);
    return n >= 2;
}

/* file:line of an offset in exe, through addr2line. */
static void locate(const concolic_campaign *c, const char *exe, unsigned long long off,
                   const char *token, char *out, size_t len)
{
    char addr[32], path[2200], err[256];
    snprintf(addr, sizeof addr, "0x%llx", off);
    concolic_campaign_path(c, "run/addr2line.txt", path, sizeof path);
    char *argv[] = {"addr2line", "-e", (char *)exe, addr, NULL};
    int status, timed_out;
    int rc = job_run(argv, token, path, 10000, JOB_STOP_GRACE_SECONDS, &status, &timed_out, NULL,
                     err, sizeof err);
    if (rc || status)
        return;
    FILE *f = fopen(path, "r");
    if (f && fgets(out, (int)len, f) && !strstr(out, "??"))
        out[strcspn(out, " \n")] = 0;
    else
        out[0] = 0;
    if (f)
        fclose(f);
}

/* The first output line containing `what`, and for an assertion its file:line. */
static void scan_output(const concolic_campaign *c, const char *what, concolic_launch_result *r)
{
    char path[2200], line[1024];
    concolic_campaign_path(c, "run/output.txt", path, sizeof path);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f)) {
        if (!strstr(line, what))
            continue;
        line[strcspn(line, "\n")] = 0;
        snprintf(r->detail, sizeof r->detail, "%.500s", line);
        /* glibc: "prog: file.c:62: main: Assertion `x' failed." */
        char *a = strstr(line, ": "), *b = a ? strstr(a + 2, ": ") : NULL;
        if (!strcmp(what, "Assertion") && a && b && !r->where[0])
            snprintf(r->where, sizeof r->where, "%.*s", (int)(b - a - 2), a + 2);
        break;
    }
    if (f)
        fclose(f);
}

/* A rank's place by the last branch it took: where the job's stop found it (its PC would not do:
 * a rank that spins is as often inside the runtime's probes as in its own loop, and one that
 * waits is inside the MPI library), or where it called MPI before an MPI error. */
static void after_branch(const concolic_campaign *c, unsigned last, char *out, size_t len)
{
    out[0] = 0;
    if (last < c->nbranches)
        snprintf(out, len, "after %.900s:%d", c->branches[last].file, c->branches[last].line);
}

/* A timeout's place: the distinct places of the ranks the stop found, in rank order. */
static void add_hang_site(char *hang, size_t len, const char *site)
{
    size_t at = strlen(hang);
    if (site[0] && !strstr(hang, site))
        snprintf(hang + at, len - at, "%s%s", at ? "; " : "", site);
}

/* The messages with which each MPI library ends a job on an error its handler caught (the
 * default MPI_ERRORS_ARE_FATAL): the rank then exits non-zero by itself, like a rejection. */
static int mpi_library_error(const concolic_campaign *c, concolic_launch_result *r)
{
    static const char *const markers[] = {"Fatal error in ", "MPI_ERRORS_ARE_FATAL",
                                          "An error occurred in MPI_"};
    for (size_t k = 0; k < sizeof markers / sizeof *markers; k++) {
        scan_output(c, markers[k], r);
        if (r->detail[0])
            return 1;
    }
    return 0;
}

/* The first signed overflow a heavy rank met (rt_log_outcome_overflow), in rank order: its
 * file:line in site. 0 when there was none. */
static int signed_overflow(const concolic_launch *l, const concolic_campaign *c,
                           concolic_launch_result *r)
{
    for (uint32_t k = 0; k < c->np; k++) {
        if (k != c->focus && !l->one_way)
            continue;
        char name[64], path[2200], site[sizeof r->where];
        snprintf(name, sizeof name, "run/rank-%u.overflow", k);
        concolic_campaign_path(c, name, path, sizeof path);
        FILE *f = fopen(path, "r");
        int found = f && fgets(site, sizeof site, f);
        if (f)
            fclose(f);
        if (found) {
            site[strcspn(site, "\n")] = 0;
            snprintf(r->where, sizeof r->where, "%s", site);
            r->rank = (int)k;
            return 1;
        }
    }
    return 0;
}

/* What the ranks' outcome files say, beside the first signal (which goes into the result): the
 * first rank that called MPI_Abort and the first that exited non-zero, each with its last
 * branch, and the places of the ranks a timeout stopped. */
typedef struct rank_ends {
    int rejected, aborted;
    unsigned rejected_last, aborted_last;
    char hang[sizeof((concolic_launch_result *)0)->where];
} rank_ends;

static void note_signal(const concolic_launch *l, const concolic_campaign *c, uint32_t k,
                        long long num, unsigned long long off, unsigned last,
                        concolic_launch_result *r)
{
    r->outcome = num == SIGABRT ? CONCOLIC_LAUNCH_ASSERTION : CONCOLIC_LAUNCH_SIGNAL;
    r->signal = (int)num;
    r->rank = (int)k;
    if (off && num != SIGABRT)
        locate(c, k == c->focus && !l->one_way ? c->heavy : c->app, off, l->token, r->where,
               sizeof r->where);
    r->last_branch = last;
}

static void read_rank_ends(const concolic_launch *l, const concolic_campaign *c, int timed_out,
                           concolic_launch_result *r, rank_ends *e)
{
    *e = (rank_ends){.rejected = -1, .aborted = -1};
    for (uint32_t k = 0; k < c->np; k++) {
        char word[32];
        long long num;
        unsigned long long off;
        unsigned last;
        if (!read_outcome(c, k, word, &num, &off, &last))
            continue;
        r->ranks_reported++;
        if (!strcmp(word, "stopped") && timed_out) {
            char site[1024];
            after_branch(c, last, site, sizeof site);
            add_hang_site(e->hang, sizeof e->hang, site);
        } else if (!strcmp(word, "signal") && r->outcome != CONCOLIC_LAUNCH_SIGNAL &&
                   r->outcome != CONCOLIC_LAUNCH_ASSERTION) {
            note_signal(l, c, k, num, off, last, r);
        } else if (!strcmp(word, "mpi_abort") && e->aborted < 0) {
            e->aborted = (int)k;
            e->aborted_last = last;
        } else if (!strcmp(word, "exit") && num != 0 && e->rejected < 0) {
            e->rejected = (int)k;
            e->rejected_last = last;
        }
    }
}

/* A job no rank of which died by a signal: MPI_Abort, a timeout, an MPI library's error exit, a
 * signed overflow, the program's own rejection, or a job the launcher ended otherwise. */
static void classify_without_signal(const concolic_launch *l, const concolic_campaign *c,
                                    int timed_out, const rank_ends *e, concolic_launch_result *r)
{
    if (e->aborted >= 0) {
        r->outcome = CONCOLIC_LAUNCH_MPI_ERROR;
        r->rank = e->aborted;
        after_branch(c, e->aborted_last, r->where, sizeof r->where);
        scan_output(c, "MPI_Abort", r);
    } else if (timed_out) {
        r->outcome = CONCOLIC_LAUNCH_TIMEOUT;
        snprintf(r->where, sizeof r->where, "%s", e->hang);
    } else if (e->rejected >= 0 && mpi_library_error(c, r)) {
        r->outcome = CONCOLIC_LAUNCH_MPI_ERROR;
        r->rank = e->rejected;
        after_branch(c, e->rejected_last, r->where, sizeof r->where);
    } else if ((e->rejected >= 0 || r->status == 0) && signed_overflow(l, c, r)) {
        r->outcome = CONCOLIC_LAUNCH_OVERFLOW;
    } else if (e->rejected >= 0) {
        r->outcome = CONCOLIC_LAUNCH_INPUT_REJECTED;
        r->rank = e->rejected;
    } else if (r->status != 0) {
        r->outcome = CONCOLIC_LAUNCH_MPI_ERROR;
        scan_output(c, "MPI", r);
    }
}

static void classify(const concolic_launch *l, const concolic_campaign *c, int timed_out,
                     concolic_launch_result *r)
{
    rank_ends e;
    read_rank_ends(l, c, timed_out, r, &e);
    if (r->outcome == CONCOLIC_LAUNCH_ASSERTION)
        scan_output(c, "Assertion", r);
    if (!r->where[0] && r->last_branch < c->nbranches && r->outcome != CONCOLIC_LAUNCH_CLEAN)
        snprintf(r->where, sizeof r->where, "after %.900s:%d", c->branches[r->last_branch].file,
                 c->branches[r->last_branch].line);
    if (r->outcome == CONCOLIC_LAUNCH_CLEAN)
        classify_without_signal(l, c, timed_out, &e, r);
}

/* The launcher ended with an error before any rank of the program started (Open MPI refusing to
 * run as root, a bad host or slot count): the first line of its output. */
static void launcher_refusal(const concolic_campaign *c, concolic_launch_result *r)
{
    char path[2200], line[512];
    concolic_campaign_path(c, "run/output.txt", path, sizeof path);
    FILE *f = fopen(path, "r");
    r->refused = 1;
    snprintf(r->detail, sizeof r->detail, "exit status %d, no output", r->status);
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (strspn(line, " -=*") == strlen(line))
            continue; /* Open MPI frames its messages with lines of dashes */
        snprintf(r->detail, sizeof r->detail, "%.500s", line);
        break;
    }
    if (f)
        fclose(f);
}

size_t concolic_launch_shell_word(char *out, size_t len, const char *w)
{
    if (w[0] && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                          "_-+=./:,@%") == strlen(w))
        return (size_t)snprintf(out, len, " %s", w);
    size_t at = (size_t)snprintf(out, len, " '");
    for (const char *p = w; *p && at < len; p++)
        at += (size_t)(*p == '\'' ? snprintf(out + at, len - at, "'\\''")
                                  : snprintf(out + at, len - at, "%c", *p));
    return at + (at < len ? (size_t)snprintf(out + at, len - at, "'") : 0);
}

/* The launch as shell words (the reproducer puts its directory and environment before it). */
static void command_text(char **argv, int n, char *out, size_t len)
{
    size_t at = 0;
    out[0] = 0;
    for (int i = 0; i < n && at < len; i++)
        at += concolic_launch_shell_word(out + at, len - at, argv[i]);
}

int concolic_launch_run(const concolic_launch *l, concolic_campaign *c, uint64_t run_id,
                        double timeout_s, double stop_grace_s, concolic_launch_result *r, char *err,
                        size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->rank = -1;
    r->last_branch = UINT32_MAX;
    char run_dir[2200], inputs[2200], output[2200], id[32], before[16], after[16];
    concolic_campaign_path(c, "run", run_dir, sizeof run_dir);
    concolic_campaign_path(c, "run/inputs", inputs, sizeof inputs);
    concolic_campaign_path(c, "run/output.txt", output, sizeof output);
    if (access(run_dir, F_OK) && mkdir(run_dir, 0755)) {
        snprintf(err, errlen, "cannot create %s", run_dir);
        return MG_ERROR_EIO;
    }
    clear_run_dir(c, c->np > 64 ? c->np : 64);
    write_inputs(c, l->uncapped, l->floats_off);
    snprintf(id, sizeof id, "%" PRIu64, run_id);
    snprintf(before, sizeof before, "%u", c->focus);
    snprintf(after, sizeof after, "%u", c->np - c->focus - 1);
    setenv(MG_ENV_CONCOLIC_DIR, run_dir, 1);
    setenv(MG_ENV_CONCOLIC_INPUTS, inputs, 1);
    setenv(MG_ENV_CONCOLIC_RUN_ID, id, 1);
    if (l->token)
        setenv(MG_ENV_JOB_TOKEN, l->token, 1);
    if (l->no_reduce)
        setenv(MG_ENV_CONCOLIC_NO_REDUCE, "1", 1);
    char **argv = calloc((size_t)(3 * (l->napp_args + 6) + 4), sizeof *argv);
    if (!argv)
        return MG_ERROR_ENOMEM;
    int n = 0;
    push(argv, &n, l->launcher);
    if (l->openmpi)
        push(argv, &n, "--oversubscribe");
    /* One-way instrumentation (the ablation): every rank runs the heavy executable. */
    const char *light = l->one_way ? c->heavy : c->app;
    if (c->focus > 0)
        segment(argv, &n, l, before, light);
    segment(argv, &n, l, "1", c->heavy);
    if (c->np - c->focus - 1 > 0)
        segment(argv, &n, l, after, light);
    command_text(argv, n, r->command, sizeof r->command);
    r->run_id = run_id;
    double t0 = mg_clock_seconds();
    int timed_out = 0;
    int rc = job_run(argv, l->token, output, (int)(timeout_s * 1000), stop_grace_s, &r->status,
                     &timed_out, &r->interrupted, err, errlen);
    double t1 = mg_clock_seconds();
    r->seconds = t1 - t0;
    free(argv);
    if (rc)
        return rc;
    rank_times times = {0};
    read_logs(c, run_id, r, &times);
    split_job(r, &times, c->np, t0, t1);
    r->timed_out = timed_out;
    classify(l, c, timed_out, r);
    if (!timed_out && !r->interrupted && r->status != 0 && !r->ranks_reported && !times.started)
        launcher_refusal(c, r);
    return 0;
}

void concolic_launch_result_free(concolic_launch_result *r)
{
    if (r->have_heavy)
        path_log_free(&r->heavy);
    coverage_set_free(&r->cover);
    for (uint32_t k = 0; k < r->nranks; k++)
        coverage_set_free(&r->rank_cover[k]);
    free(r->rank_cover);
    r->rank_cover = NULL;
    r->nranks = 0;
    r->have_heavy = 0;
}
