/* Pointer-keyed map of mpiguard-cc (cc_ptr_map.h). */
#include "cc_ptr_map.h"

#include <stdlib.h>

static size_t hash_ptr(const void *v, size_t cap)
{
    uintptr_t x = (uintptr_t)v;
    x ^= x >> 17;
    x *= 0x9E3779B97F4A7C15ull;
    return (size_t)(x >> 7) & (cap - 1);
}

void cc_ptr_map_reset(cc_ptr_map *m, size_t expected)
{
    size_t cap = 16;
    while (cap < 2 * expected + 2)
        cap *= 2;
    cc_ptr_map_free(m);
    m->keys = calloc(cap, sizeof *m->keys);
    m->vals = calloc(cap, sizeof *m->vals);
    if (!m->keys || !m->vals)
        abort();
    m->cap = cap;
}

int32_t cc_ptr_map_get(const cc_ptr_map *m, const void *key)
{
    if (!m->cap)
        return -1;
    for (size_t i = hash_ptr(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (!m->keys[i])
            return -1;
        if (m->keys[i] == key)
            return m->vals[i];
    }
}

void cc_ptr_map_put(cc_ptr_map *m, const void *key, int32_t val)
{
    size_t i = hash_ptr(key, m->cap);
    while (m->keys[i])
        i = (i + 1) & (m->cap - 1);
    m->keys[i] = key;
    m->vals[i] = val;
}

void cc_ptr_map_free(cc_ptr_map *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = 0;
}
