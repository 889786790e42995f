/* The safe-bounds table (filled by the caller from the tester's JSON file), Detector G's forms and
 * lookup table (Table 4.9), and the safe per-process count at a given (s, P) from Detectors G and X
 * (docs/collectives-engine.md §3; dissertation §4.3.2-4.3.4). */
#ifndef SCALING_BOUNDS_H
#define SCALING_BOUNDS_H

#include <stddef.h>
#include <stdint.h>

#include "scaling_coll.h"

/* Detector G's forms, each compared with the same product at the tested point (s_s, n_s, P_s):
 * Table 4.9's four (column 4), then two that the paper approximates by s n P and n P for P >> 1,
 * exact at small P: the root of a Gatherv whose last displacement (P - 1) n wraps, or a library
 * that receives (P - 1) n elements in one message. Files name them (scaling_bounds_form_names), so
 * the order is free: n P comes first, the default of an option that takes a form. */
typedef enum scaling_bounds_form {
    SCALING_BOUNDS_FORM_NP,    /* n P > n_s P_s        (G_e; Type 3) */
    SCALING_BOUNDS_FORM_SNP,   /* s n P > s_s n_s P_s  (G_b of an snP collective; Type 3) */
    SCALING_BOUNDS_FORM_SN,    /* s n > s_s n_s        (Type 2) */
    SCALING_BOUNDS_FORM_N,     /* n > n_s              (Type 2) */
    SCALING_BOUNDS_FORM_SNPM1, /* s n (P - 1) > s_s n_s (P_s - 1) */
    SCALING_BOUNDS_FORM_NPM1,  /* n (P - 1) > n_s (P_s - 1) */
    SCALING_BOUNDS_FORM_COUNT
} scaling_bounds_form;

/* The form's name in the bounds files and on the command line: "snP", "nP", "sn", "n", "sn(P-1)",
 * "n(P-1)"; "n" for an unknown form (what the CLI always wrote for one). */
const char *scaling_bounds_form_name(scaling_bounds_form form);

/* The same names by form, then NULL (an option parser's list of choices). */
extern const char *const scaling_bounds_form_names[SCALING_BOUNDS_FORM_COUNT + 1];

/* The form named name. Returns 0, or MG_ERROR_EINVAL for a NULL or unknown name. */
int scaling_bounds_form_parse(const char *name, scaling_bounds_form *out);

typedef enum scaling_bounds_class {
    SCALING_BOUNDS_CLASS_G, /* the bound follows one of the forms everywhere */
    SCALING_BOUNDS_CLASS_X, /* the bound is known only at the tested (s, P): Detector X */
} scaling_bounds_class;

/* One tested point: collective coll at type size s and P processes passed up to n_safe elements per
 * process (n_s) and failed past it. */
typedef struct scaling_bounds_entry {
    scaling_coll coll;
    uint64_t type_size; /* s, bytes */
    uint64_t nprocs;    /* P */
    uint64_t n_safe;    /* n_s, elements per process */
    scaling_bounds_class cls;
    scaling_bounds_form form; /* for SCALING_BOUNDS_CLASS_G */
} scaling_bounds_entry;

/* The table for one MPI library. entries is caller-owned and must outlive the table; it must be
 * grouped by collective (all entries of one collective adjacent), which scaling_bounds_init checks
 * and indexes so that a lookup touches only the entries of one collective. */
typedef struct scaling_bounds {
    char mpi_impl[32]; /* "Open MPI", "MPICH" (informational; the caller matches the running MPI) */
    char mpi_version[32]; /* "4.1.4" */
    const scaling_bounds_entry *entries;
    size_t first[SCALING_COLL_COUNT];
    size_t count[SCALING_COLL_COUNT];
    /* An artificial Class G bound for every collective, set by the caller to exercise the
     * workarounds at small sizes (the paper's "supposed" triggers): fires when form's product
     * exceeds limit. */
    int artificial_set;
    scaling_bounds_form artificial_form;
    uint64_t artificial_limit;
} scaling_bounds;

/* What bounded the safe count (bits of scaling_bounds_limit.by). */
enum scaling_bounds_limit_by {
    SCALING_BOUNDS_LIMIT_G = 1u << 0,           /* a Class G entry of the table */
    SCALING_BOUNDS_LIMIT_X = 1u << 1,           /* a Class X entry covering (s, P) */
    SCALING_BOUNDS_LIMIT_ARTIFICIAL = 1u << 2,  /* the caller's artificial bound */
    SCALING_BOUNDS_LIMIT_X_UNCOVERED = 1u << 3, /* Class X entries exist but none covers (s, P) */
};

