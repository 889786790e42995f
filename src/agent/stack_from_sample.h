/* A rank's report stack (rank_stack.h, src/wire) from a ptrace sample. */
#ifndef MG_STACK_FROM_SAMPLE_H
#define MG_STACK_FROM_SAMPLE_H

#include "rank_stack.h"
#include "sampler_ptrace.h"

/* Fills out from a ptrace sample (NULL gives an empty stack). mpiguard's own frames (the
 * interposition library's wrappers and modules) are left out, except the MPI entry the
 * application called when the library holds it (its MPI_X wrapper), so the stack reads as if
 * mpiguard were not there. */
void stack_from_sample(const sampler_ptrace_result *sample, rank_stack *out);

#endif
