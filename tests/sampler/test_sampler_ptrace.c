/* The ptrace sampler on real (non-MPI) processes forked by this test: stacks and names, the
 * progress-thread rule, threads that come and go or cannot stop, a library loaded later, exits
 * mid-sample, signals arriving while stopped, a sampler that is killed or aborted mid-sample, and
 * refusals. Spec: docs/sampler.md "Guarantees". */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fake_mpi_lib.h"
#include "mg_error.h"
#include "mg_test.h"
#include "sampler_ptrace.h"

/* Counters shared with the forked targets (MAP_SHARED before fork). */
typedef struct shared {
    atomic_ullong progress;
    atomic_int ready;
    atomic_int usr1;
    atomic_int rt;
    atomic_int churned;
    atomic_int sent; /* real-time signals queued by the sender */
    atomic_int stop_sender;
    atomic_int after_vfork; /* the main thread came back from vfork */
    atomic_int go_dlopen;   /* tells the dlopen target to load its library */
    atomic_int in_dlopened; /* the dlopen target is about to loop inside the library */
    atomic_int helper_exit; /* tells the exiting helper thread to return */
    atomic_int helper_gone; /* the hook saw it gone while the main thread was held */
    atomic_int main_exit;   /* tells the main thread of TARGET_MAIN_EXITS to pthread_exit */
} shared;

static shared *sh;

enum {
    VFORK_CHILD_MS = 700,   /* how long the late test's main thread stays in vfork */
    LATE_TIMEOUT_MS = 200,  /* the late test's stop timeout */
    STATE_WAIT_MS = 3000,   /* how long a target may take to change state or make progress */
    REINJECT_WANTED = 3,    /* signal-delivery-stops the queued-signal test wants to see */
    REINJECT_BUDGET_S = 60, /* ... within this time (one per 10-200 samples is typical) */
    CHURN_SAMPLES = 300,    /* samples of the thread-churning target, at least */
    CHURN_BUDGET_S = 20
};

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

/* The process state letter of /proc/PID/stat ('R', 'S', 't', 'T', 'Z'), or '?' when gone. */
static char proc_state(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        return '?';
    }
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    buf[n > 0 ? n : 0] = '\0';
    const char *p = strrchr(buf, ')');
    return p && p[1] && p[2] ? p[2] : '?';
}

/* Waits until the state is (want_stopped ? 'T' : running or sleeping). */
static bool wait_state(pid_t pid, bool want_stopped)
{
    for (int i = 0; i < STATE_WAIT_MS; i++) {
        char st = proc_state(pid);
        if (want_stopped ? st == 'T' : (st == 'R' || st == 'S')) {
            return true;
        }
        sleep_ms(1);
    }
    return false;
}

static bool wait_count(atomic_int *counter, int want)
{
    for (int i = 0; i < STATE_WAIT_MS && atomic_load(counter) < want; i++) {
        sleep_ms(1);
    }
    return atomic_load(counter) == want;
}

/* True when the target's progress counter moves within a few seconds. */
static bool makes_progress(void)
{
    unsigned long long before = atomic_load(&sh->progress);
    for (int i = 0; i < STATE_WAIT_MS; i++) {
        if (atomic_load(&sh->progress) > before + 1000) {
            return true;
        }
        sleep_ms(1);
    }
    return false;
}

__attribute__((noinline, noclone)) void target_spin_compute(void)
{
    for (;;) {
        atomic_fetch_add_explicit(&sh->progress, 1, memory_order_relaxed);
    }
}

/* Named like an MPI entry so the classifier takes a user thread calling it as "in MPI". */
__attribute__((noinline, noclone)) void MPI_Fake_wait(void)
{
    for (;;) {
        __asm__ volatile("" ::: "memory");
    }
}

static void *fake_mpi_thread(void *arg)
{
    (void)arg;
    MPI_Fake_wait();
    return NULL;
}

static void *pause_thread(void *arg)
{
    (void)arg;
    for (;;) {
        pause();
    }
    return NULL;
}

static void *progress_thread(void *arg)
{
    (void)arg;
    fake_mpi_progress();
    return NULL;
}

static void *short_thread(void *arg)
{
    (void)arg;
    atomic_fetch_add(&sh->churned, 1);
    return NULL;
}

static void *churn_thread(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_t t;
        if (pthread_create(&t, NULL, short_thread, NULL) == 0) {
            pthread_join(t, NULL);
        }
    }
    return NULL;
}

static void on_usr1(int sig)
{
    (void)sig;
    atomic_fetch_add(&sh->usr1, 1);
}

static void on_rt(int sig)
{
    (void)sig;
    atomic_fetch_add(&sh->rt, 1);
}

typedef enum target_kind {
    TARGET_SPIN,          /* main thread spins in target_spin_compute */
    TARGET_SPIN_PAUSER,   /* plus a thread blocked in pause() */
    TARGET_PROGRESS,      /* main spins, a helper loops in the fake MPI library */
    TARGET_MAIN_IN_LIB,   /* main loops in the fake MPI library, a helper spins */
    TARGET_FAKE_MPI,      /* main spins, a helper thread is in MPI_Fake_wait */
    TARGET_CHURN,         /* main spins, a helper creates and joins threads without end */
    TARGET_EXIT_SOON,     /* three threads, the process exits after 300 ms */
    TARGET_VFORK,         /* a helper spins, main waits in vfork (uninterruptible) for 700 ms */
    TARGET_DLOPEN,        /* main spins until told, then loads a library and loops inside it */
    TARGET_MPI_THREAD,    /* main spins, a thread started by the fake MPI library loops in it */
    TARGET_EXITER,        /* main spins, a helper returns when told */
    TARGET_MAIN_IN_ENTRY, /* main waits in MPI_Fake_wait, a helper spins */
    TARGET_MAIN_IN_ENTRY_EXITER, /* main waits in MPI_Fake_wait, a helper returns when told */
    TARGET_MAIN_EXITS /* a thread started by the fake MPI library loops in it, main computes
                         until told, then ends with pthread_exit */
} target_kind;

