/* Internal to src/cc: no other folder includes it (docs/architecture.md). */
/* A map from LLVM object pointers (values, blocks) to small integers for mpiguard-cc: the
 * instrumenter's shadow slots and the CFG builder's node ids (docs/design/concolic.md
 * "mpiguard-cc"). */
#ifndef CC_PTR_MAP_H
#define CC_PTR_MAP_H

#include <stddef.h>
#include <stdint.h>

/* Open addressing on the pointer, sized once for the number of keys it will hold. */
typedef struct cc_ptr_map {
    const void **keys;
    int32_t *vals;
    size_t cap;
} cc_ptr_map;

/* Empties m (freeing what it held) and sizes it for up to `expected` keys. Exits on allocation
 * failure: the compiler driver cannot continue without memory. */
void cc_ptr_map_reset(cc_ptr_map *m, size_t expected);
/* The value of key, or -1 when absent. */
int32_t cc_ptr_map_get(const cc_ptr_map *m, const void *key);
/* Sets key (not NULL, not yet present) to val. At most `expected` keys. */
void cc_ptr_map_put(cc_ptr_map *m, const void *key, int32_t val);
void cc_ptr_map_free(cc_ptr_map *m);

#endif
