/* The protection module's safe-bounds text (bounds_text.h). */
#include "bounds_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mg_error.h"

size_t bounds_text_put_header(char *out, size_t cap, const char *flavor, const char *version)
{
    return (size_t)snprintf(out, cap, "%s\nmpi %s %s\n", BOUNDS_TEXT_MAGIC, flavor, version);
}

size_t bounds_text_put_entry(char *out, size_t cap, const bounds_text_entry *e)
{
    return (size_t)snprintf(out, cap, "entry %s %llu %llu %llu %c %s\n", e->collective,
                            (unsigned long long)e->type_size, (unsigned long long)e->nprocs,
                            (unsigned long long)e->n_safe, e->cls, e->form);
}

size_t bounds_text_put_costs(char *out, size_t cap, const bounds_text_costs *c)
{
    return (size_t)snprintf(
        out, cap, "costs %llu %llu %llu %llu %llu %llu %d\n", (unsigned long long)c->nprocs,
        (unsigned long long)c->ps[0], (unsigned long long)c->ps[1], (unsigned long long)c->ps[2],
        (unsigned long long)c->ps[3], (unsigned long long)c->ps[4], c->allgather_block_stride);
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
        return MG_ERROR_EFORMAT;
    unsigned long long v = strtoull(t, &end, 10);
    if (*end)
        return MG_ERROR_EFORMAT;
    *out = v;
    return 0;
}

/* A decimal count above 0. */
static int number(const char *t, uint64_t *out)
{
    return count(t, out) || *out == 0 ? MG_ERROR_EFORMAT : 0;
}

/* Copies a word that must fit. */
static int word(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    if (n >= size)
        return MG_ERROR_EFORMAT;
    memcpy(dst, src, n + 1);
    return 0;
}

static int parse_entry(char **w, bounds_text_entry *e)
{
    if (word(e->collective, sizeof e->collective, w[1]) || number(w[2], &e->type_size) ||
        number(w[3], &e->nprocs) || number(w[4], &e->n_safe) ||
        (strcmp(w[5], "G") != 0 && strcmp(w[5], "X") != 0) || word(e->form, sizeof e->form, w[6]))
        return MG_ERROR_EFORMAT;
    e->cls = w[5][0];
    return 0;
}

static int parse_costs(char **w, bounds_text_costs *c)
{
    uint64_t stride;
    if (number(w[1], &c->nprocs) || count(w[2 + BOUNDS_TEXT_COSTS], &stride) || stride > 1)
        return MG_ERROR_EFORMAT;
    for (int f = 0; f < BOUNDS_TEXT_COSTS; f++)
        if (count(w[2 + f], &c->ps[f]))
            return MG_ERROR_EFORMAT;
    c->allgather_block_stride = (int)stride;
    return 0;
}

int bounds_text_parse(char *line, bounds_text_line *out, const char **word0)
{
    char *w[8];
    int nw = split(line, w, 8);
    *word0 = nw ? w[0] : "(blank)";
    if (nw == 3 && strcmp(w[0], "mpi") == 0) {
        out->kind = BOUNDS_TEXT_MPI;
        return word(out->flavor, sizeof out->flavor, w[1]) ||
                       word(out->version, sizeof out->version, w[2])
                   ? MG_ERROR_EFORMAT
                   : 0;
    }
    if (nw == 7 && strcmp(w[0], "entry") == 0) {
        out->kind = BOUNDS_TEXT_ENTRY;
        return parse_entry(w, &out->entry);
    }
    if (nw == 3 + BOUNDS_TEXT_COSTS && strcmp(w[0], "costs") == 0) {
        out->kind = BOUNDS_TEXT_COSTS_LINE;
        return parse_costs(w, &out->costs);
    }
    return MG_ERROR_EFORMAT;
}

size_t bounds_text_put_artificial(char *out, size_t cap, const bounds_text_artificial *a)
{
    return (size_t)snprintf(out, cap, "%s %llu %s", a->form, (unsigned long long)a->limit,
                            a->on_int ? (a->on_large ? "all" : "int") : "large");
}

int bounds_text_parse_artificial(char *text, bounds_text_artificial *out)
{
    char *w[4];
    int nw = split(text, w, 4);
    out->on_int = 1;
    out->on_large = 0;
    if (nw == 3) {
        out->on_int = strcmp(w[2], "int") == 0 || strcmp(w[2], "all") == 0;
        out->on_large = strcmp(w[2], "large") == 0 || strcmp(w[2], "all") == 0;
    }
    return nw < 2 || nw > 3 || !(out->on_int || out->on_large) ||
                   word(out->form, sizeof out->form, w[0]) || number(w[1], &out->limit)
               ? MG_ERROR_EFORMAT
               : 0;
}
