/* `mpiguard collectives`: user-side testing of the installed MPI's collectives (the paper's testing
 * scheme): for each collective, type size and process count, the safe bound found by the two-step
 * search (coll_search.h), each test a job of the bundled tester checking every byte it received;
 * for a failure, the verification at (s, 2P) and (2s, P) and Table 4.9's class. Output: the
 * safe-bounds file (bounds_file.h), a table, and a report with a collective_failure finding per
 * bound found (docs/cli.md, docs/collectives.md). */
#include "cli.h"

#include "bounds_file_load.h"
#include "coll_search.h"
#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"
#include "mg_memory.h"
#include "mpi_version.h"
#include "mg_clock.h"
#include "tester_jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most items of a --collectives, --np or --type-size list. */
enum { MAX_ITEMS = 32 };

static const char *const all_collectives =
    "Bcast,Ibcast,Scatter,Iscatter,Scatterv,Iscatterv,Gather,Igather,Gatherv,Igatherv,Allgather,"
    "Iallgather,Allgatherv,Iallgatherv,Alltoall,Ialltoall,Alltoallv,Ialltoallv,Reduce,Ireduce,"
    "Allreduce,Iallreduce,Reduce_scatter,Ireduce_scatter";

typedef struct coll_options {
    const char *collectives, *np, *type_sizes, *memory, *output;
    long f, max_count;
    double time_limit, first_limit;
    int resume, no_costs;
} coll_options;

/* A line of the table: a point's search in this run, or a point kept from the file resumed. */
typedef struct coll_row {
    coll_search_result bound;
    int earlier;
} coll_row;

/* Adds one finding for a bound found. */
static void report_failure(report_doc *report, const bounds_file_entry *e,
                           const coll_search_result *b)
{
    char summary[512];
    snprintf(summary, sizeof summary,
             "MPI_%s fails at s %llu, P %llu past n = %llu (%s at n = %llu): Class %c%s%s",
             e->collective, (unsigned long long)e->type_size, (unsigned long long)e->np,
             (unsigned long long)e->safe_count, coll_search_outcome_name(b->failure),
             (unsigned long long)b->n_fail, e->cls, e->cls == 'G' ? ", form " : "",
             e->cls == 'G' ? e->form : "");
    report_entry *f = report_add_finding(report, "collective_failure", summary);
    if (!f)
        return;
    json_object *ev = report_finding_evidence(f);
    json_object_object_add(ev, "collective", json_object_new_string(e->collective));
    json_object_object_add(ev, "type_size", json_object_new_int64((int64_t)e->type_size));
    json_object_object_add(ev, "np", json_object_new_int64((int64_t)e->np));
    json_object_object_add(ev, "safe_count", json_object_new_int64((int64_t)e->safe_count));
    json_object_object_add(ev, "delta", json_object_new_int64((int64_t)b->delta));
    json_object_object_add(ev, "failing_count", json_object_new_int64((int64_t)b->n_fail));
    json_object_object_add(ev, "failure",
                           json_object_new_string(coll_search_outcome_name(b->failure)));
    char cls[2] = {e->cls, 0};
    json_object_object_add(ev, "class", json_object_new_string(cls));
    report_finding_set_suggestion(f, "run the job under `mpiguard protect --bounds FILE`");
}

static void print_row(const bounds_file_entry *e, const coll_row *row)
{
    const coll_search_result *b = &row->bound;
    char cls[24] = "-";
    if (e->cls == 'G')
        snprintf(cls, sizeof cls, "G %s", e->form);
    else if (e->cls == 'X')
        snprintf(cls, sizeof cls, "X");
    /* the file keeps no delta: an earlier run's is not known */
    char delta[24] = "-";
    if (!row->earlier)
        snprintf(delta, sizeof delta, "%llu", (unsigned long long)b->delta);
    printf("%-25s %3llu %4llu  %-9s %12llu %10s  %-9s %-22s %5d\n", e->collective,
           (unsigned long long)e->type_size, (unsigned long long)e->np, e->status,
           (unsigned long long)e->safe_count, delta, cls,
           row->earlier                       ? "(an earlier run)"
           : b->status == COLL_SEARCH_BOUNDED ? coll_search_outcome_name(b->failure)
           : b->failure == COLL_SEARCH_PASS   ? "none up to max count"
                                              : coll_search_outcome_name(b->failure),
           b->tests);
}

