/* Building, writing and loading the one report schema (report.h, docs/report-schema.md). */
#include "report.h"
#include "report_internal.h"

#include "mg_error.h"
#include "report_class.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct report_doc {
    json_object *root;
    json_object *findings;
};

static json_object *child(json_object *parent, const char *key, json_type type)
{
    json_object *o;
    if (json_object_object_get_ex(parent, key, &o) && json_object_is_type(o, type))
        return o;
    o = type == json_type_array ? json_object_new_array() : json_object_new_object();
    json_object_object_add(parent, key, o);
    return o;
}

static json_object *string_or_null(const char *s)
{
    return s ? json_object_new_string(s) : NULL;
}

report_doc *report_create(const char *tool, const char *version, char *const *command, int ncommand)
{
    report_doc *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->root = json_object_new_object();
    json_object_object_add(r->root, "schema", json_object_new_string(REPORT_SCHEMA));
    json_object_object_add(r->root, "tool", json_object_new_string(tool));
    json_object_object_add(r->root, "version", json_object_new_string(version));
    json_object *cmd = json_object_new_array();
    for (int i = 0; i < ncommand; i++)
        json_object_array_add(cmd, json_object_new_string(command[i]));
    json_object_object_add(r->root, "command", cmd);
    r->findings = json_object_new_array();
    json_object_object_add(r->root, "findings", r->findings);
    return r;
}

void report_destroy(report_doc *r)
{
    if (!r)
        return;
    json_object_put(r->root);
    free(r);
}

void report_set_mpi(report_doc *r, const char *flavor, const char *launcher, const char *library)
{
    json_object *mpi = json_object_new_object();
    json_object_object_add(mpi, "flavor", string_or_null(flavor));
    json_object_object_add(mpi, "launcher", string_or_null(launcher));
    json_object_object_add(mpi, "library", string_or_null(library));
    json_object_object_add(r->root, "mpi", mpi);
}

void report_add_rank(report_doc *r, int rank, int pid, const char *host)
{
    json_object *ranks = child(child(r->root, "job", json_type_object), "ranks", json_type_array);
    json_object *entry = json_object_new_object();
    json_object_object_add(entry, "rank", json_object_new_int(rank));
    json_object_object_add(entry, "pid", json_object_new_int(pid));
    json_object_object_add(entry, "host", string_or_null(host));
    json_object_array_add(ranks, entry);
}

void report_set_exit(report_doc *r, int exit_status, const char *outcome)
{
    json_object *job = child(r->root, "job", json_type_object);
    json_object_object_add(job, "exit_status", json_object_new_int(exit_status));
    json_object_object_add(job, "outcome", json_object_new_string(outcome));
}

void report_add_observation(report_doc *r, int rank, int observed, const char *cause,
                            const char *detail, const char *sampler)
{
    json_object *ranks = child(r->root, "observation", json_type_array);
    json_object *entry = json_object_new_object();
    json_object_object_add(entry, "rank", json_object_new_int(rank));
    json_object_object_add(entry, "observed", json_object_new_boolean(observed));
    json_object_object_add(entry, "cause", json_object_new_string(cause));
    json_object_object_add(entry, "detail", string_or_null(detail));
    json_object_object_add(entry, "sampler", string_or_null(sampler));
    json_object_array_add(ranks, entry);
}

json_object *report_tool_data(report_doc *r)
{
    return child(r->root, "tool_data", json_type_object);
}

static json_object *new_finding(const char *kind, const char *summary)
{
    json_object *f = json_object_new_object();
    if (!f)
        return NULL;
    const report_class *c = report_class_find(kind);
    json_object_object_add(f, "kind", json_object_new_string(kind));
    json_object_object_add(f, "severity", json_object_new_string(c ? c->severity : "error"));
    json_object_object_add(f, "summary", json_object_new_string(summary));
    json_object_object_add(f, "ranks", json_object_new_array());
    json_object_object_add(f, "sites", json_object_new_array());
    if (c)
        json_object_object_add(f, "suggestion", json_object_new_string(c->suggestion));
    return f;
}

report_entry *report_add_finding(report_doc *r, const char *kind, const char *summary)
{
    json_object *f = new_finding(kind, summary);
    if (f)
        json_object_array_add(r->findings, f);
    return f;
}

report_entry *report_replace_finding(report_doc *r, size_t i, const char *kind, const char *summary)
{
    if (i >= json_object_array_length(r->findings))
        return NULL;
    json_object *f = new_finding(kind, summary);
    if (f)
        json_object_array_put_idx(r->findings, i, f); /* releases the finding it replaces */
    return f;
}

/* The ranks of a finding's "ranks" array, hashed: the array's userdata, so that listing one more
 * rank costs O(1) amortised instead of a scan of the array (a finding of 10^4 ranks would be
 * quadratic). `listed` is the array length the set stands for: an array changed otherwise (a
 * report loaded back) is hashed anew. */
