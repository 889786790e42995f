/* A bounded cache from code address to what people read of it (symbol name, offset, source file
 * and line), so a warm sampler resolves each address once. Spec: docs/design/platform-notes.md
 * "ptrace and unwinding" (names cached by address). */
#ifndef SYMBOL_CACHE_H
#define SYMBOL_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct symbol_cache symbol_cache;

/* What is known of one code address. Strings are not owned (see symbol_cache_insert). */
typedef struct symbol_cache_info {
    const char *name;   /* symbol holding the address, NULL when unknown */
    uint64_t offset;    /* address - symbol start; 0 when name is NULL */
    bool sourced;       /* file and line were looked up (a NULL file then means none exists) */
    const char *file;   /* source file of the address, NULL without debug information */
    int line;           /* its line, 0 when file is NULL */
    const char *called; /* the MPI function the line was looked up as a call of, NULL none */
} symbol_cache_info;

/* Creates a cache holding up to capacity entries (capacity >= 1). Returns MG_ERROR_EINVAL or
 * MG_ERROR_ENOMEM; *out is unchanged on failure. */
int symbol_cache_create(size_t capacity, symbol_cache **out);

/* Looks pc up. Returns true and fills *info (its name possibly NULL: "known to have no symbol")
 * when pc was inserted since the last clear. */
bool symbol_cache_find(const symbol_cache *c, uint64_t pc, symbol_cache_info *info);

/* Remembers pc -> info. The string pointers are stored, not copied: the caller keeps the strings
 * alive until symbol_cache_clear or symbol_cache_destroy. When the cache is full it is
 * cleared first (everything is forgotten; an address working set larger than the capacity costs
 * lookups, never memory). Inserting a present pc replaces its entry. */
void symbol_cache_insert(symbol_cache *c, uint64_t pc, const symbol_cache_info *info);

/* Number of entries held. */
size_t symbol_cache_count(const symbol_cache *c);

/* Forgets every entry. */
void symbol_cache_clear(symbol_cache *c);

/* Frees the cache; NULL is accepted. */
void symbol_cache_destroy(symbol_cache *c);

#endif
