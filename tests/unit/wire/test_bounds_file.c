/* The safe-bounds file and the module's own file with the (P - 1) forms: a file with one is written
 * in schema version 4, read back, written in the module's text form and read by the module's
 * reader; an older version is refused with a message (a form of no name: by the module's reader
 * here, by `mpiguard protect` in protect_cli.sh). No MPI. */
#include "bounds_file.h"
#include "mg_error.h"
#include "mg_test.h"
#include "bounds_text.h"
#include "protect_bounds.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/mg-test-bounds-XXXXXX";

static char *path_in_dir(const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    MG_CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* The "schema" string of the JSON file at path ("" when there is none). */
static const char *schema_of(const char *path)
{
    static char schema[64];
    json_object *root = json_object_from_file(path), *v;
    schema[0] = '\0';
    if (root && json_object_object_get_ex(root, "schema", &v))
        snprintf(schema, sizeof schema, "%s", json_object_get_string(v));
    json_object_put(root);
    return schema;
}

/* Prob. 9 at P = 4: Gatherv's root fails once (P - 1) n passes INT_MAX. */
static const bounds_file_entry gatherv = {"Gatherv", 1, 4, 704643072, 'G', "n(P-1)", "bounded"};

static void doc_of(bounds_file_doc *d, const bounds_file_entry *e, size_t n)
{
    memset(d, 0, sizeof *d);
    snprintf(d->flavor, sizeof d->flavor, "openmpi");
    snprintf(d->version, sizeof d->version, "4.1.4");
    for (size_t i = 0; i < n; i++)
        MG_CHECK_INT(bounds_file_add(d, &e[i]), 0);
}

static void p_minus_1_form_round_trip(void)
{
    const bounds_file_entry others[] = {
        {"Scatter", 1, 4, 1048576, 'G', "nP", "bounded"},
        {"Igather", 1, 4, 2048, 'X', "", "bounded"},
    };
    bounds_file_doc d, back;
    char err[512] = "";
    /* Without a (P - 1) form the oldest version holds it: older builds keep reading the file. */
    doc_of(&d, others, 2);
    MG_CHECK_INT(bounds_file_write(path_in_dir("old.json"), &d, err, sizeof err), 0);
    MG_CHECK_STR(schema_of(path_in_dir("old.json")), "mpiguard-bounds/1");
    MG_CHECK_INT(bounds_file_add(&d, &gatherv), 0);
    MG_CHECK_INT(bounds_file_write(path_in_dir("b.json"), &d, err, sizeof err), 0);
    MG_CHECK_STR(schema_of(path_in_dir("b.json")), "mpiguard-bounds/4");
    MG_CHECK_INT(bounds_file_read(path_in_dir("b.json"), &back, err, sizeof err), 0);
    MG_CHECK_INT(back.n, 3);
    if (back.n == 3) {
        MG_CHECK_STR(back.entries[2].collective, "Gatherv");
        MG_CHECK_INT(back.entries[2].cls, 'G');
        MG_CHECK_STR(back.entries[2].form, "n(P-1)");
        MG_CHECK_INT(back.entries[2].safe_count, 704643072);
        MG_CHECK_STR(back.entries[0].form, "nP");
    }
    /* The module's reader takes the form: at 2P the bound is n_s 3/7, not n_s/2. */
    MG_CHECK_INT(bounds_file_write_module(path_in_dir("b.txt"), &back, err, sizeof err), 0);
    scaling_bounds tables[2][2][2];
    scaling_params params;
    scaling_params_default(&params);
    MG_CHECK_INT(
        protect_bounds_load(path_in_dir("b.txt"), NULL, 8, tables, &params, err, sizeof err), 0);
    scaling_bounds_limit lim;
    MG_CHECK_INT(scaling_bounds_nmax(&tables[0][0][0], SCALING_COLL_GATHERV, 1, 8, &lim), 0);
    MG_CHECK_INT(lim.n_max, 301989888);
    MG_CHECK_INT(lim.form, SCALING_BOUNDS_FORM_NPM1);
    bounds_file_free(&back);
    bounds_file_free(&d);
}

/* A bounds file whose one Class G entry has form. */
static const char *file_with_form(const char *schema, const char *form)
{
    static char text[512];
    snprintf(text, sizeof text,
             "{\"schema\": \"%s\", \"mpi\": {\"flavor\": \"openmpi\", \"version\": \"4.1.4\"}, "
             "\"entries\": [{\"collective\": \"Gatherv\", \"type_size\": 1, \"np\": 4, "
             "\"safe_count\": 3, \"class\": \"G\", \"form\": \"%s\", \"status\": \"bounded\"}]}",
             schema, form);
    return text;
}

static void refused_forms(void)
{
    static const struct {
        const char *schema, *form;
        int rc;
        const char *says;
    } cases[] = {
        {"mpiguard-bounds/4", "sn(P-1)", 0, ""},
        {"mpiguard-bounds/3", "n(P-1)", MG_ERROR_EFORMAT,
         "entry 0 is malformed (a form sn(P-1) or n(P-1) needs mpiguard-bounds/4)"},
        {"mpiguard-bounds/1", "sn(P-1)", MG_ERROR_EFORMAT,
         "an in-place one mpiguard-bounds/3, a form "
         "sn(P-1) or n(P-1) mpiguard-bounds/4)"},
        {"mpiguard-bounds/5", "n", MG_ERROR_EVERSION, "another version of the safe-bounds schema"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bounds_file_doc d;
        char err[512] = "";
        write_text(path_in_dir("f.json"), file_with_form(cases[i].schema, cases[i].form));
        MG_CHECK_INT(bounds_file_read(path_in_dir("f.json"), &d, err, sizeof err), cases[i].rc);
        if (!strstr(err, cases[i].says))
            fprintf(stderr, "case %zu: \"%s\" does not say \"%s\"\n", i, err, cases[i].says);
        MG_CHECK(strstr(err, cases[i].says) != NULL);
        bounds_file_free(&d);
    }
}

static void module_reader_forms(void)
{
    scaling_bounds tables[2][2][2];
    scaling_params params;
    scaling_params_default(&params);
    char err[256] = "";
    write_text(path_in_dir("m.txt"), BOUNDS_TEXT_MAGIC "\nmpi openmpi 4.1.4\n"
                                                       "entry Gatherv 1 4 100 G sn(P-1)\n");
    MG_CHECK_INT(protect_bounds_load(path_in_dir("m.txt"), "n(P-1) 30 all", 4, tables, &params, err,
                                     sizeof err),
                 0);
    MG_CHECK_INT(tables[0][0][0].entries[0].form, SCALING_BOUNDS_FORM_SNPM1);
    MG_CHECK_INT(tables[1][0][0].artificial_form, SCALING_BOUNDS_FORM_NPM1);
    MG_CHECK_INT(tables[1][0][0].artificial_limit, 30);
    write_text(path_in_dir("m.txt"), BOUNDS_TEXT_MAGIC "\nmpi openmpi 4.1.4\n"
                                                       "entry Gatherv 1 4 100 G n(P-2)\n");
    MG_CHECK_INT(
        protect_bounds_load(path_in_dir("m.txt"), NULL, 4, tables, &params, err, sizeof err),
        MG_ERROR_EFORMAT);
    MG_CHECK_STR(err, "malformed line in the bounds file: entry");
    MG_CHECK_INT(protect_bounds_load(NULL, "nP1 30", 4, tables, &params, err, sizeof err),
                 MG_ERROR_EINVAL);
    MG_CHECK_STR(err, "malformed artificial bound: nP1 30");
}

/* Removes the files the tests wrote: the directory must then be empty (no temporary file left by
 * the atomic writes). */
static void files_removed(void)
{
    static const char *const names[] = {"old.json", "b.json", "b.txt", "f.json", "m.txt"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        MG_CHECK_INT(unlink(path_in_dir(names[i])), 0);
    MG_CHECK_INT(rmdir(dir), 0);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    MG_RUN(p_minus_1_form_round_trip);
    MG_RUN(refused_forms);
    MG_RUN(module_reader_forms);
    MG_RUN(files_removed);
    MG_TEST_END();
}
