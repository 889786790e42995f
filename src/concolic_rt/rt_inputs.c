/* The inputs file (rt_inputs.h): one decimal integer per line (a float input's line is the bit
 * pattern of its double), after words that set the run up: `uncapped`, `floats_off`
 * (docs/design/concolic.md "Interface"; dissertation §3.3 tuning, §3.4 floats). */
#include "rt_inputs.h"

#include "mg_array.h"
#include "mg_env.h"
#include "mg_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t *inputs;
static size_t ninputs;
static int loaded, uncapped, floats_off;

static void rt_inputs_load(void)
{
    if (loaded)
        return;
    loaded = 1;
    const char *path = getenv(MG_ENV_CONCOLIC_INPUTS);
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
        if (mg_array_reserve((void **)&inputs, &cap, ninputs + 1, sizeof *inputs) != MG_ERROR_OK)
            break;
        inputs[ninputs++] = v;
    }
    fclose(f);
}

int rt_inputs_at(size_t i, int64_t *value)
{
    rt_inputs_load();
    if (i >= ninputs)
        return 0;
    *value = inputs[i];
    return 1;
}

int rt_inputs_uncapped(void)
{
    rt_inputs_load();
    return uncapped;
}

int rt_inputs_floats_tracked(void)
{
    rt_inputs_load();
    return !floats_off;
}
