/* Unwinding the stacks of a ptrace-stopped process with elfutils libdwfl, through our own thread
 * callbacks (our PTRACE_SEIZE, PTRACE_GETREGS, reads of /proc/PID/mem through a page cache), with
 * the modules, their CFI and the symbol names kept across samples. Spec:
 * docs/design/platform-notes.md "ptrace and unwinding"; why libdwfl and not libunwind-ptrace:
 * docs/sampler.md "Unwinder". */
#ifndef STACK_UNWIND_H
#define STACK_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "symbol_cache.h"

typedef struct stack_unwind stack_unwind;

typedef struct stack_unwind_params {
    size_t page_cache_pages;    /* target memory pages kept during one sample (stack reads) */
    size_t name_cache_capacity; /* addresses whose symbol is remembered across samples */
} stack_unwind_params;

/* Defaults: 32 pages, 16384 names. */
void stack_unwind_params_default(stack_unwind_params *p);

/* Prepares to unwind process pid: reports its mapped files to libdwfl (read from /proc/PID/maps)
 * and opens /proc/PID/mem. Nothing is attached or stopped. Returns MG_ERROR_EINVAL (bad arguments,
 * a page cache larger than the address space), MG_ERROR_ENOENT (no such process), MG_ERROR_EPERM
 * (the kernel refuses access to its memory), MG_ERROR_ENOMEM, or MG_ERROR_EUNSUPPORTED (libdwfl
 * found no usable module, e.g. an architecture it does not know). Not thread-safe. */
int stack_unwind_open(pid_t pid, const stack_unwind_params *params, stack_unwind **out);

/* Starts a sample: memory read during earlier samples is forgotten (the process has run since). */
void stack_unwind_begin_sample(stack_unwind *u);

/* Where a frame keeps its locals, as the unwinder restored its registers. */
typedef struct stack_unwind_locals {
    uint64_t sp;   /* its stack pointer, 0 when unknown: its locals lie from there up to the next
                      frame's */
    uint64_t kept; /* a digest of the callee-saved registers it sees (rbx, rbp, r12-r15 on x86-64),
                      the locals a compiler keeps across calls */
} stack_unwind_locals;

/* Unwinds thread tid, which must be in a ptrace-stop traced by the calling thread, into pcs[0..max)
 * (innermost first; caller frames hold return address - 1, the call site), and signal_frames[k]
 * says whether frame k is a signal trampoline (a handler runs in the frames inside it; the walk
 * goes on from the registers it saved, with or without its unwind information); locals[k] gets
 * frame k's. *n gets the number of frames. Returns 0 (even for a stack cut short by unknown unwind
 * data: the frames found are kept), or MG_ERROR_ENOENT when the thread's registers cannot be read
 * (it died). */
int stack_unwind_thread(stack_unwind *u, pid_t tid, uint64_t *pcs, bool *signal_frames,
                        stack_unwind_locals *locals, size_t max, size_t *n);

/* What people read of pc: the symbol holding it (.symtab, else .dynsym, also from a separate
 * debug file) and pc's offset in it, and with_source, the source file and line where debug
 * information exists (loading a module's line tables costs tens of ms once, and its lines are
 * shared with every other process unwound here that maps the same object: samplers that only
 * classify leave it out). `called` is the MPI function ("MPI_Send") a frame at pc calls, or NULL:
 * a Fortran call the line table gave its procedure's line gets its statement's line from the
 * source, and any Fortran frame on a statement written over several lines its first line
 * (fortran_source_site_line). The line is kept by pc and `called` (which must live as long as u):
 * a lookup naming another function, or none, gets its own.
 * A symbol is named only when pc lies inside it: a stripped object's nearest exported symbol is
 * not taken for the static function that really holds pc. Without a name, offset is pc's address
 * in its object's file (what addr2line takes), or 0 in anonymous memory. Answers come from the
 * cache when pc was seen before. The strings live until stack_unwind_close (they point into
 * libdwfl's copies of the module's tables). */
void stack_unwind_symbol(stack_unwind *u, uint64_t pc, bool with_source, const char *called,
                         symbol_cache_info *info);

/* The address in the process of the data object `name`, looked up in the modules whose file name
 * starts with module_prefix; 0 when none defines it. Reads the modules' symbol tables, not the
 * process: no stop is needed. */
uint64_t stack_unwind_find_object(stack_unwind *u, const char *module_prefix, const char *name);

/* Reads len bytes of the process's memory at addr now, bypassing the sample's page cache; false
 * when they cannot be read (unmapped, or the process is gone). */
bool stack_unwind_read(stack_unwind *u, uint64_t addr, void *buf, size_t len);

/* Frees everything; NULL is accepted. */
void stack_unwind_close(stack_unwind *u);

#endif
