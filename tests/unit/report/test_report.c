/* Unit tests of the report writer, loader and renderers. */
#include "mg_error.h"
#include "mg_test.h"
#include "rank_observe.h"
#include "report.h"

#include <stdlib.h>
#include <unistd.h>

static char dir[] = "/tmp/mg-test-report-XXXXXX";

static char *path_in_dir(const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

static mg_report *sample_report(void)
{
    char *cmd[] = {"mpiguard", "hang", "--", "mpirun", "-n", "4", "./app"};
    mg_report *r = mg_report_create("hang", "0.1.0", cmd, 7);
    mg_report_set_mpi(r, "openmpi", "/usr/bin/orterun", "/x/libmpiguard-openmpi.so");
    for (int i = 0; i < 4; i++)
        mg_report_add_rank(r, i, 100 + i, "node1");
    mg_finding *f = mg_report_add_finding(r, "hang", "error", "rank 3 is computing in solve()");
    mg_finding_add_rank(f, 3);
    mg_finding_add_site(f, 3, "solve", "solver.c", 88);
    mg_finding_set_suggestion(f, "look at the loop in solve()");
    json_object_object_add(mg_finding_evidence(f), "hang_type",
                           json_object_new_string("computation"));
    mg_finding_add_graph_node(f, "p0", "rank 0 \"main\"", "box");
    mg_finding_add_graph_node(f, "p1", "rank 1", "box");
    mg_finding_add_graph_edge(f, "p0", "p1", "dashed");
    mg_report_set_exit(r, 81, "stopped");
    return r;
}

static char *render(void (*fn)(const mg_report *, FILE *), const mg_report *r)
{
    static char buf[8192];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    fn(r, f);
    fclose(f);
    return buf;
}

static void writes_and_loads_back(void)
{
    mg_report *r = sample_report();
    char err[256];
    MG_CHECK_INT(mg_report_write(r, path_in_dir("r.json"), err, sizeof err), MG_OK);
    mg_report *back;
    MG_CHECK_INT(mg_report_load(path_in_dir("r.json"), &back, err, sizeof err), MG_OK);
    MG_CHECK_INT(mg_report_finding_count(back), 1);
    json_object *f = mg_report_finding(back, 0), *v;
    MG_CHECK(json_object_object_get_ex(f, "kind", &v));
    MG_CHECK_STR(json_object_get_string(v), "hang");
    MG_CHECK(json_object_object_get_ex(mg_finding_evidence(f), "hang_type", &v));
    MG_CHECK_STR(json_object_get_string(v), "computation");
    mg_report_destroy(back);
    mg_report_destroy(r);
}

static void write_failure_keeps_the_old_file(void)
{
    mg_report *r = sample_report();
    char err[256];
    MG_CHECK_INT(mg_report_write(r, "/nonexistent-dir/r.json", err, sizeof err), MG_EIO);
    MG_CHECK(strstr(err, "/nonexistent-dir/r.json") != NULL);
    mg_report_destroy(r);
}

static void renders_text_banner_and_dot(void)
{
    mg_report *r = sample_report();
    char *text = render(mg_report_render_text, r);
    MG_CHECK(strstr(text, "job: 4 ranks found (0-3), exit status 81, stopped") != NULL);
    MG_CHECK(strstr(text, "[1] error hang: rank 3 is computing in solve()") != NULL);
    MG_CHECK(strstr(text, "rank 3: solve() at solver.c:88") != NULL);
    MG_CHECK(strstr(text, "suggestion: look at the loop") != NULL);
    char *dot = render(mg_report_render_dot, r);
    MG_CHECK(strstr(dot, "\"f1_p0\" -> \"f1_p1\" [style=\"dashed\"]") != NULL);
    MG_CHECK(strstr(dot, "rank 0 \\\"main\\\"") != NULL);
    char banner[512];
    FILE *f = fmemopen(banner, sizeof banner, "w");
    mg_finding_print_banner(mg_report_finding(r, 0), f);
    fclose(f);
    MG_CHECK_STR(banner, "mpiguard: ERROR HANG rank 3 is computing in solve()\n");
    mg_report_destroy(r);
}

static void replaces_a_finding(void)
{
    mg_report *r = sample_report();
    MG_CHECK(mg_report_replace_finding(r, 1, "hang", "error", "no such finding") == NULL);
    mg_finding *f = mg_report_replace_finding(r, 0, "collective_mismatch", "error", "ranks 0-2");
    MG_CHECK(f != NULL && f == mg_report_finding(r, 0));
    mg_finding_add_rank(f, 2);
    MG_CHECK_INT(mg_report_finding_count(r), 1);
    char *text = render(mg_report_render_text, r);
    MG_CHECK(strstr(text, "[1] error collective_mismatch: ranks 0-2") != NULL);
    MG_CHECK(strstr(text, "solve") == NULL); /* nothing of the finding replaced is left */
    mg_report_destroy(r);
}

static int load_text(const char *text, char *err)
{
    FILE *f = fopen(path_in_dir("bad.json"), "w");
    fputs(text, f);
    fclose(f);
    mg_report *r = NULL;
    int rc = mg_report_load(path_in_dir("bad.json"), &r, err, 256);
    MG_CHECK(rc == MG_OK ? r != NULL : r == NULL);
    mg_report_destroy(r);
    return rc;
}

static void load_rejects_what_is_not_a_report(void)
{
    char err[256];
    mg_report *r;
    MG_CHECK_INT(mg_report_load(path_in_dir("missing.json"), &r, err, sizeof err), MG_ENOENT);
    MG_CHECK_INT(mg_report_load(dir, &r, err, sizeof err), MG_ENOENT);
    MG_CHECK(strstr(err, "is a directory") != NULL);
    MG_CHECK_INT(load_text("", err), MG_EFORMAT);
    MG_CHECK(strstr(err, "is empty") != NULL);
    MG_CHECK_INT(load_text("{\"schema\": \"mpiguard-report/1\", \"tool\": ", err), MG_EFORMAT);
    MG_CHECK(strstr(err, "not valid JSON") != NULL);
    MG_CHECK_INT(load_text("[1,2]", err), MG_EFORMAT);
    MG_CHECK_INT(load_text("{\"tool\":\"run\"}", err), MG_EFORMAT);
    MG_CHECK_INT(load_text("{\"schema\":\"mpiguard-report/9\",\"tool\":\"run\",\"version\":\"1\","
                           "\"findings\":[]}",
                           err),
                 MG_EVERSION);
    MG_CHECK_INT(load_text("{\"schema\":\"mpiguard-report/1\",\"tool\":\"x\",\"version\":\"1\","
                           "\"command\":[],\"findings\":[]}",
                           err),
                 MG_EFORMAT);
    MG_CHECK(strstr(err, "tool is \"x\" (expected one of run|hang|") != NULL);
    MG_CHECK_INT(load_text("{\"schema\":\"mpiguard-report/1\",\"tool\":\"run\",\"version\":\"1\","
                           "\"command\":[]}",
                           err),
                 MG_EFORMAT);
    MG_CHECK(strstr(err, "findings is missing (expected an array)") != NULL);
    MG_CHECK_INT(
        load_text("{\"schema\":\"mpiguard-report/1\",\"tool\":\"hang\",\"version\":\"1\","
                  "\"command\":[],\"findings\":[{\"kind\":\"hang\",\"severity\":\"error\"}]}",
                  err),
        MG_EFORMAT);
    MG_CHECK(strstr(err, "findings[0].summary is missing (expected a string)") != NULL);
    MG_CHECK_INT(load_text("{\"schema\":\"mpiguard-report/1\",\"tool\":\"run\",\"version\":\"1\","
                           "\"command\":[],\"findings\":[]}",
                           err),
                 MG_OK);
}

/* Every cause a tool can report (mg_observe_cause_name's, a rank never found) and every sampler
 * loads back; a cause or sampler of no tool, or `observed` not a boolean, is refused. */
static void validates_observation(void)
{
    mg_report *r = sample_report();
    for (mg_observe_cause c = MG_OBSERVE_OK; c <= MG_OBSERVE_VANISHED; c++)
        mg_report_add_observation(r, (int)c, c == MG_OBSERVE_OK, mg_observe_cause_name(c),
                                  c == MG_OBSERVE_OK ? NULL : "why",
                                  c == MG_OBSERVE_OK ? "ring" : NULL);
    mg_report_add_observation(r, 10, 0, "not_found", "never found", NULL);
    mg_report_add_observation(r, 11, 1, "static_binary", "read by ptrace", "ptrace");
    mg_report_add_observation(r, 12, 1, "observed", NULL, "shm");
    char err[256];
    MG_CHECK_INT(mg_report_write(r, path_in_dir("o.json"), err, sizeof err), MG_OK);
    mg_report *back = NULL;
    MG_CHECK_INT(mg_report_load(path_in_dir("o.json"), &back, err, sizeof err), MG_OK);
    mg_report_destroy(back);
    mg_report_destroy(r);
    static const char head[] =
        "{\"schema\":\"mpiguard-report/1\",\"tool\":\"run\",\"version\":\"1\","
        "\"command\":[],\"findings\":[],\"observation\":";
    char text[512];
    snprintf(text, sizeof text,
             "%s[{\"rank\":0,\"observed\":false,\"cause\":\"pending\","
             "\"detail\":null,\"sampler\":null}]}",
             head);
    MG_CHECK_INT(load_text(text, err), MG_EFORMAT);
    MG_CHECK(strstr(err, "observation[0].cause is \"pending\" (expected one of observed|") != NULL);
    snprintf(text, sizeof text,
             "%s[{\"rank\":0,\"observed\":1,\"cause\":\"observed\","
             "\"detail\":null,\"sampler\":\"shm\"}]}",
             head);
    MG_CHECK_INT(load_text(text, err), MG_EFORMAT);
    MG_CHECK(strstr(err, "observation[0].observed is an integer (expected true or false)") != NULL);
    snprintf(text, sizeof text,
             "%s[{\"rank\":0,\"observed\":true,\"cause\":\"observed\","
             "\"detail\":null,\"sampler\":\"gdb\"}]}",
             head);
    MG_CHECK_INT(load_text(text, err), MG_EFORMAT);
    MG_CHECK(strstr(err, "observation[0].sampler is \"gdb\" (expected one of shm|ring|ptrace)") !=
             NULL);
    snprintf(text, sizeof text, "%s{\"rank\":0}}", head);
    MG_CHECK_INT(load_text(text, err), MG_EFORMAT);
    MG_CHECK(strstr(err, "observation is an object (expected an array)") != NULL);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    MG_RUN(writes_and_loads_back);
    MG_RUN(write_failure_keeps_the_old_file);
    MG_RUN(renders_text_banner_and_dot);
    MG_RUN(replaces_a_finding);
    MG_RUN(load_rejects_what_is_not_a_report);
    MG_RUN(validates_observation);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 1;
    MG_TEST_END();
}
