/* Text, banner and DOT views of a report (report.h); all read only the schema's documented fields.
 */
#include "report.h"
#include "report_internal.h"

#include "mg_ranks.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

json_object *report_render_json_array(json_object *o, const char *key)
{
    json_object *v;
    if (o && json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_array))
        return v;
    return NULL;
}

int report_render_unmodelled(json_object *tool_data, const char *before, FILE *out)
{
    json_object *calls = report_render_json_array(tool_data, "unmodelled_calls");
    size_t n = calls ? json_object_array_length(calls) : 0;
    if (n)
        fprintf(out, "%scalls the run made that are not checked: ", before);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s%s", i ? ", " : "",
                json_object_get_string(json_object_array_get_idx(calls, i)));
    return n > 0;
}

void report_render_format_ranks(json_object *ranks, char *buf, size_t buflen)
{
    size_t n = ranks ? json_object_array_length(ranks) : 0;
    int *list = malloc((n ? n : 1) * sizeof *list);
    if (!list) {
        snprintf(buf, buflen, "?");
        return;
    }
    for (size_t i = 0; i < n; i++)
        list[i] = json_object_get_int(json_object_array_get_idx(ranks, i));
    mg_ranks_format(list, n, buf, buflen);
    free(list);
}

/* One line per site, each after `indent`: "rank 0: MPI_Recv() at a.c:12", "rank 0: created by
 * MPI_Type_vector() at a.c:9"; a site whose line could not be read says so (no debug information,
 * or a process gone before it was read), never a bare call. */
static void render_sites(json_object *sites, const char *indent, FILE *out)
{
    size_t n = sites ? json_object_array_length(sites) : 0;
    for (size_t i = 0; i < n; i++) {
        json_object *s = json_object_array_get_idx(sites, i), *v;
        int rank = json_object_object_get_ex(s, "rank", &v) ? json_object_get_int(v) : -1;
        int line = json_object_object_get_ex(s, "line", &v) ? json_object_get_int(v) : 0;
        const char *file = report_json_string(s, "file", NULL);
        int creation = strcmp(report_json_string(s, "role", "call"), "creation") == 0;
        fprintf(out, "%srank %d: %s%s()", indent, rank, creation ? "created by " : "",
                report_json_string(s, "function", "?"));
        if (file)
            fprintf(out, " at %s:%d", file, line);
        else
            fputs(" at an unknown source line", out);
        if (report_site_is_procedure_line(s))
            fputs(" " REPORT_INTERNAL_PROCEDURE_LINE, out);
        fputc('\n', out);
    }
}

void report_render_finding_banner(const report_entry *f, FILE *out)
{
    char severity[16], kind[64];
    snprintf(severity, sizeof severity, "%s",
             report_json_string((json_object *)f, "severity", "note"));
    snprintf(kind, sizeof kind, "%s", report_json_string((json_object *)f, "kind", "unknown"));
    for (char *c = severity; *c; c++)
        *c = (char)toupper((unsigned char)*c);
    for (char *c = kind; *c; c++)
        *c = (char)toupper((unsigned char)*c);
    fprintf(out, "mpiguard: %s %s %s\n", severity, kind,
            report_json_string((json_object *)f, "summary", ""));
    render_sites(report_render_json_array((json_object *)f, "sites"), "mpiguard:   ", out);
}