static void print_costs(const bounds_file_doc *doc)
{
    if (!doc->ncosts)
        return;
    printf("\ncost model at each P (ns; byte and copy: ns per byte)\n");
    printf("%4s %10s %8s %8s %10s %12s  %s\n", "P", "call", "byte", "copy", "datatype",
           "communicator", "Allgather stride");
    for (size_t i = 0; i < doc->ncosts; i++) {
        const bounds_file_cost *p = &doc->costs[i];
        printf("%4llu %10.0f %8.4f %8.4f %10.0f %12.0f  %s\n", (unsigned long long)doc->costs[i].np,
               p->call_ns, p->byte_ns, p->copy_byte_ns, p->type_ns, p->comm_ns,
               p->allgather_block_stride ? "yes" : "no");
    }
}

/* The job's MPI and the tester built for it, from the launcher words (the tester stands in for the
 * application while the launcher is identified). */
static int find_tester(tester_jobs *x, mg_mpi_flavor *flavor)
{
    char *words[TESTER_JOBS_MAX_LAUNCHER + 4];
    for (int i = 0; i < x->nlauncher; i++)
        words[i] = x->launcher[i];
    for (int attempt = 0; attempt < 2; attempt++) {
        const char *name = attempt ? "mpich" : "openmpi";
        char rel[64], err[512];
        snprintf(rel, sizeof rel, "bin/mpiguard-coll-tester-%s", name);
        if (cli_install_path(rel, x->tester, sizeof x->tester) != 0)
            return MG_EXIT_SOFTWARE;
        char *tail[] = {"-n", "1", x->tester};
        memcpy(words + x->nlauncher, tail, sizeof tail);
        launcher l;
        int rc = launcher_identify(words, x->nlauncher + 3, &l, err, sizeof err);
        if (rc) {
            mg_log_error("%s", err);
            return rc == MG_ERROR_EUNSUPPORTED ? MG_EXIT_UNAVAILABLE
                   : rc == MG_ERROR_ENOENT     ? MG_EXIT_UNAVAILABLE
                                               : MG_EXIT_USAGE;
        }
        *flavor = launcher_job_flavor(&l, cli_options_mpi());
        if (strcmp(mg_mpi_flavor_name(*flavor), name) == 0) {
            snprintf(rel, sizeof rel, "bin/mpiguard-coll-costs-%s", name);
            return cli_install_path(rel, x->costs, sizeof x->costs) ? MG_EXIT_SOFTWARE : 0;
        }
    }
    mg_log_error("cannot tell which MPI the launcher '%s' runs", x->launcher[0]);
    return MG_EXIT_USAGE;
}

/* Tests one (collective, s, P) and records it in doc and rows (parallel to doc's entries): in
 * place of the point's entry resumed from the file, which a bound found earlier keeps untested,
 * and an earlier run's largest passed n lets the search go on from. */
static void test_point(tester_jobs *x, uint64_t s, uint64_t P, coll_search_opts so,
                       bounds_file_doc *doc, report_doc *report, coll_row *rows)
{
    size_t at;
    if (coll_search_resume(doc->entries, doc->n, x->name, s, P, &at, &so.n_passed) ==
        COLL_SEARCH_RESUME_KEPT) {
        cli_options_say("collectives",
                        "%s s=%llu P=%llu: bounded at n = %llu by an earlier run; not tested again",
                        x->name, (unsigned long long)s, (unsigned long long)P,
                        (unsigned long long)doc->entries[at].safe_count);
        return;
    }
    coll_search_result b;
    coll_search_bound(tester_jobs_test, x, s, P, &so, &b);
    scaling_bounds_class cls = SCALING_BOUNDS_CLASS_X;
    scaling_bounds_form form = SCALING_BOUNDS_FORM_N;
    if (b.status == COLL_SEARCH_BOUNDED)
        coll_search_classify(tester_jobs_test, x, s, P, TESTER_JOBS_MAX_TYPE_SIZE, &b, &cls, &form);
    bounds_file_entry e;
    coll_search_entry(x->name, s, P, &b, cls, form, &e);
    if (b.status == COLL_SEARCH_BOUNDED)
        report_failure(report, &e, &b);
    if (at < doc->n)
        doc->entries[at] = e;
    else if (bounds_file_add(doc, &e) != 0)
        return;
    rows[at] = (coll_row){b, 0};
    /* A search that stopped short of the largest n, or never passed n = 1, says why. */
    const char *why = b.status == COLL_SEARCH_SKIPPED ? "; n = 1: "
                      : b.status == COLL_SEARCH_UNBOUNDED && b.failure != COLL_SEARCH_PASS
                          ? "; next n "
                          : NULL;
    cli_options_say("collectives", "%s s=%llu P=%llu: %s, n = %llu (%d test%s%s%s)", x->name,
                    (unsigned long long)s, (unsigned long long)P, e.status,
                    (unsigned long long)e.safe_count, b.tests, b.tests == 1 ? "" : "s",
                    why ? why : "", why ? coll_search_outcome_name(b.failure) : "");
}