static void *spin_thread(void *arg)
{
    (void)arg;
    target_spin_compute();
    return NULL;
}

static void *exiting_thread(void *arg)
{
    (void)arg;
    while (!atomic_load(&sh->helper_exit)) {
        sleep_ms(1);
    }
    return NULL;
}

static void start_helper(void *(*fn)(void *))
{
    pthread_t t;
    if (pthread_create(&t, NULL, fn, NULL) != 0) {
        _exit(3);
    }
}

static void *exit_timer(void *arg)
{
    (void)arg;
    sleep_ms(300);
    _exit(0);
}

/* The parent of vfork sleeps killable until the child exits: PTRACE_INTERRUPT cannot stop it. */
static void run_vfork(void)
{
    pid_t child = vfork();
    if (child == 0) {
        struct timespec ts = {0, VFORK_CHILD_MS * 1000000L};
        syscall(SYS_nanosleep, &ts, NULL);
        _exit(0);
    }
    waitpid(child, NULL, 0);
    atomic_store(&sh->after_vfork, 1);
    for (;;) {
        pause();
    }
}

__attribute__((noinline)) static void run_dlopen(void)
{
    while (!atomic_load(&sh->go_dlopen)) {
        atomic_fetch_add_explicit(&sh->progress, 1, memory_order_relaxed);
    }
    void *lib = dlopen(SAMPLER_DLOPEN_LIB, RTLD_NOW);
    void (*spin)(void) = lib ? (void (*)(void))dlsym(lib, "dlopened_spin") : NULL;
    if (!spin) {
        _exit(6);
    }
    atomic_store(&sh->in_dlopened, 1);
    spin();
}

static void run_target(target_kind kind)
{
    signal(SIGUSR1, on_usr1);
    struct sigaction sa = {.sa_handler = on_rt};
    sigaction(SIGRTMIN, &sa, NULL);
    switch (kind) {
    case TARGET_SPIN:
        break;
    case TARGET_SPIN_PAUSER:
        start_helper(pause_thread);
        break;
    case TARGET_PROGRESS:
        start_helper(progress_thread);
        break;
    case TARGET_MAIN_IN_LIB:
        start_helper(spin_thread);
        atomic_store(&sh->ready, 1);
        fake_mpi_progress();
        break;
    case TARGET_FAKE_MPI:
        start_helper(fake_mpi_thread);
        break;
    case TARGET_CHURN:
        start_helper(churn_thread);
        break;
    case TARGET_EXIT_SOON:
        start_helper(pause_thread);
        start_helper(exit_timer);
        break;
    case TARGET_VFORK:
        start_helper(spin_thread);
        atomic_store(&sh->ready, 1);
        run_vfork();
        break;
    case TARGET_DLOPEN:
        atomic_store(&sh->ready, 1);
        run_dlopen();
        break;
    case TARGET_MPI_THREAD:
        start_helper(fake_mpi_thread_main);
        break;
    case TARGET_EXITER:
        start_helper(exiting_thread);
        break;
    case TARGET_MAIN_IN_ENTRY:
    case TARGET_MAIN_IN_ENTRY_EXITER:
        start_helper(kind == TARGET_MAIN_IN_ENTRY ? spin_thread : exiting_thread);
        atomic_store(&sh->ready, 1);
        MPI_Fake_wait();
        break;
    case TARGET_MAIN_EXITS:
        start_helper(fake_mpi_thread_main);
        atomic_store(&sh->ready, 1);
        while (!atomic_load(&sh->main_exit)) {
            atomic_fetch_add_explicit(&sh->progress, 1, memory_order_relaxed);
        }
        pthread_exit(NULL);
    }
    atomic_store(&sh->ready, 1);
    target_spin_compute();
}

/* fork() whose child dies with this test, so no spinning target outlives a crash. */
static pid_t fork_tied(void)
{
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0 && (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)) {
        _exit(7);
    }
    return pid;
}

static pid_t spawn(target_kind kind)
{
    atomic_store(&sh->ready, 0);
    atomic_store(&sh->usr1, 0);
    atomic_store(&sh->rt, 0);
    atomic_store(&sh->after_vfork, 0);
    atomic_store(&sh->go_dlopen, 0);
    atomic_store(&sh->in_dlopened, 0);
    atomic_store(&sh->helper_exit, 0);
    atomic_store(&sh->main_exit, 0);
    pid_t pid = fork_tied();
    if (pid == 0) {
        run_target(kind);
        _exit(0);
    }
    while (!atomic_load(&sh->ready)) {
        sleep_ms(1);
    }
    sleep_ms(20); /* let the helper threads reach their loops */
    return pid;
}

static void reap(pid_t pid)
{
    kill(pid, SIGKILL);
    while (waitpid(pid, NULL, __WALL) < 0 && errno == EINTR) {
    }
}

static sampler_ptrace *open_default(pid_t pid)
{
    sampler_ptrace_params p;
    sampler_ptrace_params_default(&p);
    sampler_ptrace *s = NULL;
    MG_CHECK_INT(sampler_ptrace_open(pid, &p, &s), MG_ERROR_OK);
    return s;
}

static pid_t other_thread(pid_t pid);

static bool has_frame(const sampler_ptrace_thread *t, const char *name)
{
    for (size_t i = 0; i < t->nframes; i++) {
        if (t->frames[i].function && strcmp(t->frames[i].function, name) == 0) {
            return true;
        }
    }
    return false;
}

/* A computing process, and one whose main thread waits in a named MPI call while another thread
 * computes: each sample stops the main thread alone (the computing thread of the second is never
 * stopped) and names the place. */
