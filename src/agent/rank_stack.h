/* A rank's call stack as hang reports need it: the thread that tells the story (the one in an MPI
 * call, else the main thread), innermost frame first, with copied strings so it outlives the sample
 * and can travel between an agent and the front. */
#ifndef MG_RANK_STACK_H
#define MG_RANK_STACK_H

#include "sampler_ptrace.h"

#include <stddef.h>
#include <stdint.h>

enum { RANK_STACK_MAX_FRAMES = 48, RANK_STACK_NAME = 128 };

typedef struct rank_stack_frame {
    char function[RANK_STACK_NAME]; /* "" when unknown */
    char module[RANK_STACK_NAME];   /* base name of the mapped file, "" for anonymous memory */
    uint64_t offset;
} rank_stack_frame;

typedef struct rank_stack {
    char mpi_function[64]; /* the outermost MPI call it is in, "" if none */
    size_t nframes;
    rank_stack_frame frames[RANK_STACK_MAX_FRAMES];
} rank_stack;

/* Fills out from a ptrace sample (NULL gives an empty stack). */
void rank_stack_from_sample(const sampler_sample *sample, rank_stack *out);

#endif
