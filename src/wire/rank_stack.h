/* A rank's call stack as hang reports need it: the thread that tells the story (the one in an MPI
 * call, else the main thread), innermost frame first, with copied strings so it outlives the sample
 * and can travel between an agent and the front (src/agent/hang_agent.c writes it into a STACK
 * answer, hang_remote.c reads it), and be drawn by the report (src/report/hang_stack_tree.h). */
#ifndef MG_RANK_STACK_H
#define MG_RANK_STACK_H

#include <stddef.h>
#include <stdint.h>

enum { RANK_STACK_MAX_FRAMES = 48, RANK_STACK_NAME = 128, RANK_STACK_FILE = 256 };

/* The function name of a signal trampoline's frame, as the ptrace sampler writes it
 * (src/sampler/stack_classify.h's STACK_SIGNAL_FRAME) and the hang engine reads it. */
#define RANK_STACK_SIGNAL_FRAME "<signal handler called>"

typedef struct rank_stack_frame {
    char function[RANK_STACK_NAME]; /* "" when unknown */
    char module[RANK_STACK_NAME];   /* base name of the mapped file, "" for anonymous memory */
    uint64_t offset;                /* in function; without one, the address in module's file */
    char file[RANK_STACK_FILE];     /* source file (debug information), "" when unknown */
    int line;                       /* 0 when file is unknown */
} rank_stack_frame;

typedef struct rank_stack {
    char mpi_function[64]; /* the outermost MPI call it is in, "" if none */
    size_t nframes;
    rank_stack_frame frames[RANK_STACK_MAX_FRAMES];
} rank_stack;

/* The index of the frame of the MPI call as the application made it (MPI_Allreduce,
 * mpi_allreduce_): the outermost frame naming st->mpi_function; st->nframes when none does. */
size_t rank_stack_mpi_entry(const rank_stack *st);

#endif
