/* The HTML view of a report (report.h, docs/report-schema.md "HTML"): one self-contained page,
 * findings grouped by class in the order of the class table, each with its ranks, sites, source
 * lines and graph, the graph laid out here and drawn as inline SVG (no Graphviz, no script). */
#include "report.h"
#include "report_class.h"
#include "report_internal.h"

#include <stdlib.h>
#include <string.h>

static const char style[] =
    "body{font-family:sans-serif;margin:2em;color:#222}"
    "h1{font-size:1.4em}h2{font-size:1.2em;border-bottom:1px solid #ccc}"
    "table{border-collapse:collapse;margin:.5em 0}"
    "td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left;vertical-align:top}"
    "code,pre{font-family:monospace}pre{margin:0;white-space:pre-wrap}"
    ".finding{margin:1em 0;padding:.5em 1em;border-left:4px solid #999;background:#fafafa}"
    ".error{border-color:#c00}.warning{border-color:#e90}.note{border-color:#39c}"
    ".severity{font-weight:bold;text-transform:uppercase}"
    ".error .severity,span.error{color:#c00}.warning .severity,span.warning{color:#b60}"
    ".suggestion{font-style:italic}svg text{font-family:monospace;font-size:12px}";

/* Writes s with the characters HTML gives a meaning escaped (text and attribute values). */
static void escaped(const char *s, FILE *out)
{
    for (; *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        default:
            fputc(*s, out);
        }
    }
}

static int get_int(json_object *o, const char *key, int fallback)
{
    json_object *v;
    return o && json_object_object_get_ex(o, key, &v) ? json_object_get_int(v) : fallback;
}

/* Line `line` of file, without its newline, into buf; 0 when the file is not readable here or is
 * shorter. */
static int source_line(const char *file, int line, char *buf, size_t len)
{
    FILE *in = file && line > 0 ? fopen(file, "r") : NULL;
    if (!in)
        return 0;
    int n = 0, found = 0;
    while (!found && fgets(buf, (int)len, in)) {
        size_t got = strlen(buf);
        int complete = got && buf[got - 1] == '\n';
        if (++n == line) {
            buf[complete ? got - 1 : got] = '\0';
            found = 1;
        }
        while (!complete && !found) { /* the rest of a line longer than buf */
            int c = fgetc(in);
            if (c == EOF || c == '\n')
                break;
        }
    }
    fclose(in);
    return found;
}

