/* The ptrace sampler on a real MPI job at default settings (Open MPI, or MPICH with UCX): rank 0
 * computes and must be OUT_MPI in mpi_target_compute; every other rank must be IN_MPI in
 * MPI_Barrier with the stack unwound through the MPI libraries back to main. Also prints the
 * cost per process sample, cold and warm (docs/sampler.md "Cost"). With SAMPLER_TEST_PRELOAD set to
 * the interposition library, the job runs with it preloaded and every sample must carry its call
 * counter: 0 calls entered on rank 0, 1 (the barrier) on the others; without it, no counter.
 * Usage: test_sampler_mpi openmpi|mpich LAUNCHER TARGET RANKS [ROUNDS] */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mg_error.h"
#include "mg_test.h"
#include "sampler_ptrace.h"

enum {
    MAX_RANKS = 256,
    FIND_TIMEOUT_S = 60,   /* launching 16 oversubscribed ranks takes a few seconds */
    STEADY_TIMEOUT_S = 90, /* until every rank has reached its loop */
    DEFAULT_ROUNDS = 30,
    LATE_RETRIES = 5,     /* a sample whose main thread was late is taken again, at most so often */
    TARGET_SECONDS = 300, /* rank 0 computes no longer than the test may run */
    ENVIRON_MAX = 65536
};

typedef struct rank_proc {
    pid_t pid;
    sampler_ptrace *sampler;
    double open_ms, first_ms, first_cpu_ms;
} rank_proc;

typedef struct job {
    const char *flavor, *launcher, *target;
    int nranks, rounds;
    pid_t launcher_pid;
    rank_proc ranks[MAX_RANKS];
} job;

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

/* The interposition library the job runs with, or NULL. */
static const char *preloaded;

static pid_t launch(const job *j)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (preloaded) {
            setenv("LD_PRELOAD", preloaded, 1);
        }
        setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
        setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
        setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 1);
        char n[16], secs[16];
        snprintf(n, sizeof n, "%d", j->nranks);
        snprintf(secs, sizeof secs, "%d", TARGET_SECONDS);
        execl(j->launcher, j->launcher, "-n", n, j->target, secs, (char *)NULL);
        _exit(127);
    }
    return pid;
}

static pid_t parent_of(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        return 0;
    }
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    buf[n > 0 ? n : 0] = '\0';
    const char *p = strrchr(buf, ')');
    int ppid = 0;
    return p && sscanf(p + 1, " %*c %d", &ppid) == 1 ? ppid : 0;
}

static bool descends_from(pid_t pid, pid_t ancestor)
{
    for (int depth = 0; pid > 1 && depth < 16; depth++) {
        pid = parent_of(pid);
        if (pid == ancestor) {
            return true;
        }
    }
    return false;
}

/* The rank of pid from its environment (OMPI_COMM_WORLD_RANK or PMI_RANK), or -1. */
static int rank_of(pid_t pid)
{
    static char env[ENVIRON_MAX];
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        return -1;
    }
    ssize_t n = read(fd, env, sizeof env - 1);
    close(fd);
    if (n <= 0) {
        return -1;
    }
    env[n] = '\0';
    for (char *p = env; p < env + n; p += strlen(p) + 1) {
        if (strncmp(p, "OMPI_COMM_WORLD_RANK=", 21) == 0) {
            return atoi(p + 21);
        }
        if (strncmp(p, "PMI_RANK=", 9) == 0) {
            return atoi(p + 9);
        }
    }
    return -1;
}

/* True when pid runs the target executable (a proxy's pre-exec child shares its environment). */
static bool runs_target(pid_t pid, const char *target)
{
    char path[64], exe[4096];
    snprintf(path, sizeof path, "/proc/%d/exe", (int)pid);
    ssize_t n = readlink(path, exe, sizeof exe - 1);
    if (n <= 0) {
        return false;
    }
    exe[n] = '\0';
    return strcmp(exe, target) == 0;
}

