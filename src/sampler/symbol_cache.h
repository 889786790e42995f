/* A bounded cache from code address to (symbol name, offset), so a warm sampler resolves each
 * address once. Spec: docs/design/platform-notes.md "ptrace and unwinding" (names cached by
 * address). */
#ifndef SYMBOL_CACHE_H
#define SYMBOL_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct symbol_cache symbol_cache;

/* Creates a cache holding up to capacity entries (capacity >= 1). Returns MG_EINVAL or MG_ENOMEM;
 * *out is unchanged on failure. */
int symbol_cache_create(size_t capacity, symbol_cache **out);

/* Looks pc up. Returns true and fills *name (possibly NULL: "known to have no symbol") and *offset
 * when pc was inserted since the last clear. */
bool symbol_cache_find(const symbol_cache *c, uint64_t pc, const char **name, uint64_t *offset);

/* Remembers pc -> (name, offset). The name pointer is stored, not copied: the caller keeps the
 * string alive until symbol_cache_clear or symbol_cache_destroy. When the cache is full it is
 * cleared first (everything is forgotten; an address working set larger than the capacity costs
 * lookups, never memory). Inserting a present pc replaces its entry. */
void symbol_cache_insert(symbol_cache *c, uint64_t pc, const char *name, uint64_t offset);

/* Number of entries held. */
size_t symbol_cache_count(const symbol_cache *c);

/* Forgets every entry. */
void symbol_cache_clear(symbol_cache *c);

/* Frees the cache; NULL is accepted. */
void symbol_cache_destroy(symbol_cache *c);

#endif
