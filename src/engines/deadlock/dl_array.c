/* Array growth shared by the detector's modules, see dl_array.h. */
#include "dl_array.h"

#include <stdlib.h>

#include "mg_error.h"

int dl_array_reserve(void **arr, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) {
        return MG_OK;
    }
    size_t n = *cap ? *cap * 2 : DL_ARRAY_MIN_CAP;
    while (n < need) {
        n *= 2;
    }
    void *p = realloc(*arr, n * elem);
    if (!p) {
        return MG_ENOMEM;
    }
    *arr = p;
    *cap = n;
    return MG_OK;
}