void report_render_text(const report_doc *r, FILE *out)
{
    json_object *root = report_root(r), *job = NULL, *mpi = NULL, *v;
    fprintf(out, "mpiguard %s report (mpiguard %s)\n", report_json_string(root, "tool", "?"),
            report_json_string(root, "version", "?"));
    json_object *cmd = report_render_json_array(root, "command");
    fputs("command:", out);
    for (size_t i = 0; cmd && i < json_object_array_length(cmd); i++)
        fprintf(out, " %s", json_object_get_string(json_object_array_get_idx(cmd, i)));
    fputc('\n', out);
    if (json_object_object_get_ex(root, "mpi", &mpi))
        fprintf(out, "MPI: %s (launcher %s)\n", report_json_string(mpi, "flavor", "unknown"),
                report_json_string(mpi, "launcher", "unknown"));
    if (json_object_object_get_ex(root, "job", &job)) {
        char ranks[256];
        json_object *list = report_render_json_array(job, "ranks");
        json_object *rank_numbers = json_object_new_array();
        for (size_t i = 0; list && i < json_object_array_length(list); i++)
            if (json_object_object_get_ex(json_object_array_get_idx(list, i), "rank", &v))
                json_object_array_add(rank_numbers, json_object_get(v));
        report_render_format_ranks(rank_numbers, ranks, sizeof ranks);
        fprintf(out, "job: %zu ranks found (%s)", json_object_array_length(rank_numbers),
                ranks[0] ? ranks : "none");
        json_object_put(rank_numbers);
        if (json_object_object_get_ex(job, "exit_status", &v))
            fprintf(out, ", exit status %d, %s", json_object_get_int(v),
                    report_json_string(job, "outcome", "?"));
        fputc('\n', out);
    }
    json_object *data = NULL, *detector;
    if (json_object_object_get_ex(root, "tool_data", &data) &&
        json_object_object_get_ex(data, "detector", &detector)) {
        int leaves = json_object_object_get_ex(detector, "leaves", &v) ? json_object_get_int(v) : 0;
        int levels = json_object_object_get_ex(detector, "levels", &v) ? json_object_get_int(v) : 1;
        if (leaves)
            fprintf(out, "detector: a tree of %d levels, %d leaves under the root\n", levels,
                    leaves);
        else
            fputs("detector: one process\n", out);
    }
    if (report_render_unmodelled(data, "", out))
        fputc('\n', out);
    json_object *observation = report_render_json_array(root, "observation");
    for (size_t i = 0; observation && i < json_object_array_length(observation); i++) {
        json_object *o = json_object_array_get_idx(observation, i);
        if (strcmp(report_json_string(o, "cause", ""), "observed") == 0)
            continue;
        int observed = json_object_object_get_ex(o, "observed", &v) && json_object_get_boolean(v);
        int rank = json_object_object_get_ex(o, "rank", &v) ? json_object_get_int(v) : -1;
        if (observed)
            fprintf(out, "rank %d read by %s instead (%s): %s\n", rank,
                    report_json_string(o, "sampler", "?"), report_json_string(o, "cause", "?"),
                    report_json_string(o, "detail", ""));
        else
            fprintf(out, "rank %d not observed (%s): %s\n", rank,
                    report_json_string(o, "cause", "?"), report_json_string(o, "detail", ""));
    }
    size_t n = report_finding_count(r);
    if (n == 0) {
        fputs("no findings\n", out);
        return;
    }
    fprintf(out, "%zu finding%s:\n", n, n == 1 ? "" : "s");
    for (size_t i = 0; i < n; i++) {
        json_object *f = report_finding(r, i);
        char ranks[256];
        report_render_format_ranks(report_render_json_array(f, "ranks"), ranks, sizeof ranks);
        fprintf(out, "  [%zu] %s %s: %s\n", i + 1, report_json_string(f, "severity", "?"),
                report_json_string(f, "kind", "?"), report_json_string(f, "summary", ""));
        if (ranks[0])
            fprintf(out, "      ranks: %s\n", ranks);
        render_sites(report_render_json_array(f, "sites"), "      ", out);
        const char *suggestion = report_json_string(f, "suggestion", NULL);
        if (suggestion)
            fprintf(out, "      suggestion: %s\n", suggestion);
    }
}

/* DOT strings are quoted; only '"' and '\' need escaping inside quotes. */
static void dot_quoted(const char *s, FILE *out)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        fputc(*s == '\n' ? ' ' : *s, out);
    }
    fputc('"', out);
}

void report_render_dot(const report_doc *r, FILE *out)
{
    fputs("digraph mpiguard {\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n", out);
    size_t n = report_finding_count(r);
    for (size_t i = 0; i < n; i++) {
        json_object *f = report_finding(r, i), *graph;
        if (!json_object_object_get_ex(f, "graph", &graph))
            continue;
        fprintf(out, "  subgraph cluster_%zu {\n    label=", i + 1);
        dot_quoted(report_json_string(f, "summary", ""), out);
        fputs(";\n", out);
        json_object *nodes = report_render_json_array(graph, "nodes"),
                    *edges = report_render_json_array(graph, "edges");
        for (size_t k = 0; nodes && k < json_object_array_length(nodes); k++) {
            json_object *node = json_object_array_get_idx(nodes, k);
            char id[128];
            snprintf(id, sizeof id, "f%zu_%s", i + 1, report_json_string(node, "id", "?"));
            fputs("    ", out);
            dot_quoted(id, out);
            fputs(" [label=", out);
            dot_quoted(report_json_string(node, "label", ""), out);
            fputs(", shape=", out);
            dot_quoted(report_json_string(node, "shape", "ellipse"), out);
            json_object *highlight;
            if (json_object_object_get_ex(node, "highlight", &highlight) &&
                json_object_get_boolean(highlight))
                fputs(", style=filled, fillcolor=lightgray", out);
            fputs("];\n", out);
        }
        for (size_t k = 0; edges && k < json_object_array_length(edges); k++) {
            json_object *edge = json_object_array_get_idx(edges, k);
            char from[128], to[128];
            snprintf(from, sizeof from, "f%zu_%s", i + 1, report_json_string(edge, "from", "?"));
            snprintf(to, sizeof to, "f%zu_%s", i + 1, report_json_string(edge, "to", "?"));
            fputs("    ", out);
            dot_quoted(from, out);
            fputs(" -> ", out);
            dot_quoted(to, out);
            fputs(" [style=", out);
            dot_quoted(report_json_string(edge, "style", "solid"), out);
            fputs("];\n", out);
        }
        fputs("  }\n", out);
    }
    fputs("}\n", out);
}

void report_render_json(const report_doc *r, FILE *out)
{
    fprintf(out, "%s\n",
            json_object_to_json_string_ext(report_root(r), JSON_C_TO_STRING_PRETTY |
                                                               JSON_C_TO_STRING_NOSLASHESCAPE));
}
