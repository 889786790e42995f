/* Array growth shared by every module, see mg_array.h. */
#include "mg_array.h"

#include <stdint.h>
#include <stdlib.h>

#include "mg_error.h"

int mg_array_reserve(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return MG_ERROR_OK;
    size_t max = SIZE_MAX / elem; /* the most elements whose size in bytes a size_t holds */
    if (need > max)
        return MG_ERROR_ERANGE;
    /* Doubling from half the minimum gives the minimum first; past max / 2, max is the last step
     * (it holds need). */
    size_t n = *cap ? *cap : MG_ARRAY_MIN_CAP / 2;
    do
        n = n > max / 2 ? max : 2 * n;
    while (n < need);
    void *p = realloc(*arr, n * elem);
    if (!p)
        return MG_ERROR_ENOMEM;
    *arr = p;
    *cap = n;
    return MG_ERROR_OK;
}