static void test_main_thread_answers_alone(void)
{
    const target_kind kinds[2] = {TARGET_SPIN, TARGET_MAIN_IN_ENTRY};
    const char *const innermost[2] = {"target_spin_compute", "MPI_Fake_wait"};
    for (int k = 0; k < 2; k++) {
        pid_t pid = spawn(kinds[k]);
        sampler_ptrace *s = open_default(pid);
        for (int i = 0; s && i < 20; i++) {
            const sampler_ptrace_result *sm = NULL;
            MG_CHECK_INT(sampler_ptrace_sample(s, &sm), MG_ERROR_OK);
            if (!sm) {
                break;
            }
            MG_CHECK_INT(sm->verdict, k == 0 ? STACK_CLASSIFY_OUT_MPI : STACK_CLASSIFY_IN_MPI);
            MG_CHECK(k == 0 ? sm->mpi_function == NULL
                            : sm->mpi_function && strcmp(sm->mpi_function, "MPI_Fake_wait") == 0);
            MG_CHECK_INT(sm->nthreads, 1);
            MG_CHECK_INT(sm->threads[0].tid, pid);
            MG_CHECK_INT(sm->threads[0].state, SAMPLER_PTRACE_THREAD_SAMPLED);
            MG_CHECK_STR(sm->threads[0].frames[0].function, innermost[k]);
            MG_CHECK(has_frame(&sm->threads[0], "main"));
            MG_CHECK(strstr(sm->threads[0].frames[0].module, "test_sampler_ptrace") != NULL);
            MG_CHECK(!sm->threads[0].frames[0].in_mpi_module);
            MG_CHECK(sm->held_ns > 0 && sm->held_ns <= sm->total_ns);
            MG_CHECK(sm->threads[0].stop_ns >= 0 && sm->threads[0].stop_ns <= sm->stop_ns);
        }
        MG_CHECK_INT(sampler_ptrace_close(s), MG_ERROR_OK);
        MG_CHECK(proc_state(pid) == 'R' || proc_state(pid) == 'S');
        MG_CHECK(makes_progress());
        reap(pid);
    }
}

/* A thread looping inside the "MPI library" without an MPI entry frame is like an MPI progress
 * thread: it must not make the process IN_MPI; the main thread there must (and, naming no call,
 * leaves the others to be sampled too: one of them might). */
static void test_progress_threads_do_not_count_but_main_thread_does(void)
{
    static const char *const fake_mpi[] = {"libmg_sampler_fake_mpi", NULL};
    sampler_ptrace_params p;
    sampler_ptrace_params_default(&p);
    p.mpi_library_prefixes = fake_mpi;
    const target_kind kinds[2] = {TARGET_PROGRESS, TARGET_MAIN_IN_LIB};
    const stack_classify_verdict expected[2] = {STACK_CLASSIFY_OUT_MPI, STACK_CLASSIFY_IN_MPI};
    for (int k = 0; k < 2; k++) {
        pid_t pid = spawn(kinds[k]);
        sampler_ptrace *s = NULL;
        const sampler_ptrace_result *sm = NULL;
        MG_CHECK_INT(sampler_ptrace_open(pid, &p, &s), MG_ERROR_OK);
        MG_CHECK_INT(sampler_ptrace_sample(s, &sm), MG_ERROR_OK);
        if (sm) {
            MG_CHECK_INT(sm->nthreads, 2);
            MG_CHECK_INT(sm->verdict, expected[k]);
            MG_CHECK(sm->mpi_function == NULL);
            MG_CHECK_INT(sm->threads[0].tid, pid);
            MG_CHECK_INT(sm->threads[0].in_mpi, k == 1);
            MG_CHECK_INT(sm->threads[1].in_mpi, k == 0);
            const sampler_ptrace_thread *in_lib = &sm->threads[k == 0 ? 1 : 0];
            MG_CHECK_STR(in_lib->frames[0].function, "fake_mpi_progress");
            MG_CHECK(in_lib->frames[0].in_mpi_module);
            MG_CHECK(strstr(in_lib->frames[0].module, "libmg_sampler_fake_mpi") != NULL);
        }
        sampler_ptrace_close(s);
        reap(pid);
    }
}

/* A sampler of pid that takes the fake MPI library for MPI's. */
static sampler_ptrace *open_fake_mpi(pid_t pid)
{
    static const char *const fake_mpi[] = {"libmg_sampler_fake_mpi", NULL};
    sampler_ptrace_params p;
    sampler_ptrace_params_default(&p);
    p.mpi_library_prefixes = fake_mpi;
    sampler_ptrace *s = NULL;
    MG_CHECK_INT(sampler_ptrace_open(pid, &p, &s), MG_ERROR_OK);
    return s;
}

/* A thread the MPI library started (its start routine lies in the library) is stopped once, seen
 * to be MPI's own, and left out of every later sample; the process's verdict is unchanged. */
static void test_mpi_own_thread_is_left_out_after_first_sample(void)
{
    pid_t pid = spawn(TARGET_MPI_THREAD);
    pid_t helper = other_thread(pid);
    sampler_ptrace *s = open_fake_mpi(pid);
    for (int i = 0; s && i < 20; i++) {
        const sampler_ptrace_result *sm = NULL;
        MG_CHECK_INT(sampler_ptrace_sample(s, &sm), MG_ERROR_OK);
        if (!sm) {
            break;
        }
        MG_CHECK_INT(sm->verdict, STACK_CLASSIFY_OUT_MPI);
        MG_CHECK_INT(sm->threads[0].tid, pid);
        MG_CHECK(has_frame(&sm->threads[0], "target_spin_compute"));
        MG_CHECK_INT(sm->nthreads, i == 0 ? 2 : 1);
        if (i == 0 && sm->nthreads == 2) {
            MG_CHECK_INT(sm->threads[1].tid, helper);
            MG_CHECK(has_frame(&sm->threads[1], "fake_mpi_progress"));
        }
    }
    MG_CHECK_INT(sampler_ptrace_close(s), MG_ERROR_OK);
    MG_CHECK(makes_progress());
    reap(pid);
}

