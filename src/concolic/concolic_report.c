/* Bugs and coverage of a `mpiguard concolic` campaign (concolic_report.h). */
#include "concolic_report.h"

#include "mg_env.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bugs are one per class and site: a crash's signal and line, a hang's places, an MPI error's
 * rank's last branch (none when the library ended the job without a rank's word: class alone). */
static void bug_key(const concolic_launch_result *r, char *key, size_t len)
{
    if (r->outcome == CONCOLIC_LAUNCH_SIGNAL || r->outcome == CONCOLIC_LAUNCH_ASSERTION)
        snprintf(key, len, "%s:%d:%s", concolic_launch_outcome_name(r->outcome), r->signal,
                 r->where[0] ? r->where : "?");
    else if (r->where[0])
        snprintf(key, len, "%s:%s", concolic_launch_outcome_name(r->outcome), r->where);
    else
        snprintf(key, len, "%s", concolic_launch_outcome_name(r->outcome));
}

static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    char buf[4096];
    size_t n;
    int bad = !out;
    while (out && (n = fread(buf, 1, sizeof buf, in)) > 0)
        bad |= fwrite(buf, 1, n, out) != n;
    if (out && fclose(out))
        bad = 1;
    if (in)
        fclose(in);
    return bad;
}

/* The reproducer: the run's inputs file (every rank reads the same one) kept as bug-N.inputs,
 * and one shell command that runs the job again as it ran, its logs and outcomes going to
 * bug-N.run so the campaign's own run directory is left alone. */
static void reproducer_command(const concolic_launch_result *r, const char *inputs,
                               const char *run_dir, char *out, size_t len)
{
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        snprintf(cwd, sizeof cwd, ".");
    size_t at = (size_t)snprintf(out, len, "cd");
    at += concolic_launch_shell_word(out + at, at < len ? len - at : 0, cwd);
    at += (size_t)snprintf(out + at, at < len ? len - at : 0, " && mkdir -p");
    at += concolic_launch_shell_word(out + at, at < len ? len - at : 0, run_dir);
    at += (size_t)snprintf(out + at, at < len ? len - at : 0, " && env");
    const char *const vars[][2] = {{MG_ENV_CONCOLIC_DIR "=", run_dir},
                                   {MG_ENV_CONCOLIC_INPUTS "=", inputs}};
    for (size_t k = 0; k < 2; k++) {
        char word[PATH_MAX + 64];
        snprintf(word, sizeof word, "%s%s", vars[k][0], vars[k][1]);
        at += concolic_launch_shell_word(out + at, at < len ? len - at : 0, word);
    }
    at += (size_t)snprintf(out + at, at < len ? len - at : 0,
                           " MPIGUARD_CONCOLIC_RUN_ID=%" PRIu64 "%s", r->run_id, r->command);
}

/* Input i as the bug file shows it: a float input (by the focus's declarations) as its double. */
static void print_input(FILE *f, const concolic_launch_result *r, size_t i, int64_t v)
{
    for (uint32_t k = 0; r->have_heavy && k < r->heavy.nvars; k++)
        if (!sym_var_is_mpi(r->heavy.vars[k].kind) && i-- == 0 &&
            sym_var_is_float(r->heavy.vars[k].kind)) {
            fprintf(f, " %.17g", sym_var_real_value(v));
            return;
        }
    fprintf(f, " %" PRId64, v);
}

