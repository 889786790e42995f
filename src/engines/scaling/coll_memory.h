/* Memory a collective test needs, computed before it starts so the tester skips what would not
 * fit (mg_memory_available) instead of meeting the OOM killer (docs/design/collectives.md, "The
 * tester"). */
#ifndef MG_COLL_MEMORY_H
#define MG_COLL_MEMORY_H

#include <stdint.h>

#include "scaling_coll.h"

/* Bytes of the send and receive buffers of all P ranks (all on this node; in_place: the call with
 * MPI_IN_PLACE), times 2 for the MPI library's own copies (shared-memory staging, algorithm
 * temporaries): a conservative estimate. Saturates at UINT64_MAX. */
uint64_t coll_memory_bytes(scaling_coll c, int in_place, uint64_t s, uint64_t n, uint64_t P);

#endif
