/* The checks' watchdog thread (solver_watchdog.h). */
#include "solver_watchdog.h"

#include "mg_error.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

/* How often an armed watchdog looks at the cancel flag: a signal handler cannot wake a condition
 * variable, so a stop request waits at most this long. */
enum { CANCEL_POLL_MS = 20 };

struct solver_watchdog {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t thread;
    unsigned limit_ms;
    const volatile sig_atomic_t *cancel;
    Z3_context armed; /* NULL: nothing to watch */
    struct timespec deadline;
    int fired, quit;
};

static struct timespec later(struct timespec t, unsigned ms)
{
    t.tv_sec += ms / 1000;
    t.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

static int before(struct timespec a, struct timespec b)
{
    return a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec < b.tv_nsec);
}

int solver_watchdog_cancelled(const solver_watchdog *w)
{
    return w->cancel && *w->cancel;
}

static void *watch(void *arg)
{
    solver_watchdog *w = arg;
    pthread_mutex_lock(&w->mu);
    while (!w->quit) {
        if (!w->armed) {
            pthread_cond_wait(&w->cv, &w->mu);
            continue;
        }
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((w->limit_ms && !before(now, w->deadline)) || solver_watchdog_cancelled(w)) {
            Z3_interrupt(w->armed);
            w->fired = 1;
            w->armed = NULL;
            continue;
        }
        struct timespec wake = later(now, CANCEL_POLL_MS);
        if (w->limit_ms && before(w->deadline, wake))
            wake = w->deadline;
        pthread_cond_timedwait(&w->cv, &w->mu, &wake);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

int solver_watchdog_create(unsigned limit_ms, const volatile sig_atomic_t *cancel,
                           solver_watchdog **out)
{
    *out = NULL;
    solver_watchdog *w = calloc(1, sizeof *w);
    if (!w)
        return MG_ERROR_ENOMEM;
    w->limit_ms = limit_ms;
    w->cancel = cancel;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    int bad = pthread_mutex_init(&w->mu, NULL) || pthread_cond_init(&w->cv, &ca);
    pthread_condattr_destroy(&ca);
    if (bad || pthread_create(&w->thread, NULL, watch, w)) {
        free(w);
        return MG_ERROR_ESYS;
    }
    *out = w;
    return 0;
}

void solver_watchdog_arm(solver_watchdog *w, Z3_context c)
{
    pthread_mutex_lock(&w->mu);
    clock_gettime(CLOCK_MONOTONIC, &w->deadline);
    w->deadline = later(w->deadline, w->limit_ms);
    w->armed = c;
    w->fired = 0;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

int solver_watchdog_disarm(solver_watchdog *w)
{
    pthread_mutex_lock(&w->mu);
    int fired = w->fired || solver_watchdog_cancelled(w);
    w->armed = NULL;
    w->fired = 0;
    pthread_mutex_unlock(&w->mu);
    return fired;
}

void solver_watchdog_destroy(solver_watchdog *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->mu);
    w->quit = 1;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w);
}
