/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* A fixed-capacity open-addressing map from an MPI handle (as 64 bits) to a 64-bit value, for the
 * capture module's request, message, communicator and op tables (docs/design/check.md "How it is
 * built"). Sized once at MPI_Init: lookups, inserts and removals never allocate. Not thread-safe.
 */
#ifndef MG_CAPTURE_TABLE_H
#define MG_CAPTURE_TABLE_H

#include <stddef.h>
#include <stdint.h>

typedef struct capture_table {
    uint64_t *keys; /* key + 1, so 0 marks an empty slot (a handle of all ones cannot be stored) */
    uint64_t *values;
    size_t mask; /* capacity - 1, a power of two */
    size_t used;
} capture_table;

/* Allocates room for about `entries` keys at load <= 1/2. Errors: MG_ERROR_ENOMEM. */
int capture_table_init(capture_table *t, size_t entries);
void capture_table_free(capture_table *t);
/* Inserts or replaces. Errors: MG_ERROR_EFULL (the table is at its load limit; unchanged). */
int capture_table_put(capture_table *t, uint64_t key, uint64_t value);
/* 1 and *value when present, else 0. */
int capture_table_get(const capture_table *t, uint64_t key, uint64_t *value);
/* Removes the key if present (backward-shift deletion keeps probe chains intact). */
void capture_table_remove(capture_table *t, uint64_t key);

#endif