/* A process whose main thread ended (pthread_exit: /proc shows its leader a zombie) while a thread
 * of MPI's runs on is not sampled, and says why; it has not exited. */
static void test_live_process_without_main_thread_is_not_exited(void)
{
    pid_t pid = spawn(TARGET_MAIN_EXITS);
    sampler_ptrace *s = open_fake_mpi(pid);
    const sampler_ptrace_result *sm = NULL;
    MG_CHECK_INT(s ? sampler_ptrace_sample(s, &sm) : MG_ERROR_EINVAL, MG_ERROR_OK);
    MG_CHECK(sm && sm->verdict == STACK_CLASSIFY_OUT_MPI && sm->nthreads == 2);
    atomic_store(&sh->main_exit, 1);
    for (int i = 0; i < STATE_WAIT_MS && proc_state(pid) != 'Z'; i++) {
        sleep_ms(1);
    }
    MG_CHECK(proc_state(pid) == 'Z');
    sm = NULL;
    MG_CHECK_INT(sampler_ptrace_sample(s, &sm), MG_ERROR_ETIMEOUT);
    MG_CHECK(sm && sm->verdict != STACK_CLASSIFY_EXITED && sm->nthreads == 0);
    MG_CHECK(sm && sm->unsampled && strstr(sm->unsampled, "MPI's own"));
    MG_CHECK_INT(kill(pid, 0), 0);
    MG_CHECK_INT(sampler_ptrace_close(s), MG_ERROR_OK);
    reap(pid);
}

/* A thread that exits while the main thread is held (it runs on meanwhile: either the main thread
 * answers alone, or the others are stopped after it was let go) leaves nothing stopped, and the
 * next samples are as right as before. */
static void exit_helper_hook(pid_t pid, void *arg)
{
    pid_t helper = (pid_t)(intptr_t)arg;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d", (int)pid, (int)helper);
    atomic_store(&sh->helper_exit, 1);
    for (int i = 0; i < STATE_WAIT_MS && access(path, F_OK) == 0; i++) {
        sleep_ms(1);
    }
    atomic_store(&sh->helper_gone, access(path, F_OK) != 0);
}

static void test_thread_exiting_while_main_is_held(void)
{
    const target_kind kinds[2] = {TARGET_MAIN_IN_ENTRY_EXITER, TARGET_EXITER};
    for (int k = 0; k < 2; k++) {
        pid_t pid = spawn(kinds[k]);
        sampler_ptrace_params p;
        sampler_ptrace_params_default(&p);
        p.on_stopped = exit_helper_hook;
        p.on_stopped_arg = (void *)(intptr_t)other_thread(pid);
        sampler_ptrace *s = NULL;
        const sampler_ptrace_result *sm = NULL;
        atomic_store(&sh->helper_gone, 0);
        MG_CHECK_INT(sampler_ptrace_open(pid, &p, &s), MG_ERROR_OK);
        MG_CHECK_INT(sampler_ptrace_sample(s, &sm), MG_ERROR_OK);
        MG_CHECK(atomic_load(&sh->helper_gone));
        MG_CHECK(sm && sm->verdict == (k == 0 ? STACK_CLASSIFY_IN_MPI : STACK_CLASSIFY_OUT_MPI));
        MG_CHECK(sm && sm->nthreads == 1 && sm->threads[0].tid == pid);
        MG_CHECK(proc_state(pid) == 'R' || proc_state(pid) == 'S');
        MG_CHECK_INT(sampler_ptrace_sample(s, &sm), MG_ERROR_OK);
        MG_CHECK(sm && sm->nthreads == 1 && sm->threads[0].state == SAMPLER_PTRACE_THREAD_SAMPLED);
        MG_CHECK_INT(sampler_ptrace_close(s), MG_ERROR_OK);
        MG_CHECK(proc_state(pid) == 'R' || proc_state(pid) == 'S');
        MG_CHECK(k == 0 || makes_progress());
        reap(pid);
    }
}

static void test_user_thread_in_mpi_entry_counts(void)
{
    pid_t pid = spawn(TARGET_FAKE_MPI);
    sampler_ptrace *s = open_default(pid);
    const sampler_ptrace_result *sm = NULL;
    MG_CHECK_INT(sampler_ptrace_sample(s, &sm), MG_ERROR_OK);
    if (sm) {
        MG_CHECK_INT(sm->verdict, STACK_CLASSIFY_IN_MPI);
        MG_CHECK_STR(sm->mpi_function, "MPI_Fake_wait");
        MG_CHECK_INT(sm->nthreads, 2);
        MG_CHECK(!sm->threads[0].in_mpi);
        MG_CHECK_STR(sm->threads[1].mpi_function, "MPI_Fake_wait");
        MG_CHECK(has_frame(&sm->threads[1], "start_thread"));
    }
    sampler_ptrace_close(s);
    reap(pid);
}

/* Samples until short-lived threads were caught and many were born and died meanwhile. */
static void test_threads_appearing_and_vanishing(void)
{
    pid_t pid = spawn(TARGET_CHURN);
    sampler_ptrace *s = open_default(pid);
    size_t min_threads = SIZE_MAX, max_threads = 0;
    int before = atomic_load(&sh->churned), samples = 0;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        const sampler_ptrace_result *sm = NULL;
        int rc = sampler_ptrace_sample(s, &sm);
        MG_CHECK_INT(rc, MG_ERROR_OK);
        if (rc) {
            break;
        }
        MG_CHECK_INT(sm->verdict, STACK_CLASSIFY_OUT_MPI);
        MG_CHECK_INT(sm->threads[0].tid, pid);
        min_threads = sm->nthreads < min_threads ? sm->nthreads : min_threads;
        max_threads = sm->nthreads > max_threads ? sm->nthreads : max_threads;
        samples++;
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((samples < CHURN_SAMPLES || max_threads < 3 ||
              atomic_load(&sh->churned) <= before + CHURN_SAMPLES / 10) &&
             t.tv_sec - t0.tv_sec < CHURN_BUDGET_S);
    MG_CHECK_INT(sampler_ptrace_close(s), MG_ERROR_OK);
    MG_CHECK(min_threads >= 2);
    MG_CHECK(max_threads >= 3); /* some samples caught a short-lived thread */
    /* Threads kept being born and dying while we sampled (how many per sample depends on the load
     * of the machine, so only the total is asked for). */
    MG_CHECK(atomic_load(&sh->churned) > before + CHURN_SAMPLES / 10);
    MG_CHECK(makes_progress());
    MG_CHECK(proc_state(pid) != 't' && proc_state(pid) != 'T');
    reap(pid);
}