static void render_sites(json_object *sites, FILE *out)
{
    size_t n = sites ? json_object_array_length(sites) : 0;
    if (!n)
        return;
    fputs("<table><tr><th>rank</th><th>call</th><th>where</th><th>source</th></tr>\n", out);
    for (size_t i = 0; i < n; i++) {
        json_object *s = json_object_array_get_idx(sites, i);
        const char *file = report_json_string(s, "file", NULL);
        int line = get_int(s, "line", 0);
        int creation = strcmp(report_json_string(s, "role", "call"), "creation") == 0;
        fprintf(out, "<tr><td>%d</td><td><code>%s", get_int(s, "rank", -1),
                creation ? "created by " : "");
        escaped(report_json_string(s, "function", "?"), out);
        fputs("</code></td><td>", out);
        if (file) {
            fputs("<code>", out);
            escaped(file, out);
            fprintf(out, ":%d</code>", line);
            if (report_site_is_procedure_line(s))
                fputs(" " REPORT_INTERNAL_PROCEDURE_LINE, out);
        } else {
            fputs("unknown", out);
        }
        fputs("</td><td>", out);
        char text[512];
        if (source_line(file, line, text, sizeof text)) {
            fputs("<pre>", out);
            escaped(text, out);
            fputs("</pre>", out);
        }
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
}

/* Graph layout: each node's column is its distance from the nearest root (a node nothing points
 * to; a graph that is all cycle starts from its first node), its row its place in that column. */
enum { NODE_HEIGHT = 28, ROW_GAP = 14, COLUMN_GAP = 60, CHAR_WIDTH = 7, MARGIN = 10 };

typedef struct placed {
    const char *id, *label, *shape;
    int column, row, width, highlight;
} placed;

/* A graph's nodes and its edges as node indices (an edge naming no node is dropped), with each
 * node's outgoing edges together: out[first[i] .. first[i + 1]) are the targets of node i. */
typedef struct layout {
    placed *nodes;
    size_t n, nedges;
    long *from, *to;       /* edge k: nodes from[k] -> to[k] */
    unsigned char *dashed; /* edge k's style is "dashed" (an OR wait) */
    size_t *first, *out, *queue;
} layout;

static void layout_free(layout *g)
{
    free(g->nodes);
    free(g->from);
    free(g->to);
    free(g->dashed);
    free(g->first);
    free(g->out);
    free(g->queue);
}

/* Reads graph into g, resolving edge ends through a hash of the ids. Returns 0, or -1 when out of
 * memory (g is then to be freed all the same). */
static int layout_read(json_object *graph, layout *g)
{
    json_object *nodes = report_render_json_array(graph, "nodes");
    json_object *edges = report_render_json_array(graph, "edges");
    g->n = nodes ? json_object_array_length(nodes) : 0;
    size_t nedges = edges ? json_object_array_length(edges) : 0;
    g->nodes = calloc(g->n + 1, sizeof *g->nodes);
    g->from = calloc(nedges + 1, sizeof *g->from);
    g->to = calloc(nedges + 1, sizeof *g->to);
    g->dashed = calloc(nedges + 1, sizeof *g->dashed);
    g->first = calloc(g->n + 2, sizeof *g->first);
    g->out = calloc(nedges + 1, sizeof *g->out);
    g->queue = calloc(g->n + 1, sizeof *g->queue);
    json_object *index = json_object_new_object();
    if (!g->nodes || !g->from || !g->to || !g->dashed || !g->first || !g->out || !g->queue ||
        !index) {
        json_object_put(index);
        return -1;
    }
    for (size_t i = 0; i < g->n; i++) {
        json_object *node = json_object_array_get_idx(nodes, i);
        placed *p = &g->nodes[i];
        p->id = report_json_string(node, "id", "");
        p->label = report_json_string(node, "label", "");
        p->shape = report_json_string(node, "shape", "ellipse");
        p->width = (int)strlen(p->label) * CHAR_WIDTH + 24;
        json_object *v;
        p->highlight = json_object_object_get_ex(node, "highlight", &v) &&
                       json_object_get_boolean(v);
        json_object_object_add(index, p->id, json_object_new_int64((int64_t)i));
    }
    for (size_t k = 0; k < nedges; k++) {
        json_object *edge = json_object_array_get_idx(edges, k), *from, *to;
        if (!json_object_object_get_ex(index, report_json_string(edge, "from", ""), &from) ||
            !json_object_object_get_ex(index, report_json_string(edge, "to", ""), &to))
            continue;
        g->dashed[g->nedges] = strcmp(report_json_string(edge, "style", ""), "dashed") == 0;
        g->from[g->nedges] = (long)json_object_get_int64(from);
        g->to[g->nedges++] = (long)json_object_get_int64(to);
    }
    json_object_put(index);
    for (size_t k = 0; k < g->nedges; k++)
        g->first[g->from[k] + 2]++;
    for (size_t i = 2; i < g->n + 2; i++)
        g->first[i] += g->first[i - 1];
    for (size_t k = 0; k < g->nedges; k++)
        g->out[g->first[g->from[k] + 1]++] = (size_t)g->to[k];
    return 0;
}

/* Assigns columns breadth-first from the roots; returns the number of columns. */
static int assign_columns(layout *g)
{
    size_t head = 0, tail = 0;
    unsigned char *pointed_to = calloc(g->n + 1, 1);
    for (size_t i = 0; i < g->n; i++)
        g->nodes[i].column = -1;
    for (size_t k = 0; pointed_to && k < g->nedges; k++)
        pointed_to[g->to[k]] = 1;
    for (int pass = 0; pass < 2; pass++) /* the roots first; then whatever only a cycle reaches */
        for (size_t start = 0; start < g->n; start++) {
            if (g->nodes[start].column >= 0 || (pass == 0 && pointed_to && pointed_to[start]))
                continue;
            g->nodes[start].column = 0;
            g->queue[tail++] = start;
            while (head < tail) {
                size_t from = g->queue[head++];
                for (size_t e = g->first[from]; e < g->first[from + 1]; e++) {
                    placed *to = &g->nodes[g->out[e]];
                    if (to->column < 0) {
                        to->column = g->nodes[from].column + 1;
                        g->queue[tail++] = g->out[e];
                    }
                }
            }
        }
    free(pointed_to);
    int columns = 0;
    for (size_t i = 0; i < g->n; i++)
        columns = g->nodes[i].column + 1 > columns ? g->nodes[i].column + 1 : columns;
    return columns;
}

static void node_shape(const placed *p, int x, int y, FILE *out)
{
    int w = p->width, h = NODE_HEIGHT, cx = x + w / 2, cy = y + h / 2;
    if (strcmp(p->shape, "box") == 0)
        fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"", x, y, w, h);
    else if (strcmp(p->shape, "diamond") == 0)
        fprintf(out, "<polygon points=\"%d,%d %d,%d %d,%d %d,%d\"", x, cy, cx, y, x + w, cy, cx,
                y + h);
    else if (strcmp(p->shape, "parallelogram") == 0)
        fprintf(out, "<polygon points=\"%d,%d %d,%d %d,%d %d,%d\"", x + 10, y, x + w, y, x + w - 10,
                y + h, x, y + h);
    else
        fprintf(out, "<ellipse cx=\"%d\" cy=\"%d\" rx=\"%d\" ry=\"%d\"", cx, cy, w / 2, h / 2);
    fprintf(out, " fill=\"%s\" stroke=\"#333\"/>", p->highlight ? "#ccc" : "#fff");
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", cx, cy + 4);
    escaped(p->label, out);
    fputs("</text>\n", out);
}

