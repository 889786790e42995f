/* The ptrace probe of a rank that publishes its state segment (src/agent/rank_probe.h, issue 29
 * item 5): the model's samples and the scans of a rank inside MPI are read from the segment
 * without a stop; a scan that finds it outside MPI takes its stack, whose verdict stands; a
 * segment another process published is not read. The rank is a forked child that never calls
 * MPI, so a reading that stopped it says "outside MPI" with a held time, whatever the segment
 * says. */
#include "mg_error.h"
#include "mg_test.h"
#include "rank_probe.h"
#include "rank_segment.h"
#include "rank_state.h"

#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static char token[64];

/* n completed calls of fn, the rank left inside fn when inside (threads_in_mpi 1). */
static void calls(rank_state *s, mpi_function_ids_fn fn, unsigned n, int inside)
{
    atomic_store(&s->current_fn, fn);
    atomic_fetch_add(&s->calls_not_polling, n);
    atomic_fetch_add(&s->calls, n);
    atomic_store(&s->threads_in_mpi, inside ? 1U : 0U);
}

static pid_t spawn_rank(void)
{
    pid_t child = fork();
    if (child == 0) {
        for (;;)
            pause();
    }
    MG_CHECK(child > 0);
    return child;
}

static void end_rank(pid_t child)
{
    kill(child, SIGKILL);
    int status;
    MG_CHECK_INT((int)waitpid(child, &status, 0), (int)child);
}

static void the_segment_answers_the_model_and_scans_inside_mpi(void)
{
    pid_t child = spawn_rank();
    rank_state *s = rank_segment_publish(token, 0, child);
    MG_CHECK(s != NULL);
    rank_probe *p = NULL;
    MG_CHECK_INT(rank_probe_open(RANK_PROBE_PTRACE, token, 0, child, &p), MG_ERROR_OK);
    if (!s || !p)
        return;
    rank_probe_reading r;
    calls(s, MG_FN_Recv, 3, 1);
    for (int i = 0; i < 5; i++) {
        MG_CHECK_INT(rank_probe_read(p, 0, &r), MG_ERROR_OK);
        MG_CHECK(r.in_mpi);
        MG_CHECK_INT((int)r.fn, (int)MG_FN_Recv);
        MG_CHECK_INT((int)r.held_ns, 0);
        MG_CHECK(!r.progressed);
    }
    MG_CHECK_INT(rank_probe_read(p, RANK_PROBE_CPU_TIME, &r), MG_ERROR_OK);
    MG_CHECK(r.in_mpi);
    MG_CHECK_INT((int)r.held_ns, 0);
    MG_CHECK(r.cpu_time_ns >= 0);
    /* computing between calls: still no stop for the model, which counts it active */
    calls(s, MG_FN_Send, 4, 0);
    MG_CHECK_INT(rank_probe_read(p, 0, &r), MG_ERROR_OK);
    MG_CHECK(!r.in_mpi);
    MG_CHECK(r.progressed);
    MG_CHECK_INT((int)r.counter, 7);
    MG_CHECK_INT((int)r.held_ns, 0);
    /* nor for a gap-only retake */
    MG_CHECK_INT(rank_probe_read(p, RANK_PROBE_GAP_ONLY, &r), MG_ERROR_OK);
    MG_CHECK_INT((int)r.held_ns, 0);
    MG_CHECK(!r.progressed);
    /* a full scan outside MPI stops it for its stack, and keeps the segment's count */
    MG_CHECK_INT(rank_probe_read(p, RANK_PROBE_CPU_TIME, &r), MG_ERROR_OK);
    MG_CHECK(!r.in_mpi);
    MG_CHECK(!r.exited);
    MG_CHECK(r.held_ns > 0);
    MG_CHECK_INT((int)r.counter, 7);
    MG_CHECK(r.counter_known);
    rank_probe_close(p);
    end_rank(child);
    rank_segment_unpublish(token, 0, s);
}

/* A rank in MPI_Recv by a segment the probe must not read is stopped, and its stack (no MPI)
 * stands: segment_pid 0 publishes it as the rank's own. */
static void sampled_despite_segment(int segment_pid, const char *probe_token)
{
    pid_t child = spawn_rank();
    rank_state *s = rank_segment_publish(token, 0, segment_pid ? segment_pid : child);
    MG_CHECK(s != NULL);
    rank_probe *p = NULL;
    MG_CHECK_INT(rank_probe_open(RANK_PROBE_PTRACE, probe_token, 0, child, &p), MG_ERROR_OK);
    if (s && p) {
        calls(s, MG_FN_Recv, 3, 1);
        rank_probe_reading r;
        MG_CHECK_INT(rank_probe_read(p, 0, &r), MG_ERROR_OK);
        MG_CHECK(!r.in_mpi);
        MG_CHECK(r.held_ns > 0);
    }
    rank_probe_close(p);
    end_rank(child);
    rank_segment_unpublish(token, 0, s);
}

/* The segment of a wrapper's process, not the rank's. */
static void another_process_segment_is_not_read(void)
{
    sampled_despite_segment((int)getpid(), token);
}

/* A probe without the token: a rank handed to ptrace because its calls bypass the wrappers. */
static void a_probe_without_token_samples(void)
{
    sampled_despite_segment(0, NULL);
}

int main(void)
{
    snprintf(token, sizeof token, "probe-segment-%d", (int)getpid());
    MG_RUN(the_segment_answers_the_model_and_scans_inside_mpi);
    MG_RUN(another_process_segment_is_not_read);
    MG_RUN(a_probe_without_token_samples);
    MG_TEST_END();
}
