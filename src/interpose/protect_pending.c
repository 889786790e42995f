/* Blocks kept until their nonblocking call completes; see protect_pending.h. A completion call
 * (MPI_Wait, MPI_Testsome, ...) sets every request it completed to MPI_REQUEST_NULL (a nonblocking
 * collective's request is never persistent, and MPI forbids MPI_Request_free and MPI_Cancel on
 * it): the observer notes, on entry, which of the given requests are kept, and frees the blocks
 * of those whose slot is MPI_REQUEST_NULL on exit. While nothing is kept an observer costs one
 * atomic load on entry and one thread-local load on exit: `mpiguard run` puts these observers on
 * every MPI_Test of the application (bench/apps/cost_bound.sh). */
#include "protect_pending.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "interpose_hooks.h"
#include "interpose_log.h"

typedef struct kept {
    MPI_Request request;
    void *block;
    struct kept *next;
} kept;

static kept *list;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int nkept;

/* The kept requests the calling thread's completion call was given (noted on entry). A call given
 * more than NOTED_MAX of them frees the others' blocks at a later call or at MPI_Finalize. nnoted
 * is 0 between calls (release resets it), so a call made while nothing is kept need not touch it
 * on entry. Initial-exec TLS: the default model of a shared library calls __tls_get_addr on every
 * access, which cost MPI_Test under `mpiguard run` ~10 ns. */
enum { NOTED_MAX = 16 };
static _Thread_local struct {
    MPI_Request *slot;
    MPI_Request request;
} noted[NOTED_MAX] INTERPOSE_HOOKS_TLS_FAST;
static _Thread_local int nnoted INTERPOSE_HOOKS_TLS_FAST;

void protect_pending_keep(MPI_Request request, void *block)
{
    kept *k = malloc(sizeof *k);
    if (!k)
        return; /* never freed: MPI may still read it */
    k->request = request;
    k->block = block;
    pthread_mutex_lock(&lock);
    k->next = list;
    list = k;
    atomic_fetch_add_explicit(&nkept, 1, memory_order_release);
    pthread_mutex_unlock(&lock);
}

/* On entry, while some request is kept: which of slots[0..n) hold kept requests. Kept out of note
 * (noinline), so that the test most calls stop at sets up no frame. */
static __attribute__((noinline)) void note_kept(MPI_Request *slots, int n)
{
    nnoted = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < n && nnoted < NOTED_MAX; i++)
        for (kept *k = list; k && slots[i] != MPI_REQUEST_NULL; k = k->next)
            if (k->request == slots[i]) {
                noted[nnoted].slot = &slots[i];
                noted[nnoted++].request = slots[i];
                break;
            }
    pthread_mutex_unlock(&lock);
}

/* On entry: which of slots[0..n) hold kept requests. */
static inline void note(MPI_Request *slots, int n)
{
    if (atomic_load_explicit(&nkept, memory_order_acquire) != 0 && slots)
        note_kept(slots, n);
}

/* On exit: frees the blocks of the noted requests that completed. */
static void release(void)
{
    if (!nnoted)
        return;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < nnoted; i++) {
        if (*noted[i].slot != MPI_REQUEST_NULL)
            continue;
        for (kept **p = &list; *p; p = &(*p)->next)
            if ((*p)->request == noted[i].request) {
                kept *done = *p;
                *p = done->next;
                free(done->block);
                free(done);
                atomic_fetch_sub_explicit(&nkept, 1, memory_order_release);
                break;
            }
    }
    pthread_mutex_unlock(&lock);
    nnoted = 0;
}

#define ON(phase, slots, n) ((phase) == INTERPOSE_HOOKS_CALL_ENTER ? note((slots), (n)) : release())

static void obs_Wait(int phase, int rc, MPI_Request *request, MPI_Status *status)
{
    (void)rc, (void)status;
    ON(phase, request, 1);
}

static void obs_Waitall(int phase, int rc, int count, MPI_Request reqs[], MPI_Status statuses[])
{
    (void)rc, (void)statuses;
    ON(phase, reqs, count);
}

static void obs_Waitany(int phase, int rc, int count, MPI_Request reqs[], int *indx,
                        MPI_Status *status)
{
    (void)rc, (void)indx, (void)status;
    ON(phase, reqs, count);
}

static void obs_Waitsome(int phase, int rc, int incount, MPI_Request reqs[], int *outcount,
                         int indices[], MPI_Status statuses[])
{
    (void)rc, (void)outcount, (void)indices, (void)statuses;
    ON(phase, reqs, incount);
}

static void obs_Test(int phase, int rc, MPI_Request *request, int *flag, MPI_Status *status)
{
    (void)rc, (void)flag, (void)status;
    ON(phase, request, 1);
}

static void obs_Testall(int phase, int rc, int count, MPI_Request reqs[], int *flag,
                        MPI_Status statuses[])
{
    (void)rc, (void)flag, (void)statuses;
    ON(phase, reqs, count);
}

static void obs_Testany(int phase, int rc, int count, MPI_Request reqs[], int *indx, int *flag,
                        MPI_Status *status)
{
    (void)rc, (void)indx, (void)flag, (void)status;
    ON(phase, reqs, count);
}

static void obs_Testsome(int phase, int rc, int incount, MPI_Request reqs[], int *outcount,
                         int indices[], MPI_Status statuses[])
{
    (void)rc, (void)outcount, (void)indices, (void)statuses;
    ON(phase, reqs, incount);
}

#define EACH_OBSERVER(X)                                                                           \
    X(Wait) X(Waitall) X(Waitany) X(Waitsome) X(Test) X(Testall) X(Testany) X(Testsome)

void protect_pending_setup(void)
{
#define INSTALL(Name)                                                                              \
    if (!mg_observe_##Name)                                                                        \
        mg_observe_##Name = obs_##Name;
    EACH_OBSERVER(INSTALL)
#undef INSTALL
}

void protect_pending_finalize(void)
{
#define REMOVE(Name)                                                                               \
    if (mg_observe_##Name == obs_##Name)                                                           \
        mg_observe_##Name = NULL;
    EACH_OBSERVER(REMOVE)
#undef REMOVE
    pthread_mutex_lock(&lock);
    int left = 0;
    for (; list; left++) {
        kept *k = list;
        list = k->next;
        free(k->block);
        free(k);
    }
    atomic_store(&nkept, 0);
    pthread_mutex_unlock(&lock);
    if (left) { /* MPI wants them complete by now: their completion went by unseen */
        char text[32];
        snprintf(text, sizeof text, "%d", left);
        interpose_log("protect: arrays of nonblocking calls kept until MPI_Finalize (their "
                      "completion was not seen): ",
                      text);
    }
}
