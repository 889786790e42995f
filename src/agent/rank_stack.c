/* Conversion of ptrace samples into report stacks (rank_stack.h). */
#include "rank_stack.h"

#include <stdio.h>
#include <string.h>

/* The thread whose stack tells the story: the first in an MPI call, else the main thread. */
static const sampler_thread *telling_thread(const sampler_sample *sample)
{
    for (size_t i = 0; i < sample->nthreads; i++)
        if (sample->threads[i].mpi_function)
            return &sample->threads[i];
    return sample->nthreads ? &sample->threads[0] : NULL;
}

void rank_stack_from_sample(const sampler_sample *sample, rank_stack *out)
{
    memset(out, 0, sizeof *out);
    const sampler_thread *t = sample ? telling_thread(sample) : NULL;
    if (!t)
        return;
    snprintf(out->mpi_function, sizeof out->mpi_function, "%s",
             t->mpi_function ? t->mpi_function : "");
    for (size_t i = 0; i < t->nframes && out->nframes < RANK_STACK_MAX_FRAMES; i++) {
        const stack_frame *f = &t->frames[i];
        rank_stack_frame *o = &out->frames[out->nframes++];
        const char *base = f->module ? strrchr(f->module, '/') : NULL;
        snprintf(o->function, sizeof o->function, "%s", f->function ? f->function : "");
        snprintf(o->module, sizeof o->module, "%s", base ? base + 1 : f->module ? f->module : "");
        o->offset = f->offset;
    }
}
