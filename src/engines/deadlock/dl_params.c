/* The deadlock detector's default settings (dl_params.h). */
#include "dl_params.h"

void dl_params_default(dl_params *p)
{
    p->buffered_standard_sends = 0;
    p->inline_or_max = 64;
    p->probing = 1;
    p->probe_budget = 64;
    p->probe_depth = 4;
    p->probe_candidates = 16;
    p->deciding = 1;
    p->decide_backlog = (size_t)1 << 20;
    p->release_rounds = 16;
    p->mismatch_ranks = 64;
}
