/* Growth of flat dynamic arrays (lists, stacks, byte buffers): one doubling policy for the whole
 * tree, with the size arithmetic checked once here instead of at every call site. */
#ifndef MG_ARRAY_H
#define MG_ARRAY_H

#include <stddef.h>

/* Smallest capacity an array grows to. */
#define MG_ARRAY_MIN_CAP 16u

/* Makes *arr (capacity *cap elements of elem bytes, elem > 0) hold at least `need` elements:
 * nothing when need <= *cap, else the capacity doubles (from MG_ARRAY_MIN_CAP when it is 0) until
 * it reaches need, stopping at the largest count whose size fits a size_t. *arr is realloc'd and
 * stays owned by the caller; elements past the old capacity are uninitialized.
 * Errors: MG_ERROR_ERANGE (need * elem overflows a size_t), MG_ERROR_ENOMEM; on both, *arr and *cap
 * are unchanged. Thread-safe on distinct arrays; not signal-safe (realloc). */
int mg_array_reserve(void **arr, size_t *cap, size_t need, size_t elem);

#endif