/* Finds the rank processes: descendants of the launcher running the target, by rank variable. */
static int find_ranks(job *j)
{
    double deadline = now_s() + FIND_TIMEOUT_S;
    int found = 0;
    while (found < j->nranks && now_s() < deadline) {
        DIR *d = opendir("/proc");
        struct dirent *de;
        while (d && (de = readdir(d)) != NULL) {
            pid_t pid = (pid_t)atoi(de->d_name);
            if (pid <= 0 || !runs_target(pid, j->target) || !descends_from(pid, j->launcher_pid)) {
                continue;
            }
            int r = rank_of(pid);
            if (r >= 0 && r < j->nranks && j->ranks[r].pid == 0) {
                j->ranks[r].pid = pid;
                found++;
            }
        }
        if (d) {
            closedir(d);
        }
        sleep_ms(50);
    }
    return found;
}

static bool has_frame(const sampler_ptrace_thread *t, const char *name)
{
    for (size_t i = 0; i < t->nframes; i++) {
        if (t->frames[i].function && strcmp(t->frames[i].function, name) == 0) {
            return true;
        }
    }
    return false;
}

/* The outermost MPI_Barrier frame is followed (towards main) by main itself: the unwind crossed
 * the MPI and UCX libraries correctly. */
static bool barrier_called_from_main(const sampler_ptrace_thread *t)
{
    for (size_t i = t->nframes; i-- > 1;) {
        const char *f = t->frames[i - 1].function;
        if (f && (strcmp(f, "MPI_Barrier") == 0 || strcmp(f, "PMPI_Barrier") == 0)) {
            return t->frames[i].function && strcmp(t->frames[i].function, "main") == 0;
        }
    }
    return false;
}

/* True when the sample shows the rank where the job puts it. */
static bool as_expected(int rank, const sampler_ptrace_result *sm)
{
    if (sm->nthreads == 0 || sm->threads[0].tid != sm->pid) {
        return false;
    }
    if (preloaded ? !sm->counter_known || sm->counter != (rank == 0 ? 0u : 1u)
                  : sm->counter_known) {
        return false;
    }
    const sampler_ptrace_thread *main_thread = &sm->threads[0];
    if (rank == 0) {
        return sm->verdict == STACK_CLASSIFY_OUT_MPI && sm->mpi_function == NULL &&
               has_frame(main_thread, "mpi_target_compute") && has_frame(main_thread, "main");
    }
    return sm->verdict == STACK_CLASSIFY_IN_MPI && sm->mpi_function &&
           strcmp(sm->mpi_function, "MPI_Barrier") == 0 && barrier_called_from_main(main_thread);
}

static void print_stack(int rank, const sampler_ptrace_result *sm)
{
    fprintf(stderr, "rank %d pid %d verdict %d function %s counter %s%llu\n", rank, (int)sm->pid,
            sm->verdict, sm->mpi_function ? sm->mpi_function : "-",
            sm->counter_known ? "" : "unknown ", (unsigned long long)sm->counter);
    for (size_t i = 0; i < sm->nthreads; i++) {
        const sampler_ptrace_thread *t = &sm->threads[i];
        fprintf(stderr, "  thread %d in_mpi %d\n", (int)t->tid, t->in_mpi);
        for (size_t k = 0; k < t->nframes; k++) {
            const stack_classify_frame *f = &t->frames[k];
            fprintf(stderr, "    #%zu %#llx %s+%#llx %s%s\n", k, (unsigned long long)f->pc,
                    f->function ? f->function : "??", (unsigned long long)f->offset,
                    f->module ? f->module : "?", f->in_mpi_module ? " [mpi]" : "");
        }
    }
}

static int open_all(job *j)
{
    sampler_ptrace_params p;
    sampler_ptrace_params_default(&p);
    for (int r = 0; r < j->nranks; r++) {
        rank_proc *rp = &j->ranks[r];
        double t0 = now_s();
        int rc = sampler_ptrace_open(rp->pid, &p, &rp->sampler);
        rp->open_ms = 1e3 * (now_s() - t0);
        if (rc) {
            fprintf(stderr, "rank %d: open: %s\n", r, mg_error_string(rc));
            return rc;
        }
        const sampler_ptrace_result *sm;
        rc = sampler_ptrace_sample(rp->sampler, &sm);
        if (rc) {
            fprintf(stderr, "rank %d: first sample: %s\n", r, mg_error_string(rc));
            return rc;
        }
        rp->first_ms = 1e-6 * (double)sm->total_ns;
        rp->first_cpu_ms = 1e-6 * (double)sm->cpu_ns;
    }
    return MG_ERROR_OK;
}

