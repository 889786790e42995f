/* Stopping the threads of a process with PTRACE_SEIZE + PTRACE_INTERRUPT and releasing them.
 * Spec: docs/design/hang.md "How it samples"; docs/design/platform-notes.md "ptrace and unwinding".
 * Why SEIZE: a seized tracee whose tracer dies is detached and resumed by the kernel, so the
 * sampler being killed never leaves the job stopped (PTRACE_ATTACH would leave it in a stop). */
#include "ptrace_stop.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mg_array.h"
#include "mg_error.h"

void ptrace_stop_params_default(ptrace_stop_params *p)
{
    p->timeout_ns = 2000000000;
    p->spin_ns = 50000;
    p->poll_min_ns = 10000;
    p->poll_max_ns = 1000000;
    p->discovery_rounds = 4;
}

int ptrace_stop_create(pid_t pid, const ptrace_stop_params *params, ptrace_stop **out)
{
    if (pid <= 0 || !params || !out || params->timeout_ns < 0 || params->spin_ns < 0 ||
        params->poll_min_ns <= 0 || params->poll_max_ns < params->poll_min_ns) {
        return MG_ERROR_EINVAL;
    }
    ptrace_stop *ps = calloc(1, sizeof *ps);
    if (!ps) {
        return MG_ERROR_ENOMEM;
    }
    ps->pid = pid;
    ps->params = *params;
    *out = ps;
    return MG_ERROR_OK;
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static ptrace_stop_thread *find_thread(ptrace_stop *ps, pid_t tid)
{
    for (size_t i = 0; i < ps->count; i++) {
        if (ps->threads[i].tid == tid) {
            return &ps->threads[i];
        }
    }
    return NULL;
}

static int append_thread(ptrace_stop *ps, pid_t tid, ptrace_stop_thread **out)
{
    int rc = mg_array_reserve((void **)&ps->threads, &ps->capacity, ps->count + 1,
                              sizeof *ps->threads);
    if (rc != MG_ERROR_OK) {
        return rc;
    }
    *out = &ps->threads[ps->count++];
    **out = (ptrace_stop_thread){.tid = tid, .state = PTRACE_STOP_GONE, .stop_ns = -1};
    return MG_ERROR_OK;
}

/* A thread the kernel refuses to seize may just be dying: a zombie cannot be traced. */
static bool thread_is_dead(pid_t pid, pid_t tid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/task/%d/stat", (int)pid, (int)tid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return true;
    }
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) {
        return true;
    }
    buf[n] = '\0';
    const char *paren = strrchr(buf, ')'); /* the command name may itself hold ')' */
    return !paren || paren[1] == '\0' || paren[2] == 'Z' || paren[2] == 'X';
}

/* Seizes one new thread (the interrupt comes later). The record stays GONE when the thread
 * vanished first. */
static int seize(ptrace_stop *ps, ptrace_stop_thread *t)
{
    if (ptrace(PTRACE_SEIZE, t->tid, NULL, NULL) != 0) {
        if (errno == ESRCH || (errno == EPERM && thread_is_dead(ps->pid, t->tid))) {
            return MG_ERROR_OK;
        }
        return errno == EPERM ? MG_ERROR_EPERM : MG_ERROR_ESYS;
    }
    t->state = PTRACE_STOP_SEIZED;
    t->signal = 0;
    return MG_ERROR_OK;
}

static void interrupt(ptrace_stop_thread *t, int64_t now)
{
    /* Failure means the thread is exiting; its exit is reported to us and reaped. */
    (void)ptrace(PTRACE_INTERRUPT, t->tid, NULL, NULL);
    t->waited_from = now;
    t->stop_ns = -1;
}

/* Takes a known thread into the stop begun at start: one an earlier stop interrupted is waited for
 * from this start. */
static void take(ptrace_stop_thread *t, int64_t start)
{
    t->taken = true;
    t->waited_from = t->waited_from > start ? t->waited_from : start;
}

/* Lists /proc/PID/task and seizes every thread but the main one that is not yet known and that
 * skip does not exclude, then interrupts them all in one burst, so they stop at nearly the same
 * moment (a consistent snapshot across threads). A late thread of an earlier stop that skip does
 * not exclude is taken again, waited for from start, this stop's. The interrupts are sent even when
 * a seize failed, so that every seized thread stops and can be released. *added counts the seized
 * threads. */