/* Code mapped after the sampler was opened is named, and unwound through, by the very first
 * sample that meets it: that sample finds the unknown address, re-reads the maps and is taken
 * again (an MPI rank's transports are dlopen'ed in MPI_Init, often after the sampler opened). */
static void test_library_loaded_later_is_picked_up(void)
{
    pid_t pid = spawn(TARGET_DLOPEN);
    sampler_ptrace *s = open_default(pid);
    const sampler_ptrace_result *sm = NULL;
    MG_CHECK_INT(sampler_ptrace_sample(s, &sm), MG_ERROR_OK);
    MG_CHECK(sm && sm->nthreads == 1 && has_frame(&sm->threads[0], "run_dlopen"));
    atomic_store(&sh->go_dlopen, 1);
    MG_CHECK(wait_count(&sh->in_dlopened, 1));
    sleep_ms(20);
    MG_CHECK_INT(sampler_ptrace_sample(s, &sm), MG_ERROR_OK);
    const stack_classify_frame *f = sm && sm->nthreads ? &sm->threads[0].frames[0] : NULL;
    MG_CHECK(f && f->function && strcmp(f->function, "dlopened_spin") == 0 && f->module &&
             strstr(f->module, "mg_sampler_dlopen") != NULL);
    MG_CHECK(sm && has_frame(&sm->threads[0], "main")); /* unwound out of the new library */
    MG_CHECK_INT(sampler_ptrace_close(s), MG_ERROR_OK);
    reap(pid);
}

/* A thread that cannot stop in time is reported LATE; once it stops it is held until close (or the
 * next sample) releases it. */
static void test_thread_that_cannot_stop_is_late_then_released(void)
{
    pid_t pid = spawn(TARGET_VFORK);
    sampler_ptrace_params p;
    sampler_ptrace_params_default(&p);
    p.stop.timeout_ns = LATE_TIMEOUT_MS * 1000000L;
    sampler_ptrace *s = NULL;
    const sampler_ptrace_result *sm = NULL;
    MG_CHECK_INT(sampler_ptrace_open(pid, &p, &s), MG_ERROR_OK);
    MG_CHECK_INT(sampler_ptrace_sample(s, &sm), MG_ERROR_OK);
    if (sm) {
        MG_CHECK_INT(sm->nthreads, 2);
        MG_CHECK_INT(sm->verdict, STACK_CLASSIFY_OUT_MPI); /* from the helper, the only one sampled */
        MG_CHECK(sm->stop_ns >= LATE_TIMEOUT_MS * 1000000L);
        /* the wait for the late main thread is a wait, not seizing */
        MG_CHECK(sm->wait_ns >= LATE_TIMEOUT_MS * 1000000L && sm->wait_ns <= sm->stop_ns);
        MG_CHECK_INT(sm->threads[0].tid, pid);
        MG_CHECK_INT(sm->threads[0].state, SAMPLER_PTRACE_THREAD_LATE);
        MG_CHECK_INT(sm->threads[0].nframes, 0);
        MG_CHECK_INT(sm->threads[1].state, SAMPLER_PTRACE_THREAD_SAMPLED);
        MG_CHECK(has_frame(&sm->threads[1], "target_spin_compute"));
    }
    sleep_ms(VFORK_CHILD_MS + 200);
    MG_CHECK(proc_state(pid) == 't'); /* back from vfork straight into the pending interrupt */
    MG_CHECK(!atomic_load(&sh->after_vfork));
    /* The next sample finds it stopped since: its wait counts from this sample's start, not from
     * the earlier interrupt (a wait longer than the whole stop read as a negative seize time). */
    MG_CHECK_INT(sampler_ptrace_sample(s, &sm), MG_ERROR_OK);
    if (sm) {
        MG_CHECK_INT(sm->threads[0].tid, pid);
        MG_CHECK_INT(sm->threads[0].state, SAMPLER_PTRACE_THREAD_SAMPLED);
        MG_CHECK(sm->wait_ns >= 0 && sm->wait_ns <= sm->stop_ns);
        MG_CHECK(sm->threads[0].stop_ns >= 0 && sm->threads[0].stop_ns <= sm->stop_ns);
    }
    MG_CHECK_INT(sampler_ptrace_close(s), MG_ERROR_OK);
    MG_CHECK(wait_count(&sh->after_vfork, 1));
    MG_CHECK(makes_progress());
    reap(pid);
}

/* Whether this process may run a thread under SCHED_FIFO (root, or CAP_SYS_NICE). */
static bool may_run_fifo(void)
{
    struct sched_param own, rt = {.sched_priority = 1};
    int policy = sched_getscheduler(0);
    if (policy < 0 || sched_getparam(0, &own) != 0 || sched_setscheduler(0, SCHED_FIFO, &rt) != 0) {
        return false;
    }
    MG_CHECK_INT(sched_setscheduler(0, policy, &own), 0);
    return true;
}

static void note_policy_hook(pid_t pid, void *arg)
{
    (void)pid;
    *(int *)arg = sched_getscheduler(0);
}