/* Samples every rank until each is where the job puts it (MPI_Init takes a while). */
static bool wait_steady(job *j)
{
    double deadline = now_s() + STEADY_TIMEOUT_S;
    const sampler_ptrace_result *last = NULL;
    int last_rank = 0;
    while (now_s() < deadline) {
        int ok = 0;
        for (int r = 0; r < j->nranks; r++) {
            const sampler_ptrace_result *sm;
            if (sampler_ptrace_sample(j->ranks[r].sampler, &sm) == MG_ERROR_OK) {
                ok += as_expected(r, sm);
                if (!as_expected(r, sm)) {
                    last = sm;
                    last_rank = r;
                }
            }
        }
        if (ok == j->nranks) {
            return true;
        }
        sleep_ms(100);
    }
    if (last) {
        print_stack(last_rank, last);
    }
    return false;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double quantile(double *v, size_t n, double q)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n ? v[(size_t)(q * (double)(n - 1))] : 0;
}

/* The target is built with -g: main's frame gets mpi_target.c and a line from
 * sampler_ptrace_add_sources. Prints what the sources cost, the first time (the modules' line
 * tables are loaded) and again on the next sample (cached). */
static void check_sources(job *j)
{
    double cold_ms = 0, warm_us = 0;
    int with_line = 0;
    for (int r = 0; r < j->nranks; r++) {
        const sampler_ptrace_result *sm;
        for (int pass = 0; pass < 2; pass++) {
            if (sampler_ptrace_sample(j->ranks[r].sampler, &sm) != MG_ERROR_OK || sm->nthreads == 0)
                continue;
            double t0 = cpu_s();
            sampler_ptrace_add_sources(j->ranks[r].sampler);
            double spent = cpu_s() - t0;
            if (pass == 0)
                cold_ms += 1e3 * spent / j->nranks;
            else
                warm_us += 1e6 * spent / j->nranks;
            const sampler_ptrace_thread *t = &sm->threads[0];
            for (size_t k = 0; pass == 1 && k < t->nframes; k++) {
                const stack_classify_frame *f = &t->frames[k];
                const char *file = f->file ? strrchr(f->file, '/') : NULL;
                with_line += f->function && strcmp(f->function, "main") == 0 && file &&
                             strcmp(file, "/mpi_target.c") == 0 && f->line > 0;
            }
        }
    }
    MG_CHECK_INT(with_line, j->nranks);
    printf("%s ranks=%d file:line of a sample's frames, sampler cpu: first %.1f ms, next %.0f us\n",
           j->flavor, j->nranks, cold_ms, warm_us);
}