static int seize_new_threads(ptrace_stop *ps, bool (*skip)(pid_t, void *), void *arg, int64_t start,
                             size_t *added)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)ps->pid);
    DIR *dir = opendir(path);
    if (!dir) {
        return errno == ENOENT || errno == ESRCH ? MG_ERROR_ENOENT : MG_ERROR_ESYS;
    }
    int rc = MG_ERROR_OK;
    size_t first_new = ps->count;
    *added = 0;
    struct dirent *de;
    while (rc == MG_ERROR_OK && (de = readdir(dir)) != NULL) {
        char *end;
        long tid = strtol(de->d_name, &end, 10);
        if (*end != '\0' || tid <= 0 || tid > INT_MAX || tid == ps->pid ||
            (skip && skip((pid_t)tid, arg))) {
            continue;
        }
        ptrace_stop_thread *t = find_thread(ps, (pid_t)tid);
        if (t) {
            take(t, start);
            continue;
        }
        rc = append_thread(ps, (pid_t)tid, &t);
        if (rc == MG_ERROR_OK) {
            rc = seize(ps, t);
        }
    }
    closedir(dir);
    int64_t now = now_ns();
    for (size_t i = first_new; i < ps->count; i++) {
        ptrace_stop_thread *t = &ps->threads[i];
        t->taken = true;
        if (t->state == PTRACE_STOP_SEIZED) {
            interrupt(t, now);
            (*added)++;
        }
    }
    return rc;
}

/* Records what waitpid said about a seized thread. */
static void note_status(ptrace_stop_thread *t, int status)
{
    if (WIFEXITED(status) || WIFSIGNALED(status)) {
        t->state = PTRACE_STOP_GONE;
        return;
    }
    if (!WIFSTOPPED(status)) {
        return;
    }
    t->state = PTRACE_STOP_STOPPED;
    /* Event 0 is a signal-delivery-stop: the signal was taken from the thread and must be handed
     * back on detach. PTRACE_EVENT_STOP is our interrupt (SIGTRAP) or a group-stop (a stop
     * signal), which the kernel itself keeps in force across the detach. */
    t->signal = (status >> 16) == 0 ? WSTOPSIG(status) : 0;
}

/* Polls one seized thread without blocking. Returns true when its state changed. */
static bool poll_thread(ptrace_stop_thread *t)
{
    int status;
    pid_t r = waitpid(t->tid, &status, WNOHANG | __WALL);
    if (r == t->tid) {
        note_status(t, status);
        if (t->state == PTRACE_STOP_STOPPED && t->stop_ns < 0) {
            t->stop_ns = now_ns() - t->waited_from;
        }
        return t->state != PTRACE_STOP_SEIZED;
    }
    if (r < 0 && errno == ECHILD) { /* not our tracee any more: it exited and was reaped */
        t->state = PTRACE_STOP_GONE;
        return true;
    }
    return false;
}

static void pause_ns(int64_t ns)
{
    struct timespec ts = {(time_t)(ns / 1000000000), (long)(ns % 1000000000)};
    nanosleep(&ts, NULL);
}

/* Waits until no thread is SEIZED, of the taken ones only when only_taken. Returns 0,
 * MG_ERROR_ETIMEOUT at the deadline or MG_ERROR_ESTATE on abort. */
static int wait_seized(ptrace_stop *ps, bool only_taken, int64_t start, int64_t deadline,
                       const atomic_int *abort)
{
    int64_t pause = ps->params.poll_min_ns;
    for (;;) {
        size_t pending = 0;
        bool progressed = false;
        for (size_t i = 0; i < ps->count; i++) {
            ptrace_stop_thread *t = &ps->threads[i];
            if (t->state == PTRACE_STOP_SEIZED && (t->taken || !only_taken)) {
                progressed |= poll_thread(t);
                pending += t->state == PTRACE_STOP_SEIZED;
            }
        }
        if (pending == 0) {
            return MG_ERROR_OK;
        }
        if (abort && atomic_load(abort)) {
            return MG_ERROR_ESTATE;
        }
        int64_t now = now_ns();
        if (now >= deadline) {
            return MG_ERROR_ETIMEOUT;
        }
        if (now - start < ps->params.spin_ns) {
            continue; /* no sched_yield: on a busy machine it gives the CPU away for a tick */
        }
        pause = progressed ? ps->params.poll_min_ns : pause;
        pause_ns(pause < deadline - now ? pause : deadline - now);
        pause = pause * 2 < ps->params.poll_max_ns ? pause * 2 : ps->params.poll_max_ns;
    }
}

/* Forgets the threads that are gone, so the table holds only the living, and starts a stop: no
 * thread is taken yet. */
static void begin_stop(ptrace_stop *ps)
{
    size_t kept = 0;
    for (size_t i = 0; i < ps->count; i++) {
        if (ps->threads[i].state != PTRACE_STOP_GONE) {
            ps->threads[kept] = ps->threads[i];
            ps->threads[kept++].taken = false;
        }
    }
    ps->count = kept;
}

static bool any_in_state(const ptrace_stop *ps, ptrace_stop_state state, bool only_taken)
{
    for (size_t i = 0; i < ps->count; i++) {
        if (ps->threads[i].state == state && (ps->threads[i].taken || !only_taken)) {
            return true;
        }
    }
    return false;
}

/* Gives up on this sample without leaving anything stopped: threads already interrupted but not
 * yet seen stopped would stop right after and stay held, so they are waited for first. */