/* Draws finding `index`'s graph (nodes and edges as the schema gives them) as inline SVG. */
static void render_graph(json_object *graph, size_t index, FILE *out)
{
    layout g = {0};
    int *left = NULL, *widths = NULL, *rows = NULL, columns = 0;
    if (layout_read(graph, &g) == 0) {
        columns = assign_columns(&g);
        left = calloc((size_t)columns + 1, sizeof *left);
        widths = calloc((size_t)columns + 1, sizeof *widths);
        rows = calloc((size_t)columns + 1, sizeof *rows);
    }
    if (!left || !widths || !rows) {
        fputs("<p>(the graph could not be drawn: out of memory)</p>\n", out);
        layout_free(&g);
        free(left);
        free(widths);
        free(rows);
        return;
    }
    int max_rows = 0;
    for (size_t i = 0; i < g.n; i++) {
        placed *p = &g.nodes[i];
        p->row = rows[p->column]++;
        widths[p->column] = p->width > widths[p->column] ? p->width : widths[p->column];
        max_rows = rows[p->column] > max_rows ? rows[p->column] : max_rows;
    }
    int width = MARGIN;
    for (int c = 0; c < columns; c++) {
        left[c] = width;
        width += widths[c] + COLUMN_GAP;
    }
    int height = MARGIN * 2 + max_rows * (NODE_HEIGHT + ROW_GAP);
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\"><defs><marker id=\"arrow%zu\" viewBox=\"0 0 10 10\" refX=\"10\" "
            "refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0,0 L10,5 "
            "L0,10 z\" fill=\"#333\"/></marker></defs>\n",
            width, height, width, height, index);
    for (size_t k = 0; k < g.nedges; k++) {
        const placed *a = &g.nodes[g.from[k]], *b = &g.nodes[g.to[k]];
        int ay = MARGIN + a->row * (NODE_HEIGHT + ROW_GAP) + NODE_HEIGHT / 2;
        int by = MARGIN + b->row * (NODE_HEIGHT + ROW_GAP) + NODE_HEIGHT / 2;
        int forward = b->column > a->column;
        /* forward edges leave a node's right side for the next one's left; edges back (cycles)
         * leave from below and bow under the nodes so they do not cover them */
        int x1 = left[a->column] + (widths[a->column] + (forward ? a->width : 0)) / 2;
        int x2 = left[b->column] + (widths[b->column] - (forward ? b->width : 0)) / 2;
        int y1 = forward ? ay : ay + NODE_HEIGHT / 2, y2 = forward ? by : by + NODE_HEIGHT / 2;
        int bow = forward ? 0 : NODE_HEIGHT + ROW_GAP / 2;
        fprintf(out,
                "<path d=\"M%d,%d C%d,%d %d,%d %d,%d\" fill=\"none\" stroke=\"#333\"%s "
                "marker-end=\"url(#arrow%zu)\"/>\n",
                x1, y1, x1 + (x2 - x1) / 3, y1 + bow, x2 - (x2 - x1) / 3, y2 + bow, x2, y2,
                g.dashed[k] ? " stroke-dasharray=\"5,4\"" : "", index);
    }
    for (size_t i = 0; i < g.n; i++) {
        const placed *p = &g.nodes[i];
        node_shape(p, left[p->column] + (widths[p->column] - p->width) / 2,
                   MARGIN + p->row * (NODE_HEIGHT + ROW_GAP), out);
    }
    fputs("</svg>\n", out);
    layout_free(&g);
    free(left);
    free(widths);
    free(rows);
}

