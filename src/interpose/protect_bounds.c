/* Reads the module's safe-bounds text file; see protect_bounds.h. Runs once at MPI_Init, so plain
 * read(2) and a static buffer are enough. */
#include "protect_bounds.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mg_error.h"

/* Indexed as protect_bounds_load's tables, [large][in_place][nonblocking] flattened: the forms were
 * tested apart (Table 4.2's bugs hit MPI_Igather but not MPI_Gather). */
enum { TABLES = 8 };
static scaling_bound_entry entries[TABLES][PROTECT_BOUNDS_MAX];
static char text[PROTECT_BOUNDS_MAX * 96];
static char mpi_flavor[32], mpi_version[32];

static void set_err(char *err, unsigned errlen, const char *a, const char *b)
{
    err[0] = '\0';
    strncat(err, a, errlen - 1);
    if (b)
        strncat(err, b, errlen - 1 - strlen(err));
}

/* Splits line into at most max words at single spaces; returns the count. */
static int split(char *line, char **words, int max)
{
    int n = 0;
    for (char *save = NULL, *w = strtok_r(line, " ", &save); w && n < max;
         w = strtok_r(NULL, " ", &save))
        words[n++] = w;
    return n;
}

/* A decimal count, 0 included. */
static int count(const char *t, uint64_t *out)
{
    char *end;
    if (!*t || *t == '-')
        return MG_EINVAL;
    unsigned long long v = strtoull(t, &end, 10);
    if (*end)
        return MG_EINVAL;
    *out = v;
    return 0;
}

/* A decimal count above 0. */
static int number(const char *t, uint64_t *out)
{
    return count(t, out) || *out == 0 ? MG_EINVAL : 0;
}

static int table_index(int large, int in_place, int nonblocking)
{
    return 4 * large + 2 * in_place + nonblocking;
}

/* One "entry" line into e; *table is its index in entries[]. An in-place entry of a rooted
 * collective bounds every call of that collective: only the root passes MPI_IN_PLACE, and the
 * other ranks, which cannot see it, must reach the same verdict. */
static int parse_entry(char **w, scaling_bound_entry *e, int *table)
{
    int nonblocking = 0, large = 0, in_place = 0;
    if (scaling_coll_from_name(w[1], &e->coll, &nonblocking, &large, &in_place) != 0 ||
        number(w[2], &e->type_size) || number(w[3], &e->nprocs) || number(w[4], &e->n_safe) ||
        scaling_form_parse(w[6], &e->form))
        return MG_EINVAL;
    if (strcmp(w[5], "G") == 0)
        e->cls = SCALING_CLASS_G;
    else if (strcmp(w[5], "X") == 0)
        e->cls = SCALING_CLASS_X;
    else
        return MG_EINVAL;
    *table = table_index(large, in_place && scaling_coll_in_place_everywhere(e->coll), nonblocking);
    return 0;
}

/* The costs measured at the process count nearest the job's (by ratio), as "costs" lines give
 * them: np, then call, byte, copy, type and comm in picoseconds, then the Allgather stride. */
enum { COST_VALUES = 5 };
static struct {
    uint64_t np, ps[COST_VALUES], stride;
} costs;

/* How far np processes are from the job's nprocs: their ratio, at least 1. */
static double off_ratio(uint64_t np, int nprocs)
{
    double a = (double)np, b = nprocs > 0 ? nprocs : 1;
    return a > b ? a / b : b / a;
}

static int parse_costs(char **w, int nprocs)
{
    uint64_t np, ps[COST_VALUES], stride;
    if (number(w[1], &np) || count(w[2 + COST_VALUES], &stride) || stride > 1)
        return MG_EINVAL;
    for (int f = 0; f < COST_VALUES; f++)
        if (count(w[2 + f], &ps[f]))
            return MG_EINVAL;
    if (!costs.np || off_ratio(np, nprocs) < off_ratio(costs.np, nprocs)) {
        costs.np = np;
        memcpy(costs.ps, ps, sizeof ps);
        costs.stride = stride;
    }
    return 0;
}