static int fail(ptrace_stop *ps, int rc)
{
    (void)ptrace_stop_settle(ps);
    return rc;
}

int ptrace_stop_main(ptrace_stop *ps, const atomic_int *abort)
{
    if (!ps) {
        return MG_ERROR_EINVAL;
    }
    begin_stop(ps);
    ptrace_stop_thread *t = find_thread(ps, ps->pid);
    int rc = t ? MG_ERROR_OK : append_thread(ps, ps->pid, &t);
    if (rc) {
        return rc;
    }
    int64_t start = now_ns();
    take(t, start);
    if (t->state == PTRACE_STOP_GONE) {
        rc = seize(ps, t);
        if (rc) {
            return fail(ps, rc);
        }
        if (t->state == PTRACE_STOP_GONE) {
            return MG_ERROR_ENOENT;
        }
        interrupt(t, start);
    }
    rc = wait_seized(ps, true, start, start + ps->params.timeout_ns, abort);
    if (rc == MG_ERROR_ESTATE) {
        return fail(ps, rc);
    }
    return t->state == PTRACE_STOP_GONE ? MG_ERROR_ENOENT : MG_ERROR_OK;
}

int ptrace_stop_others(ptrace_stop *ps, bool (*skip)(pid_t tid, void *arg), void *arg,
                       const atomic_int *abort)
{
    if (!ps) {
        return MG_ERROR_EINVAL;
    }
    begin_stop(ps);
    int64_t start = now_ns();
    int64_t deadline = start + ps->params.timeout_ns;
    for (unsigned round = 0; round <= ps->params.discovery_rounds; round++) {
        size_t added = 0;
        int rc = seize_new_threads(ps, skip, arg, start, &added);
        if (rc == MG_ERROR_ENOENT && round > 0) {
            /* the process exited meanwhile: the waits below have seen its threads go */
            return any_in_state(ps, PTRACE_STOP_STOPPED, true) ? MG_ERROR_OK : MG_ERROR_ENOENT;
        }
        if (rc) {
            return fail(ps, rc);
        }
        if (round > 0 && added == 0) {
            break;
        }
        rc = wait_seized(ps, true, start, deadline, abort);
        if (rc == MG_ERROR_ESTATE) {
            return fail(ps, rc);
        }
        if (rc == MG_ERROR_ETIMEOUT) {
            break;
        }
    }
    return MG_ERROR_OK;
}

int ptrace_stop_release(ptrace_stop *ps, unsigned *reinjected)
{
    if (!ps) {
        return MG_ERROR_EINVAL;
    }
    int rc = MG_ERROR_OK;
    unsigned count = 0;
    for (size_t i = 0; i < ps->count; i++) {
        ptrace_stop_thread *t = &ps->threads[i];
        /* A late thread of an earlier stop that did not take it again may have stopped since: it
         * would otherwise stay held until a stop takes it. */
        if (t->state == PTRACE_STOP_SEIZED && !t->taken) {
            (void)poll_thread(t);
        }
        if (t->state != PTRACE_STOP_STOPPED) {
            continue;
        }
        if (ptrace(PTRACE_DETACH, t->tid, NULL, (void *)(intptr_t)t->signal) == 0) {
            count += t->signal != 0;
            t->state = PTRACE_STOP_GONE; /* gone from our hands: listed afresh next time */
        } else if (errno == ESRCH) {
            /* Killed while stopped: it is on its way out; its exit is reaped by the next wait. */
            t->state = PTRACE_STOP_SEIZED;
            (void)poll_thread(t);
        } else {
            rc = MG_ERROR_ESYS;
        }
        t->signal = 0;
    }
    if (reinjected) {
        *reinjected += count;
    }
    return rc;
}

int ptrace_stop_release_late(ptrace_stop *ps)
{
    if (!ps) {
        return MG_ERROR_EINVAL;
    }
    for (size_t i = 0; i < ps->count; i++) {
        if (ps->threads[i].state == PTRACE_STOP_SEIZED) {
            (void)poll_thread(&ps->threads[i]);
        }
    }
    return ptrace_stop_release(ps, NULL);
}

int ptrace_stop_settle(ptrace_stop *ps)
{
    if (!ps) {
        return MG_ERROR_EINVAL;
    }
    int rc = ptrace_stop_release(ps, NULL);
    if (any_in_state(ps, PTRACE_STOP_SEIZED, false)) {
        int64_t start = now_ns();
        (void)wait_seized(ps, false, start, start + ps->params.timeout_ns, NULL);
        rc = ptrace_stop_release(ps, NULL);
    }
    return any_in_state(ps, PTRACE_STOP_SEIZED, false) ? MG_ERROR_ETIMEOUT : rc;
}

int ptrace_stop_destroy(ptrace_stop *ps)
{
    if (!ps) {
        return MG_ERROR_OK;
    }
    int rc = ptrace_stop_settle(ps);
    free(ps->threads);
    free(ps);
    return rc;
}
