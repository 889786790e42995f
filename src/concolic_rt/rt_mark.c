/* Marking inputs (include/mpiguard/concolic.h): the i-th mark of a run takes value i of the file
 * named by MPIGUARD_CONCOLIC_INPUTS (one decimal integer per line, the same file for every
 * rank; a float input's line is the bit pattern of its double), and in the heavy executable
 * becomes symbolic variable of the next id (docs/design/concolic.md "Interface"; dissertation
 * §2.4.1 for the caps, §3.3 tuning, §3.4 floats). Words before the numbers set the run up:
 * `uncapped` says the campaign tunes its inputs instead of capping them, so the marks' limits are
 * not applied; `floats_off` keeps every float concrete (`--floats off`). */
#include "mpiguard/concolic.h"
#include "rt_internal.h"

#include "mg_array.h"
#include "mg_error.h"
#include "mg_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t *inputs;
static size_t ninputs, next_input;
static int loaded, uncapped, floats_off;

static void load_inputs(void)
{
    const char *path = getenv(MG_ENV_CONCOLIC_INPUTS);
    loaded = 1;
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f)
        return;
    size_t cap = 0;
    long long v;
    char word[16];
    while (fscanf(f, " %15[a-z_]", word) == 1) {
        uncapped |= !strcmp(word, "uncapped");
        floats_off |= !strcmp(word, "floats_off");
    }
    while (fscanf(f, "%lld", &v) == 1) {
        if (mg_array_reserve((void **)&inputs, &cap, ninputs + 1, sizeof *inputs) != MG_OK)
            break;
        inputs[ninputs++] = v;
    }
    fclose(f);
}

/* The value input `next_input` takes: the campaign's, else the program's own, lowered to the cap
 * and kept in the kind's domain. */
static int64_t choose(int kind, int64_t current, int has_cap, int64_t cap)
{
    int64_t lo, hi, v = current;
    unsigned bits;
    int is_signed;
    if (!loaded)
        load_inputs();
    if (next_input < ninputs)
        v = inputs[next_input];
    next_input++;
    sym_var_kind_domain(kind, &lo, &hi, &bits, &is_signed);
    if (has_cap && !uncapped && cap < hi)
        hi = cap;
    return v < lo ? lo : v > hi ? hi : v;
}

int rt_mark_floats_tracked(void)
{
    if (!loaded)
        load_inputs();
    return !floats_off;
}

static void mark(int kind, void *p, unsigned size, int64_t value, int has_cap, int64_t cap)
{
    uint32_t id;
    int is_float = sym_var_is_float(kind);
    if (rt_log_heavy &&
        rt_log_declare_var((uint8_t)kind, has_cap, cap, SYM_VAR_NO_COMM, value, &id) == 0 &&
        (!is_float || rt_mark_floats_tracked()))
        rt_shadow_mark(p, size, id, is_float);
}

/* A float input: the campaign's double (its bits), else the program's own; the variable's value
 * is the double the program holds (a float's, widened). NaN and infinities pass as they are:
 * the runtime logs no comparison with a NaN, and the solver never proposes either. */
static double choose_real(double current)
{
    if (!loaded)
        load_inputs();
    double v = next_input < ninputs ? sym_var_real_value(inputs[next_input]) : current;
    next_input++;
    return v;
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
