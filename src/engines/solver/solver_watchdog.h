/* Internal to src/engines/solver: no other folder includes it (docs/architecture.md). */
/* A wall-clock limit and a cancel flag for Z3 checks, kept by a thread of the front end's own that
 * calls Z3_interrupt, rather than Z3's "timeout" parameter, whose timer thread pool can deadlock
 * in Z3 4.8.10-4.8.12 (solver_z3.h). One watchdog serves one solver, one check at a time. */
#ifndef SOLVER_WATCHDOG_H
#define SOLVER_WATCHDOG_H

#include <signal.h>
#include <z3.h>

typedef struct solver_watchdog solver_watchdog;

/* limit_ms: the longest a check may run (0: no limit); cancel: a flag that stops the check in
 * progress as soon as it becomes non-zero (a signal handler sets it), NULL for none.
 * MG_ERROR_ENOMEM, MG_ERROR_ESYS (no thread). */
int solver_watchdog_create(unsigned limit_ms, const volatile sig_atomic_t *cancel,
                           solver_watchdog **out);
/* Watches c from now until the disarm. */
void solver_watchdog_arm(solver_watchdog *w, Z3_context c);
/* Stops watching; 1 when the watchdog interrupted the check meanwhile (or the cancel flag was
 * already set), else 0. No interrupt reaches c after it returns. */
int solver_watchdog_disarm(solver_watchdog *w);
/* 1 when the cancel flag is set. */
int solver_watchdog_cancelled(const solver_watchdog *w);
/* Stops the thread and frees the watchdog. NULL is ignored. */
void solver_watchdog_destroy(solver_watchdog *w);

#endif
