/* The capture module's handle map (capture_table.h). */
#include "capture_table.h"

#include "mg_error.h"

#include <stdlib.h>

static size_t slot_of(const capture_table *t, uint64_t key)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return (size_t)key & t->mask;
}

int capture_table_init(capture_table *t, size_t entries)
{
    size_t cap = 16;
    while (cap < 2 * entries)
        cap <<= 1;
    t->keys = calloc(cap, sizeof *t->keys);
    t->values = calloc(cap, sizeof *t->values);
    t->mask = cap - 1;
    t->used = 0;
    if (!t->keys || !t->values) {
        capture_table_free(t);
        return MG_ERROR_ENOMEM;
    }
    return MG_ERROR_OK;
}

void capture_table_free(capture_table *t)
{
    free(t->keys);
    free(t->values);
    t->keys = t->values = NULL;
    t->mask = t->used = 0;
}

int capture_table_put(capture_table *t, uint64_t key, uint64_t value)
{
    size_t i = slot_of(t, key);
    while (t->keys[i] && t->keys[i] != key + 1)
        i = (i + 1) & t->mask;
    if (!t->keys[i]) {
        if (2 * (t->used + 1) > t->mask + 1)
            return MG_ERROR_EFULL;
        t->keys[i] = key + 1;
        t->used++;
    }
    t->values[i] = value;
    return MG_ERROR_OK;
}

int capture_table_get(const capture_table *t, uint64_t key, uint64_t *value)
{
    for (size_t i = slot_of(t, key); t->keys[i]; i = (i + 1) & t->mask)
        if (t->keys[i] == key + 1) {
            *value = t->values[i];
            return 1;
        }
    return 0;
}

void capture_table_remove(capture_table *t, uint64_t key)
{
    size_t i = slot_of(t, key);
    while (t->keys[i] && t->keys[i] != key + 1)
        i = (i + 1) & t->mask;
    if (!t->keys[i])
        return;
    t->keys[i] = 0;
    t->used--;
    /* Move later members of the chain back into the hole when their home slot allows it. */
    for (size_t j = (i + 1) & t->mask; t->keys[j]; j = (j + 1) & t->mask) {
        size_t home = slot_of(t, t->keys[j] - 1);
        if (((j - home) & t->mask) >= ((j - i) & t->mask)) {
            t->keys[i] = t->keys[j];
            t->values[i] = t->values[j];
            t->keys[j] = 0;
            i = j;
        }
    }
}
