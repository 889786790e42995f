/* The safe-bounds file; see bounds_file.h. */
#include "bounds_file.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mg_array.h"
#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"
#include "mpi_version.h"
#include "protect_bounds.h"

static const char *const form_names[SCALING_FORM_COUNT] = {[SCALING_FORM_SNP] = "snP",
                                                           [SCALING_FORM_NP] = "nP",
                                                           [SCALING_FORM_SN] = "sn",
                                                           [SCALING_FORM_N] = "n"};

const char *bounds_form_name(scaling_form f)
{
    return (unsigned)f < SCALING_FORM_COUNT ? form_names[f] : "n";
}

int bounds_doc_add(bounds_doc *d, const bounds_entry *e)
{
    int rc = mg_array_reserve((void **)&d->entries, &d->cap, d->n + 1, sizeof *d->entries);
    if (rc != MG_OK)
        return rc;
    d->entries[d->n++] = *e;
    return MG_OK;
}

void bounds_doc_free(bounds_doc *d)
{
    free(d->entries);
    memset(d, 0, sizeof *d);
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

static int parse_form(const char *t, scaling_form *out)
{
    for (int f = 0; f < SCALING_FORM_COUNT; f++)
        if (t && strcmp(t, form_names[f]) == 0) {
            *out = (scaling_form)f;
            return 0;
        }
    return -1;
}

/* One entry; returns 0 or -1 for a malformed one, or one that needs a newer schema version than
 * the file's (version 2 has the large-count `_c` entries, version 3 the in-place ones). */
static int parse_entry(json_object *o, bounds_entry *e, int version)
{
    memset(e, 0, sizeof *e);
    scaling_coll coll;
    int nonblocking, large = 0, in_place = 0;
    const char *cls = get_string(o, "class"), *status = get_string(o, "status");
    if (!json_object_is_type(o, json_type_object) ||
        copy(e->collective, sizeof e->collective, get_string(o, "collective")) ||
        scaling_coll_from_name(e->collective, &coll, &nonblocking, version >= 2 ? &large : NULL,
                               version >= 3 ? &in_place : NULL) != 0 ||
        get_count(o, "type_size", &e->type_size) || get_count(o, "np", &e->np) ||
        get_count(o, "safe_count", &e->safe_count) || copy(e->status, sizeof e->status, status) ||
        !cls)
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
    return strcmp(cls, "G") == 0 ? parse_form(get_string(o, "form"), &e->form) : -1;
}

static int parse_doc(json_object *root, const char *path, bounds_doc *d, char *err, size_t errlen)
{
    const char *schema =
        json_object_is_type(root, json_type_object) ? get_string(root, "schema") : NULL;
    size_t plen = strlen(BOUNDS_SCHEMA_PREFIX);
    if (!schema || strncmp(schema, BOUNDS_SCHEMA_PREFIX, plen) != 0)
        return fail(err, errlen, MG_EFORMAT, path, "not an mpiguard safe-bounds file");
    const char *v = schema + plen;
    int version = v[0] >= '1' && v[0] <= '0' + BOUNDS_SCHEMA_NEWEST && !v[1] ? v[0] - '0' : 0;
    if (!version)
        return fail(err, errlen, MG_EVERSION, path, "another version of the safe-bounds schema");
    json_object *mpi, *entries;
    if (!json_object_object_get_ex(root, "mpi", &mpi) ||
        copy(d->flavor, sizeof d->flavor, get_string(mpi, "flavor")) ||
        copy(d->version, sizeof d->version, get_string(mpi, "version")))
        return fail(err, errlen, MG_EFORMAT, path, "missing or bad \"mpi\" {flavor, version}");
    if (!json_object_object_get_ex(root, "entries", &entries) ||
        !json_object_is_type(entries, json_type_array))
        return fail(err, errlen, MG_EFORMAT, path, "missing \"entries\" array");
    for (size_t i = 0; i < json_object_array_length(entries); i++) {
        bounds_entry e;
        if (parse_entry(json_object_array_get_idx(entries, i), &e, version) != 0) {
            snprintf(err, errlen, "%s: entry %zu is malformed%s", path, i,
                     version == 1   ? " (a large-count `_c` entry needs " BOUNDS_SCHEMA_PREFIX
                                      "2, an in-place one " BOUNDS_SCHEMA_PREFIX "3)"
                     : version == 2 ? " (an in-place entry needs " BOUNDS_SCHEMA_PREFIX "3)"
                                    : "");
            return MG_EFORMAT;
        }
        if (bounds_doc_add(d, &e) != 0)
            return fail(err, errlen, MG_ENOMEM, path, "out of memory");
    }
    return MG_OK;
}

int bounds_file_read(const char *path, bounds_doc *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    if (access(path, R_OK) != 0)
        return fail(err, errlen, MG_ENOENT, path, "cannot be read");
    json_object *root = json_object_from_file(path);
    if (!root)
        return fail(err, errlen, MG_EFORMAT, path, "not valid JSON");
    int rc = parse_doc(root, path, d, err, errlen);
    json_object_put(root);
    if (rc)
        bounds_doc_free(d);
    return rc;
}

static json_object *entry_json(const bounds_entry *e)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "collective", json_object_new_string(e->collective));
    json_object_object_add(o, "type_size", json_object_new_int64((int64_t)e->type_size));
    json_object_object_add(o, "np", json_object_new_int64((int64_t)e->np));
    json_object_object_add(o, "safe_count", json_object_new_int64((int64_t)e->safe_count));
    const char *cls = e->cls == 'G' ? "G" : e->cls == 'X' ? "X" : "none";
    json_object_object_add(o, "class", json_object_new_string(cls));
    json_object_object_add(
        o, "form", e->cls == 'G' ? json_object_new_string(bounds_form_name(e->form)) : NULL);
    json_object_object_add(o, "status", json_object_new_string(e->status));
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
        return fail(err, errlen, MG_EIO, path, "cannot be written");
    }
    return MG_OK;
}

