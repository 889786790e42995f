/* What the parts of the concolic runtime share (docs/design/concolic.md "Runtime"): the run's
 * identity and log, the symbolic values of slots and memory, and the declarations of marked
 * variables. Not thread-safe: the runtime follows the thread that runs main (as COMPI does). */
#ifndef RT_INTERNAL_H
#define RT_INTERNAL_H

#include "path_log.h"
#include "sym_expr.h"
#include "sym_var.h"

#include <stddef.h>
#include <stdint.h>

/* A shadow value: nothing (concrete), a linear expression, or a comparison (an i1 or a
 * zero-extended i1). */
enum rt_internal_kind { RT_INTERNAL_NONE = 0, RT_INTERNAL_EXPR, RT_INTERNAL_PRED };
typedef struct rt_internal_val {
    uint8_t kind;
    sym_expr e;
    sym_expr_pred p;
} rt_internal_val;

/* 1 in the heavy executable once mgrt_init ran. */
extern int rt_log_heavy;

/* Appends one encoded record to the rank's log (nothing when there is no log). Signal-unsafe. */
void rt_log_record(const uint8_t *bytes, size_t len);
/* Records the arm (id, taken) in the coverage log the first time it is met. */
void rt_log_cover(uint32_t id, int taken);
/* Logs a branch constraint (already oriented to hold) if constraint-set reduction admits it. */
void rt_log_branch(uint32_t id, int taken, const sym_expr_pred *pred);

/* Declares a new marked variable (the next dense id), logs it, and returns its id through *id.
 * MG_ERROR_ENOMEM or MG_ERROR_EFULL when it cannot be logged (the variable then stays concrete). */
int rt_log_declare_var(uint8_t kind, int has_cap, int64_t cap, uint32_t comm, int64_t value,
                       uint32_t *id);
/* Declares a communicator with its local-to-global map (copied), returns its index. The same
 * key (the communicator handle) gives the same index. */
int rt_log_declare_comm(uint64_t key, uint32_t size, const uint32_t *global, uint32_t *index);
/* The bytes [a, a + len) lose their symbolic values (something outside the program's own
 * stores wrote them: an MPI call, rt_mpi_write.c). */
void rt_shadow_forget(uintptr_t a, size_t len);
/* The symbolic value of the `size`-byte number at p becomes variable `var` (an integer
 * expression, or a float one when is_float). */
void rt_shadow_mark(const void *p, unsigned size, uint32_t var, int is_float);

/* Logs when this rank ended (the first call only): at MPI_Finalize, exit or a fatal signal.
 * Async-signal-safe. */
void rt_log_ended(void);

/* Outcome records for the driver (rank-<r>.outcome). */
void rt_log_outcome_mpi_abort(int code);
/* The first signed integer overflow of this rank (rank-<r>.overflow: its file:line); the later
 * ones are not written. */
void rt_log_outcome_overflow(const char *site);

#endif
