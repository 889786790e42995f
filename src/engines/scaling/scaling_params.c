/* Defaults of the planners' parameters; see scaling_params.h. */
#include "scaling_params.h"

enum { DEFAULT_STAGE_BYTES = 64u << 20 };

void scaling_params_default(scaling_params *p)
{
    p->max_stage_bytes = DEFAULT_STAGE_BYTES;
    p->call_ns = 20000.0;
    p->byte_ns = 0.5;
    p->copy_byte_ns = 0.1;
    p->type_ns = 2000.0;
    p->comm_ns = 200000.0;
    p->allgather_block_stride = 0;
}
