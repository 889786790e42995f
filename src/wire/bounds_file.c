/* The safe-bounds file; see bounds_file.h. */
#include "bounds_file.h"

#include "bounds_text.h"

#include <json-c/json.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mg_array.h"
#include "mg_error.h"

int bounds_file_add(bounds_file_doc *d, const bounds_file_entry *e)
{
    int rc = mg_array_reserve((void **)&d->entries, &d->cap, d->n + 1, sizeof *d->entries);
    if (rc != MG_ERROR_OK)
        return rc;
    d->entries[d->n++] = *e;
    return MG_ERROR_OK;
}

void bounds_file_free(bounds_file_doc *d)
{
    free(d->entries);
    memset(d, 0, sizeof *d);
}

int bounds_file_set_costs(bounds_file_doc *d, const bounds_file_cost *c)
{
    size_t i = 0;
    while (i < d->ncosts && d->costs[i].np != c->np)
        i++;
    if (i == BOUNDS_FILE_COSTS_MAX)
        return MG_ERROR_ERANGE;
    d->costs[i] = *c;
    d->ncosts += i == d->ncosts;
    return MG_ERROR_OK;
}

const bounds_file_cost *bounds_file_costs(const bounds_file_doc *d, uint64_t np)
{
    for (size_t i = 0; i < d->ncosts; i++)
        if (d->costs[i].np == np)
            return &d->costs[i];
    return NULL;
}

/* The measured costs, by their names in the file and in the measurement's line. */
typedef struct cost_field {
    const char *name;
    size_t offset;
} cost_field;

static const cost_field cost_fields[] = {
    {"call_ns", offsetof(bounds_file_cost, call_ns)},
    {"byte_ns", offsetof(bounds_file_cost, byte_ns)},
    {"copy_byte_ns", offsetof(bounds_file_cost, copy_byte_ns)},
    {"type_ns", offsetof(bounds_file_cost, type_ns)},
    {"comm_ns", offsetof(bounds_file_cost, comm_ns)},
};
enum { COST_FIELDS = sizeof cost_fields / sizeof *cost_fields };
_Static_assert((int)COST_FIELDS == (int)BOUNDS_TEXT_COSTS,
               "the bounds text carries each cost field");

static double *cost_slot(bounds_file_cost *c, int field)
{
    return (double *)((char *)c + cost_fields[field].offset);
}

static double cost_of(const bounds_file_cost *c, int field)
{
    return *(const double *)((const char *)c + cost_fields[field].offset);
}

int bounds_file_costs_parse(const char *line, bounds_file_cost *out)
{
    memset(out, 0, sizeof *out);
    char name[COST_FIELDS][16], stride_name[32];
    double v[COST_FIELDS];
    unsigned long long np;
    int stride;
    if (sscanf(line, "coll_costs: np %llu %15s %lf %15s %lf %15s %lf %15s %lf %15s %lf %31s %d",
               &np, name[0], &v[0], name[1], &v[1], name[2], &v[2], name[3], &v[3], name[4], &v[4],
               stride_name, &stride) != 13 ||
        np == 0 || strcmp(stride_name, "allgather_block_stride") != 0 || (stride & ~1))
        return -1;
    for (int f = 0; f < COST_FIELDS; f++) {
        if (strcmp(name[f], cost_fields[f].name) != 0 || !(v[f] >= 0) || v[f] > 1e15)
            return -1;
        *cost_slot(out, f) = v[f];
    }
    out->np = np;
    out->allgather_block_stride = stride;
    return 0;
}

static int fail(char *err, size_t errlen, int code, const char *path, const char *what)
{
    snprintf(err, errlen, "%s: %s", path, what);
    return code;
}

static const char *get_string(json_object *o, const char *key)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
        return NULL;
    return json_object_get_string(v);
}

static int get_count(json_object *o, const char *key, uint64_t *out)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
        return -1;
    int64_t x = json_object_get_int64(v);
    if (x < 0)
        return -1;
    *out = (uint64_t)x;
    return 0;
}

static int copy(char *dst, size_t size, const char *src)
{
    if (!src || strlen(src) >= size)
        return -1;
    strcpy(dst, src);
    return 0;
}

/* The oldest schema version with e's form: 4 for a Class G entry of a (P - 1) form, else 1. */
static int form_version(const bounds_file_entry *e)
{
    return e->cls == 'G' && (strcmp(e->form, "sn(P-1)") == 0 || strcmp(e->form, "n(P-1)") == 0) ? 4
                                                                                                : 1;
}