typedef struct rank_set {
    size_t listed, n, cap; /* cap: 0 or a power of two, at least 2 n */
    uint64_t *slots;       /* (uint32_t)rank + 1; 0 is free */
} rank_set;

static void rank_set_free(json_object *array, void *userdata)
{
    (void)array;
    rank_set *s = userdata;
    free(s->slots);
    free(s);
}

/* The slot that holds key, or the free one where it goes (linear probing). */
static size_t slot_of(const rank_set *s, uint64_t key)
{
    size_t i = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 32) & (s->cap - 1);
    while (s->slots[i] && s->slots[i] != key)
        i = (i + 1) & (s->cap - 1);
    return i;
}

/* Adds rank to s: 1 when it is new, 0 when s holds it, MG_ERROR_ENOMEM (s unchanged). */
static int set_add(rank_set *s, int rank)
{
    if (2 * (s->n + 1) > s->cap) {
        rank_set bigger = {.listed = s->listed, .n = s->n, .cap = s->cap ? 2 * s->cap : 64};
        bigger.slots = calloc(bigger.cap, sizeof *bigger.slots);
        if (!bigger.slots)
            return MG_ERROR_ENOMEM;
        for (size_t i = 0; i < s->cap; i++)
            if (s->slots[i])
                bigger.slots[slot_of(&bigger, s->slots[i])] = s->slots[i];
        free(s->slots);
        *s = bigger;
    }
    uint64_t key = (uint64_t)(uint32_t)rank + 1;
    size_t i = slot_of(s, key);
    if (s->slots[i])
        return 0;
    s->slots[i] = key;
    s->n++;
    return 1;
}

/* The set of array `ranks`, made or brought up to date; NULL when out of memory. */
static rank_set *set_of(json_object *ranks)
{
    rank_set *s = json_object_get_userdata(ranks);
    if (!s) {
        s = calloc(1, sizeof *s);
        if (!s)
            return NULL;
        json_object_set_userdata(ranks, s, rank_set_free);
    }
    size_t n = json_object_array_length(ranks);
    if (s->listed == n)
        return s;
    if (s->slots)
        memset(s->slots, 0, s->cap * sizeof *s->slots);
    s->n = 0;
    for (size_t i = 0; i < n; i++)
        if (set_add(s, json_object_get_int(json_object_array_get_idx(ranks, i))) < 0)
            return NULL;
    s->listed = n;
    return s;
}

/* "ranks" is the set of ranks involved, in the order they were first added: a rank that takes
 * part in two ways (a hang's culprit that also waits, a check finding's two calls of one rank) is
 * listed once. Out of memory for the set, the array is scanned instead. */
void report_finding_add_rank(report_entry *f, int rank)
{
    json_object *ranks = child(f, "ranks", json_type_array);
    rank_set *s = set_of(ranks);
    int added = s ? set_add(s, rank) : MG_ERROR_ENOMEM;
    for (size_t i = 0; added < 0 && i < json_object_array_length(ranks); i++)
        if (json_object_get_int(json_object_array_get_idx(ranks, i)) == rank)
            return;
    if (!added)
        return;
    json_object_array_add(ranks, json_object_new_int(rank));
    if (added > 0)
        s->listed++;
}

static json_object *add_site(report_entry *f, int rank, const char *function, const char *file,
                             int line)
{
    json_object *site = json_object_new_object();
    json_object_object_add(site, "rank", json_object_new_int(rank));
    json_object_object_add(site, "function", string_or_null(function));
    json_object_object_add(site, "file", string_or_null(file));
    json_object_object_add(site, "line", json_object_new_int(line));
    json_object_array_add(child(f, "sites", json_type_array), site);
    return site;
}

void report_finding_add_site(report_entry *f, int rank, const char *function, const char *file,
                             int line)
{
    add_site(f, rank, function, file, line);
}

void report_finding_add_creation_site(report_entry *f, int rank, const char *function,
                                      const char *file, int line)
{
    json_object_object_add(add_site(f, rank, function, file, line), "role",
                           json_object_new_string("creation"));
}

void report_mark_procedure_line(report_entry *f)
{
    json_object *sites = child(f, "sites", json_type_array);
    size_t n = json_object_array_length(sites);
    if (n)
        json_object_object_add(json_object_array_get_idx(sites, n - 1), "line_is",
                               json_object_new_string("procedure"));
}

const char *report_json_string(json_object *o, const char *key, const char *fallback)
{
    json_object *v;
    if (o && json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string))
        return json_object_get_string(v);
    return fallback;
}

int report_site_is_procedure_line(json_object *site)
{
    return strcmp(report_json_string(site, "line_is", ""), "procedure") == 0;
}

void report_finding_set_suggestion(report_entry *f, const char *text)
{
    json_object_object_add(f, "suggestion", json_object_new_string(text));
}

