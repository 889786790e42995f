/* Safe-bounds table, Table 4.9 and the G/X safe-count lookup; see scaling_bounds.h and
 * docs/collectives-engine.md §3. */
#include "scaling_bounds.h"

#include <string.h>

#include "mg_error.h"

typedef unsigned __int128 u128;

static uint64_t sat(u128 v)
{
    return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

const char *const scaling_bounds_form_names[SCALING_BOUNDS_FORM_COUNT + 1] = {
    [SCALING_BOUNDS_FORM_NP] = "nP",         [SCALING_BOUNDS_FORM_SNP] = "snP",
    [SCALING_BOUNDS_FORM_SN] = "sn",         [SCALING_BOUNDS_FORM_N] = "n",
    [SCALING_BOUNDS_FORM_SNPM1] = "sn(P-1)", [SCALING_BOUNDS_FORM_NPM1] = "n(P-1)",
};

const char *scaling_bounds_form_name(scaling_bounds_form form)
{
    return scaling_bounds_form_names[(unsigned)form < SCALING_BOUNDS_FORM_COUNT
                                         ? form
                                         : SCALING_BOUNDS_FORM_N];
}

int scaling_bounds_form_parse(const char *name, scaling_bounds_form *out)
{
    for (int f = 0; name && f < SCALING_BOUNDS_FORM_COUNT; f++)
        if (strcmp(name, scaling_bounds_form_names[f]) == 0) {
            *out = (scaling_bounds_form)f;
            return 0;
        }
    return MG_ERROR_EINVAL;
}

/* The factors a form multiplies n by: s or none, and P, P - 1 or none. */
static uint64_t s_factor(scaling_bounds_form form, uint64_t s)
{
    int by_s = form == SCALING_BOUNDS_FORM_SNP || form == SCALING_BOUNDS_FORM_SN ||
               form == SCALING_BOUNDS_FORM_SNPM1;
    return by_s ? s : 1;
}

static uint64_t p_factor(scaling_bounds_form form, uint64_t P)
{
    switch (form) {
    case SCALING_BOUNDS_FORM_SNP:
    case SCALING_BOUNDS_FORM_NP:
        return P;
    case SCALING_BOUNDS_FORM_SNPM1:
    case SCALING_BOUNDS_FORM_NPM1:
        return P > 0 ? P - 1 : 0;
    default:
        return 1;
    }
}

uint64_t scaling_bounds_form_value(scaling_bounds_form form, uint64_t s, uint64_t n, uint64_t P)
{
    /* Saturated after each product: three 64-bit factors can pass 2^128. */
    return sat((u128)sat((u128)s_factor(form, s) * n) * p_factor(form, P));
}

/* The largest n with form(s, n, P) <= limit; UINT64_MAX where the product is 0 whatever n (a
 * (P - 1) form at P = 1 bounds nothing). */
static uint64_t form_nmax(scaling_bounds_form form, uint64_t limit, uint64_t s, uint64_t P)
{
    /* 64-bit division when the factors' product fits: a 128-bit one is a library call on the hot
     * path. Past 2^64 even n = 1 is over any limit. */
    uint64_t per_n;
    if (__builtin_mul_overflow(s_factor(form, s), p_factor(form, P), &per_n))
        return 0;
    return per_n ? limit / per_n : UINT64_MAX;
}

static void copy_text(char *dst, size_t size, const char *src)
{
    dst[0] = '\0';
    if (src)
        strncat(dst, src, size - 1);
}

static int entry_valid(const scaling_bounds_entry *e)
{
    return (unsigned)e->coll < SCALING_COLL_COUNT &&
           (unsigned)e->form < SCALING_BOUNDS_FORM_COUNT &&
           (e->cls == SCALING_BOUNDS_CLASS_G || e->cls == SCALING_BOUNDS_CLASS_X) &&
           e->type_size > 0 && e->nprocs > 0 && e->n_safe > 0 &&
           (e->cls == SCALING_BOUNDS_CLASS_X || p_factor(e->form, e->nprocs) > 0);
}

int scaling_bounds_init(scaling_bounds *b, const char *impl, const char *version,
                        const scaling_bounds_entry *entries, size_t n)
{
    if (!b || (n > 0 && !entries))
        return MG_ERROR_EINVAL;
    memset(b, 0, sizeof *b);
    for (size_t i = 0; i < n; i++) {
        const scaling_bounds_entry *e = &entries[i];
        if (!entry_valid(e) ||
            (b->count[e->coll] > 0 && (i == 0 || entries[i - 1].coll != e->coll))) {
            memset(b, 0, sizeof *b);
            return MG_ERROR_EINVAL;
        }
        if (b->count[e->coll]++ == 0)
            b->first[e->coll] = i;
    }
    b->entries = entries;
    copy_text(b->mpi_impl, sizeof b->mpi_impl, impl);
    copy_text(b->mpi_version, sizeof b->mpi_version, version);
    return 0;
}

int scaling_bounds_covers(const scaling_bounds *b, scaling_coll c)
{
    if (!b || (unsigned)c >= SCALING_COLL_COUNT)
        return 0;
    return b->artificial_set || b->count[c] > 0;
}

int scaling_bounds_set_artificial(scaling_bounds *b, scaling_bounds_form form, uint64_t limit)
{
    if (!b || (unsigned)form >= SCALING_BOUNDS_FORM_COUNT || limit == 0)
        return MG_ERROR_EINVAL;
    b->artificial_set = 1;
    b->artificial_form = form;
    b->artificial_limit = limit;
    return 0;
}

/* Whether x matches half (n_s/2) or full (n_s) of Table 4.9; -1 for neither. */
static int match(uint64_t n_s, uint64_t x, uint64_t delta)
{
    if (x >= n_s / 2 && x <= (n_s + delta) / 2)
        return 1;
    if (x >= n_s && x - n_s <= delta)
        return 0;
    return -1;
}

/* x (P - 1) / (2P - 1), P >= 2, rounded down or up: x and P - 1 under 2^64 keep the product under
 * 2^128. */
static uint64_t pm1_scale(uint64_t x, uint64_t P, int up)
{
    u128 num = (u128)x * (P - 1), den = 2 * (u128)P - 1;
    return (uint64_t)(num / den + (up && num % den != 0));
}

int scaling_bounds_pm1_window(uint64_t n_s, uint64_t delta, uint64_t P_s, uint64_t *lo,
                              uint64_t *hi)
{
    if (!lo || !hi || P_s < 2)
        return MG_ERROR_EINVAL;
    *lo = pm1_scale(n_s, P_s, 0);
    *hi = pm1_scale(sat((u128)n_s + delta), P_s, 1);
    return 0;
}

int scaling_bounds_classify(uint64_t n_s, uint64_t P_s, uint64_t n_2p, uint64_t n_2s,
                            uint64_t delta, scaling_bounds_class *cls, scaling_bounds_form *form)
{
    if (!cls || !form || n_s == 0 || P_s == 0)
        return MG_ERROR_EINVAL;
    int halved_by_p = match(n_s, n_2p, delta), halved_by_s = match(n_s, n_2s, delta);
    uint64_t lo, hi;
    int pm1_by_p = scaling_bounds_pm1_window(n_s, delta, P_s, &lo, &hi) == 0 && n_2p >= lo &&
                   n_2p <= hi;
    *cls = SCALING_BOUNDS_CLASS_G;
    if (halved_by_s < 0 || (halved_by_p < 0 && !pm1_by_p))
        *cls = SCALING_BOUNDS_CLASS_X;
    else if (halved_by_p < 0)
        *form = halved_by_s ? SCALING_BOUNDS_FORM_SNPM1 : SCALING_BOUNDS_FORM_NPM1;
    else if (halved_by_p && halved_by_s)
        *form = SCALING_BOUNDS_FORM_SNP;
    else if (halved_by_p)
        *form = SCALING_BOUNDS_FORM_NP;
    else if (halved_by_s)
        *form = SCALING_BOUNDS_FORM_SN;
    else
        *form = SCALING_BOUNDS_FORM_N;
    return 0;
}

static void tighten(scaling_bounds_limit *lim, uint64_t n, unsigned by, scaling_bounds_form form)
{
    if (n == UINT64_MAX) /* allows every n (a (P - 1) form at P = 1): bounds nothing */
        return;
    if (n < lim->n_max) {
        lim->n_max = n;
        lim->by = by;
        lim->form = form;
    } else if (n == lim->n_max) {
        lim->by |= by;
    }
}

/* The Class X lookup rule of scaling_bounds_nmax. */
static void x_lookup(const scaling_bounds_entry *e, size_t n, uint64_t s, uint64_t P,
                     scaling_bounds_limit *lim)
{
    uint64_t exact = UINT64_MAX, harder = UINT64_MAX, easier = UINT64_MAX;
    int have_x = 0, have_exact = 0, have_harder = 0, have_easier = 0;
    for (size_t i = 0; i < n; i++) {
        if (e[i].cls != SCALING_BOUNDS_CLASS_X)
            continue;
        have_x = 1;
        if (e[i].type_size == s && e[i].nprocs == P) {
            have_exact = 1;
            exact = e[i].n_safe < exact ? e[i].n_safe : exact;
        } else if (e[i].type_size >= s && e[i].nprocs >= P) {
            have_harder = 1;
            harder = e[i].n_safe < harder ? e[i].n_safe : harder;
        } else if (e[i].type_size <= s && e[i].nprocs <= P) {
            uint64_t product = scaling_bounds_form_value(SCALING_BOUNDS_FORM_SNP, e[i].type_size,
                                                         e[i].n_safe, e[i].nprocs);
            uint64_t v = form_nmax(SCALING_BOUNDS_FORM_SNP, product, s, P);
            have_easier = 1;
            easier = v < easier ? v : easier;
        }
    }
    if (have_exact)
        tighten(lim, exact, SCALING_BOUNDS_LIMIT_X, SCALING_BOUNDS_FORM_N);
    else if (have_harder)
        tighten(lim, harder, SCALING_BOUNDS_LIMIT_X, SCALING_BOUNDS_FORM_N);
    else if (have_easier)
        tighten(lim, easier, SCALING_BOUNDS_LIMIT_X, SCALING_BOUNDS_FORM_SNP);
    else if (have_x)
        lim->by |= SCALING_BOUNDS_LIMIT_X_UNCOVERED;
}

int scaling_bounds_nmax(const scaling_bounds *b, scaling_coll c, uint64_t s, uint64_t P,
                        scaling_bounds_limit *out)
{
    if (!b || !out || (unsigned)c >= SCALING_COLL_COUNT || s == 0 || P == 0)
        return MG_ERROR_EINVAL;
    out->n_max = UINT64_MAX;
    out->by = 0;
    out->form = SCALING_BOUNDS_FORM_N;
    const scaling_bounds_entry *e = b->entries ? b->entries + b->first[c] : NULL;
    size_t n = b->count[c];
    for (size_t i = 0; i < n; i++) {
        if (e[i].cls != SCALING_BOUNDS_CLASS_G)
            continue;
        uint64_t product = scaling_bounds_form_value(e[i].form, e[i].type_size, e[i].n_safe,
                                                     e[i].nprocs);
        tighten(out, form_nmax(e[i].form, product, s, P), SCALING_BOUNDS_LIMIT_G, e[i].form);
    }
    if (b->artificial_set)
        tighten(out, form_nmax(b->artificial_form, b->artificial_limit, s, P),
                SCALING_BOUNDS_LIMIT_ARTIFICIAL, b->artificial_form);
    if (n > 0)
        x_lookup(e, n, s, P, out);
    return 0;
}
