/* Internal to src/engines/deadlock: no other folder includes it (docs/architecture.md). */
/* An open-addressing hash map from a 128-bit key (two u64) to a u32 value, the index structure
 * behind the matcher's queues, the request table and the communicator table
 * (docs/design/check-detector.md §2). Flat arrays only, so a map is cloned with two copies. */
#ifndef KEY_MAP_H
#define KEY_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct key_map {
    uint64_t *keys; /* 2 per slot */
    uint32_t *values;
    uint8_t *used;
    size_t cap; /* slots, a power of two (0 before the first insert) */
    size_t count;
} key_map;

/* An empty map; allocates nothing until the first insert. */
void key_map_init(key_map *m);
/* Frees the map's arrays; the map is empty and reusable afterwards. */
void key_map_free(key_map *m);
/* Looks up (a, b): returns 1 and stores the value in *value, or 0 when absent. */
int key_map_get(const key_map *m, uint64_t a, uint64_t b, uint32_t *value);
/* Inserts or replaces (a, b) -> value. Errors: MG_ERROR_ENOMEM (the map is unchanged). */
int key_map_put(key_map *m, uint64_t a, uint64_t b, uint32_t value);
/* Removes (a, b); returns 1 when it was present. */
int key_map_remove(key_map *m, uint64_t a, uint64_t b);
/* Deep copy of src into *dst (dst must not hold arrays). Errors: MG_ERROR_ENOMEM (dst left empty).
 */
int key_map_clone(const key_map *src, key_map *dst);

#endif
