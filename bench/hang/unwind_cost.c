/* The ptrace sampler's held time on one process (sampler_ptrace_result.unwind_ns: registers and unwind,
 * the part a change to the unwinder moves), for bench/hang/unwind_cost.sh: a child DEPTH calls
 * deep spins, in its main code or (HANDLER 1) in a signal handler taken there; SAMPLES samples;
 * prints the median ns of unwind_ns and the frames of the last sample.
 *   unwind_cost SAMPLES DEPTH HANDLER */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sampler_ptrace.h"

static volatile sig_atomic_t spinning;

/* Spins for ever: the flag is never negative (the compiler cannot know). */
static void spin(int signo)
{
    (void)signo;
    while (spinning >= 0)
        spinning = 1;
}

static int nest(int depth, int handler);
/* called through a pointer the compiler cannot follow: no recursion turned into a loop */
static int (*volatile nested)(int, int) = nest;

static int nest(int depth, int handler)
{
    if (depth > 0)
        return nested(depth - 1, handler) + 1; /* not a tail call: each level keeps its frame */
    if (handler)
        raise(SIGUSR2);
    spin(0);
    return 0;
}

static int compare(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc != 4)
        return 2;
    int samples = atoi(argv[1]), depth = atoi(argv[2]), handler = atoi(argv[3]);
    signal(SIGUSR2, spin);
    pid_t pid = fork();
    if (pid == 0)
        return nest(depth, handler);
    usleep(200000);
    sampler_ptrace_params params;
    sampler_ptrace_params_default(&params);
    sampler_ptrace *s = NULL;
    int64_t *ns = calloc((size_t)samples, sizeof *ns);
    const sampler_ptrace_result *out = NULL;
    int rc = ns ? sampler_ptrace_open(pid, &params, &s) : 1;
    for (int i = 0; rc == 0 && i < samples; i++) {
        rc = sampler_ptrace_sample(s, &out);
        ns[i] = rc == 0 ? out->unwind_ns : 0;
    }
    if (rc == 0) {
        qsort(ns, (size_t)samples, sizeof *ns, compare);
        printf("%lld %zu\n", (long long)ns[samples / 2], out->nthreads ? out->threads[0].nframes : 0);
    }
    sampler_ptrace_close(s);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    free(ns);
    return rc != 0;
}
