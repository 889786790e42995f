/* Reading the variables of mg_env.h that carry more than one value. */
#include "mg_env.h"

#include "mg_error.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mg_env_module_listed(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; p && *p;) {
        size_t n = strcspn(p, ":,");
        if (n == len && strncmp(p, name, len) == 0)
            return 1;
        p = p[n] ? p + n + 1 : NULL;
    }
    return 0;
}

/* A positive decimal at *p (no sign, no blank: strtol would take both), or 0; *p moves past it. */
static long positive(const char **p)
{
    if (!isdigit((unsigned char)**p))
        return 0;
    char *end;
    long v = strtol(*p, &end, 10);
    *p = end;
    return v > 0 && v <= 1L << 30 ? v : 0;
}

int mg_env_slurm_node_tasks(const char *tasks_per_node, int node, int *tasks)
{
    if (!tasks_per_node || node < 0)
        return MG_ERROR_EINVAL;
    const char *p = tasks_per_node;
    long first = 0, got = 0; /* the first node of the current group; node's tasks once seen */
    do {
        long n = positive(&p), times = 1;
        if (n == 0)
            return MG_ERROR_EFORMAT;
        if (strncmp(p, "(x", 2) == 0) {
            p += 2;
            if ((times = positive(&p)) == 0 || *p++ != ')')
                return MG_ERROR_EFORMAT;
        }
        if (*p && *p != ',')
            return MG_ERROR_EFORMAT;
        /* the whole value is read before an answer, so that a malformed tail is never taken */
        if (!got && node < first + times)
            got = n;
        first += times;
    } while (*p++ == ',');
    if (got)
        *tasks = (int)got;
    return got ? MG_ERROR_OK : MG_ERROR_ERANGE;
}

/* A decimal of up to 9 digits at *p, zeros first allowed (a hostlist's "n[007-010]"), or -1; *p
 * moves past it and *width gets its digits. */
static long bound(const char **p, int *width)
{
    size_t n = strspn(*p, "0123456789");
    if (n == 0 || n > 9)
        return -1;
    long v = strtol(*p, NULL, 10);
    *p += n;
    *width = (int)n;
    return v;
}

/* Where the digits of a host named prefix+digits+suffix sit in node: their value, or -1 when node
 * is not of that form. */
static long host_number(const char *node, const char *prefix, size_t plen, const char *suffix,
                        size_t slen, int *width)
{
    size_t len = strlen(node);
    if (len <= plen + slen || strncmp(node, prefix, plen) != 0 ||
        strncmp(node + len - slen, suffix, slen) != 0)
        return -1;
    const char *digits = node + plen;
    long v = bound(&digits, width);
    return digits == node + len - slen ? v : -1;
}

int mg_env_slurm_node_index(const char *nodelist, const char *node, int *index)
{
    if (!nodelist || !node || !*node)
        return MG_ERROR_EINVAL;
    const char *p = nodelist;
    long at = 0, got = -1; /* hosts before the current entry; node's place once seen */
    do {
        const char *prefix = p;
        size_t plen = strcspn(p, ",[");
        p += plen;
        if (*p != '[') {
            if (plen == 0)
                return MG_ERROR_EFORMAT;
            if (got < 0 && strlen(node) == plen && strncmp(node, prefix, plen) == 0)
                got = at;
            at++;
            continue;
        }
        /* the ranges are read twice: past them first for the suffix, then against node */
        const char *ranges = ++p;
        p += strcspn(p, "]");
        if (*p++ != ']')
            return MG_ERROR_EFORMAT;
        const char *suffix = p;
        size_t slen = strcspn(p, ",");
        if (memchr(suffix, '[', slen)) /* several bracketed parts: not Slurm's one-dimension form */
            return MG_ERROR_EFORMAT;
        p += slen;
        int width, node_width = 0;
        long number = host_number(node, prefix, plen, suffix, slen, &node_width);
        const char *r = ranges;
        do {
            long lo = bound(&r, &width), hi = lo;
            if (lo >= 0 && *r == '-')
                r++, hi = bound(&r, &(int){0});
            if (lo < 0 || hi < lo || (*r != ',' && *r != ']') || at > (1L << 30))
                return MG_ERROR_EFORMAT;
            /* a range's numbers have its first bound's width, zeros first (n[08-10]: n08 n09
             * n10), so n8 is not in it */
            char padded[16];
            if (got < 0 && number >= lo && number <= hi &&
                snprintf(padded, sizeof padded, "%0*ld", width, number) == node_width)
                got = at + number - lo;
            at += hi - lo + 1;
        } while (*r++ == ',');
    } while (*p++ == ',');
    if (got >= 0)
        *index = (int)got;
    return got >= 0 ? MG_ERROR_OK : MG_ERROR_ENOENT;
}
