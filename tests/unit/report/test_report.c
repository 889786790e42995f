/* Unit tests of the report writer, loader and renderers. */
#include "mg_error.h"
#include "mg_test.h"
#include "rank_observe.h"
#include "dl_finding.h"
#include "report.h"
#include "report_class.h"
#include "usage_args.h"

#include <ctype.h>

#include <stdlib.h>
#include <unistd.h>

static char dir[] = "/tmp/mg-test-report-XXXXXX";

static char *path_in_dir(const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

static report_doc *sample_report(void)
{
    char *cmd[] = {"mpiguard", "hang", "--", "mpirun", "-n", "4", "./app"};
    report_doc *r = report_create("hang", "0.1.0", cmd, 7);
    report_set_mpi(r, "openmpi", "/usr/bin/orterun", "/x/libmpiguard-openmpi.so");
    for (int i = 0; i < 4; i++)
        report_add_rank(r, i, 100 + i, "node1");
    report_entry *f = report_add_finding(r, "hang", "rank 3 is computing in solve()");
    report_finding_add_rank(f, 3);
    report_finding_add_site(f, 3, "solve", "solver.c", 88);
    report_finding_set_suggestion(f, "look at the loop in solve()");
    json_object_object_add(report_finding_evidence(f), "hang_type",
                           json_object_new_string("computation"));
    report_finding_add_graph_node(f, "p0", "rank 0 \"main\"", "box");
    report_finding_add_graph_node(f, "p1", "rank 1", "box");
    report_finding_highlight_graph_node(f, "p1");
    report_finding_add_graph_edge(f, "p0", "p1", "dashed");
    report_set_exit(r, 81, "stopped");
    return r;
}

static char *render(void (*fn)(const report_doc *, FILE *), const report_doc *r)
{
    static char buf[8192];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    fn(r, f);
    fclose(f);
    return buf;
}

static void writes_and_loads_back(void)
{
    report_doc *r = sample_report();
    char err[256];
    MG_CHECK_INT(report_write(r, path_in_dir("r.json"), err, sizeof err), MG_ERROR_OK);
    report_doc *back;
    MG_CHECK_INT(report_load(path_in_dir("r.json"), &back, err, sizeof err), MG_ERROR_OK);
    MG_CHECK_INT(report_finding_count(back), 1);
    json_object *f = report_finding(back, 0), *v;
    MG_CHECK(json_object_object_get_ex(f, "kind", &v));
    MG_CHECK_STR(json_object_get_string(v), "hang");
    MG_CHECK(json_object_object_get_ex(report_finding_evidence(f), "hang_type", &v));
    MG_CHECK_STR(json_object_get_string(v), "computation");
    report_destroy(back);
    report_destroy(r);
}

static void write_failure_keeps_the_old_file(void)
{
    report_doc *r = sample_report();
    char err[256];
    MG_CHECK_INT(report_write(r, "/nonexistent-dir/r.json", err, sizeof err), MG_ERROR_EIO);
    MG_CHECK(strstr(err, "/nonexistent-dir/r.json") != NULL);
    report_destroy(r);
}

static void renders_text_banner_and_dot(void)
{
    report_doc *r = sample_report();
    char *text = render(report_render_text, r);
    MG_CHECK(strstr(text, "job: 4 ranks found (0-3), exit status 81, stopped") != NULL);
    MG_CHECK(strstr(text, "[1] error hang: rank 3 is computing in solve()") != NULL);
    MG_CHECK(strstr(text, "rank 3: solve() at solver.c:88") != NULL);
    MG_CHECK(strstr(text, "suggestion: look at the loop") != NULL);
    MG_CHECK(strstr(text, "detector:") == NULL); /* only a check report says how it checked */
    json_object *detector = json_object_new_object();
    json_object_object_add(detector, "leaves", json_object_new_int(4));
    json_object_object_add(detector, "levels", json_object_new_int(2));
    json_object_object_add(report_tool_data(r), "detector", detector);
    text = render(report_render_text, r);
    MG_CHECK(strstr(text, "\ndetector: a tree of 2 levels, 4 leaves under the root\n") != NULL);
    char *dot = render(report_render_dot, r);
    MG_CHECK(strstr(dot, "\"f1_p0\" -> \"f1_p1\" [style=\"dashed\"]") != NULL);
    MG_CHECK(strstr(dot, "rank 0 \\\"main\\\"") != NULL);
    MG_CHECK(
        strstr(dot,
               "\"f1_p1\" [label=\"rank 1\", shape=\"box\", style=filled, fillcolor=lightgray]") !=
        NULL);
    char banner[512];
    FILE *f = fmemopen(banner, sizeof banner, "w");
    report_render_finding_banner(report_finding(r, 0), f);
    fclose(f);
    MG_CHECK_STR(banner, "mpiguard: ERROR HANG rank 3 is computing in solve()\n"
                         "mpiguard:   rank 3: solve() at solver.c:88\n");
    report_finding_add_site(report_finding(r, 0), 2, "MPI_Recv", NULL, 0);
    f = fmemopen(banner, sizeof banner, "w");
    report_render_finding_banner(report_finding(r, 0), f);
    fclose(f);
    MG_CHECK(strstr(banner, "mpiguard:   rank 2: MPI_Recv() at an unknown source line\n") != NULL);
    report_destroy(r);
}

static void replaces_a_finding(void)
{
    report_doc *r = sample_report();
    MG_CHECK(report_replace_finding(r, 1, "hang", "no such finding") == NULL);
    report_entry *f = report_replace_finding(r, 0, "collective_mismatch", "ranks 0-2");
    MG_CHECK(f != NULL && f == report_finding(r, 0));
    report_finding_add_rank(f, 2);
    MG_CHECK_INT(report_finding_count(r), 1);
    char *text = render(report_render_text, r);
    MG_CHECK(strstr(text, "[1] error collective_mismatch: ranks 0-2") != NULL);
    MG_CHECK(strstr(text, "solve") == NULL); /* nothing of the finding replaced is left */
    report_destroy(r);
}

/* A hang's culprit that also waits in MPI, a check finding's two calls of one rank: the rank is
 * listed once, each of its sites kept. */
static void lists_a_rank_once(void)
{
    report_doc *r = sample_report();
    report_entry *f = report_finding(r, 0);
    report_finding_add_rank(f, 0);
    report_finding_add_rank(f, 3);
    report_finding_add_rank(f, 0);
    report_finding_add_site(f, 0, "MPI_Send", NULL, 0);
    json_object *ranks = json_object_object_get(f, "ranks");
    MG_CHECK_INT((int)json_object_array_length(ranks), 2);
    MG_CHECK_INT(json_object_get_int(json_object_array_get_idx(ranks, 0)), 3);
    MG_CHECK_INT(json_object_get_int(json_object_array_get_idx(ranks, 1)), 0);
    MG_CHECK_INT((int)json_object_array_length(json_object_object_get(f, "sites")), 2);
    report_destroy(r);
}

/* A finding of 10^5 ranks (a collective mismatch of a large job), each added twice: listed once
 * each, in the order of their first addition; a report loaded back lists none a second time. */
static void lists_many_ranks_once(void)
{
    enum { MANY = 100000, STRIDE = 7919 }; /* coprime: i * STRIDE % MANY visits each rank once */
    report_doc *r = sample_report();
    report_entry *f = report_add_finding(r, "collective_mismatch", "ranks 0-99999");
    for (long i = 0; i < MANY; i++)
        report_finding_add_rank(f, (int)(i * STRIDE % MANY));
    for (int rank = MANY - 1; rank >= -1; rank--)
        report_finding_add_rank(f, rank);
    json_object *ranks = json_object_object_get(f, "ranks");
    MG_CHECK_INT((int)json_object_array_length(ranks), MANY + 1);
    long wrong = 0;
    for (long i = 0; i < MANY; i++)
        wrong += json_object_get_int(json_object_array_get_idx(ranks, (size_t)i)) != i * STRIDE % MANY;
    MG_CHECK_INT((int)wrong, 0);
    MG_CHECK_INT(json_object_get_int(json_object_array_get_idx(ranks, MANY)), -1);
    char err[256];
    report_doc *back = NULL;
    MG_CHECK_INT(report_write(r, path_in_dir("many.json"), err, sizeof err), MG_ERROR_OK);
    MG_CHECK_INT(report_load(path_in_dir("many.json"), &back, err, sizeof err), MG_ERROR_OK);
    report_entry *loaded = report_finding(back, 1);
    report_finding_add_rank(loaded, STRIDE);
    report_finding_add_rank(loaded, MANY);
    ranks = json_object_object_get(loaded, "ranks");
    MG_CHECK_INT((int)json_object_array_length(ranks), MANY + 2);
    MG_CHECK_INT(json_object_get_int(json_object_array_get_idx(ranks, MANY + 1)), MANY);
    report_destroy(back);
    report_destroy(r);
}

static int load_text(const char *text, char *err)
{
    FILE *f = fopen(path_in_dir("bad.json"), "w");
    fputs(text, f);
    fclose(f);
    report_doc *r = NULL;
    int rc = report_load(path_in_dir("bad.json"), &r, err, 256);
    MG_CHECK(rc == MG_ERROR_OK ? r != NULL : r == NULL);
    report_destroy(r);
    return rc;
}

static void load_rejects_what_is_not_a_report(void)
{
    char err[256];
    report_doc *r;
    MG_CHECK_INT(report_load(path_in_dir("missing.json"), &r, err, sizeof err), MG_ERROR_ENOENT);
    MG_CHECK_INT(report_load(dir, &r, err, sizeof err), MG_ERROR_ENOENT);
    MG_CHECK(strstr(err, "is a directory") != NULL);
    MG_CHECK_INT(load_text("", err), MG_ERROR_EFORMAT);
    MG_CHECK(strstr(err, "is empty") != NULL);
    MG_CHECK_INT(load_text("{\"schema\": \"mpiguard-report/1\", \"tool\": ", err), MG_ERROR_EFORMAT);
    MG_CHECK(strstr(err, "not valid JSON") != NULL);
    MG_CHECK_INT(load_text("[1,2]", err), MG_ERROR_EFORMAT);
    MG_CHECK_INT(load_text("{\"tool\":\"run\"}", err), MG_ERROR_EFORMAT);
    MG_CHECK_INT(load_text("{\"schema\":\"mpiguard-report/9\",\"tool\":\"run\",\"version\":\"1\","
                           "\"findings\":[]}",
                           err),
                 MG_ERROR_EVERSION);
    MG_CHECK_INT(load_text("{\"schema\":\"mpiguard-report/1\",\"tool\":\"x\",\"version\":\"1\","
                           "\"command\":[],\"findings\":[]}",
                           err),
                 MG_ERROR_EFORMAT);
    MG_CHECK(strstr(err, "tool is \"x\" (expected one of run|hang|") != NULL);
    MG_CHECK_INT(load_text("{\"schema\":\"mpiguard-report/1\",\"tool\":\"run\",\"version\":\"1\","
                           "\"command\":[]}",
                           err),
                 MG_ERROR_EFORMAT);
    MG_CHECK(strstr(err, "findings is missing (expected an array)") != NULL);
    MG_CHECK_INT(
        load_text("{\"schema\":\"mpiguard-report/1\",\"tool\":\"hang\",\"version\":\"1\","
                  "\"command\":[],\"findings\":[{\"kind\":\"hang\",\"severity\":\"error\"}]}",
                  err),
        MG_ERROR_EFORMAT);
    MG_CHECK(strstr(err, "findings[0].summary is missing (expected a string)") != NULL);
    MG_CHECK_INT(load_text("{\"schema\":\"mpiguard-report/1\",\"tool\":\"run\",\"version\":\"1\","
                           "\"command\":[],\"findings\":[]}",
                           err),
                 MG_ERROR_OK);
}

/* Every cause a tool can report (rank_observe_cause_name's, a rank never found) and every sampler
 * loads back; a cause or sampler of no tool, or `observed` not a boolean, is refused. */
static void validates_observation(void)
{
    report_doc *r = sample_report();
    for (rank_observe_cause c = RANK_OBSERVE_OK; c <= RANK_OBSERVE_STOPPED_BEFORE_INIT; c++)
        report_add_observation(r, (int)c, c == RANK_OBSERVE_OK, rank_observe_cause_name(c),
                                  c == RANK_OBSERVE_OK ? NULL : "why",
                                  c == RANK_OBSERVE_OK ? "ring" : NULL);
    report_add_observation(r, 20, 0, "not_found", "never found", NULL);
    report_add_observation(r, 21, 1, "static_binary", "read by ptrace", "ptrace");
    report_add_observation(r, 22, 1, "observed", NULL, "shm");
    char err[256];
    MG_CHECK_INT(report_write(r, path_in_dir("o.json"), err, sizeof err), MG_ERROR_OK);
    report_doc *back = NULL;
    MG_CHECK_INT(report_load(path_in_dir("o.json"), &back, err, sizeof err), MG_ERROR_OK);
    report_destroy(back);
    report_destroy(r);
    static const char head[] =
        "{\"schema\":\"mpiguard-report/1\",\"tool\":\"run\",\"version\":\"1\","
        "\"command\":[],\"findings\":[],\"observation\":";
    char text[512];
    snprintf(text, sizeof text,
             "%s[{\"rank\":0,\"observed\":false,\"cause\":\"pending\","
             "\"detail\":null,\"sampler\":null}]}",
             head);
    MG_CHECK_INT(load_text(text, err), MG_ERROR_EFORMAT);
    MG_CHECK(strstr(err, "observation[0].cause is \"pending\" (expected one of observed|") != NULL);
    snprintf(text, sizeof text,
             "%s[{\"rank\":0,\"observed\":1,\"cause\":\"observed\","
             "\"detail\":null,\"sampler\":\"shm\"}]}",
             head);
    MG_CHECK_INT(load_text(text, err), MG_ERROR_EFORMAT);
    MG_CHECK(strstr(err, "observation[0].observed is an integer (expected true or false)") != NULL);
    snprintf(text, sizeof text,
             "%s[{\"rank\":0,\"observed\":true,\"cause\":\"observed\","
             "\"detail\":null,\"sampler\":\"gdb\"}]}",
             head);
    MG_CHECK_INT(load_text(text, err), MG_ERROR_EFORMAT);
    MG_CHECK(strstr(err, "observation[0].sampler is \"gdb\" (expected one of shm|ring|ptrace)") !=
             NULL);
    snprintf(text, sizeof text, "%s{\"rank\":0}}", head);
    MG_CHECK_INT(load_text(text, err), MG_ERROR_EFORMAT);
    MG_CHECK(strstr(err, "observation is an object (expected an array)") != NULL);
}

/* Every class has a severity, a meaning and a suggestion, and its name once; every kind the
 * deadlock detector and the argument checks produce is a class. */
static void class_table_is_complete(void)
{
    const report_class *c;
    size_t n = 0;
    for (; (c = report_class_at(n)); n++) {
        MG_CHECK(strcmp(c->severity, "error") == 0 || strcmp(c->severity, "warning") == 0 ||
                 strcmp(c->severity, "note") == 0);
        MG_CHECK(c->meaning[0] && c->suggestion[0] && c->group[0] && c->tool[0]);
        MG_CHECK(report_class_find(c->name) == c);
        MG_CHECK_STR(report_class_names()[n], c->name);
    }
    MG_CHECK_INT(n, report_class_count());
    MG_CHECK(report_class_names()[n] == NULL);
    for (uint32_t p = USAGE_ARGS_OK + 1; p < USAGE_ARGS_PROBLEM_END; p++)
        MG_CHECK(report_class_find(usage_args_problem_name(p)) != NULL);
    for (int k = DL_FINDING_DEADLOCK; k < DL_FINDING_INVALID_ARGUMENTS; k++) {
        char name[64];
        snprintf(name, sizeof name, "%s", dl_finding_kind_name(k));
        for (char *ch = name; *ch; ch++)
            *ch = (char)tolower((unsigned char)*ch);
        MG_CHECK(report_class_find(name) != NULL);
    }
}

/* A finding takes its class's severity and suggestion; a creation site is marked as one. */
static void finding_takes_its_class(void)
{
    char *cmd[] = {"mpiguard", "check"};
    report_doc *r = report_create("check", "0.1.0", cmd, 2);
    report_entry *f = report_add_finding(r, "potential_deadlock", "ranks 0-1 ...");
    json_object *v;
    MG_CHECK(json_object_object_get_ex(f, "severity", &v));
    MG_CHECK_STR(json_object_get_string(v), "warning");
    MG_CHECK(json_object_object_get_ex(f, "suggestion", &v));
    MG_CHECK_STR(json_object_get_string(v), report_class_find("potential_deadlock")->suggestion);
    f = report_add_finding(r, "datatype_freed", "rank 1 calls MPI_Send with ...");
    report_finding_add_site(f, 1, "MPI_Send", "a.c", 20);
    report_finding_add_creation_site(f, 1, "MPI_Type_vector", "a.c", 9);
    char *text = render(report_render_text, r);
    MG_CHECK(strstr(text, "rank 1: created by MPI_Type_vector() at a.c:9") != NULL);
    char err[256];
    MG_CHECK_INT(report_write(r, path_in_dir("c.json"), err, sizeof err), MG_ERROR_OK);
    report_doc *back = NULL;
    MG_CHECK_INT(report_load(path_in_dir("c.json"), &back, err, sizeof err), MG_ERROR_OK);
    report_destroy(back);
    report_add_finding(r, "no_such_class", "?");
    MG_CHECK_INT(report_write(r, path_in_dir("c.json"), err, sizeof err), MG_ERROR_OK);
    MG_CHECK_INT(report_load(path_in_dir("c.json"), &back, err, sizeof err), MG_ERROR_EFORMAT);
    MG_CHECK(strstr(err, "findings[2].kind is \"no_such_class\" (expected one of hang|") != NULL);
    report_destroy(r);
}

/* --checks: groups and classes, "-x" to leave out, unknown words refused by name. */
static void selects_checks(void)
{
    unsigned char sel[256];
    char err[256], list[1024];
    MG_CHECK_INT(report_class_select("all", sel, sizeof sel, err, sizeof err), MG_ERROR_OK);
    MG_CHECK(report_class_selected(sel, "deadlock") && report_class_selected(sel, "datatype_freed"));
    MG_CHECK(!report_class_selected(sel, "hang")); /* another tool's class */
    /* a class missing from the table is reported: its report then fails validation */
    MG_CHECK(report_class_selected(sel, "no_such_class"));
    MG_CHECK_INT(report_class_select("deadlock,type", sel, sizeof sel, err, sizeof err), MG_ERROR_OK);
    MG_CHECK(report_class_selected(sel, "potential_deadlock") && report_class_selected(sel, "truncation"));
    MG_CHECK(!report_class_selected(sel, "collective_mismatch") && !report_class_selected(sel, "negative_count"));
    MG_CHECK_INT(report_class_select("-args,negative_count", sel, sizeof sel, err, sizeof err),
                 MG_ERROR_OK);
    MG_CHECK(report_class_selected(sel, "deadlock") && report_class_selected(sel, "negative_count"));
    MG_CHECK(!report_class_selected(sel, "tag_out_of_range"));
    report_class_list(sel, 0, list, sizeof list);
    MG_CHECK(strstr(list, "comm_null, comm_freed, null_buffer") == list);
    MG_CHECK_INT(report_class_select("deadlock,leeks", sel, sizeof sel, err, sizeof err),
                 MG_ERROR_EINVAL);
    MG_CHECK(strstr(err, "'leeks' is neither a group of checks (deadlock, collective, type, args, "
                         "rma, buffers, lifecycle, races, all)") != NULL);
    MG_CHECK_INT(report_class_select("hang", sel, sizeof sel, err, sizeof err), MG_ERROR_EINVAL);
    MG_CHECK_INT(report_class_select("type,,args", sel, sizeof sel, err, sizeof err), MG_ERROR_EINVAL);
    MG_CHECK(strstr(err, "'' is neither") != NULL);
}

/* The HTML page groups findings by class and names ranks, file:line, source text and the graph. */
static void renders_html(void)
{
    report_doc *r = sample_report();
    char source[300];
    snprintf(source, sizeof source, "%s", path_in_dir("solver.c"));
    FILE *src = fopen(source, "w");
    for (int i = 1; i <= 90; i++)
        fprintf(src, i == 88 ? "  while (x < 1 && y > 2) { /* line %d */\n" : "int a%d;\n", i);
    fclose(src);
    report_entry *f = report_add_finding(r, "hang", "second <hang>");
    report_finding_add_site(f, 2, "solve", source, 88);
    char *html = render(report_html_render, r);
    MG_CHECK(strstr(html, "<!DOCTYPE html>") == html);
    MG_CHECK(strstr(html, "<h2><code>hang</code> (2, <span class=\"error\">error</span>)</h2>"));
    MG_CHECK(strstr(html, "second &lt;hang&gt;") != NULL);
    MG_CHECK(strstr(html, "<code>solver.c:88</code>") != NULL);
    MG_CHECK(strstr(html, "while (x &lt; 1 &amp;&amp; y &gt; 2) { /* line 88 */</pre>") != NULL);
    MG_CHECK(strstr(html, "<svg ") != NULL && strstr(html, "stroke-dasharray") != NULL);
    MG_CHECK(strstr(html, ">rank 0 &quot;main&quot;</text>") != NULL);
    MG_CHECK(strstr(html, "fill=\"#ccc\" stroke=\"#333\"/><text x=\"") != NULL); /* p1 */
    MG_CHECK(strstr(html, "<script") == NULL &&
             strstr(html, "http://") == strstr(html, "http://www.w3.org/2000/svg"));
    report_destroy(r);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    MG_RUN(writes_and_loads_back);
    MG_RUN(write_failure_keeps_the_old_file);
    MG_RUN(renders_text_banner_and_dot);
    MG_RUN(replaces_a_finding);
    MG_RUN(lists_a_rank_once);
    MG_RUN(lists_many_ranks_once);
    MG_RUN(load_rejects_what_is_not_a_report);
    MG_RUN(validates_observation);
    MG_RUN(class_table_is_complete);
    MG_RUN(finding_takes_its_class);
    MG_RUN(selects_checks);
    MG_RUN(renders_html);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 1;
    MG_TEST_END();
}