static void write_reproducer(const concolic_campaign *c, const concolic_launch_result *r,
                             const int64_t *inputs, size_t ninputs, uint32_t np, uint32_t focus,
                             const char *key, char *command, size_t command_len)
{
    char dir[2200], inputs_file[PATH_MAX + 32], path[PATH_MAX + 32], run_inputs[2200],
        abs_dir[PATH_MAX];
    concolic_campaign_path(c, "bugs", dir, sizeof dir);
    mkdir(dir, 0755);
    if (!realpath(dir, abs_dir))
        snprintf(abs_dir, sizeof abs_dir, "%s", dir);
    snprintf(inputs_file, sizeof inputs_file, "%s/bug-%zu.inputs", abs_dir, c->nbugs);
    concolic_campaign_path(c, "run/inputs", run_inputs, sizeof run_inputs);
    int kept = !copy_file(run_inputs, inputs_file);
    snprintf(path, sizeof path, "%s/bug-%zu.run", abs_dir, c->nbugs);
    reproducer_command(r, inputs_file, path, command, command_len);
    snprintf(path, sizeof path, "%s/bug-%zu.txt", dir, c->nbugs);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "outcome %s\nkey %s\nnp %u\nfocus %u\nrank %d\nwhere %s\ndetail %s\ninputs",
            concolic_launch_outcome_name(r->outcome), key, np, focus, r->rank, r->where, r->detail);
    for (size_t i = 0; i < ninputs; i++)
        print_input(f, r, i, inputs[i]);
    fprintf(f,
            "\ninputs_file %s\n# inputs: the focus's values in marking order (a float input as its "
            "double); inputs_file: what every rank read (a float input as its double's bits)\n"
            "command %s\n",
            kept ? inputs_file : "(could not be kept)", command);
    fclose(f);
}

int concolic_report_bug(concolic_campaign *c, const concolic_launch_result *r,
                        const int64_t *inputs, size_t ninputs, uint32_t np, uint32_t focus,
                        uint64_t iteration, report_doc *rep)
{
    char key[1200], summary[1600];
    if (!concolic_launch_outcome_is_bug(r->outcome))
        return 0;
    bug_key(r, key, sizeof key);
    if (concolic_campaign_add_bug(c, key))
        return 0;
    char command[sizeof r->command + 3 * PATH_MAX];
    write_reproducer(c, r, inputs, ninputs, np, focus, key, command, sizeof command);
    snprintf(summary, sizeof summary, "%s%s%s with %u processes, focus %u, rank %d%s%s",
             concolic_launch_outcome_name(r->outcome), r->where[0] ? " at " : "", r->where, np,
             focus, r->rank, r->detail[0] ? ": " : "", r->detail);
    report_entry *f = rep ? report_add_finding(rep, "concolic_bug", summary) : NULL;
    if (f) {
        json_object *ev = report_finding_evidence(f), *in = json_object_new_array();
        for (size_t i = 0; i < ninputs; i++)
            json_object_array_add(in, json_object_new_int64(inputs[i]));
        json_object_object_add(ev, "outcome",
                               json_object_new_string(concolic_launch_outcome_name(r->outcome)));
        json_object_object_add(ev, "inputs", in);
        json_object_object_add(ev, "np", json_object_new_int((int)np));
        json_object_object_add(ev, "focus", json_object_new_int((int)focus));
        json_object_object_add(ev, "signal", json_object_new_int(r->signal));
        json_object_object_add(ev, "command", json_object_new_string(command));
        json_object_object_add(ev, "iteration", json_object_new_int64((int64_t)iteration));
        json_object_object_add(ev, "key", json_object_new_string(key));
        if (r->rank >= 0)
            report_finding_add_rank(f, r->rank);
        char file[1024];
        snprintf(file, sizeof file, "%s", r->where);
        char *colon = strrchr(file, ':');
        if (colon)
            *colon = 0;
        if (r->where[0])
            report_finding_add_site(f, r->rank, NULL, file, colon ? atoi(colon + 1) : 0);
        report_render_finding_banner(f, stderr);
    }
    return 1;
}

