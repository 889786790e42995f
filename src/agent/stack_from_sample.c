/* Conversion of ptrace samples into report stacks (stack_from_sample.h). */
#include "stack_from_sample.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The thread whose stack tells the story: the first in an MPI call, else the main thread. */
static const sampler_ptrace_thread *telling_thread(const sampler_ptrace_result *sample)
{
    for (size_t i = 0; i < sample->nthreads; i++)
        if (sample->threads[i].mpi_function)
            return &sample->threads[i];
    return sample->nthreads ? &sample->threads[0] : NULL;
}

/* mpiguard's interposition library, by its file's base name (libmpiguard-openmpi.so, ...). */
static bool is_mpiguard(const char *module_base)
{
    return strncmp(module_base, "libmpiguard-", strlen("libmpiguard-")) == 0;
}

static const char *base_name(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash ? slash + 1 : path ? path : "";
}

/* The outermost MPI entry frame of t, or t->nframes. */
static size_t outermost_entry(const sampler_ptrace_thread *t)
{
    size_t entry = t->nframes;
    for (size_t i = 0; i < t->nframes; i++)
        if (stack_classify_is_mpi_entry(t->frames[i].function, t->frames[i].in_mpi_module))
            entry = i;
    return entry;
}

void stack_from_sample(const sampler_ptrace_result *sample, rank_stack *out)
{
    memset(out, 0, sizeof *out);
    const sampler_ptrace_thread *t = sample ? telling_thread(sample) : NULL;
    if (!t)
        return;
    snprintf(out->mpi_function, sizeof out->mpi_function, "%s",
             t->mpi_function ? t->mpi_function : "");
    size_t entry = outermost_entry(t);
    for (size_t i = 0; i < t->nframes && out->nframes < RANK_STACK_MAX_FRAMES; i++) {
        const stack_classify_frame *f = &t->frames[i];
        const char *module = base_name(f->module);
        if (is_mpiguard(module) && i != entry)
            continue;
        rank_stack_frame *o = &out->frames[out->nframes++];
        /* without the symbol version (__libc_start_main@@GLIBC_2.34): C names have no '@' */
        const char *name = f->function ? f->function : "";
        snprintf(o->function, sizeof o->function, "%.*s", (int)strcspn(name, "@"), name);
        snprintf(o->module, sizeof o->module, "%s", module);
        snprintf(o->file, sizeof o->file, "%s", f->file ? f->file : "");
        o->offset = f->offset;
        o->line = f->line;
    }
}