/* Whether name ends with suffix. */
static int ends_with(const char *name, size_t len, const char *suffix)
{
    size_t n = strlen(suffix);
    return len >= n && strncmp(name + len - n, suffix, n) == 0;
}

/* The oldest schema version with collective: 3 for a call with MPI_IN_PLACE ("Alltoall_inplace"),
 * 2 for a large-count `_c` form ("Gatherv_c"), else 1. */
static int collective_version(const char *collective)
{
    size_t len = strlen(collective);
    if (ends_with(collective, len, "_inplace"))
        return 3;
    return ends_with(collective, len, "_c") ? 2 : 1;
}

/* One entry; returns 0 or -1 for a malformed one, or one that needs a newer schema version than
 * the file's (version 2 has the large-count `_c` entries, version 3 the in-place ones, version 4
 * the (P - 1) forms). */
static int parse_entry(json_object *o, bounds_file_entry *e, int version)
{
    memset(e, 0, sizeof *e);
    const char *cls = get_string(o, "class"), *status = get_string(o, "status");
    if (!json_object_is_type(o, json_type_object) ||
        copy(e->collective, sizeof e->collective, get_string(o, "collective")) ||
        collective_version(e->collective) > version || get_count(o, "type_size", &e->type_size) ||
        get_count(o, "np", &e->np) || get_count(o, "safe_count", &e->safe_count) ||
        copy(e->status, sizeof e->status, status) || !cls)
        return -1;
    if (strcmp(e->status, "bounded") != 0 && strcmp(e->status, "unbounded") != 0 &&
        strcmp(e->status, "skipped") != 0)
        return -1;
    if (strcmp(e->status, "bounded") != 0)
        return strcmp(cls, "none") == 0 ? 0 : -1;
    if (e->type_size == 0 || e->np == 0 || e->safe_count == 0)
        return -1;
    if (strcmp(cls, "X") == 0) {
        e->cls = 'X';
        return 0;
    }
    e->cls = 'G';
    if (strcmp(cls, "G") != 0 || copy(e->form, sizeof e->form, get_string(o, "form")))
        return -1;
    return form_version(e) <= version ? 0 : -1;
}

