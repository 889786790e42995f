/* Stopping every thread of a process with PTRACE_SEIZE + PTRACE_INTERRUPT and letting them go
 * again, re-injecting the signals that arrived meanwhile. Spec: docs/design/hang.md "How it
 * samples" (a process is never left stopped) and docs/design/platform-notes.md "ptrace and
 * unwinding". */
#ifndef PTRACE_STOP_H
#define PTRACE_STOP_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef enum ptrace_stop_state {
    PTRACE_STOP_SEIZED = 0, /* attached and interrupted but not seen stopped yet ("late") */
    PTRACE_STOP_STOPPED,    /* in a ptrace-stop: registers and memory may be read */
    PTRACE_STOP_GONE        /* not attached: exited, vanished, or already released */
} ptrace_stop_state;

typedef struct ptrace_stop_thread {
    pid_t tid;
    ptrace_stop_state state;
    int signal; /* signal caught in a signal-delivery-stop, delivered again on release; 0 if none */
} ptrace_stop_thread;

typedef struct ptrace_stop_params {
    int64_t timeout_ns;  /* how long ptrace_stop_all waits for the threads to stop */
    int64_t spin_ns;     /* first poll without pausing (a running thread stops within µs) */
    int64_t poll_min_ns; /* then pause between waitpid polls; doubles up to poll_max_ns */
    int64_t poll_max_ns;
    unsigned discovery_rounds; /* times /proc/PID/task is listed again for threads born meanwhile */
} ptrace_stop_params;

/* Defaults: timeout 2 s, spin 50 us, pauses 10 us doubling to 1 ms, 4 discovery rounds. */
void ptrace_stop_params_default(ptrace_stop_params *p);

/* The threads of one process and their ptrace state. The fields are read-only for callers. */
typedef struct ptrace_stop {
    pid_t pid;
    ptrace_stop_params params;
    ptrace_stop_thread *threads; /* in /proc/PID/task order; owned */
    size_t count, capacity;
} ptrace_stop;

/* Creates the state for process pid; attaches nothing yet. Returns MG_EINVAL or MG_ENOMEM. */
int ptrace_stop_create(pid_t pid, const ptrace_stop_params *params, ptrace_stop **out);

/* Seizes and interrupts every thread listed in /proc/PID/task, then waits until each is stopped
 * or gone, listing the task directory again for threads created meanwhile. Threads still running
 * at the timeout stay SEIZED (they are waited for again by the next call, by release and destroy).
 * Returns 0 (at least one thread STOPPED or some late), MG_ENOENT when the process has exited or
 * has no thread left, MG_EPERM when the kernel refuses to trace it (another tracer, permissions),
 * MG_ESTATE when *abort became non-zero (abort may be NULL), MG_ENOMEM or MG_ESYS. On every
 * failure every thread seized so far has been waited for (up to the timeout) and released. Not
 * thread-safe; must run in the thread that will release (ptrace binds a tracee to its tracer
 * thread). */
int ptrace_stop_all(ptrace_stop *ps, const atomic_int *abort);

/* Detaches every STOPPED thread, delivering its caught signal again (a group-stop is kept by the
 * kernel itself), and reaps the threads that died while stopped. Late threads stay attached. Adds
 * the number of re-injected signals to *reinjected (may be NULL). Returns 0 or MG_ESYS when a
 * detach failed for another reason than the thread's death. */
int ptrace_stop_release(ptrace_stop *ps, unsigned *reinjected);

/* Waits up to the timeout for the late (SEIZED) threads: those that stop are detached, those that
 * exit are reaped (a traced thread that exits stays a zombie until its tracer reaps it, and keeps
 * the real parent from reaping the process). Returns MG_ETIMEOUT when some are still running. */
int ptrace_stop_settle(ptrace_stop *ps);

/* Releases everything, waiting up to the timeout for late threads to stop so they can be
 * detached, and frees ps (NULL is accepted). Returns MG_ETIMEOUT when a thread could still not be
 * detached (the kernel detaches it when this process exits), else 0. */
int ptrace_stop_destroy(ptrace_stop *ps);

#endif