/* While a target is held stopped the sampling thread runs at the hold priority, so that on a
 * loaded node it is not kept waiting for a CPU with the target stopped (most of the held time at
 * load 20-40 before); before and after, at its own policy. Hold priority 0 leaves it alone. */
static void test_sampler_holds_at_its_hold_priority_only(void)
{
    pid_t pid = spawn(TARGET_SPIN);
    bool fifo = may_run_fifo();
    for (int priority = 1; priority >= 0; priority--) {
        int seen = -1;
        sampler_ptrace_params p;
        sampler_ptrace_params_default(&p);
        MG_CHECK_INT(p.hold_priority, 1);
        p.hold_priority = priority;
        p.on_stopped = note_policy_hook;
        p.on_stopped_arg = &seen;
        sampler_ptrace *s = NULL;
        const sampler_ptrace_result *sm = NULL;
        MG_CHECK_INT(sampler_ptrace_open(pid, &p, &s), MG_ERROR_OK);
        MG_CHECK_INT(sampler_ptrace_sample(s, &sm), MG_ERROR_OK);
        MG_CHECK(sm && sm->verdict == STACK_CLASSIFY_OUT_MPI);
        MG_CHECK_INT(seen, priority && fifo ? SCHED_FIFO : SCHED_OTHER);
        MG_CHECK_INT(sched_getscheduler(0), SCHED_OTHER);
        MG_CHECK_INT(sampler_ptrace_close(s), MG_ERROR_OK);
    }
    MG_CHECK(makes_progress());
    reap(pid);
}

static void kill_target_hook(pid_t pid, void *arg)
{
    (void)arg;
    kill(pid, SIGKILL);
}

static void test_exit_mid_sample_is_exited(void)
{
    pid_t pid = spawn(TARGET_SPIN_PAUSER);
    sampler_ptrace_params p;
    sampler_ptrace_params_default(&p);
    p.on_stopped = kill_target_hook;
    sampler_ptrace *s = NULL;
    const sampler_ptrace_result *sm = NULL;
    MG_CHECK_INT(sampler_ptrace_open(pid, &p, &s), MG_ERROR_OK);
    MG_CHECK_INT(sampler_ptrace_sample(s, &sm), MG_ERROR_OK);
    MG_CHECK(sm && sm->verdict == STACK_CLASSIFY_EXITED);
    MG_CHECK_INT(sampler_ptrace_sample(s, &sm), MG_ERROR_OK);
    MG_CHECK(sm && sm->verdict == STACK_CLASSIFY_EXITED && sm->nthreads == 0);
    MG_CHECK_INT(sampler_ptrace_close(s), MG_ERROR_OK);
    reap(pid);
}

static void test_process_exiting_while_sampled_in_a_loop(void)
{
    pid_t pid = spawn(TARGET_EXIT_SOON);
    sampler_ptrace *s = open_default(pid);
    int outs = 0, exited = 0;
    for (int i = 0; s && i < 100000 && !exited; i++) {
        const sampler_ptrace_result *sm = NULL;
        int rc = sampler_ptrace_sample(s, &sm);
        MG_CHECK_INT(rc, MG_ERROR_OK);
        if (rc) {
            break;
        }
        outs += sm->verdict == STACK_CLASSIFY_OUT_MPI;
        exited = sm->verdict == STACK_CLASSIFY_EXITED;
        MG_CHECK(sm->verdict != STACK_CLASSIFY_IN_MPI);
    }
    MG_CHECK(outs > 0);
    MG_CHECK(exited);
    MG_CHECK_INT(sampler_ptrace_close(s), MG_ERROR_OK);
    reap(pid);
}

static void usr1_hook(pid_t pid, void *arg)
{
    (void)arg;
    kill(pid, SIGUSR1);
}

static void test_signal_sent_while_stopped_runs_its_handler(void)
{
    pid_t pid = spawn(TARGET_SPIN_PAUSER);
    sampler_ptrace_params p;
    sampler_ptrace_params_default(&p);
    p.on_stopped = usr1_hook;
    sampler_ptrace *s = NULL;
    const sampler_ptrace_result *sm = NULL;
    MG_CHECK_INT(sampler_ptrace_open(pid, &p, &s), MG_ERROR_OK);
    for (int i = 1; s && i <= 5; i++) {
        MG_CHECK_INT(sampler_ptrace_sample(s, &sm), MG_ERROR_OK);
        MG_CHECK(wait_count(&sh->usr1, i)); /* one run of the handler per signal, none lost */
    }
    sampler_ptrace_close(s);
    reap(pid);
}

/* Real-time signals queue without merging, so a lost one shows as a short count. The sender
 * fires while the sampler samples in a loop; some signals arrive between PTRACE_SEIZE and the
 * interrupt and are caught in a signal-delivery-stop, which the sampler must deliver again. The
 * loop runs until a few such catches were seen, so the re-injection path surely ran. */
static void test_queued_signals_all_delivered_while_sampling(void)
{
    pid_t pid = spawn(TARGET_SPIN_PAUSER);
    atomic_store(&sh->sent, 0);
    atomic_store(&sh->stop_sender, 0);
    pid_t sender = fork_tied();
    if (sender == 0) {
        while (!atomic_load(&sh->stop_sender)) {
            if (sigqueue(pid, SIGRTMIN, (union sigval){.sival_int = 0}) == 0) {
                atomic_fetch_add(&sh->sent, 1);
            }
            for (volatile int k = 0; k < 20000; k++) {
            }
        }
        _exit(0);
    }
    sampler_ptrace *s = open_default(pid);
    unsigned reinjected = 0;
    int samples = 0;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        const sampler_ptrace_result *sm = NULL;
        MG_CHECK_INT(sampler_ptrace_sample(s, &sm), MG_ERROR_OK);
        reinjected += sm ? sm->signals_reinjected : 0;
        samples++;
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while (s && reinjected < REINJECT_WANTED && t.tv_sec - t0.tv_sec < REINJECT_BUDGET_S);
    atomic_store(&sh->stop_sender, 1);
    waitpid(sender, NULL, 0);
    MG_CHECK(reinjected >= 1);
    MG_CHECK(wait_count(&sh->rt, atomic_load(&sh->sent)));
    printf("queued signals: %d sent, %d handled, %d samples, %u caught while stopping and "
           "re-injected\n",
           atomic_load(&sh->sent), atomic_load(&sh->rt), samples, reinjected);
    sampler_ptrace_close(s);
    reap(pid);
}

