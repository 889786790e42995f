/* Variable kinds, domains and declaration checks (docs/design/concolic-solver.md §1). */
#include "sym_var.h"

#include <stddef.h>
#include <string.h>

#include "mg_error.h"

/* Ranks and sizes are C ints in the MPI API. */
static const struct {
    int64_t lo, hi;
    unsigned bits;
    int is_signed;
} domains[SYM_VAR_KIND_END] = {
    [SYM_VAR_CHAR] = {INT8_MIN, INT8_MAX, 8, 1},
    [SYM_VAR_UCHAR] = {0, UINT8_MAX, 8, 0},
    [SYM_VAR_SHORT] = {INT16_MIN, INT16_MAX, 16, 1},
    [SYM_VAR_USHORT] = {0, UINT16_MAX, 16, 0},
    [SYM_VAR_INT] = {INT32_MIN, INT32_MAX, 32, 1},
    [SYM_VAR_UINT] = {0, UINT32_MAX, 32, 0},
    [SYM_VAR_LONG] = {INT64_MIN, INT64_MAX, 64, 1},
    [SYM_VAR_ULONG] = {0, INT64_MAX, 64, 0},
    [SYM_VAR_RANK_WORLD] = {0, INT32_MAX, 32, 1},
    [SYM_VAR_RANK_COMM] = {0, INT32_MAX, 32, 1},
    [SYM_VAR_SIZE_WORLD] = {1, INT32_MAX, 32, 1},
    [SYM_VAR_SIZE_COMM] = {1, INT32_MAX, 32, 1},
    [SYM_VAR_FLOAT] = {INT64_MIN, INT64_MAX, 32, 1},
    [SYM_VAR_DOUBLE] = {INT64_MIN, INT64_MAX, 64, 1},
};

int sym_var_kind_domain(int kind, int64_t *lo, int64_t *hi, unsigned *bits, int *is_signed)
{
    if (kind < SYM_VAR_CHAR || kind >= SYM_VAR_KIND_END)
        return MG_ERROR_EINVAL;
    if (lo)
        *lo = domains[kind].lo;
    if (hi)
        *hi = domains[kind].hi;
    if (bits)
        *bits = domains[kind].bits;
    if (is_signed)
        *is_signed = domains[kind].is_signed;
    return 0;
}

int sym_var_is_mpi(int kind)
{
    return kind >= SYM_VAR_RANK_WORLD && kind <= SYM_VAR_SIZE_COMM;
}

int sym_var_is_float(int kind)
{
    return kind == SYM_VAR_FLOAT || kind == SYM_VAR_DOUBLE;
}

int sym_var_kind_sort(int kind)
{
    return sym_var_is_float(kind) ? SYM_VAR_SORT_REAL : SYM_VAR_SORT_INT;
}

double sym_var_real_value(int64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

int64_t sym_var_real_bits(double d)
{
    int64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}

int sym_var_check(const sym_var *v)
{
    int64_t lo;
    if (!v || sym_var_kind_domain(v->kind, &lo, NULL, NULL, NULL) != 0)
        return MG_ERROR_EINVAL;
    if (v->sort != sym_var_kind_sort(v->kind))
        return MG_ERROR_EINVAL;
    int per_comm = v->kind == SYM_VAR_RANK_COMM || v->kind == SYM_VAR_SIZE_COMM;
    if (per_comm != (v->comm != SYM_VAR_NO_COMM))
        return MG_ERROR_EINVAL;
    if (v->has_cap > 1 || (v->has_cap && (v->cap < lo || v->sort == SYM_VAR_SORT_REAL)))
        return MG_ERROR_EINVAL;
    return 0;
}