static void render_finding(json_object *f, size_t index, FILE *out)
{
    const char *severity = report_json_string(f, "severity", "note");
    char ranks[256];
    report_render_format_ranks(report_render_json_array(f, "ranks"), ranks, sizeof ranks);
    fprintf(out,
            "<div class=\"finding %s\" id=\"finding%zu\"><p><span class=\"severity\">%s</span> ",
            severity, index + 1, severity);
    escaped(report_json_string(f, "summary", ""), out);
    fputs("</p>\n", out);
    if (ranks[0]) {
        fputs("<p>ranks: ", out);
        escaped(ranks, out);
        fputs("</p>\n", out);
    }
    render_sites(report_render_json_array(f, "sites"), out);
    const char *suggestion = report_json_string(f, "suggestion", NULL);
    if (suggestion) {
        fputs("<p class=\"suggestion\">suggestion: ", out);
        escaped(suggestion, out);
        fputs("</p>\n", out);
    }
    json_object *graph;
    if (json_object_object_get_ex(f, "graph", &graph))
        render_graph(graph, index, out);
    fputs("</div>\n", out);
}

static void render_header(json_object *root, FILE *out)
{
    json_object *mpi, *job, *cmd = report_render_json_array(root, "command");
    fputs("<p>command: <code>", out);
    for (size_t i = 0; cmd && i < json_object_array_length(cmd); i++) {
        escaped(json_object_get_string(json_object_array_get_idx(cmd, i)), out);
        fputc(' ', out);
    }
    fputs("</code></p>\n", out);
    if (json_object_object_get_ex(root, "mpi", &mpi)) {
        fputs("<p>MPI: ", out);
        escaped(report_json_string(mpi, "flavor", "unknown"), out);
        fputs("</p>\n", out);
    }
    if (json_object_object_get_ex(root, "job", &job) &&
        json_object_object_get_ex(job, "outcome", NULL)) {
        fprintf(out, "<p>job: exit status %d, ", get_int(job, "exit_status", -1));
        escaped(report_json_string(job, "outcome", "?"), out);
        fputs("</p>\n", out);
    }
    json_object *observation = report_render_json_array(root, "observation");
    for (size_t i = 0; observation && i < json_object_array_length(observation); i++) {
        json_object *o = json_object_array_get_idx(observation, i);
        if (strcmp(report_json_string(o, "cause", ""), "observed") == 0)
            continue;
        fprintf(out, "<p class=\"warning\">rank %d: ", get_int(o, "rank", -1));
        escaped(report_json_string(o, "cause", "?"), out);
        fputs(": ", out);
        escaped(report_json_string(o, "detail", ""), out);
        fputs("</p>\n", out);
    }
}

void report_html_render(const report_doc *r, FILE *out)
{
    json_object *root = report_root(r);
    const char *tool = report_json_string(root, "tool", "?");
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>mpiguard ", out);
    escaped(tool, out);
    fprintf(out, " report</title><style>%s</style></head><body>\n<h1>mpiguard ", style);
    escaped(tool, out);
    fputs(" report (mpiguard ", out);
    escaped(report_json_string(root, "version", "?"), out);
    fputs(")</h1>\n", out);
    render_header(root, out);
    size_t n = report_finding_count(r);
    fprintf(out, "<p>%zu finding%s</p>\n", n, n == 1 ? "" : "s");
    const report_class *c;
    for (size_t k = 0; (c = report_class_at(k)); k++) {
        size_t count = 0;
        for (size_t i = 0; i < n; i++)
            count += strcmp(report_json_string(report_finding(r, i), "kind", ""), c->name) == 0;
        if (!count)
            continue;
        fprintf(out, "<section><h2><code>%s</code> (%zu, <span class=\"%s\">%s</span>)</h2>\n",
                c->name, count, c->severity, c->severity);
        fputs("<p>", out);
        escaped(c->meaning, out);
        fputs("</p>\n", out);
        for (size_t i = 0; i < n; i++) {
            json_object *f = report_finding(r, i);
            if (strcmp(report_json_string(f, "kind", ""), c->name) == 0)
                render_finding(f, i, out);
        }
        fputs("</section>\n", out);
    }
    fputs("</body></html>\n", out);
}