/* One element of "costs"; 0 or -1 for a malformed one. */
static int parse_costs(json_object *o, bounds_file_cost *c)
{
    memset(c, 0, sizeof *c);
    json_object *v;
    if (!json_object_is_type(o, json_type_object) || get_count(o, "np", &c->np) || c->np == 0 ||
        !json_object_object_get_ex(o, "allgather_block_stride", &v) ||
        !json_object_is_type(v, json_type_boolean))
        return -1;
    c->allgather_block_stride = json_object_get_boolean(v);
    for (int f = 0; f < COST_FIELDS; f++) {
        if (!json_object_object_get_ex(o, cost_fields[f].name, &v) ||
            !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
            return -1;
        double x = json_object_get_double(v);
        if (!(x >= 0) || x > 1e15)
            return -1;
        *cost_slot(c, f) = x;
    }
    return 0;
}

/* What a file of each version cannot hold, for the message on a malformed entry. */
static const char *const not_in_version[BOUNDS_FILE_SCHEMA_NEWEST + 1] = {
    [1] = " (a large-count `_c` entry needs " BOUNDS_FILE_SCHEMA_PREFIX
          "2, an in-place one " BOUNDS_FILE_SCHEMA_PREFIX
          "3, a form sn(P-1) or n(P-1) " BOUNDS_FILE_SCHEMA_PREFIX "4)",
    [2] = " (an in-place entry needs " BOUNDS_FILE_SCHEMA_PREFIX
          "3, a form sn(P-1) or n(P-1) " BOUNDS_FILE_SCHEMA_PREFIX "4)",
    [3] = " (a form sn(P-1) or n(P-1) needs " BOUNDS_FILE_SCHEMA_PREFIX "4)",
};

static int parse_doc(json_object *root, const char *path, bounds_file_doc *d, char *err,
                     size_t errlen)
{
    const char *schema = json_object_is_type(root, json_type_object) ? get_string(root, "schema")
                                                                     : NULL;
    size_t plen = strlen(BOUNDS_FILE_SCHEMA_PREFIX);
    if (!schema || strncmp(schema, BOUNDS_FILE_SCHEMA_PREFIX, plen) != 0)
        return fail(err, errlen, MG_ERROR_EFORMAT, path, "not an mpiguard safe-bounds file");
    const char *v = schema + plen;
    int version = v[0] >= '1' && v[0] <= '0' + BOUNDS_FILE_SCHEMA_NEWEST && !v[1] ? v[0] - '0' : 0;
    if (!version)
        return fail(err, errlen, MG_ERROR_EVERSION, path,
                    "another version of the safe-bounds schema");
    json_object *mpi, *entries;
    if (!json_object_object_get_ex(root, "mpi", &mpi) ||
        copy(d->flavor, sizeof d->flavor, get_string(mpi, "flavor")) ||
        copy(d->version, sizeof d->version, get_string(mpi, "version")))
        return fail(err, errlen, MG_ERROR_EFORMAT, path,
                    "missing or bad \"mpi\" {flavor, version}");
    if (!json_object_object_get_ex(root, "entries", &entries) ||
        !json_object_is_type(entries, json_type_array))
        return fail(err, errlen, MG_ERROR_EFORMAT, path, "missing \"entries\" array");
    for (size_t i = 0; i < json_object_array_length(entries); i++) {
        bounds_file_entry e;
        if (parse_entry(json_object_array_get_idx(entries, i), &e, version) != 0) {
            snprintf(err, errlen, "%s: entry %zu is malformed%s", path, i,
                     not_in_version[version] ? not_in_version[version] : "");
            return MG_ERROR_EFORMAT;
        }
        if (bounds_file_add(d, &e) != 0)
            return fail(err, errlen, MG_ERROR_ENOMEM, path, "out of memory");
    }
    json_object *costs;
    if (!json_object_object_get_ex(root, "costs", &costs))
        return MG_ERROR_OK;
    if (!json_object_is_type(costs, json_type_array))
        return fail(err, errlen, MG_ERROR_EFORMAT, path, "\"costs\" is not an array");
    for (size_t i = 0; i < json_object_array_length(costs); i++) {
        bounds_file_cost c;
        if (parse_costs(json_object_array_get_idx(costs, i), &c) != 0) {
            snprintf(err, errlen,
                     "%s: costs entry %zu is malformed (np, %s, %s, %s, %s, %s: "
                     "numbers >= 0; allgather_block_stride: true or false)",
                     path, i, cost_fields[0].name, cost_fields[1].name, cost_fields[2].name,
                     cost_fields[3].name, cost_fields[4].name);
            return MG_ERROR_EFORMAT;
        }
        if (bounds_file_set_costs(d, &c) != 0)
            return fail(err, errlen, MG_ERROR_EFORMAT, path, "costs at too many process counts");
    }
    return MG_ERROR_OK;
}

int bounds_file_read(const char *path, bounds_file_doc *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    if (access(path, R_OK) != 0)
        return fail(err, errlen, MG_ERROR_ENOENT, path, "cannot be read");
    json_object *root = json_object_from_file(path);
    if (!root)
        return fail(err, errlen, MG_ERROR_EFORMAT, path, "not valid JSON");
    int rc = parse_doc(root, path, d, err, errlen);
    json_object_put(root);
    if (rc)
        bounds_file_free(d);
    return rc;
}

static json_object *entry_json(const bounds_file_entry *e)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "collective", json_object_new_string(e->collective));
    json_object_object_add(o, "type_size", json_object_new_int64((int64_t)e->type_size));
    json_object_object_add(o, "np", json_object_new_int64((int64_t)e->np));
    json_object_object_add(o, "safe_count", json_object_new_int64((int64_t)e->safe_count));
    const char *cls = e->cls == 'G' ? "G" : e->cls == 'X' ? "X" : "none";
    json_object_object_add(o, "class", json_object_new_string(cls));
    json_object_object_add(o, "form", e->cls == 'G' ? json_object_new_string(e->form) : NULL);
    json_object_object_add(o, "status", json_object_new_string(e->status));
    return o;
}

static json_object *costs_json(const bounds_file_cost *c)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "np", json_object_new_int64((int64_t)c->np));
    for (int f = 0; f < COST_FIELDS; f++)
        json_object_object_add(o, cost_fields[f].name, json_object_new_double(cost_of(c, f)));
    json_object_object_add(o, "allgather_block_stride",
                           json_object_new_boolean(c->allgather_block_stride));
    return o;
}

/* Writes text to path through a temporary file renamed over it. */
static int write_atomic(const char *path, const char *text, char *err, size_t errlen)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    int ok = f && fputs(text, f) >= 0;
    ok = f && fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        unlink(tmp);
        return fail(err, errlen, MG_ERROR_EIO, path, "cannot be written");
    }
    return MG_ERROR_OK;
}

/* The oldest schema version that holds e. */
static int version_needed(const bounds_file_entry *e)
{
    int coll = collective_version(e->collective), form = form_version(e);
    return coll > form ? coll : form;
}