/* The oldest schema version that holds e: 2 for a large-count `_c` form ("Gatherv_c"), 3 for a
 * call with MPI_IN_PLACE ("Alltoall_inplace"), else 1. */
static int version_needed(const bounds_entry *e)
{
    scaling_coll c;
    int nb, large = 0, in_place = 0;
    if (scaling_coll_from_name(e->collective, &c, &nb, &large, &in_place) != 0)
        return 1;
    return in_place ? 3 : large ? 2 : 1;
}

int bounds_file_write(const char *path, const bounds_doc *d, char *err, size_t errlen)
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
    snprintf(schema, sizeof schema, "%s%d", BOUNDS_SCHEMA_PREFIX, version);
    json_object_object_add(root, "schema", json_object_new_string(schema));
    json_object_object_add(mpi, "flavor", json_object_new_string(d->flavor));
    json_object_object_add(mpi, "version", json_object_new_string(d->version));
    json_object_object_add(root, "mpi", mpi);
    for (size_t i = 0; i < d->n; i++)
        json_object_array_add(entries, entry_json(&d->entries[i]));
    json_object_object_add(root, "entries", entries);
    const char *text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY);
    int rc = write_atomic(path, text, err, errlen);
    json_object_put(root);
    return rc;
}

/* The name of the `_c` form of e's int-count collective ("Reduce_inplace": "Reduce_c_inplace")
 * into out; 0, or -1 when e is a `_c` form already or not a collective. */
static int large_form_name(const bounds_entry *e, char *out, size_t outlen)
{
    scaling_coll c;
    int nb, large = 0, in_place = 0;
    if (scaling_coll_from_name(e->collective, &c, &nb, &large, &in_place) != 0 || large)
        return -1;
    size_t base = strlen(e->collective) - (in_place ? strlen("_inplace") : 0);
    snprintf(out, outlen, "%.*s_c%s", (int)base, e->collective, in_place ? "_inplace" : "");
    return 0;
}

/* Whether d has a tested point (bounded or unbounded, not skipped) of collective at (s, P). */
static int tested_point(const bounds_doc *d, const char *collective, uint64_t s, uint64_t P)
{
    for (size_t i = 0; i < d->n; i++) {
        const bounds_entry *e = &d->entries[i];
        if (e->type_size == s && e->np == P && strcmp(e->collective, collective) == 0 &&
            strcmp(e->status, "skipped") != 0)
            return 1;
    }
    return 0;
}

static size_t put_entry(char *text, size_t cap, const char *collective, const bounds_entry *e)
{
    return (size_t)snprintf(text, cap, "entry %s %llu %llu %llu %c %s\n", collective,
                            (unsigned long long)e->type_size, (unsigned long long)e->np,
                            (unsigned long long)e->safe_count, e->cls,
                            e->cls == 'G' ? bounds_form_name(e->form) : "n");
}

int bounds_file_write_module(const char *path, const bounds_doc *d, char *err, size_t errlen)
{
    size_t cap = 128 + 2 * d->n * 96, used = 0;
    char *text = malloc(cap);
    if (!text)
        return fail(err, errlen, MG_ENOMEM, path, "out of memory");
    used += (size_t)snprintf(text, cap, "%s\nmpi %s %s\n", PROTECT_BOUNDS_MAGIC, d->flavor,
                             d->version);
    for (size_t i = 0; i < d->n; i++) {
        const bounds_entry *e = &d->entries[i];
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
    int rc = write_atomic(path, text, err, errlen);
    free(text);
    return rc;
}

int bounds_file_load(const char *path, mg_mpi_flavor flavor, bounds_doc *d)
{
    char err[1024], version[32];
    int rc = bounds_file_read(path, d, err, sizeof err);
    if (rc) {
        mg_error("%s", err);
        return rc == MG_ENOENT ? MG_EXIT_NOINPUT : MG_EXIT_DATAERR;
    }
    int status = 0;
    if (flavor != MG_FLAVOR_UNKNOWN && strcmp(d->flavor, mg_mpi_flavor_name(flavor)) != 0) {
        mg_error("%s was measured on %s %s, but this job uses %s", path, d->flavor, d->version,
                 mg_mpi_flavor_name(flavor));
        status = MG_EXIT_DATAERR;
    } else if (flavor != MG_FLAVOR_UNKNOWN &&
               mpi_version_of(flavor, version, sizeof version) == 0 &&
               strcmp(version, d->version) != 0) {
        mg_error("%s was measured on %s %s, but the installed %s is %s: measure it again with "
                 "mpiguard collectives",
                 path, d->flavor, d->version, d->flavor, version);
        status = MG_EXIT_DATAERR;
    }
    if (status)
        bounds_doc_free(d);
    return status;
}