static void test_stopped_process_stays_stopped(void)
{
    pid_t pid = spawn(TARGET_SPIN_PAUSER);
    kill(pid, SIGSTOP);
    MG_CHECK(wait_state(pid, true));
    sampler_ptrace *s = open_default(pid);
    const sampler_ptrace_result *sm = NULL;
    MG_CHECK_INT(sampler_ptrace_sample(s, &sm), MG_ERROR_OK);
    MG_CHECK(sm && sm->verdict == STACK_CLASSIFY_OUT_MPI && sm->nthreads == 2);
    MG_CHECK(sm && has_frame(&sm->threads[0], "target_spin_compute"));
    MG_CHECK_INT(sampler_ptrace_close(s), MG_ERROR_OK);
    sleep_ms(50);
    MG_CHECK(proc_state(pid) == 'T'); /* someone else's stop is kept */
    kill(pid, SIGCONT);
    MG_CHECK(makes_progress());
    reap(pid);
}

static void stop_hook(pid_t pid, void *arg)
{
    (void)arg;
    kill(pid, SIGSTOP);
}

static void test_stop_signal_mid_sample_is_delivered(void)
{
    pid_t pid = spawn(TARGET_SPIN);
    sampler_ptrace_params p;
    sampler_ptrace_params_default(&p);
    p.on_stopped = stop_hook;
    sampler_ptrace *s = NULL;
    const sampler_ptrace_result *sm = NULL;
    MG_CHECK_INT(sampler_ptrace_open(pid, &p, &s), MG_ERROR_OK);
    MG_CHECK_INT(sampler_ptrace_sample(s, &sm), MG_ERROR_OK);
    MG_CHECK_INT(sampler_ptrace_close(s), MG_ERROR_OK);
    MG_CHECK(wait_state(pid, true));
    kill(pid, SIGCONT);
    MG_CHECK(wait_state(pid, false));
    MG_CHECK(makes_progress());
    reap(pid);
}

/* In the sampler child: tell the parent the target is held stopped, then wait to be signalled. */
static int notify_fd = -1;
static sampler_ptrace *child_sampler;
static volatile sig_atomic_t got_term;

static void notify_and_wait_hook(pid_t pid, void *arg)
{
    (void)pid;
    long wait_ms = (long)(intptr_t)arg;
    char c = 's';
    if (write(notify_fd, &c, 1) != 1) {
        _exit(4);
    }
    for (long i = 0; i < wait_ms && !got_term; i++) {
        sleep_ms(1);
    }
}

static void on_term(int sig)
{
    (void)sig;
    got_term = 1;
    sampler_ptrace_abort(child_sampler);
}

/* Forks a sampler child that samples pid once and reports its result code through the pipe. */
static pid_t fork_sampler(pid_t pid, long hold_ms, int *read_fd)
{
    int fds[2];
    if (pipe(fds) != 0) {
        return -1;
    }
    pid_t child = fork_tied();
    if (child == 0) {
        close(fds[0]);
        notify_fd = fds[1];
        struct sigaction sa = {.sa_handler = on_term};
        sigaction(SIGTERM, &sa, NULL);
        sampler_ptrace_params p;
        sampler_ptrace_params_default(&p);
        p.on_stopped = notify_and_wait_hook;
        p.on_stopped_arg = (void *)(intptr_t)hold_ms;
        if (sampler_ptrace_open(pid, &p, &child_sampler) != MG_ERROR_OK) {
            _exit(5);
        }
        const sampler_ptrace_result *sm;
        signed char rc = (signed char)sampler_ptrace_sample(child_sampler, &sm);
        if (write(notify_fd, &rc, 1) != 1) {
            _exit(4);
        }
        for (;;) {
            pause(); /* stay alive: the target must be free because we released it */
        }
    }
    close(fds[1]);
    *read_fd = fds[0];
    return child;
}

static void test_sampler_killed_mid_sample_leaves_target_running(void)
{
    pid_t pid = spawn(TARGET_SPIN_PAUSER);
    int fd;
    pid_t sampler = fork_sampler(pid, 60000, &fd);
    char c = 0;
    MG_CHECK(read(fd, &c, 1) == 1 && c == 's');
    MG_CHECK(proc_state(pid) == 't'); /* held in a ptrace-stop right now */
    kill(sampler, SIGKILL);
    waitpid(sampler, NULL, 0);
    MG_CHECK(wait_state(pid, false));
    MG_CHECK(makes_progress());
    close(fd);
    reap(pid);
}

static void test_sampler_aborted_by_sigterm_releases_target(void)
{
    pid_t pid = spawn(TARGET_SPIN_PAUSER);
    int fd;
    pid_t sampler = fork_sampler(pid, 60000, &fd);
    char c = 0;
    signed char rc = 0;
    MG_CHECK(read(fd, &c, 1) == 1 && c == 's');
    MG_CHECK(proc_state(pid) == 't');
    kill(sampler, SIGTERM);
    MG_CHECK(read(fd, &rc, 1) == 1);
    MG_CHECK_INT(rc, MG_ERROR_ESTATE);
    MG_CHECK(wait_state(pid, false)); /* released while the sampler is still alive */
    MG_CHECK(makes_progress());
    MG_CHECK(kill(sampler, 0) == 0 && proc_state(sampler) != 'Z'); /* still alive */
    kill(sampler, SIGKILL);
    waitpid(sampler, NULL, 0);
    close(fd);
    reap(pid);
}

