/* Stopping the threads of a process with PTRACE_SEIZE + PTRACE_INTERRUPT (the main thread alone,
 * or the others) and letting them go again, re-injecting the signals that arrived meanwhile. Spec:
 * docs/design/hang.md "How it samples" (a process is never left stopped) and
 * docs/design/platform-notes.md "ptrace and unwinding". */
#ifndef PTRACE_STOP_H
#define PTRACE_STOP_H

#include <stdatomic.h>
#include <stdbool.h>
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
    bool taken; /* taken by the latest ptrace_stop_main or ptrace_stop_others */
    int64_t waited_from; /* CLOCK_MONOTONIC ns since which the latest stop that took it waits
                          * for it: its interrupt, or that stop's start for a late thread an
                          * earlier stop interrupted (whose wait before is no part of this stop) */
    int64_t stop_ns;     /* from waited_from until it was seen stopped (the wait for a CPU, on a
                          * loaded node); -1 while it was not */
} ptrace_stop_thread;

typedef struct ptrace_stop_params {
    int64_t timeout_ns;  /* how long a stop waits for its threads to stop */
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

/* Creates the state for process pid; attaches nothing yet. Returns MG_ERROR_EINVAL or
 * MG_ERROR_ENOMEM. */
int ptrace_stop_create(pid_t pid, const ptrace_stop_params *params, ptrace_stop **out);

/* Seizes and interrupts the main thread (tid == pid) alone and waits until it is stopped or gone;
 * the other threads run on. A main thread still running at the timeout stays SEIZED (waited for
 * again by the next call, by release and destroy). Returns 0 (STOPPED, or late), MG_ERROR_ENOENT
 * when the main thread is gone (the process exited, or its main thread did), MG_ERROR_EPERM when
 * the kernel refuses to trace it, MG_ERROR_ESTATE when *abort became non-zero (abort may be NULL),
 * MG_ERROR_ENOMEM or MG_ERROR_ESYS; on failure the thread has been waited for (up to the timeout)
 * and released. Not thread-safe; must run in the thread that will release (ptrace binds a tracee to
 * its tracer thread). */
int ptrace_stop_main(ptrace_stop *ps, const atomic_int *abort);

/* Seizes and interrupts, in one burst (so they stop at nearly the same moment), every thread but
 * the main one listed in /proc/PID/task for which skip(tid, arg) is false (skip may be NULL), then
 * waits until each is stopped or gone, listing the task directory again for threads created
 * meanwhile. Late threads as for ptrace_stop_main. Returns 0 (also when no thread was taken),
 * MG_ERROR_ENOENT when the process has exited, and the other errors of ptrace_stop_main, with the
 * same guarantees. */
int ptrace_stop_others(ptrace_stop *ps, bool (*skip)(pid_t tid, void *arg), void *arg,
                       const atomic_int *abort);

/* Detaches every STOPPED thread, and every late one that has stopped since, delivering its caught
 * signal again (a group-stop is kept by the kernel itself), and reaps the threads that died while
 * stopped. Late threads still running stay attached. Adds
 * the number of re-injected signals to *reinjected (may be NULL). Returns 0 or MG_ERROR_ESYS when a
 * detach failed for another reason than the thread's death. */
int ptrace_stop_release(ptrace_stop *ps, unsigned *reinjected);

/* Detaches every late (SEIZED) thread that has stopped since, without waiting for the others:
 * until then it would sit in a ptrace-stop that /proc shows as a stop (state t). Returns as
 * ptrace_stop_release. */
int ptrace_stop_release_late(ptrace_stop *ps);

/* Waits up to the timeout for the late (SEIZED) threads: those that stop are detached, those that
 * exit are reaped (a traced thread that exits stays a zombie until its tracer reaps it, and keeps
 * the real parent from reaping the process). Returns MG_ERROR_ETIMEOUT when some are still running.
 */
int ptrace_stop_settle(ptrace_stop *ps);

/* Releases everything, waiting up to the timeout for late threads to stop so they can be
 * detached, and frees ps (NULL is accepted). Returns MG_ERROR_ETIMEOUT when a thread could still
 * not be detached (the kernel detaches it when this process exits), else 0. */
int ptrace_stop_destroy(ptrace_stop *ps);

#endif