static int save(const char *output, const bounds_file_doc *doc, report_doc *report)
{
    char err[1024];
    if (bounds_file_write(output, doc, err, sizeof err) != 0) {
        mg_log_error("%s", err);
        return MG_EXIT_CANTCREAT;
    }
    return cli_session_report_write(report);
}

static const char usage[] =
    "mpiguard collectives [--collectives LIST] [--np P,...] [--type-size S,...] [--f F] "
    "[--memory-limit BYTES] [--time-limit SECONDS] [--max-count N] [--output FILE] "
    "[--resume] [--no-costs] -- <launcher> [<launcher options>]";

/* Parses the command line into o and args, *done when it only asked for help. Returns 0 or the
 * exit status of a usage error (said). */
static int parse_options(int argc, char **argv, coll_options *o, mg_options_parsed_args *args,
                         int *done)
{
    const mg_options_option options[] = {
        {"collectives", 0, MG_OPTIONS_STRING, &o->collectives, "LIST",
         "collectives to test, e.g. Gatherv,Igather,Gatherv_c,Alltoall_inplace (default: all 24 "
         "of Table V; the large-count _c forms, which bound W3, and the calls with MPI_IN_PLACE "
         "where named)",
         NULL, 0, 0},
        {"np", 0, MG_OPTIONS_STRING, &o->np, "P,...", "process counts (default 2,4)", NULL, 0, 0},
        {"type-size", 0, MG_OPTIONS_STRING, &o->type_sizes, "S,...",
         "element sizes in bytes, of 1 2 4 8 (default: 1, and 4 for the reductions, as the paper)",
         NULL, 0, 0},
        {"f", 0, MG_OPTIONS_INT, &o->f, "F", "refinement steps: delta = n's / F (default 16)", NULL,
         1, 1 << 20},
        {"memory-limit", 0, MG_OPTIONS_STRING, &o->memory, "BYTES",
         "skip tests that need more (K/M/G suffixes; default 80% of MemAvailable)", NULL, 0, 0},
        {"time-limit", 0, MG_OPTIONS_DOUBLE, &o->time_limit, "SECONDS",
         "total time budget; what is found by then is kept (default: none)", NULL, 0, 1e9},
        {"first-test-limit", 0, MG_OPTIONS_DOUBLE, &o->first_limit, "SECONDS",
         "time limit of the first test; later ones get 10x the previous test's time (default 60)",
         NULL, 1, 1e6},
        {"max-count", 0, MG_OPTIONS_INT, &o->max_count, "N", "largest n tried (default INT_MAX)",
         NULL, 1, 2147483647},
        {"output", 'o', MG_OPTIONS_STRING, &o->output, "FILE",
         "the safe-bounds file (default mpiguard-bounds.json)", NULL, 0, 0},
        {"resume", 0, MG_OPTIONS_FLAG, &o->resume, NULL,
         "go on from the safe-bounds file --output names, measured on this MPI: its bounded "
         "points are kept untested, its unbounded ones tested on from twice their n (give a "
         "--first-test-limit that covers a test there), the others from n = 1; its other points "
         "stay in it",
         NULL, 0, 0},
        {"no-costs", 0, MG_OPTIONS_FLAG, &o->no_costs, NULL,
         "do not measure the cost model at each P (a job of a few seconds per P, after the "
         "searches); "
         "`mpiguard protect` then chooses workarounds by its defaults",
         NULL, 0, 0},
        {NULL, 0, 0, NULL, NULL, NULL, NULL, 0, 0},
    };
    return cli_options_parse(
        usage,
        "Find the safe bounds of the installed MPI's collectives: each test is a job\n"
        "of the bundled tester that checks every byte it received. Writes the\n"
        "safe-bounds file that `mpiguard protect --bounds` reads.",
        options, argc, argv, CLI_COMMAND, NULL, 0, args, done);
}

