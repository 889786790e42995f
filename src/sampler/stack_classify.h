/* Deciding from call stacks whether a process is inside MPI, and naming the MPI call it is in.
 * Spec: docs/design/hang.md "How it samples" and docs/sampler.md "The IN_MPI rule". Pure: no I/O.
 */
#ifndef STACK_CLASSIFY_H
#define STACK_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One frame of a call stack; frames[0] is the innermost. Strings are owned by whoever produced the
 * frame (the sampler documents how long they live). */
/* The name of a signal trampoline frame, as gdb shows it: a handler runs in the frames inside. */
#define STACK_CLASSIFY_SIGNAL_FRAME "<signal handler called>"

typedef struct stack_classify_frame {
    uint64_t pc;          /* the call site (return address - 1) for caller frames */
    const char *function; /* symbol containing pc, or NULL when unknown */
    uint64_t offset;      /* pc - symbol start; without a function, pc's address in module's file */
    const char *file;     /* source file of pc (sampler_ptrace_add_sources), or NULL */
    int line;             /* its line, 0 when file is NULL */
    const char *module;   /* mapped file holding pc, or NULL (anonymous memory) */
    bool in_mpi_module;   /* pc lies inside a mapping of the MPI implementation */
} stack_classify_frame;

typedef enum stack_classify_verdict {
    STACK_CLASSIFY_OUT_MPI = 0, /* computing: no thread that counts is inside MPI */
    STACK_CLASSIFY_IN_MPI = 1,  /* waiting or working inside MPI */
    STACK_CLASSIFY_EXITED = 2   /* the process exited before or while it was sampled */
} stack_classify_verdict;

/* What one thread's stack says. */
typedef struct stack_classify_thread_class {
    bool in_mpi;              /* an MPI entry frame, or any frame inside an MPI mapping */
    const char *mpi_function; /* outermost MPI entry as the function table names it ("MPI_Barrier"
                               * for PMPI_Barrier, mpi_barrier_, MPI_BARRIER: static), else without
                               * a "P" profiling prefix, pointing into the frame's name; NULL if
                               * none */
} stack_classify_thread_class;

/* True for an MPI entry point frame: "MPI_"/"PMPI_" followed by a letter (MPI_Send, PMPI_Send,
 * MPI_SEND) wherever the code lies, or the same prefixes in any case (mpi_send_, Pmpi_send) when
 * the frame lies inside an MPI mapping (Fortran bindings). A lowercase name outside MPI is a user
 * function ("mpi_target_compute"), not an entry. MPIR_/MPID_/ompi_ internals are never entries. */
bool stack_classify_is_mpi_entry(const char *name, bool in_mpi_module);

/* Classifies one stack of n frames (frames may be NULL when n is 0). */
stack_classify_thread_class stack_classify_thread(const stack_classify_frame *frames, size_t n);

/* True for a thread MPI started for itself (Open MPI's libevent and PMIx threads, MPICH's UCX
 * async thread, libfabric's and PSM2's): its walk reaches the thread's start in the C library, its
 * start routine (the outermost frame outside the C library) lies in an MPI mapping, and no frame
 * is an MPI entry. Such a thread never makes its process IN_MPI (stack_classify_process). A walk
 * cut short says false. */
bool stack_classify_is_mpi_own_thread(const stack_classify_frame *frames, size_t n);

/* Combines the threads of one live process. main_index is the index of the main thread in
 * threads, or n when it was not sampled. The process is IN_MPI when the main thread is in MPI, or
 * when any other thread is in an MPI entry frame (a user thread calling MPI); a thread that is only
 * inside MPI mappings without an entry frame is one of MPI's own progress threads and does not
 * count. *mpi_function gets the main thread's MPI function, else the first counting thread's, else
 * NULL. Never returns STACK_CLASSIFY_EXITED (liveness is the caller's knowledge). */
stack_classify_verdict stack_classify_process(const stack_classify_thread_class *threads, size_t n,
                                              size_t main_index, const char **mpi_function);

#endif
