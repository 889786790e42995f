/* Marking inputs (include/mpiguard/concolic.h): the i-th mark of a run takes input i of the
 * campaign's inputs file (rt_inputs.c), and in the heavy executable becomes symbolic variable of
 * the next id (docs/design/concolic.md "Interface"; dissertation §2.4.1 caps, §3.4 floats). */
#include "mpiguard/concolic.h"
#include "rt_inputs.h"
#include "rt_internal.h"

static size_t next_input;

/* The value input `next_input` takes: the campaign's, else the program's own, lowered to the cap
 * and kept in the kind's domain. */
static int64_t choose(int kind, int64_t current, int has_cap, int64_t cap)
{
    int64_t lo, hi, v = current;
    unsigned bits;
    int is_signed;
    rt_inputs_at(next_input++, &v);
    sym_var_kind_domain(kind, &lo, &hi, &bits, &is_signed);
    if (has_cap && !rt_inputs_uncapped() && cap < hi)
        hi = cap;
    return v < lo ? lo : v > hi ? hi : v;
}

static void mark(int kind, void *p, unsigned size, int64_t value, int has_cap, int64_t cap)
{
    uint32_t id;
    int is_float = sym_var_is_float(kind);
    if (rt_log_heavy &&
        rt_log_declare_var((uint8_t)kind, has_cap, cap, SYM_VAR_NO_COMM, value, &id) == 0 &&
        (!is_float || rt_inputs_floats_tracked()))
        rt_shadow_mark(p, size, id, is_float);
}

/* A float input: the campaign's double (its bits), else the program's own; the variable's value
 * is the double the program holds (a float's, widened). NaN and infinities pass as they are:
 * the runtime logs no comparison with a NaN, and the solver never proposes either. */
static double choose_real(double current)
{
    int64_t bits;
    return rt_inputs_at(next_input++, &bits) ? sym_var_real_value(bits) : current;
}

void mpiguard_double(double *x)
{
    *x = choose_real(*x);
    mark(SYM_VAR_DOUBLE, x, sizeof *x, sym_var_real_bits(*x), 0, 0);
}

void mpiguard_float(float *x)
{
    *x = (float)choose_real(*x);
    mark(SYM_VAR_FLOAT, x, sizeof *x, sym_var_real_bits(*x), 0, 0);
}

#define MARKERS(name, type, kind)                                                                  \
    void mpiguard_##name##_with_limit(type *x, long long limit)                                    \
    {                                                                                              \
        *x = (type)choose(kind, (int64_t)*x, 1, limit);                                            \
        mark(kind, x, sizeof *x, (int64_t)*x, 1, limit);                                           \
    }                                                                                              \
    void mpiguard_##name(type *x)                                                                  \
    {                                                                                              \
        *x = (type)choose(kind, (int64_t)*x, 0, 0);                                                \
        mark(kind, x, sizeof *x, (int64_t)*x, 0, 0);                                               \
    }

MARKERS(char, char, SYM_VAR_CHAR)
MARKERS(uchar, unsigned char, SYM_VAR_UCHAR)
MARKERS(short, short, SYM_VAR_SHORT)
MARKERS(ushort, unsigned short, SYM_VAR_USHORT)
MARKERS(int, int, SYM_VAR_INT)
MARKERS(unsigned, unsigned, SYM_VAR_UINT)
MARKERS(long, long, SYM_VAR_LONG)
MARKERS(ulong, unsigned long, SYM_VAR_ULONG)