json_object *report_finding_evidence(report_entry *f)
{
    return child(f, "evidence", json_type_object);
}

void report_finding_add_graph_node(report_entry *f, const char *id, const char *label,
                                   const char *shape)
{
    json_object *node = json_object_new_object();
    json_object_object_add(node, "id", json_object_new_string(id));
    json_object_object_add(node, "label", json_object_new_string(label));
    json_object_object_add(node, "shape", json_object_new_string(shape));
    json_object_array_add(child(child(f, "graph", json_type_object), "nodes", json_type_array),
                          node);
}

void report_finding_highlight_graph_node(report_entry *f, const char *id)
{
    json_object *nodes = child(child(f, "graph", json_type_object), "nodes", json_type_array), *v;
    for (size_t i = json_object_array_length(nodes); i-- > 0;) {
        json_object *node = json_object_array_get_idx(nodes, i);
        if (json_object_object_get_ex(node, "id", &v) &&
            strcmp(json_object_get_string(v), id) == 0) {
            json_object_object_add(node, "highlight", json_object_new_boolean(1));
            return;
        }
    }
}

void report_finding_add_graph_edge(report_entry *f, const char *from, const char *to,
                                   const char *style)
{
    json_object *edge = json_object_new_object();
    json_object_object_add(edge, "from", json_object_new_string(from));
    json_object_object_add(edge, "to", json_object_new_string(to));
    json_object_object_add(edge, "style", json_object_new_string(style));
    json_object_array_add(child(child(f, "graph", json_type_object), "edges", json_type_array),
                          edge);
}

size_t report_finding_count(const report_doc *r)
{
    return json_object_array_length(r->findings);
}

report_entry *report_finding(const report_doc *r, size_t i)
{
    return json_object_array_get_idx(r->findings, i);
}

static int write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

int report_write(const report_doc *r, const char *path, char *err, size_t errlen)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp) {
        snprintf(err, errlen, "report path '%s' is too long", path);
        return MG_ERROR_ERANGE;
    }
    const char *text = json_object_to_json_string_ext(r->root, JSON_C_TO_STRING_PRETTY |
                                                                   JSON_C_TO_STRING_NOSLASHESCAPE);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, errlen, "cannot write report '%s': %s", path, strerror(errno));
        return MG_ERROR_EIO;
    }
    int failed = write_all(fd, text, strlen(text)) || write_all(fd, "\n", 1);
    int saved = errno;
    if (close(fd) != 0 && !failed) {
        failed = 1;
        saved = errno;
    }
    if (!failed && rename(tmp, path) != 0) {
        failed = 1;
        saved = errno;
    }
    if (failed) {
        unlink(tmp);
        snprintf(err, errlen, "cannot write report '%s': %s", path, strerror(saved));
        return MG_ERROR_EIO;
    }
    return MG_ERROR_OK;
}

int report_load(const char *path, report_doc **out, char *err, size_t errlen)
{
    *out = NULL;
    FILE *in = fopen(path, "rb");
    struct stat st;
    if (!in || fstat(fileno(in), &st) != 0) {
        snprintf(err, errlen, "cannot read report '%s': %s", path, strerror(errno));
        if (in)
            fclose(in);
        return MG_ERROR_ENOENT;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "'%s' is a directory, not a report", path);
        fclose(in);
        return MG_ERROR_ENOENT;
    }
    json_tokener *tok = json_tokener_new();
    json_object *root = NULL;
    char buf[65536];
    size_t n, total = 0;
    enum json_tokener_error jerr = json_tokener_continue;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
        total += n;
        root = json_tokener_parse_ex(tok, buf, (int)n);
        jerr = json_tokener_get_error(tok);
        if (jerr != json_tokener_continue)
            break;
    }
    fclose(in);
    if (total == 0) {
        snprintf(err, errlen, "'%s' is empty: no report in it", path);
        json_tokener_free(tok);
        return MG_ERROR_EFORMAT;
    }
    if (jerr != json_tokener_success || !root) {
        snprintf(err, errlen, "'%s' is not valid JSON: %s", path,
                 jerr == json_tokener_continue ? "unexpected end of file"
                                               : json_tokener_error_desc(jerr));
        json_tokener_free(tok);
        json_object_put(root);
        return MG_ERROR_EFORMAT;
    }
    json_tokener_free(tok);
    int rc = report_schema_validate(root, path, err, errlen);
    if (rc) {
        json_object_put(root);
        return rc;
    }
    report_doc *r = calloc(1, sizeof *r);
    if (!r) {
        json_object_put(root);
        return MG_ERROR_ENOMEM;
    }
    r->root = root;
    json_object_object_get_ex(root, "findings", &r->findings);
    *out = r;
    return MG_ERROR_OK;
}

json_object *report_root(const report_doc *r)
{
    return r->root;
}
