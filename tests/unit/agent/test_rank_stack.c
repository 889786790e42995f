/* The stack a hang report shows (rank_probe_stack), on real processes forked by this test: a
 * process whose only thread cannot stop within the sampler's 2 s timeout at first (it waits 3 s in
 * vfork) still gets its stack, from a later sample, and its readings meanwhile say it lives; a
 * process that is gone gets an empty one at once. Spec: docs/sampler.md "Guarantees". */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mg_clock.h"
#include "mg_error.h"
#include "mg_test.h"
#include "rank_probe.h"

enum { VFORK_CHILD_MS = 3000 };

/* The parent of vfork sleeps killable until the child exits: PTRACE_INTERRUPT cannot stop it. */
__attribute__((noinline)) static void wait_in_vfork(void)
{
    pid_t child = vfork();
    if (child == 0) {
        struct timespec ts = {VFORK_CHILD_MS / 1000, 0};
        syscall(SYS_nanosleep, &ts, NULL);
        _exit(0);
    }
    waitpid(child, NULL, 0);
    for (;;)
        pause();
}

static int has_function(const rank_stack *st, const char *name)
{
    for (size_t i = 0; i < st->nframes; i++)
        if (strcmp(st->frames[i].function, name) == 0)
            return 1;
    return 0;
}

/* A child held in vfork (its main thread cannot take a ptrace stop), and a ptrace probe on it. */
static pid_t fork_in_vfork(rank_probe **probe)
{
    pid_t pid = fork();
    if (pid == 0)
        wait_in_vfork();
    usleep(200000); /* into vfork */
    MG_CHECK_INT(rank_probe_open(RANK_PROBE_PTRACE, "", 0, pid, probe), MG_ERROR_OK);
    return pid;
}

static void test_late_thread_is_sampled_again(void)
{
    rank_probe *probe = NULL;
    pid_t pid = fork_in_vfork(&probe);
    rank_stack st;
    if (probe)
        rank_probe_stack(probe, &st);
    /* The first sample timed out with no thread stopped; a later one caught the thread back from
     * vfork. */
    MG_CHECK(probe && st.nframes > 0);
    MG_CHECK(probe && has_function(&st, "wait_in_vfork"));
    rank_probe_close(probe);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

static char process_state(pid_t pid)
{
    char path[64], buf[512] = "";
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (f) {
        (void)!fgets(buf, sizeof buf, f);
        fclose(f);
    }
    const char *paren = strrchr(buf, ')');
    return paren && paren[1] ? paren[2] : '?';
}

/* A reading whose sample stops no thread in time (a main thread kept from a CPU past the timeout,
 * here kept in vfork) is of a live rank, not an error (read as a rank gone, CI's "has exited");
 * the thread, stopped after the sample gave up, is let go before the next reading looks at the
 * process, which then does not read as stopped from outside. */
static void test_late_rank_reads_alive_and_is_let_go(void)
{
    rank_probe *probe = NULL;
    pid_t pid = fork_in_vfork(&probe);
    rank_probe_reading reading;
    MG_CHECK_INT(probe ? rank_probe_read(probe, 1, &reading) : MG_ERROR_EINVAL, MG_ERROR_OK);
    MG_CHECK(!reading.exited && !reading.stopped);
    usleep(VFORK_CHILD_MS * 1000); /* back from vfork into the pending interrupt: held by us */
    MG_CHECK(process_state(pid) == 't');
    MG_CHECK_INT(probe ? rank_probe_read(probe, 1, &reading) : MG_ERROR_EINVAL, MG_ERROR_OK);
    MG_CHECK(!reading.exited && !reading.stopped);
    MG_CHECK(process_state(pid) != 't'); /* let go */
    rank_probe_close(probe);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

static void test_gone_process_gives_an_empty_stack_at_once(void)
{
    pid_t pid = fork();
    if (pid == 0)
        for (;;)
            pause();
    rank_probe *probe = NULL;
    MG_CHECK_INT(rank_probe_open(RANK_PROBE_PTRACE, "", 0, pid, &probe), MG_ERROR_OK);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    rank_stack st;
    double t0 = mg_clock_seconds();
    if (probe)
        rank_probe_stack(probe, &st);
    MG_CHECK(probe && st.nframes == 0);
    MG_CHECK(mg_clock_seconds() - t0 < 1.0);
    rank_probe_close(probe);
}

int main(void)
{
    MG_RUN(test_late_thread_is_sampled_again);
    MG_RUN(test_late_rank_reads_alive_and_is_let_go);
    MG_RUN(test_gone_process_gives_an_empty_stack_at_once);
    MG_TEST_END();
}
