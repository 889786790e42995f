/* Reads the module's safe-bounds text file (src/wire/bounds_text.h) into the scaling engine's
 * tables; see protect_bounds.h. Runs once at MPI_Init, so plain read(2) and a static buffer are
 * enough. */
#include "protect_bounds.h"

#include "bounds_text.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mg_error.h"

/* Indexed as protect_bounds_load's tables, [large][in_place][nonblocking] flattened: the forms were
 * tested apart (Table 4.2's bugs hit MPI_Igather but not MPI_Gather). */
enum { TABLES = 8 };
static scaling_bounds_entry entries[TABLES][PROTECT_BOUNDS_MAX];
static char text[PROTECT_BOUNDS_MAX * 96];
static char mpi_flavor[32], mpi_version[32];

static void set_err(char *err, unsigned errlen, const char *a, const char *b)
{
    err[0] = '\0';
    strncat(err, a, errlen - 1);
    if (b)
        strncat(err, b, errlen - 1 - strlen(err));
}

static int table_index(int large, int in_place, int nonblocking)
{
    return 4 * large + 2 * in_place + nonblocking;
}

/* One entry line's fields into e; *table is its index in entries[]. An in-place entry of a rooted
 * collective bounds every call of that collective: only the root passes MPI_IN_PLACE, and the
 * other ranks, which cannot see it, must reach the same verdict. */
static int parse_entry(const bounds_text_entry *t, scaling_bounds_entry *e, int *table)
{
    int nonblocking = 0, large = 0, in_place = 0;
    if (scaling_coll_from_name(t->collective, &e->coll, &nonblocking, &large, &in_place) != 0 ||
        scaling_bounds_form_parse(t->form, &e->form))
        return MG_ERROR_EINVAL;
    e->type_size = t->type_size;
    e->nprocs = t->nprocs;
    e->n_safe = t->n_safe;
    e->cls = t->cls == 'G' ? SCALING_BOUNDS_CLASS_G : SCALING_BOUNDS_CLASS_X;
    *table = table_index(large, in_place && scaling_coll_in_place_everywhere(e->coll), nonblocking);
    return 0;
}

/* The costs measured at the process count nearest the job's (by ratio). */
static bounds_text_costs costs;

/* How far np processes are from the job's nprocs: their ratio, at least 1. */
static double off_ratio(uint64_t np, int nprocs)
{
    double a = (double)np, b = nprocs > 0 ? nprocs : 1;
    return a > b ? a / b : b / a;
}

static void keep_costs(const bounds_text_costs *c, int nprocs)
{
    if (!costs.nprocs || off_ratio(c->nprocs, nprocs) < off_ratio(costs.nprocs, nprocs))
        costs = *c;
}

static void apply_costs(scaling_params *p)
{
    if (!costs.nprocs)
        return;
    p->call_ns = costs.ps[0] / 1000.0;
    p->byte_ns = costs.ps[1] / 1000.0;
    p->copy_byte_ns = costs.ps[2] / 1000.0;
    p->type_ns = costs.ps[3] / 1000.0;
    p->comm_ns = costs.ps[4] / 1000.0;
    p->allgather_block_stride = costs.allgather_block_stride;
}

/* Reads the whole file into text; MG_ERROR_ENOENT or MG_ERROR_ERANGE (too big). */
static int slurp(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return MG_ERROR_ENOENT;
    size_t n = 0;
    ssize_t got;
    while (n < sizeof text - 1 && (got = read(fd, text + n, sizeof text - 1 - n)) > 0)
        n += (size_t)got;
    close(fd);
    text[n] = '\0';
    return n == sizeof text - 1 ? MG_ERROR_ERANGE : 0;
}

/* Entries of one collective must be adjacent (scaling_bounds_init): a stable sort by collective. */
static void group_by_collective(scaling_bounds_entry *list, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        scaling_bounds_entry e = list[i];
        size_t j = i;
        for (; j > 0 && list[j - 1].coll > e.coll; j--)
            list[j] = list[j - 1];
        list[j] = e;
    }
}