int bounds_file_write(const char *path, const bounds_file_doc *d, char *err, size_t errlen)
{
    json_object *root = json_object_new_object(), *mpi = json_object_new_object();
    json_object *entries = json_object_new_array();
    /* The older version where it suffices, so that older builds keep reading such files. */
    int version = 1;
    for (size_t i = 0; i < d->n; i++) {
        int v = version_needed(&d->entries[i]);
        version = v > version ? v : version;
    }
    char schema[32];
    snprintf(schema, sizeof schema, "%s%d", BOUNDS_FILE_SCHEMA_PREFIX, version);
    json_object_object_add(root, "schema", json_object_new_string(schema));
    json_object_object_add(mpi, "flavor", json_object_new_string(d->flavor));
    json_object_object_add(mpi, "version", json_object_new_string(d->version));
    json_object_object_add(root, "mpi", mpi);
    for (size_t i = 0; i < d->n; i++)
        json_object_array_add(entries, entry_json(&d->entries[i]));
    json_object_object_add(root, "entries", entries);
    if (d->ncosts) {
        json_object *costs = json_object_new_array();
        for (size_t i = 0; i < d->ncosts; i++)
            json_object_array_add(costs, costs_json(&d->costs[i]));
        json_object_object_add(root, "costs", costs);
    }
    const char *text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY);
    int rc = write_atomic(path, text, err, errlen);
    json_object_put(root);
    return rc;
}

/* The name of the `_c` form of e's int-count collective ("Reduce_inplace": "Reduce_c_inplace")
 * into out; 0, or -1 when e is a `_c` form already. */
static int large_form_name(const bounds_file_entry *e, char *out, size_t outlen)
{
    size_t len = strlen(e->collective);
    int in_place = ends_with(e->collective, len, "_inplace");
    size_t base = len - (in_place ? strlen("_inplace") : 0);
    if (ends_with(e->collective, base, "_c"))
        return -1;
    snprintf(out, outlen, "%.*s_c%s", (int)base, e->collective, in_place ? "_inplace" : "");
    return 0;
}

/* Whether d has a tested point (bounded or unbounded, not skipped) of collective at (s, P). */
static int tested_point(const bounds_file_doc *d, const char *collective, uint64_t s, uint64_t P)
{
    for (size_t i = 0; i < d->n; i++) {
        const bounds_file_entry *e = &d->entries[i];
        if (e->type_size == s && e->np == P && strcmp(e->collective, collective) == 0 &&
            strcmp(e->status, "skipped") != 0)
            return 1;
    }
    return 0;
}

static size_t put_entry(char *text, size_t cap, const char *collective, const bounds_file_entry *e)
{
    bounds_text_entry t = {
        .type_size = e->type_size, .nprocs = e->np, .n_safe = e->safe_count, .cls = e->cls};
    snprintf(t.collective, sizeof t.collective, "%s", collective);
    snprintf(t.form, sizeof t.form, "%s", e->cls == 'G' ? e->form : "n");
    return bounds_text_put_entry(text, cap, &t);
}

int bounds_file_write_module(const char *path, const bounds_file_doc *d, char *err, size_t errlen)
{
    size_t cap = 128 + 2 * d->n * 96 + d->ncosts * 160, used = 0;
    char *text = malloc(cap);
    if (!text)
        return fail(err, errlen, MG_ERROR_ENOMEM, path, "out of memory");
    used += bounds_text_put_header(text, cap, d->flavor, d->version);
    for (size_t i = 0; i < d->n; i++) {
        const bounds_file_entry *e = &d->entries[i];
        if (strcmp(e->status, "bounded") != 0)
            continue;
        used += put_entry(text + used, cap - used, e->collective, e);
        /* A library's `_c` form runs the same algorithm as its int form (MPICH 4.0.2's in-place
         * Reduce_c fails exactly where Reduce does): untested, it is taken to fail alike, which
         * bounds the application's `_c` calls and keeps W3 off past the int form's bound. */
        char large[40];
        if (large_form_name(e, large, sizeof large) == 0 &&
            !tested_point(d, large, e->type_size, e->np))
            used += put_entry(text + used, cap - used, large, e);
    }
    for (size_t i = 0; i < d->ncosts; i++) {
        const bounds_file_cost *p = &d->costs[i];
        bounds_text_costs c = {.nprocs = p->np,
                               .allgather_block_stride = p->allgather_block_stride};
        for (int f = 0; f < COST_FIELDS; f++) /* in whole picoseconds */
            c.ps[f] = (uint64_t)llround(cost_of(p, f) * 1000);
        used += bounds_text_put_costs(text + used, cap - used, &c);
    }
    int rc = write_atomic(path, text, err, errlen);
    free(text);
    return rc;
}
