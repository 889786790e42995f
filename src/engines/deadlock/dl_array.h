/* Growth of the detector's flat arrays (pools, queues, buffers): one doubling policy for all
 * modules of mg_deadlock. Internal to the engine. */
#ifndef DL_ARRAY_H
#define DL_ARRAY_H

#include <stddef.h>

/* Smallest capacity an array grows to. */
#define DL_ARRAY_MIN_CAP 16u

/* Makes *arr (capacity *cap elements of elem bytes) hold at least `need` elements, doubling.
 * Errors: MG_ENOMEM (*arr and *cap unchanged). */
int dl_array_reserve(void **arr, size_t *cap, size_t need, size_t elem);

#endif
