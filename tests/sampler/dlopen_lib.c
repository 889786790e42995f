/* A library the sampler test target loads with dlopen after the sampler was opened, so the
 * sampler must notice the new mapping and rebuild its unwinder. Spec: docs/sampler.md "Caches". */
#include "dlopen_lib.h"

void dlopened_spin(void)
{
    for (;;) {
        __asm__ volatile("" ::: "memory");
    }
}