/* The lists the command line names, parsed: collectives, process counts, type sizes. */
typedef struct coll_lists {
    char colls_text[1024], np_text[256], s_text[64], *names[MAX_ITEMS];
    uint64_t nps[MAX_ITEMS], sizes[MAX_ITEMS];
    int ncoll, nnp, ns;
    int any_large; /* a large-count `_c` form is named */
} coll_lists;

/* Parses --collectives, --np and --type-size into l. Returns 0 or MG_EXIT_USAGE (said). */
static int parse_lists(const coll_options *o, coll_lists *l)
{
    snprintf(l->colls_text, sizeof l->colls_text, "%s",
             o->collectives ? o->collectives : all_collectives);
    snprintf(l->np_text, sizeof l->np_text, "%s", o->np);
    snprintf(l->s_text, sizeof l->s_text, "%s", o->type_sizes ? o->type_sizes : "1");
    l->ncoll = mg_options_list(l->colls_text, l->names, MAX_ITEMS);
    l->nnp = mg_options_numbers(l->np_text, l->nps, MAX_ITEMS, 1, 4096);
    l->ns = mg_options_numbers(l->s_text, l->sizes, MAX_ITEMS, 1, TESTER_JOBS_MAX_TYPE_SIZE);
    for (int i = 0; i < l->ns; i++)
        if (l->sizes[i] & (l->sizes[i] - 1))
            l->ns = -1;
    l->any_large = 0;
    for (int i = 0; i < l->ncoll; i++) {
        scaling_coll coll;
        int nb, large, in_place;
        if (scaling_coll_from_name(l->names[i], &coll, &nb, &large, &in_place) != 0) {
            mg_log_error("unknown collective '%s' (one of %s, their large-count forms such as "
                         "Gatherv_c, or their calls with MPI_IN_PLACE such as Alltoall_inplace)",
                         l->names[i], all_collectives);
            return MG_EXIT_USAGE;
        }
        l->any_large |= large;
    }
    if (l->ncoll <= 0 || l->nnp <= 0 || l->ns <= 0) {
        mg_log_error("bad --collectives, --np or --type-size list (type sizes: 1, 2, 4 or 8)");
        return MG_EXIT_USAGE;
    }
    return 0;
}

/* Finds the tester of the launcher's MPI and fills doc with the MPI's name and version (with
 * --resume, after the points of the file). Returns 0, or the exit status (said): the tester
 * missing, large-count forms named that the MPI does not have, a file that cannot be resumed. */
static int prepare(tester_jobs *x, const coll_options *o, int any_large, bounds_file_doc *doc)
{
    mg_mpi_flavor flavor;
    int rc = find_tester(x, &flavor);
    if (rc)
        return rc;
    int have_large = 0;
    if (any_large && (mpi_large_count_of(flavor, &have_large) != 0 || have_large == 0)) {
        char version[32] = "";
        mpi_version_of(flavor, version, sizeof version);
        mg_log_error("--collectives names large-count forms (_c), which %s %s does not have (no "
                     "MPI-4 large-count collectives)",
                     mg_mpi_flavor_name(flavor), version[0] ? version : "(version unknown)");
        return MG_EXIT_UNAVAILABLE;
    }
    if (o->resume && (rc = bounds_file_load(o->output, flavor, doc)))
        return rc;
    snprintf(doc->flavor, sizeof doc->flavor, "%s", mg_mpi_flavor_name(flavor));
    if (mpi_version_of(flavor, doc->version, sizeof doc->version) != 0)
        snprintf(doc->version, sizeof doc->version, "unknown");
    return 0;
}

/* Searches every point the lists name (a row each in rows), saving the file after each, then
 * measures the cost model at each P (unless --no-costs). Stops early when interrupted. Returns 0
 * or the status of a failed save. */
