/* Marking inputs (include/mpiguard/concolic.h): the i-th mark of a run takes value i of the file
 * named by MPIGUARD_CONCOLIC_INPUTS (one decimal integer per line, the same file for every
 * rank; a first line `uncapped` says the campaign tunes its inputs instead of capping them, so
 * the marks' limits are not applied), and in the heavy executable becomes symbolic variable of
 * the next id (docs/design/concolic.md "Interface"; dissertation §2.4.1 for the caps, §3.3 tuning).
 */
#include "mpiguard/concolic.h"
#include "rt_internal.h"

#include "mg_array.h"
#include "mg_error.h"
#include "mg_env.h"

#include <stdio.h>
#include <stdlib.h>

static int64_t *inputs;
static size_t ninputs, next_input;
static int loaded, uncapped;

static void load_inputs(void)
{
    const char *path = getenv(MG_ENV_CONCOLIC_INPUTS);
    loaded = 1;
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f)
        return;
    size_t cap = 0;
    long long v;
    int matched = 0;
    if (fscanf(f, " uncapped%n", &matched) != EOF)
        uncapped = matched > 0;
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

static void mark(int kind, void *p, unsigned size, int64_t value, int has_cap, int64_t cap)
{
    uint32_t id;
    if (rt_heavy && rt_declare_var((uint8_t)kind, has_cap, cap, SYM_VAR_NO_COMM, value, &id) == 0)
        rt_shadow_mark(p, size, id);
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
