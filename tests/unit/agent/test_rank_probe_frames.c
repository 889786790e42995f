/* The ptrace probe of a rank without the library's call counter (a job attached to; rank_probe.c
 * read_counter_only, issue 29 item 5): a model reading of a rank whose stack above the MPI call the
 * latest sample caught it in has changed since is answered without a stop, at most 3 in a row; a
 * rank that stays in its call is sampled at every reading. The ranks are forked children calling
 * a function named like an MPI entry (the classifier takes it as one). */
#include "mg_error.h"
#include "mg_test.h"
#include "rank_probe.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { READINGS = 16, READING_GAP_MS = 30, CALL_SPINS = 200000, PROGRESS_WAIT_MS = 10000 };

/* The calls the rank in a loop made, shared with the test (MAP_SHARED before fork). */
static atomic_ullong *calls_made;

__attribute__((noinline, noclone)) void MPI_Fake_call(void)
{
    for (volatile unsigned i = 0; i < CALL_SPINS; i++) {
    }
}

__attribute__((noinline, noclone)) void MPI_Fake_wait(void)
{
    for (;;)
        __asm__ volatile("" ::: "memory");
}

/* A rank that keeps coming back to its call, its loop's count kept on its stack, as a stencil's
 * iteration count is. */
__attribute__((noinline, noclone)) static void call_in_a_loop(void)
{
    for (volatile uint64_t iteration = 0;; iteration++) {
        MPI_Fake_call();
        atomic_fetch_add(calls_made, 1);
    }
}

/* A rank stuck in its call. */
__attribute__((noinline, noclone)) static void call_forever(void)
{
    volatile uint64_t iteration = 0;
    MPI_Fake_wait();
    iteration++;
}

static pid_t spawn_rank(void (*body)(void))
{
    atomic_store(calls_made, 0);
    pid_t child = fork();
    if (child == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        body();
        _exit(0);
    }
    MG_CHECK(child > 0);
    usleep(50000);
    return child;
}

/* Waits READING_GAP_MS, and for the rank in a loop to have come back to its call twice: on a
 * loaded machine it may not run for longer than that. */
static void between_readings(void (*body)(void))
{
    unsigned long long from = atomic_load(calls_made);
    nanosleep(&(struct timespec){0, READING_GAP_MS * 1000000L}, NULL);
    for (int i = 0;
         body == call_in_a_loop && i < PROGRESS_WAIT_MS && atomic_load(calls_made) < from + 2; i++)
        nanosleep(&(struct timespec){0, 1000000L}, NULL);
}

static void end_rank(pid_t child)
{
    kill(child, SIGKILL);
    int status;
    MG_CHECK_INT((int)waitpid(child, &status, 0), (int)child);
}

/* READINGS model readings of the rank, READING_GAP_MS apart: how many stopped it (a held time),
 * and how many of those that did not said it progressed. */
static void read_model(void (*body)(void), int *stopped, int *unstopped_progressed)
{
    pid_t child = spawn_rank(body);
    rank_probe *p = NULL;
    MG_CHECK_INT(rank_probe_open(RANK_PROBE_PTRACE, NULL, 0, child, &p), MG_ERROR_OK);
    *stopped = *unstopped_progressed = 0;
    for (int i = 0; p && i < READINGS; i++) {
        rank_probe_reading r;
        MG_CHECK_INT(rank_probe_read(p, 0, &r), MG_ERROR_OK);
        MG_CHECK(r.in_mpi);
        *stopped += r.held_ns > 0;
        *unstopped_progressed += r.held_ns == 0 && r.progressed;
        between_readings(body);
    }
    rank_probe_close(p);
    end_rank(child);
}

static void a_rank_coming_back_to_its_call_is_read_without_most_stops(void)
{
    int stopped, unstopped_progressed;
    read_model(call_in_a_loop, &stopped, &unstopped_progressed);
    /* the first reading samples; then three without a stop for each sample */
    MG_CHECK_INT(stopped, (READINGS + 3) / 4);
    MG_CHECK_INT(unstopped_progressed, READINGS - stopped);
}

static void a_rank_stuck_in_its_call_is_sampled_every_time(void)
{
    int stopped, unstopped_progressed;
    read_model(call_forever, &stopped, &unstopped_progressed);
    MG_CHECK_INT(stopped, READINGS);
    MG_CHECK_INT(unstopped_progressed, 0);
}

int main(void)
{
    calls_made = mmap(NULL, sizeof *calls_made, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                      -1, 0);
    if (calls_made == MAP_FAILED)
        return 2;
    MG_RUN(a_rank_coming_back_to_its_call_is_read_without_most_stops);
    MG_RUN(a_rank_stuck_in_its_call_is_sampled_every_time);
    MG_TEST_END();
}