void concolic_report_run(const concolic_campaign *c, const concolic_launch_result *r,
                         const int64_t *inputs, size_t ninputs, uint32_t np, uint32_t focus,
                         double solve_s)
{
    char path[2200];
    concolic_campaign_path(c, "runs.tsv", path, sizeof path);
    FILE *f = fopen(path, "a");
    if (!f)
        return;
    if (fseek(f, 0, SEEK_END) == 0 && ftell(f) == 0)
        fprintf(f, "# iteration\tnp\tfocus\toutcome\tarms\tjob_s\tlaunch_s\trun_s\tteardown_s"
                   "\tsolve_s\tinputs\n");
    fprintf(f, "%" PRIu64 "\t%u\t%u\t%s\t%zu\t%.4f\t", c->iterations, np, focus,
            concolic_launch_outcome_name(r->outcome), concolic_report_covered(c), r->seconds);
    if (r->split)
        fprintf(f, "%.4f\t%.4f\t%.4f\t", r->launch_s, r->run_s, r->teardown_s);
    else
        fprintf(f, "-\t-\t-\t");
    fprintf(f, "%.5f\t", solve_s);
    for (size_t i = 0; i < ninputs; i++)
        fprintf(f, "%s%" PRId64, i ? " " : "", inputs[i]);
    fprintf(f, "\n");
    fclose(f);
}

size_t concolic_report_covered(const concolic_campaign *c)
{
    size_t n = 0;
    for (size_t i = 0; i < c->covered.n; i++)
        n += c->covered.arms[i] < 2 * c->nbranches;
    return n;
}

/* Arms covered and in all, for one file or function. */
typedef struct cov_group {
    const char *name;
    size_t covered, total;
} cov_group;

/* The campaign's arms grouped by file (by_file) or by function, in the order of the branch table;
 * NULL when memory ran out. */
static cov_group *group(const concolic_campaign *c, int by_file, size_t *n)
{
    cov_group *g = calloc(c->nbranches + 1, sizeof *g);
    *n = 0;
    for (uint32_t i = 0; g && i < c->nbranches; i++) {
        const char *name = by_file ? c->branches[i].file : c->branches[i].function;
        size_t k = 0;
        while (k < *n && strcmp(g[k].name, name))
            k++;
        if (k == *n)
            g[(*n)++] = (cov_group){name, 0, 0};
        g[k].total += 2;
        g[k].covered += (size_t)coverage_set_contains(&c->covered, coverage_arm(i, 0)) +
                        (size_t)coverage_set_contains(&c->covered, coverage_arm(i, 1));
    }
    return g;
}

static void print_groups(const concolic_campaign *c, FILE *out, int by_file)
{
    size_t n;
    cov_group *g = group(c, by_file, &n);
    for (size_t k = 0; g && k < n; k++)
        fprintf(out, "  %-40s %zu/%zu arms\n", g[k].name, g[k].covered, g[k].total);
    free(g);
}

void concolic_report_coverage(const concolic_campaign *c, FILE *out)
{
    fprintf(out, "coverage: %zu of %u branch arms after %" PRIu64 " iterations, %zu bugs\n",
            concolic_report_covered(c), 2 * c->nbranches, c->iterations, c->nbugs);
    fprintf(out, "per file:\n");
    print_groups(c, out, 1);
    fprintf(out, "per function:\n");
    print_groups(c, out, 0);
    /* The branch id tells apart the arms of one line (a && b, a loop's test and its body's). */
    fprintf(out, "uncovered arms (file:line function branch-id arm):\n");
    for (uint32_t i = 0; i < c->nbranches; i++)
        for (int t = 1; t >= 0; t--)
            if (!coverage_set_contains(&c->covered, coverage_arm(i, t)))
                fprintf(out, "  %s:%d %s b%u %s %s\n", c->branches[i].file, c->branches[i].line,
                        c->branches[i].function, i, c->branches[i].arm, t ? "true" : "false");
}

void concolic_report_coverage_json(const concolic_campaign *c, json_object *data)
{
    static const char *const keys[] = {"coverage_by_function", "coverage_by_file"};
    for (int by_file = 0; by_file < 2; by_file++) {
        size_t n;
        cov_group *g = group(c, by_file, &n);
        json_object *arr = json_object_new_array();
        for (size_t k = 0; g && k < n; k++) {
            json_object *o = json_object_new_object();
            json_object_object_add(o, by_file ? "file" : "function",
                                   json_object_new_string(g[k].name));
            json_object_object_add(o, "arms_covered", json_object_new_int64((int64_t)g[k].covered));
            json_object_object_add(o, "arms_total", json_object_new_int64((int64_t)g[k].total));
            json_object_array_add(arr, o);
        }
        free(g);
        json_object_object_add(data, keys[by_file], arr);
    }
}

