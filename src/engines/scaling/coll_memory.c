/* Memory estimate of a collective test; see coll_memory.h. */
#include "coll_memory.h"

typedef unsigned __int128 u128;

uint64_t coll_memory_bytes(scaling_coll c, int in_place, uint64_t s, uint64_t n, uint64_t P)
{
    u128 msg = (u128)s * n, global = msg * P, per_rank;
    /* In place, the receive buffer holds the input too (a rooted collective's non-roots still pass
     * both buffers). */
    int one_buffer = in_place && scaling_coll_in_place_everywhere(c);
    switch (c) {
    case SCALING_COLL_BCAST:
        per_rank = msg;
        break;
    case SCALING_COLL_ALLGATHER:
    case SCALING_COLL_ALLGATHERV:
    case SCALING_COLL_REDUCE_SCATTER:
        per_rank = one_buffer ? global : msg + global;
        break;
    case SCALING_COLL_ALLTOALL:
    case SCALING_COLL_ALLTOALLV:
        per_rank = one_buffer ? global : 2 * global;
        break;
    case SCALING_COLL_REDUCE:
    case SCALING_COLL_ALLREDUCE:
        per_rank = one_buffer ? msg : 2 * msg;
        break;
    default: /* Scatter(v), Gather(v): one message per rank plus the root's global buffer, which
                is one message per rank too */
        per_rank = 2 * msg;
        break;
    }
    u128 total = 2 * per_rank * P;
    return total > UINT64_MAX ? UINT64_MAX : (uint64_t)total;
}
