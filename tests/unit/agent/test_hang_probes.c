/* The watch's reading of a rank that cannot be read (src/agent/hang_probes.h, issue 29): a live
 * process ptrace cannot take (another tracer holds it: here this test) is unreadable, never
 * exited; once it is gone, it is exited. */
#include "hang_probes.h"

#include "mg_test.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

static void a_refused_rank_is_unreadable_until_gone(void)
{
    pid_t child = fork();
    if (child == 0) {
        for (;;)
            pause();
    }
    MG_CHECK(child > 0);
    MG_CHECK_INT((int)ptrace(PTRACE_SEIZE, child, NULL, NULL), 0);
    job_session_rank rank = {.pid = child};
    job_session js = {.tool = "test", .ranks = &rank, .nranks = 1, .found = 1};
    hang_probes p = {.job = &js,
                     .kind = RANK_PROBE_PTRACE,
                     .probe = calloc(1, sizeof(rank_probe *)),
                     .warned = calloc(1, 1)};
    struct hang_watch_reading r;
    hang_probes_read_for_watch(&p, 0, false, &r);
    MG_CHECK(r.unreadable);
    MG_CHECK(!r.exited);
    MG_CHECK(!r.known);
    kill(child, SIGKILL);
    int status;
    MG_CHECK_INT((int)waitpid(child, &status, 0), (int)child);
    hang_probes_read_for_watch(&p, 0, false, &r);
    MG_CHECK(r.exited);
    MG_CHECK(!r.unreadable);
    hang_probes_close(&p);
}

int main(void)
{
    MG_RUN(a_refused_rank_is_unreadable_until_gone);
    MG_TEST_END();
}
