/* A bounded open-addressing cache from code address to symbol name, offset, file and line.
 * Spec: docs/design/platform-notes.md "ptrace and unwinding". */
#include "symbol_cache.h"

#include <stdlib.h>
#include <string.h>

#include "mg_error.h"

typedef struct slot {
    uint64_t pc;
    symbol_cache_info info;
    bool used;
} slot;

struct symbol_cache {
    slot *slots;
    size_t mask;     /* table size - 1; the table is a power of two at least twice the capacity */
    size_t capacity; /* entries allowed before a clear, so probe chains stay short */
    size_t count;
};

int symbol_cache_create(size_t capacity, symbol_cache **out)
{
    if (capacity == 0 || capacity > SIZE_MAX / 4 / sizeof(slot) || !out) {
        return MG_ERROR_EINVAL;
    }
    size_t size = 1;
    while (size < 2 * capacity) {
        size *= 2;
    }
    symbol_cache *c = calloc(1, sizeof *c);
    slot *slots = calloc(size, sizeof *slots);
    if (!c || !slots) {
        free(c);
        free(slots);
        return MG_ERROR_ENOMEM;
    }
    c->slots = slots;
    c->mask = size - 1;
    c->capacity = capacity;
    *out = c;
    return MG_ERROR_OK;
}

/* Fibonacci hashing spreads code addresses, which share their high bits. */
static size_t home(const symbol_cache *c, uint64_t pc)
{
    return (size_t)((pc * UINT64_C(0x9E3779B97F4A7C15)) >> 17) & c->mask;
}

static slot *probe(const symbol_cache *c, uint64_t pc)
{
    size_t i = home(c, pc);
    while (c->slots[i].used && c->slots[i].pc != pc) {
        i = (i + 1) & c->mask;
    }
    return &c->slots[i];
}

bool symbol_cache_find(const symbol_cache *c, uint64_t pc, symbol_cache_info *info)
{
    const slot *s = probe(c, pc);
    if (!s->used) {
        return false;
    }
    *info = s->info;
    return true;
}

void symbol_cache_insert(symbol_cache *c, uint64_t pc, const symbol_cache_info *info)
{
    slot *s = probe(c, pc);
    if (!s->used) {
        if (c->count == c->capacity) {
            symbol_cache_clear(c);
            s = probe(c, pc);
        }
        c->count++;
    }
    *s = (slot){pc, *info, true};
}

size_t symbol_cache_count(const symbol_cache *c)
{
    return c->count;
}

void symbol_cache_clear(symbol_cache *c)
{
    memset(c->slots, 0, (c->mask + 1) * sizeof *c->slots);
    c->count = 0;
}

void symbol_cache_destroy(symbol_cache *c)
{
    if (!c) {
        return;
    }
    free(c->slots);
    free(c);
}
