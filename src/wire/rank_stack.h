/* A rank's call stack as hang reports need it: the thread that tells the story (the one in an MPI
 * call, else the main thread), innermost frame first, with copied strings so it outlives the sample
 * and can travel between an agent and the front (src/agent/hang_agent.c writes it into a STACK
 * answer, hang_remote.c reads it), and be drawn by the report (src/report/hang_stack_tree.h). */
#ifndef MG_RANK_STACK_H
#define MG_RANK_STACK_H

#include "agent_proto.h"

#include <stddef.h>
#include <stdint.h>

enum { RANK_STACK_MAX_FRAMES = 48, RANK_STACK_NAME = 128, RANK_STACK_FILE = 256 };

/* The function name of a signal trampoline's frame, as the ptrace sampler writes it
 * (src/sampler/stack_classify.h's STACK_CLASSIFY_SIGNAL_FRAME) and the hang engine reads it. */
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

/* The innermost frame of the application itself (the executable of app_path), as its name or,
 * stripped, as "app+0x1189" written to buf; else the innermost named frame; NULL when none. */
const char *rank_stack_user_function(const rank_stack *st, const char *app_path, char *buf,
                                     size_t len);

/* The name reports give an MPI entry frame's call, so that every sampler and reader names it
 * alike: the function table's (MPI_Send) for every binding's spelling of a wrapped function
 * (PMPI_Send, mpi_send_, MPI_SEND, mpi_send_f08_), else the name without its profiling "P"
 * (pointing into function). */
const char *rank_stack_public_name(const char *function);

/* Appends st to an agent frame (a hang agent's STACK answer). 0 or MG_ERROR_ENOMEM. */
int rank_stack_put(agent_proto_buf *b, const rank_stack *st);

/* Takes a stack that rank_stack_put appended into *out; frames past RANK_STACK_MAX_FRAMES are
 * read and dropped, so that what follows them can be taken. 0, or MG_ERROR_EFORMAT past the
 * payload's end (*out then holds the frames read whole before it). */
int rank_stack_take(agent_proto_cursor *c, rank_stack *out);

#endif