typedef struct scaling_bounds_limit {
    uint64_t n_max; /* the largest safe n at (s, P); UINT64_MAX when nothing bounds it */
    unsigned by;    /* bits of the constraint(s) that set n_max (enum scaling_bounds_limit_by) */
    scaling_bounds_form
        form; /* the form of the tightest G (or artificial) bound, when one set n_max */
} scaling_bounds_limit;

/* Initializes b over entries[0..n) (may be NULL when n == 0): indexes them by collective, clears
 * the artificial bound and copies impl and version (truncated to fit; NULL allowed). Returns 0, or
 * MG_ERROR_EINVAL (NULL b, an entry with an unknown collective, class or form, s, P or n_s of zero,
 * a Class G entry of a (P - 1) form at P = 1, whose product 0 would bound every call at P > 1 to n
 * = 0, or entries of one collective not adjacent). On failure *b is left cleared. */
int scaling_bounds_init(scaling_bounds *b, const char *impl, const char *version,
                        const scaling_bounds_entry *entries, size_t n);

/* Whether anything in b can bound collective c: an entry of c or the artificial bound. Where not,
 * Detectors G and X cannot fire on c at any (s, n, P). NULL b: 0. O(1); thread-safe. */
int scaling_bounds_covers(const scaling_bounds *b, scaling_coll c);

/* Sets (limit > 0) the artificial bound: the form's product over limit fires Detector G.
 * Returns 0, or MG_ERROR_EINVAL for a NULL b, an unknown form or limit == 0. */
int scaling_bounds_set_artificial(scaling_bounds *b, scaling_bounds_form form, uint64_t limit);

/* Where a bound of a (P - 1) form lies at (s_s, 2P_s) when at P_s it passed n_s and failed at
 * n_s + delta: between n_s (P_s - 1) / (2P_s - 1), rounded down, and (n_s + delta) (P_s - 1) /
 * (2P_s - 1), rounded up, in *lo and *hi (the verification tests both: lo must pass, hi fail).
 * Returns 0, or MG_ERROR_EINVAL for NULL outputs or P_s < 2, where such a form bounds nothing. */
int scaling_bounds_pm1_window(uint64_t n_s, uint64_t delta, uint64_t P_s, uint64_t *lo,
                              uint64_t *hi);

/* Table 4.9: classifies a failure from the safe bound n_s at (s_s, P_s) and the two verified bounds
 * at (s_s, 2P_s) and (2s_s, P_s). A verified bound matches "n_s/2" when it lies in
 * [n_s/2, (n_s + delta)/2] and "n_s" when it lies in [n_s, n_s + delta] (delta: the tester's step).
 * The four rows of the table come first: each combination of these two matches gives Class G with
 * that row's form. Then the (P - 1) rows, for a bound at 2P_s in scaling_bounds_pm1_window (only
 * at P_s >= 2): with "n_s/2" at 2s_s, form s n (P - 1); with "n_s", form n (P - 1). Where both the
 * "n_s/2" and the (P - 1) window hold the bound at 2P_s (they overlap once P_s is large, where
 * (P_s - 1)/(2P_s - 1) is about 1/2), the table's row wins: at large P the two forms differ by
 * about 1/P_s. Anything else is Class X. Returns 0, or MG_ERROR_EINVAL for NULL outputs, n_s == 0
 * or P_s == 0. */
int scaling_bounds_classify(uint64_t n_s, uint64_t P_s, uint64_t n_2p, uint64_t n_2s,
                            uint64_t delta, scaling_bounds_class *cls, scaling_bounds_form *form);

/* The product a form compares, at (s, n, P), saturating at UINT64_MAX; a (P - 1) form's is 0 at
 * P = 1. */
uint64_t scaling_bounds_form_value(scaling_bounds_form form, uint64_t s, uint64_t n, uint64_t P);

/* The largest safe per-process count at (s, P) for collective c: the minimum over
 *  - every Class G entry of c (valid at every (s, P)) and the artificial bound: the largest n whose
 *    form product does not exceed the entry's (none at P = 1 for a (P - 1) form, whose product is
 *    0 there);
 *  - the Class X entries of c by the lookup rule: an entry at exactly (s, P) gives its n_s; else
 * the smallest n_s among entries at (s_e >= s, P_e >= P) (tested at a harder point: conservative
 * under monotonicity); else, among entries at (s_e <= s, P_e <= P), the paper's extrapolation s n P
 * <= s_e n_s P_e (Eq. 4.23); else the point is uncovered (flagged, no bound). Cost: O(entries of
 * c), independent of P; no allocation. Returns 0, or MG_ERROR_EINVAL (NULL b or out, unknown c, s
 * or P of zero). Thread-safe (b is read only). */
int scaling_bounds_nmax(const scaling_bounds *b, scaling_coll c, uint64_t s, uint64_t P,
                        scaling_bounds_limit *out);

#endif