static void apply_costs(scaling_params *p)
{
    if (!costs.np)
        return;
    p->call_ns = costs.ps[0] / 1000.0;
    p->byte_ns = costs.ps[1] / 1000.0;
    p->copy_byte_ns = costs.ps[2] / 1000.0;
    p->type_ns = costs.ps[3] / 1000.0;
    p->comm_ns = costs.ps[4] / 1000.0;
    p->allgather_block_stride = (int)costs.stride;
}

/* Reads the whole file into text; MG_ENOENT or MG_ERANGE (too big). */
static int slurp(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return MG_ENOENT;
    size_t n = 0;
    ssize_t got;
    while (n < sizeof text - 1 && (got = read(fd, text + n, sizeof text - 1 - n)) > 0)
        n += (size_t)got;
    close(fd);
    text[n] = '\0';
    return n == sizeof text - 1 ? MG_ERANGE : 0;
}

/* Entries of one collective must be adjacent (scaling_bounds_init): a stable sort by collective. */
static void group_by_collective(scaling_bound_entry *list, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        scaling_bound_entry e = list[i];
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
        set_err(err, errlen,
                rc == MG_ENOENT ? "cannot read the bounds file " : "bounds file too big: ", path);
        return rc;
    }
    char *save = NULL;
    char *line = strtok_r(text, "\n", &save);
    if (!line || strcmp(line, PROTECT_BOUNDS_MAGIC) != 0) {
        set_err(err, errlen, "not a bounds file of this version: ", path);
        return MG_EFORMAT;
    }
    while ((line = strtok_r(NULL, "\n", &save))) {
        char *w[8];
        int nw = split(line, w, 8), t = 0;
        scaling_bound_entry e;
        if (nw == 3 && strcmp(w[0], "mpi") == 0) {
            strncat(mpi_flavor, w[1], sizeof mpi_flavor - 1);
            strncat(mpi_version, w[2], sizeof mpi_version - 1);
        } else if (nw == 7 && strcmp(w[0], "entry") == 0 && parse_entry(w, &e, &t) == 0 &&
                   n[t] < PROTECT_BOUNDS_MAX) {
            entries[t][n[t]++] = e;
        } else if (nw == 3 + COST_VALUES && strcmp(w[0], "costs") == 0 && parse_costs(w, nprocs) == 0) {
            continue;
        } else {
            set_err(err, errlen, "malformed line in the bounds file: ", nw ? w[0] : "(blank)");
            return MG_EFORMAT;
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
                return MG_ERANGE;
            }
            for (size_t i = 0; i < n[from]; i++)
                entries[to][n[to]++] = entries[from][i];
        }
    for (int t = 0; t < TABLES; t++) {
        group_by_collective(entries[t], n[t]);
        if (scaling_bounds_init(&tables[t / 4][t / 2 % 2][t % 2], mpi_flavor, mpi_version,
                                entries[t], n[t]) != 0) {
            set_err(err, errlen, "invalid entries in the bounds file ", path);
            return MG_EFORMAT;
        }
    }
    if (!artificial || !*artificial)
        return 0;
    char copy[64] = "", *w[4];
    strncat(copy, artificial, sizeof copy - 1);
    scaling_form form;
    uint64_t limit;
    int nw = split(copy, w, 4), on_int = 1, on_large = 0;
    if (nw == 3) {
        on_int = strcmp(w[2], "int") == 0 || strcmp(w[2], "all") == 0;
        on_large = strcmp(w[2], "large") == 0 || strcmp(w[2], "all") == 0;
    }
    int bad = nw < 2 || nw > 3 || !(on_int || on_large) || scaling_form_parse(w[0], &form) ||
              number(w[1], &limit);
    for (int t = 0; t < TABLES && !bad; t++)
        if (t / 4 ? on_large : on_int)
            bad = scaling_bounds_set_artificial(&tables[t / 4][t / 2 % 2][t % 2], form, limit);
    if (bad) {
        set_err(err, errlen, "malformed artificial bound: ", artificial);
        return MG_EINVAL;
    }
    return 0;
}
