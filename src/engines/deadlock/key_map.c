/* Linear-probing hash map with backward-shift deletion (no tombstones), see key_map.h. */
#include "key_map.h"

#include <stdlib.h>
#include <string.h>

#include "mg_error.h"

/* Grow when count exceeds cap * LOAD_NUM / LOAD_DEN. */
#define KEY_MAP_LOAD_NUM 7u
#define KEY_MAP_LOAD_DEN 10u
#define KEY_MAP_MIN_CAP 16u

void key_map_init(key_map *m)
{
    memset(m, 0, sizeof *m);
}

void key_map_free(key_map *m)
{
    free(m->keys);
    free(m->values);
    free(m->used);
    key_map_init(m);
}

static size_t slot_of(uint64_t a, uint64_t b, size_t cap)
{
    uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return (size_t)h & (cap - 1);
}

static size_t find(const key_map *m, uint64_t a, uint64_t b, int *found)
{
    size_t i = slot_of(a, b, m->cap);
    while (m->used[i]) {
        if (m->keys[2 * i] == a && m->keys[2 * i + 1] == b) {
            *found = 1;
            return i;
        }
        i = (i + 1) & (m->cap - 1);
    }
    *found = 0;
    return i;
}

int key_map_get(const key_map *m, uint64_t a, uint64_t b, uint32_t *value)
{
    if (m->count == 0) {
        return 0;
    }
    int found;
    size_t i = find(m, a, b, &found);
    if (found) {
        *value = m->values[i];
    }
    return found;
}

static int grow(key_map *m)
{
    size_t cap = m->cap ? m->cap * 2 : KEY_MAP_MIN_CAP;
    key_map n = {calloc(cap * 2, sizeof(uint64_t)), calloc(cap, sizeof(uint32_t)), calloc(cap, 1),
                 cap, 0};
    if (!n.keys || !n.values || !n.used) {
        key_map_free(&n);
        return MG_ERROR_ENOMEM;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (m->used[i]) {
            int found;
            size_t j = find(&n, m->keys[2 * i], m->keys[2 * i + 1], &found);
            n.used[j] = 1;
            n.keys[2 * j] = m->keys[2 * i];
            n.keys[2 * j + 1] = m->keys[2 * i + 1];
            n.values[j] = m->values[i];
            n.count++;
        }
    }
    key_map_free(m);
    *m = n;
    return MG_ERROR_OK;
}

int key_map_put(key_map *m, uint64_t a, uint64_t b, uint32_t value)
{
    if ((m->count + 1) * KEY_MAP_LOAD_DEN > m->cap * KEY_MAP_LOAD_NUM) {
        int rc = grow(m);
        if (rc) {
            return rc;
        }
    }
    int found;
    size_t i = find(m, a, b, &found);
    if (!found) {
        m->used[i] = 1;
        m->keys[2 * i] = a;
        m->keys[2 * i + 1] = b;
        m->count++;
    }
    m->values[i] = value;
    return MG_ERROR_OK;
}

int key_map_remove(key_map *m, uint64_t a, uint64_t b)
{
    if (m->count == 0) {
        return 0;
    }
    int found;
    size_t hole = find(m, a, b, &found);
    if (!found) {
        return 0;
    }
    size_t mask = m->cap - 1, j = hole;
    for (;;) {
        j = (j + 1) & mask;
        if (!m->used[j]) {
            break;
        }
        size_t home = slot_of(m->keys[2 * j], m->keys[2 * j + 1], m->cap);
        /* Move j back into the hole unless its home lies cyclically in (hole, j]. */
        if (((j - home) & mask) >= ((j - hole) & mask)) {
            m->keys[2 * hole] = m->keys[2 * j];
            m->keys[2 * hole + 1] = m->keys[2 * j + 1];
            m->values[hole] = m->values[j];
            hole = j;
        }
    }
    m->used[hole] = 0;
    m->count--;
    return 1;
}

int key_map_clone(const key_map *src, key_map *dst)
{
    key_map_init(dst);
    if (src->cap == 0) {
        return MG_ERROR_OK;
    }
    dst->keys = malloc(src->cap * 2 * sizeof(uint64_t));
    dst->values = malloc(src->cap * sizeof(uint32_t));
    dst->used = malloc(src->cap);
    if (!dst->keys || !dst->values || !dst->used) {
        key_map_free(dst);
        return MG_ERROR_ENOMEM;
    }
    memcpy(dst->keys, src->keys, src->cap * 2 * sizeof(uint64_t));
    memcpy(dst->values, src->values, src->cap * sizeof(uint32_t));
    memcpy(dst->used, src->used, src->cap);
    dst->cap = src->cap;
    dst->count = src->count;
    return MG_ERROR_OK;
}
