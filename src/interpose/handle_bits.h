/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* An MPI handle's bits as a 64-bit key (a pointer under Open MPI, an int under MPICH): for the
 * module's tables and for ids published outside the rank. Takes the handle's address and size, so
 * that it needs no mpi.h. */
#ifndef MG_HANDLE_BITS_H
#define MG_HANDLE_BITS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t mg_handle_bits(const void *handle, size_t size)
{
    uint64_t k = 0;
    memcpy(&k, handle, size < sizeof k ? size : sizeof k);
    return k;
}

#endif
