/* Bugs and coverage of a `mpiguard concolic` campaign (concolic_report.h). */
#include "concolic_report.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void bug_key(const concolic_result *r, char *key, size_t len)
{
    if (r->outcome == CONCOLIC_SIGNAL || r->outcome == CONCOLIC_ASSERTION)
        snprintf(key, len, "%s:%d:%s", concolic_outcome_name(r->outcome), r->signal,
                 r->where[0] ? r->where : "?");
    else
        snprintf(key, len, "%s", concolic_outcome_name(r->outcome));
}

static void write_reproducer(const concolic_campaign *c, const concolic_result *r,
                             const int64_t *inputs, size_t ninputs, uint32_t np, uint32_t focus,
                             const char *key)
{
    char dir[2200], path[2300];
    concolic_campaign_path(c, "bugs", dir, sizeof dir);
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/bug-%zu.txt", dir, c->nbugs);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "outcome %s\nkey %s\nnp %u\nfocus %u\nrank %d\nwhere %s\ndetail %s\ninputs",
            concolic_outcome_name(r->outcome), key, np, focus, r->rank, r->where, r->detail);
    for (size_t i = 0; i < ninputs; i++)
        fprintf(f, " %" PRId64, inputs[i]);
    fprintf(f, "\n# the inputs file holds one value per line, in marking order\ncommand %s\n",
            r->command);
    fclose(f);
}

int concolic_report_bug(concolic_campaign *c, const concolic_result *r, const int64_t *inputs,
                        size_t ninputs, uint32_t np, uint32_t focus, uint64_t iteration,
                        mg_report *rep)
{
    char key[1200], summary[1600];
    if (!concolic_outcome_is_bug(r->outcome))
        return 0;
    bug_key(r, key, sizeof key);
    if (concolic_campaign_add_bug(c, key))
        return 0;
    write_reproducer(c, r, inputs, ninputs, np, focus, key);
    snprintf(summary, sizeof summary, "%s%s%s with %u processes, focus %u, rank %d%s%s",
             concolic_outcome_name(r->outcome), r->where[0] ? " at " : "", r->where, np, focus,
             r->rank, r->detail[0] ? ": " : "", r->detail);
    mg_finding *f = rep ? mg_report_add_finding(rep, "concolic_bug", "error", summary) : NULL;
    if (f) {
        json_object *ev = mg_finding_evidence(f), *in = json_object_new_array();
        for (size_t i = 0; i < ninputs; i++)
            json_object_array_add(in, json_object_new_int64(inputs[i]));
        json_object_object_add(ev, "outcome", json_object_new_string(concolic_outcome_name(r->outcome)));
        json_object_object_add(ev, "inputs", in);
        json_object_object_add(ev, "np", json_object_new_int((int)np));
        json_object_object_add(ev, "focus", json_object_new_int((int)focus));
        json_object_object_add(ev, "signal", json_object_new_int(r->signal));
        json_object_object_add(ev, "command", json_object_new_string(r->command));
        json_object_object_add(ev, "iteration", json_object_new_int64((int64_t)iteration));
        json_object_object_add(ev, "key", json_object_new_string(key));
        if (r->rank >= 0)
            mg_finding_add_rank(f, r->rank);
        char file[1024];
        snprintf(file, sizeof file, "%s", r->where);
        char *colon = strrchr(file, ':');
        if (colon)
            *colon = 0;
        if (r->where[0])
            mg_finding_add_site(f, r->rank, NULL, file, colon ? atoi(colon + 1) : 0);
        mg_finding_print_banner(f, stderr);
    }
    return 1;
}

void concolic_report_run(const concolic_campaign *c, const concolic_result *r,
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
            concolic_outcome_name(r->outcome), concolic_report_covered(c), r->seconds);
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

/* Prints "name covered/total" for every distinct value of field (file or function). */
static void group(const concolic_campaign *c, FILE *out, int by_file)
{
    char *done = calloc(c->nbranches + 1, 1);
    for (uint32_t i = 0; done && i < c->nbranches; i++) {
        if (done[i])
            continue;
        const char *name = by_file ? c->branches[i].file : c->branches[i].function;
        size_t cov = 0, tot = 0;
        for (uint32_t j = i; j < c->nbranches; j++) {
            const char *other = by_file ? c->branches[j].file : c->branches[j].function;
            if (strcmp(name, other))
                continue;
            done[j] = 1;
            tot += 2;
            cov += coverage_set_contains(&c->covered, coverage_arm(j, 0)) +
                   coverage_set_contains(&c->covered, coverage_arm(j, 1));
        }
        fprintf(out, "  %-40s %zu/%zu arms\n", name, cov, tot);
    }
    free(done);
}

void concolic_report_coverage(const concolic_campaign *c, FILE *out)
{
    fprintf(out, "coverage: %zu of %u branch arms after %" PRIu64 " iterations, %zu bugs\n",
            concolic_report_covered(c), 2 * c->nbranches, c->iterations, c->nbugs);
    fprintf(out, "per file:\n");
    group(c, out, 1);
    fprintf(out, "per function:\n");
    group(c, out, 0);
    fprintf(out, "uncovered arms:\n");
    for (uint32_t i = 0; i < c->nbranches; i++)
        for (int t = 1; t >= 0; t--)
            if (!coverage_set_contains(&c->covered, coverage_arm(i, t)))
                fprintf(out, "  %s:%d %s %s %s\n", c->branches[i].file, c->branches[i].line,
                        c->branches[i].function, c->branches[i].arm, t ? "true" : "false");
}