static int search_all(tester_jobs *x, const coll_options *o, const coll_lists *l,
                      bounds_file_doc *doc, report_doc *report, coll_row *rows)
{
    coll_search_opts so = {(uint64_t)o->f, (uint64_t)o->max_count, o->first_limit, 10.0, 0};
    int rc, nb, large;
    for (int c = 0; c < l->ncoll && !x->interrupted; c++) {
        x->name = l->names[c];
        scaling_coll_from_name(l->names[c], &x->coll, &nb, &large, &x->in_place);
        int reduction = scaling_coll_get(x->coll)->reduction;
        for (int i = 0; i < (o->type_sizes ? l->ns : 1); i++)
            for (int p = 0; p < l->nnp && !x->interrupted; p++) {
                uint64_t s = o->type_sizes ? l->sizes[i] : reduction ? 4 : 1;
                test_point(x, s, l->nps[p], so, doc, report, rows);
                if ((rc = save(o->output, doc, report)))
                    return rc;
            }
    }
    /* After the searches: the time budget goes to the bounds first. */
    for (int p = 0; p < l->nnp && !o->no_costs; p++)
        tester_jobs_measure_costs(x, l->nps[p], doc);
    return save(o->output, doc, report);
}

/* The table of the bounds (and the cost model) on stdout. */
static void print_table(const bounds_file_doc *doc, const coll_row *rows)
{
    printf(
        "MPI %s %s: safe bounds (n per process; G: Class G with its detector form, X: Class X)\n",
        doc->flavor, doc->version);
    /* class: up to "G sn(P-1)" */
    printf("%-25s %3s %4s  %-9s %12s %10s  %-9s %-22s %5s\n", "collective", "s", "P", "status",
           "n_s", "delta", "class", "failure", "tests");
    for (size_t i = 0; i < doc->n; i++)
        print_row(&doc->entries[i], &rows[i]);
    print_costs(doc);
}

int cmd_collectives(int argc, char **argv)
{
    coll_options o = {NULL, "2,4", NULL, NULL, "mpiguard-bounds.json", 16, 2147483647, 0, 60, 0, 0};
    mg_options_parsed_args args;
    int done;
    int rc = parse_options(argc, argv, &o, &args, &done);
    if (rc || done)
        return rc;
    coll_lists l;
    if ((rc = parse_lists(&o, &l)))
        return rc;
    if (args.ncommand > TESTER_JOBS_MAX_LAUNCHER)
        return cli_options_refuse(usage, "the launcher takes at most %d words after '--'",
                                  TESTER_JOBS_MAX_LAUNCHER);
    tester_jobs x = {
        .launcher = args.command, .nlauncher = args.ncommand, .quiet = cli_options.quiet};
    x.memory_limit = mg_memory_available() / 10 * 8;
    if (o.memory && mg_options_bytes(o.memory, &x.memory_limit) != 0) {
        mg_log_error("bad --memory-limit '%s' (bytes, with an optional K, M, G suffix)", o.memory);
        return MG_EXIT_USAGE;
    }
    bounds_file_doc doc = {0};
    if ((rc = prepare(&x, &o, l.any_large, &doc))) {
        bounds_file_free(&doc);
        return rc;
    }
    report_doc *report = cli_session_report_create("collectives");
    coll_row *rows = calloc(doc.n + (size_t)(l.ncoll * l.nnp * l.ns), sizeof *rows);
    rc = report && rows ? MG_ERROR_OK : MG_EXIT_SOFTWARE;
    if (!rc) {
        report_set_mpi(report, doc.flavor, x.launcher[0], NULL);
        for (size_t i = 0; i < doc.n; i++)
            rows[i].earlier = 1;
        rc = save(o.output, &doc, report);
    }
    rc = rc ? rc : tester_jobs_open_logs(&x, o.output);
    if (!rc) {
        job_install_signal_handlers();
        x.deadline = o.time_limit > 0 ? mg_clock_seconds() + o.time_limit : 0;
        rc = search_all(&x, &o, &l, &doc, report, rows);
    }
    if (!rc) {
        print_table(&doc, rows);
        rc = x.interrupted ? MG_EXIT_SIGNAL_BASE + x.interrupted : 0;
    }
    tester_jobs_close_logs(&x);
    free(rows);
    bounds_file_free(&doc);
    report_destroy(report);
    return rc;
}