void concolic_report_runs_restart(const concolic_campaign *c)
{
    char path[2200];
    concolic_campaign_path(c, "runs.tsv", path, sizeof path);
    unlink(path);
}

static double per_run(double total, uint64_t runs)
{
    return runs ? total / (double)runs : 0;
}

void concolic_report_cost(const concolic_loop_cost *k, double total_s, FILE *out)
{
    fprintf(out,
            "cost: %" PRIu64 " runs in %.1f s: job %.3f s/run = launch %.3f + run %.3f + teardown "
            "%.3f s/run (split known for %" PRIu64 " runs), solve %.4f s/run (%" PRIu64
            " queries, %" PRIu64 " sat, %" PRIu64
            " over the time limit), logs %.0f bytes/run, %" PRIu64
            " restarts from random inputs, %" PRIu64 " leaves of a stalled subtree, %" PRIu64
            " moves to another process count, %" PRIu64 " tuning checks, %" PRIu64
            " repeats (solutions skipped as runs already made) = %" PRIu64
            " of a refused run + %" PRIu64 " keeping refused inputs + %" PRIu64
            " with no other tuned solution (%" PRIu64
            " leaving the negated path's own run unchanged), %" PRIu64
            " re-tuned past runs already made, %" PRIu64 " runs from float solutions (%" PRIu64
            " missed their arm)\n",
            k->runs, total_s, per_run(k->job_s, k->runs), per_run(k->launch_s, k->split_runs),
            per_run(k->run_s, k->split_runs), per_run(k->teardown_s, k->split_runs), k->split_runs,
            per_run(k->solve_s, k->runs), k->solves, k->sat, k->query_timeouts,
            per_run((double)k->log_bytes, k->runs), k->restarts, k->leaves, k->moves,
            k->tuning_checks, k->repeats, k->repeat_cause[SEARCH_SESSION_REPEAT_REFUSED],
            k->repeat_cause[SEARCH_SESSION_REPEAT_REJECTED],
            k->repeat_cause[SEARCH_SESSION_REPEAT_EXHAUSTED], k->repeat_unchanged, k->retunes,
            k->float_solutions, k->float_missed);
}

static void add_double(json_object *o, const char *key, double v)
{
    json_object_object_add(o, key, json_object_new_double(v));
}

static void add_count(json_object *o, const char *key, uint64_t v)
{
    json_object_object_add(o, key, json_object_new_int64((int64_t)v));
}

void concolic_report_data(report_doc *rep, const concolic_campaign *c, const concolic_loop_cost *k)
{
    json_object *data = report_tool_data(rep), *cost = json_object_new_object();
    add_count(data, "iterations", c->iterations);
    add_count(data, "arms_covered", concolic_report_covered(c));
    add_count(data, "arms_total", 2 * (uint64_t)c->nbranches);
    add_count(cost, "runs", k->runs);
    add_count(cost, "split_runs", k->split_runs);
    add_double(cost, "job_s_per_run", per_run(k->job_s, k->runs));
    add_double(cost, "launch_s_per_run", per_run(k->launch_s, k->split_runs));
    add_double(cost, "run_s_per_run", per_run(k->run_s, k->split_runs));
    add_double(cost, "teardown_s_per_run", per_run(k->teardown_s, k->split_runs));
    add_double(cost, "solve_s_per_run", per_run(k->solve_s, k->runs));
    add_count(cost, "queries", k->solves);
    add_count(cost, "query_timeouts", k->query_timeouts);
    add_count(cost, "leaves", k->leaves);
    add_count(cost, "moves", k->moves);
    add_count(cost, "tuning_checks", k->tuning_checks);
    add_count(cost, "repeats", k->repeats);
    add_count(cost, "retunes", k->retunes);
    add_count(cost, "float_solutions", k->float_solutions);
    add_count(cost, "float_missed", k->float_missed);
    json_object_object_add(data, "cost", cost);
    concolic_report_coverage_json(c, data);
}