/* A thread of pid other than the main one, or 0. */
static pid_t other_thread(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    pid_t tid = 0;
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL) {
        pid_t t = (pid_t)atoi(de->d_name);
        tid = t > 0 && t != pid ? t : tid;
    }
    if (d) {
        closedir(d);
    }
    return tid;
}

static void test_refusals_and_bad_arguments(void)
{
    sampler_ptrace_params p;
    sampler_ptrace_params_default(&p);
    sampler_ptrace *s = NULL;
    const sampler_ptrace_result *sm = NULL;
    MG_CHECK_INT(sampler_ptrace_open(0, &p, &s), MG_ERROR_EINVAL);
    MG_CHECK_INT(sampler_ptrace_open(getpid(), NULL, &s), MG_ERROR_EINVAL);
    MG_CHECK_INT(sampler_ptrace_open(getpid(), &p, NULL), MG_ERROR_EINVAL);
    MG_CHECK_INT(sampler_ptrace_sample(NULL, &sm), MG_ERROR_EINVAL);
    p.max_frames = 0;
    MG_CHECK_INT(sampler_ptrace_open(getpid(), &p, &s), MG_ERROR_EINVAL);
    sampler_ptrace_params_default(&p);
    MG_CHECK(s == NULL);

    /* A pid that just died and was reaped does not exist. */
    pid_t gone = fork();
    if (gone == 0) {
        _exit(0);
    }
    waitpid(gone, NULL, 0);
    MG_CHECK_INT(sampler_ptrace_open(gone, &p, &s), MG_ERROR_ENOENT);

    /* A zombie is dead too. */
    pid_t zombie = fork();
    if (zombie == 0) {
        _exit(0);
    }
    while (proc_state(zombie) != 'Z') {
        sleep_ms(1);
    }
    MG_CHECK_INT(sampler_ptrace_open(zombie, &p, &s), MG_ERROR_ENOENT);
    waitpid(zombie, NULL, 0);

    pid_t pid = spawn(TARGET_SPIN_PAUSER);
    /* An unprivileged user may not trace a root process. */
    pid_t nobody = fork_tied();
    if (nobody == 0) {
        if (setgid(65534) != 0 || setuid(65534) != 0) {
            _exit(2);
        }
        sampler_ptrace *t = NULL;
        _exit(sampler_ptrace_open(pid, &p, &t) == MG_ERROR_EPERM ? 0 : 1);
    }
    int status = -1;
    waitpid(nobody, &status, 0);
    MG_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);

    /* A thread already traced by someone else cannot be seized: the sample fails, and the main
     * thread, seized and interrupted before the refusal, must not be left stopped. */
    MG_CHECK_INT(sampler_ptrace_open(pid, &p, &s), MG_ERROR_OK);
    pid_t helper = other_thread(pid);
    MG_CHECK(helper > 0);
    int fds[2];
    MG_CHECK(pipe(fds) == 0);
    pid_t tracer = fork_tied();
    if (tracer == 0) {
        char c = ptrace(PTRACE_SEIZE, helper, NULL, NULL) == 0 ? 'y' : 'n';
        if (write(fds[1], &c, 1) != 1) {
            _exit(4);
        }
        pause();
        _exit(0);
    }
    char c = 0;
    MG_CHECK(read(fds[0], &c, 1) == 1 && c == 'y');
    for (int i = 0; i < 20; i++) {
        MG_CHECK_INT(sampler_ptrace_sample(s, &sm), MG_ERROR_EPERM);
        MG_CHECK(proc_state(pid) != 't');
    }
    MG_CHECK(makes_progress());
    sleep_ms(50);
    MG_CHECK(proc_state(pid) == 'R' || proc_state(pid) == 'S');
    kill(tracer, SIGKILL);
    waitpid(tracer, NULL, 0);
    MG_CHECK_INT(sampler_ptrace_sample(s, &sm), MG_ERROR_OK); /* free again */
    MG_CHECK(sm && sm->verdict == STACK_CLASSIFY_OUT_MPI && sm->nthreads == 2);
    sampler_ptrace_abort(s);
    MG_CHECK_INT(sampler_ptrace_sample(s, &sm), MG_ERROR_ESTATE);
    MG_CHECK_INT(sampler_ptrace_close(s), MG_ERROR_OK);
    MG_CHECK(makes_progress());
    close(fds[0]);
    close(fds[1]);
    reap(pid);
}

int main(void)
{
    sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) {
        return 2;
    }
    MG_RUN(test_main_thread_answers_alone);
    MG_RUN(test_progress_threads_do_not_count_but_main_thread_does);
    MG_RUN(test_mpi_own_thread_is_left_out_after_first_sample);
    MG_RUN(test_thread_exiting_while_main_is_held);
    MG_RUN(test_live_process_without_main_thread_is_not_exited);
    MG_RUN(test_user_thread_in_mpi_entry_counts);
    MG_RUN(test_threads_appearing_and_vanishing);
    MG_RUN(test_library_loaded_later_is_picked_up);
    MG_RUN(test_thread_that_cannot_stop_is_late_then_released);
    MG_RUN(test_sampler_holds_at_its_hold_priority_only);
    MG_RUN(test_exit_mid_sample_is_exited);
    MG_RUN(test_process_exiting_while_sampled_in_a_loop);
    MG_RUN(test_signal_sent_while_stopped_runs_its_handler);
    MG_RUN(test_queued_signals_all_delivered_while_sampling);
    MG_RUN(test_stopped_process_stays_stopped);
    MG_RUN(test_stop_signal_mid_sample_is_delivered);
    MG_RUN(test_sampler_killed_mid_sample_leaves_target_running);
    MG_RUN(test_sampler_aborted_by_sigterm_releases_target);
    MG_RUN(test_refusals_and_bad_arguments);
    MG_TEST_END();
}