/* Every rank, several rounds: all samples as expected. Records the warm costs. */
static void check_and_measure(job *j)
{
    size_t n = (size_t)j->nranks * (size_t)j->rounds, k = 0;
    double *total = calloc(n, sizeof *total), *held = calloc(n, sizeof *held);
    double *cpu = calloc(n, sizeof *cpu), *stop = calloc(n, sizeof *stop);
    MG_CHECK(total && held && cpu && stop);
    /* Warm, a sample stops the main thread alone: a rank in MPI_Barrier answers with it, and the
     * computing rank's other threads were seen to be MPI's own once (by the last round at the
     * latest, should a loaded node have kept one of them from stopping in time before). */
    int wrong = 0, late = 0, more_than_main = 0, more_than_main_last_round = 0;
    for (int round = 0; total && held && cpu && stop && round < j->rounds; round++) {
        for (int r = 0; r < j->nranks; r++) {
            /* On a loaded machine a thread may not reach its stop before the sampler gives up
             * (SAMPLER_PTRACE_THREAD_LATE, or MG_ERROR_ETIMEOUT when none did): the sampler says so rather
             * than guess, and such a sample is taken again. A late one is never a wrong one. */
            const sampler_ptrace_result *sm;
            int rc;
            for (int attempt = 0;; attempt++) {
                rc = sampler_ptrace_sample(j->ranks[r].sampler, &sm);
                bool main_late = rc == MG_ERROR_ETIMEOUT || (rc == MG_ERROR_OK && sm->nthreads > 0 &&
                                                       sm->threads[0].tid == sm->pid &&
                                                       sm->threads[0].state == SAMPLER_PTRACE_THREAD_LATE);
                if (!main_late || attempt == LATE_RETRIES) {
                    break;
                }
                late++;
                sleep_ms(10);
            }
            MG_CHECK_INT(rc, MG_ERROR_OK);
            if (rc) {
                continue;
            }
            if (!as_expected(r, sm)) {
                wrong++;
                print_stack(r, sm);
            }
            if (sm->nthreads != 1) {
                more_than_main++;
                if (round == j->rounds - 1) {
                    more_than_main_last_round++;
                    print_stack(r, sm);
                }
            }
            total[k] = 1e-3 * (double)sm->total_ns;
            held[k] = 1e-3 * (double)sm->held_ns;
            stop[k] = 1e-3 * (double)sm->stop_ns;
            cpu[k++] = 1e-3 * (double)sm->cpu_ns;
        }
        sleep_ms(10);
    }
    MG_CHECK_INT(wrong, 0);
    MG_CHECK_INT(more_than_main_last_round, 0);
    double open_ms = 0, first_ms = 0, first_cpu_ms = 0;
    for (int r = 0; r < j->nranks; r++) {
        open_ms += j->ranks[r].open_ms / j->nranks;
        first_ms += j->ranks[r].first_ms / j->nranks;
        first_cpu_ms += j->ranks[r].first_cpu_ms / j->nranks;
    }
    printf("%s ranks=%d cold: open %.1f ms + first sample %.1f ms (cpu %.1f ms)\n", j->flavor,
           j->nranks, open_ms, first_ms, first_cpu_ms);
    printf(
        "%s ranks=%d warm (%zu samples, %d stopping more than the main thread, %d more taken again "
        "for a late main thread), median/p90 "
        "in us: total %.0f/%.0f, waiting for the stop %.0f/%.0f, held stopped %.0f/%.0f, sampler "
        "cpu %.0f/%.0f\n",
        j->flavor, j->nranks, k, more_than_main, late, quantile(total, k, 0.5),
        quantile(total, k, 0.9), quantile(stop, k, 0.5), quantile(stop, k, 0.9),
        quantile(held, k, 0.5), quantile(held, k, 0.9), quantile(cpu, k, 0.5),
        quantile(cpu, k, 0.9));
    free(total);
    free(held);
    free(cpu);
    free(stop);
}

static void stop_job(job *j)
{
    for (int r = 0; r < j->nranks; r++) {
        MG_CHECK_INT(sampler_ptrace_close(j->ranks[r].sampler), MG_ERROR_OK);
        j->ranks[r].sampler = NULL;
    }
    kill(j->launcher_pid, SIGTERM);
    for (int i = 0; i < 50 && waitpid(j->launcher_pid, NULL, WNOHANG) == 0; i++) {
        sleep_ms(100);
    }
    kill(j->launcher_pid, SIGKILL);
    for (int r = 0; r < j->nranks; r++) {
        if (j->ranks[r].pid > 0 && runs_target(j->ranks[r].pid, j->target)) {
            kill(j->ranks[r].pid, SIGKILL);
        }
    }
    waitpid(j->launcher_pid, NULL, 0);
}

static job the_job;

static void test_ranks_sampled_where_the_job_puts_them(void)
{
    job *j = &the_job;
    j->launcher_pid = launch(j);
    int found = find_ranks(j);
    MG_CHECK_INT(found, j->nranks);
    bool opened = found == j->nranks && open_all(j) == MG_ERROR_OK;
    MG_CHECK(opened);
    bool steady = opened && wait_steady(j);
    MG_CHECK(steady);
    if (steady) {
        check_and_measure(j);
        check_sources(j);
    }
    stop_job(j);
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s openmpi|mpich LAUNCHER TARGET RANKS [ROUNDS]\n", argv[0]);
        return 2;
    }
    job *j = &the_job;
    preloaded = getenv("SAMPLER_TEST_PRELOAD");
    j->flavor = argv[1];
    j->launcher = argv[2];
    j->target = argv[3];
    j->nranks = atoi(argv[4]);
    j->rounds = argc > 5 ? atoi(argv[5]) : DEFAULT_ROUNDS;
    if (j->nranks < 2 || j->nranks > MAX_RANKS || j->rounds < 1) {
        fprintf(stderr, "RANKS must be 2..%d and ROUNDS positive\n", MAX_RANKS);
        return 2;
    }
    MG_RUN(test_ranks_sampled_where_the_job_puts_them);
    MG_TEST_END();
}