static int parse_file(const char *path, int nprocs, size_t n[TABLES], char *err, unsigned errlen)
{
    int rc = slurp(path);
    if (rc) {
        set_err(
            err, errlen,
            rc == MG_ERROR_ENOENT ? "cannot read the bounds file " : "bounds file too big: ", path);
        return rc;
    }
    char *save = NULL;
    char *line = strtok_r(text, "\n", &save);
    if (!line || strcmp(line, BOUNDS_TEXT_MAGIC) != 0) {
        set_err(err, errlen, "not a bounds file of this version: ", path);
        return MG_ERROR_EFORMAT;
    }
    while ((line = strtok_r(NULL, "\n", &save))) {
        bounds_text_line l;
        const char *word0;
        scaling_bounds_entry e;
        int t = 0;
        if (bounds_text_parse(line, &l, &word0) != 0 ||
            (l.kind == BOUNDS_TEXT_ENTRY &&
             (parse_entry(&l.entry, &e, &t) || n[t] == PROTECT_BOUNDS_MAX))) {
            set_err(err, errlen, "malformed line in the bounds file: ", word0);
            return MG_ERROR_EFORMAT;
        }
        if (l.kind == BOUNDS_TEXT_MPI) {
            memcpy(mpi_flavor, l.flavor, sizeof mpi_flavor);
            memcpy(mpi_version, l.version, sizeof mpi_version);
        } else if (l.kind == BOUNDS_TEXT_ENTRY) {
            entries[t][n[t]++] = e;
        } else {
            keep_costs(&l.costs, nprocs);
        }
    }
    return 0;
}

int protect_bounds_load(const char *path, const char *artificial, int nprocs,
                        scaling_bounds tables[2][2][2], scaling_params *params, char *err,
                        unsigned errlen)
{
    size_t n[TABLES] = {0};
    if (path && *path) {
        int rc = parse_file(path, nprocs, n, err, errlen);
        if (rc)
            return rc;
        apply_costs(params);
    }
    /* An in-place call is bounded by its own form's entries and by those of the call without
     * MPI_IN_PLACE: a file that tested only the latter still protects it, as before version 3. */
    for (int large = 0; large < 2; large++)
        for (int nb = 0; nb < 2; nb++) {
            int from = table_index(large, 0, nb), to = table_index(large, 1, nb);
            if (n[to] + n[from] > PROTECT_BOUNDS_MAX) {
                set_err(err, errlen, "too many entries in the bounds file ", path);
                return MG_ERROR_ERANGE;
            }
            for (size_t i = 0; i < n[from]; i++)
                entries[to][n[to]++] = entries[from][i];
        }
    for (int t = 0; t < TABLES; t++) {
        group_by_collective(entries[t], n[t]);
        if (scaling_bounds_init(&tables[t / 4][t / 2 % 2][t % 2], mpi_flavor, mpi_version,
                                entries[t], n[t]) != 0) {
            set_err(err, errlen, "invalid entries in the bounds file ", path);
            return MG_ERROR_EFORMAT;
        }
    }
    if (!artificial || !*artificial)
        return 0;
    char copy[64] = "";
    strncat(copy, artificial, sizeof copy - 1);
    bounds_text_artificial a;
    scaling_bounds_form form;
    int bad = bounds_text_parse_artificial(copy, &a) || scaling_bounds_form_parse(a.form, &form);
    for (int t = 0; t < TABLES && !bad; t++)
        if (t / 4 ? a.on_large : a.on_int)
            bad = scaling_bounds_set_artificial(&tables[t / 4][t / 2 % 2][t % 2], form, a.limit);
    if (bad) {
        set_err(err, errlen, "malformed artificial bound: ", artificial);
        return MG_ERROR_EINVAL;
    }
    return 0;
}
