/* What a reading says of a rank's use of the CPU (rank_probe_reading.runnable, .cpu_time_ns), which
 * verification needs to tell a stalled node from a hang (docs/hang.md), on real processes forked by
 * this test and read through ptrace. */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mg_error.h"
#include "mg_test.h"
#include "rank_probe.h"
#include "rank_scan.h"

static pid_t child(int busy)
{
    pid_t pid = fork();
    if (pid == 0) {
        for (volatile unsigned long i = 0;; i++)
            if (!busy)
                pause();
    }
    usleep(200000);
    return pid;
}

static void reap(pid_t pid)
{
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

static void read_twice(pid_t pid, rank_probe_reading *first, rank_probe_reading *second)
{
    rank_probe *probe = NULL;
    MG_CHECK_INT(rank_probe_open(RANK_PROBE_PTRACE, "", 0, pid, &probe), MG_ERROR_OK);
    MG_CHECK_INT(probe ? rank_probe_read(probe, 1, first) : MG_ERROR_EINVAL, MG_ERROR_OK);
    usleep(300000);
    MG_CHECK_INT(probe ? rank_probe_read(probe, 1, second) : MG_ERROR_EINVAL, MG_ERROR_OK);
    rank_probe_close(probe);
}

static void busy_process_is_runnable_and_gains_cpu_time(void)
{
    pid_t pid = child(1);
    rank_probe_reading a, b;
    read_twice(pid, &a, &b);
    MG_CHECK(a.runnable && b.runnable);
    MG_CHECK(a.cpu_time_ns > 0 && b.cpu_time_ns > a.cpu_time_ns);
    MG_CHECK(a.cpu_slices > 0 && b.cpu_slices >= a.cpu_slices);
    /* A model sample does not ask for the CPU time: the reading says it is unknown. */
    rank_probe *probe = NULL;
    MG_CHECK_INT(rank_probe_open(RANK_PROBE_PTRACE, "", 0, pid, &probe), MG_ERROR_OK);
    MG_CHECK_INT(probe ? rank_probe_read(probe, 0, &a) : MG_ERROR_EINVAL, MG_ERROR_OK);
    MG_CHECK(a.runnable && !a.exited);
    MG_CHECK(a.cpu_time_ns == -1 && a.cpu_slices == -1);
    rank_probe_close(probe);
    reap(pid);
}

static void sleeping_and_stopped_processes_are_not_runnable(void)
{
    pid_t pid = child(0);
    rank_probe_reading a, b;
    read_twice(pid, &a, &b);
    MG_CHECK(!a.runnable && !b.runnable);
    MG_CHECK(a.cpu_time_ns >= 0 && b.cpu_time_ns >= a.cpu_time_ns);
    kill(pid, SIGSTOP);
    usleep(100000);
    read_twice(pid, &a, &b);
    MG_CHECK(!a.runnable && !b.runnable);
    reap(pid);
}

/* Stops pid and waits until it has taken the stop (a busy process under load waits for a CPU). */
static void stop(pid_t pid)
{
    kill(pid, SIGSTOP);
    for (int i = 0; i < 500 && !mg_process_state_stopped(rank_scan_process_state(pid)); i++)
        usleep(10000);
}

/* A rank stopped from outside is sampled once while it stays stopped (a sample holds it: held_ns >
 * 0); the next reading reuses that sample without stopping it (held_ns 0); once it has run again
 * (SIGCONT, then stopped anew) it is sampled again. */
static void stopped_process_is_sampled_once_while_it_stays_stopped(void)
{
    pid_t pid = child(1);
    stop(pid);
    rank_probe *probe = NULL;
    rank_probe_reading a, b, c;
    MG_CHECK_INT(rank_probe_open(RANK_PROBE_PTRACE, "", 0, pid, &probe), MG_ERROR_OK);
    MG_CHECK_INT(probe ? rank_probe_read(probe, 0, &a) : MG_ERROR_EINVAL, MG_ERROR_OK);
    stop(pid); /* released by the sample, it goes back to its stop */
    MG_CHECK_INT(probe ? rank_probe_read(probe, 1, &b) : MG_ERROR_EINVAL, MG_ERROR_OK);
    MG_CHECK(a.stopped && b.stopped && !a.exited && !b.exited);
    MG_CHECK(a.held_ns > 0 && b.held_ns == 0);
    MG_CHECK(a.in_mpi == b.in_mpi && !b.in_mpi);
    kill(pid, SIGCONT);
    usleep(200000);
    stop(pid);
    MG_CHECK_INT(probe ? rank_probe_read(probe, 0, &c) : MG_ERROR_EINVAL, MG_ERROR_OK);
    MG_CHECK(c.stopped && c.held_ns > 0);
    rank_probe_close(probe);
    reap(pid);
}

/* A verification retake asks only for the CPU time (RANK_PROBE_GAP_ONLY): a rank sampled before is
 * not stopped for it (held_ns 0), and its CPU time is read all the same; a rank never sampled is. */
static void gap_only_reading_stops_no_rank_sampled_before(void)
{
    pid_t pid = child(1);
    rank_probe *probe = NULL;
    rank_probe_reading a, b, c;
    MG_CHECK_INT(rank_probe_open(RANK_PROBE_PTRACE, "", 0, pid, &probe), MG_ERROR_OK);
    MG_CHECK_INT(probe ? rank_probe_read(probe, RANK_PROBE_GAP_ONLY, &a) : MG_ERROR_EINVAL, MG_ERROR_OK);
    MG_CHECK(a.held_ns > 0 && !a.in_mpi);
    usleep(100000);
    MG_CHECK_INT(probe ? rank_probe_read(probe, RANK_PROBE_GAP_ONLY, &b) : MG_ERROR_EINVAL, MG_ERROR_OK);
    MG_CHECK(b.held_ns == 0 && !b.exited && !b.in_mpi);
    MG_CHECK(b.cpu_time_ns > a.cpu_time_ns && b.cpu_slices >= a.cpu_slices);
    MG_CHECK_INT(probe ? rank_probe_read(probe, RANK_PROBE_CPU_TIME, &c) : MG_ERROR_EINVAL, MG_ERROR_OK);
    MG_CHECK(c.held_ns > 0 && c.cpu_time_ns >= b.cpu_time_ns);
    rank_probe_close(probe);
    reap(pid);
}

static void gone_process_has_no_cpu_time(void)
{
    pid_t pid = child(0);
    rank_probe *probe = NULL;
    MG_CHECK_INT(rank_probe_open(RANK_PROBE_PTRACE, "", 0, pid, &probe), MG_ERROR_OK);
    reap(pid);
    rank_probe_reading r;
    MG_CHECK_INT(probe ? rank_probe_read(probe, 1, &r) : MG_ERROR_EINVAL, MG_ERROR_OK);
    MG_CHECK(r.exited && !r.runnable && r.cpu_time_ns == -1 && r.cpu_slices == -1);
    rank_probe_close(probe);
    int64_t cpu, slices;
    MG_CHECK_INT(rank_scan_cpu_time(pid, &cpu, &slices), MG_ERROR_ENOENT);
    MG_CHECK(cpu == -1 && slices == -1);
}

static void share_is_the_cpus_over_the_ranks(void)
{
    size_t cpus = 0;
    while (rank_scan_cpu_share(cpus + 1) == 1.0 && cpus < 4096)
        cpus++;
    MG_CHECK(cpus >= 1 && cpus < 4096);
    MG_CHECK_NEAR(rank_scan_cpu_share(4 * cpus), 0.25, 1e-12);
    MG_CHECK_NEAR(rank_scan_cpu_share(0), 1.0, 1e-12);
}

int main(void)
{
    MG_RUN(busy_process_is_runnable_and_gains_cpu_time);
    MG_RUN(sleeping_and_stopped_processes_are_not_runnable);
    MG_RUN(stopped_process_is_sampled_once_while_it_stays_stopped);
    MG_RUN(gap_only_reading_stops_no_rank_sampled_before);
    MG_RUN(gone_process_has_no_cpu_time);
    MG_RUN(share_is_the_cpus_over_the_ranks);
    MG_TEST_END();
}
