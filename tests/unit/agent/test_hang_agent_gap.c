/* A node agent of hang (src/agent/hang_agent.h) under ptrace answers a gap-only READ, a
 * verification retake through agents, without stopping the rank, as a local probe does (issue 29):
 * this test is the front, the agent runs in a thread of it and reads a busy child process that
 * stands in for rank 0 of a job. The child makes no system call, so its voluntary context switches
 * count the ptrace stops it took: a reading with the CPU time adds some, a gap-only one none, and
 * the gap-only reading still carries the CPU time that grew meanwhile. The held time each reading
 * carries says the same: above 0 for a reading that stopped the rank, 0 for a gap-only one. */
#include "agent_proto.h"
#include "agent_reads.h"
#include "hang_agent.h"
#include "mg_env.h"
#include "mg_error.h"
#include "mg_test.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct agent_run {
    hang_agent_params params;
    int rc;
    char err[160];
} agent_run;

static void *agent_main(void *arg)
{
    agent_run *run = arg;
    run->rc = hang_agent_run(&run->params, run->err, sizeof run->err);
    return NULL;
}

/* Rank 0 of job token: this program again, spinning (its environment is what the agent finds). */
static pid_t spawn_rank(const char *token)
{
    char token_var[96];
    snprintf(token_var, sizeof token_var, "%s=%s", MG_ENV_JOB_TOKEN, token);
    char *argv[] = {"test_hang_agent_gap", "spin", NULL};
    char *envp[] = {token_var, "PMI_RANK=0", "PMI_SIZE=1", NULL};
    pid_t pid = fork();
    if (pid == 0) {
        execve("/proc/self/exe", argv, envp);
        _exit(127);
    }
    return pid;
}

static long voluntary_switches(pid_t pid)
{
    char path[64], line[256];
    long n = -1;
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "re");
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "voluntary_ctxt_switches: %ld", &n) == 1)
            break;
    if (f)
        fclose(f);
    return n;
}

/* Until the rank has run past cpu_ns (its CPU time in ns), within 10 s: on a loaded node a
 * runnable process may wait long for a CPU, and a gap-only reading must find time that grew. */
static void wait_to_run_past(pid_t pid, int64_t cpu_ns)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/schedstat", (int)pid);
    for (int k = 0; k < 1000; k++) {
        long long on_cpu = -1;
        FILE *f = fopen(path, "re");
        if (f) {
            if (fscanf(f, "%lld", &on_cpu) != 1)
                on_cpu = -1;
            fclose(f);
        }
        if (on_cpu > cpu_ns)
            return;
        usleep(10000);
    }
}

/* The front's READ of rank 0 of the given kind, and the agent's answer. */
static agent_proto_reading read_rank0(int fd, int kind, agent_proto_buf *b)
{
    agent_proto_reading r = agent_reads_unseen(0);
    MG_CHECK_INT(agent_proto_frame_begin(b, AGENT_PROTO_MSG_READ), MG_ERROR_OK);
    MG_CHECK_INT(agent_proto_put_u32(b, (uint32_t)kind) || agent_proto_put_u32(b, 1) || agent_proto_put_u32(b, 0),
                 MG_ERROR_OK);
    agent_proto_frame_finish(b);
    MG_CHECK_INT(agent_proto_send(fd, b), MG_ERROR_OK);
    agent_proto_msg_type type;
    agent_proto_cursor c;
    uint32_t count = 0;
    char err[160];
    MG_CHECK_INT(agent_proto_recv(fd, b, &type, &c, err, sizeof err), MG_ERROR_OK);
    MG_CHECK(type == AGENT_PROTO_MSG_READINGS && agent_proto_get_u32(&c, &count) == MG_ERROR_OK && count == 1);
    MG_CHECK_INT(agent_proto_get_reading(&c, &r), MG_ERROR_OK);
    return r;
}

static void gap_only_read_through_an_agent_stops_no_rank(void)
{
    char token[64];
    snprintf(token, sizeof token, "gapagent%d", (int)getpid());
    pid_t rank = spawn_rank(token);
    MG_CHECK(rank > 0);
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof addr;
    MG_CHECK(listener >= 0 && bind(listener, (struct sockaddr *)&addr, sizeof addr) == 0 &&
             listen(listener, 1) == 0 &&
             getsockname(listener, (struct sockaddr *)&addr, &len) == 0);
    uint8_t secret[AGENT_PROTO_SECRET_BYTES] = {7};
    agent_run run = {.params = {.host = "127.0.0.1",
                                .port = ntohs(addr.sin_port),
                                .token = token,
                                .secret = secret,
                                .kind = RANK_PROBE_PTRACE,
                                .first_rank = 0,
                                .last_rank = 0,
                                .discover_seconds = 20},
                     .rc = -1};
    pthread_t thread;
    MG_CHECK_INT(pthread_create(&thread, NULL, agent_main, &run), 0);
    int fd = accept(listener, NULL, NULL);
    MG_CHECK(fd >= 0);
    MG_CHECK_INT(agent_proto_auth_recv(fd, secret), MG_ERROR_OK);
    agent_proto_buf b = {0};
    agent_proto_msg_type type;
    agent_proto_cursor c;
    char err[160];
    MG_CHECK_INT(agent_proto_recv(fd, &b, &type, &c, err, sizeof err), MG_ERROR_OK);
    MG_CHECK_INT(type, AGENT_PROTO_MSG_HELLO);

    /* the first reading samples the rank: a stop. It waits until the rank has run: the kernel
     * adds a running task's CPU time at its ticks and switches, so a rank just started reads 0
     * (CI: a reading 30 ms after the fork). On a loaded node the sampler may give up waiting for
     * the rank to take its stop (a reading without a sample, as on a real job), so the test reads
     * again until one stop is seen, within a bound. */
    wait_to_run_past(rank, 0);
    agent_proto_reading full;
    long before, sampled;
    int tries = 0;
    do {
        before = voluntary_switches(rank);
        full = read_rank0(fd, AGENT_READS_CPU_TIME, &b);
        usleep(200000); /* a stop that came late is counted before the gap-only readings */
        sampled = voluntary_switches(rank);
    } while ((sampled <= before || full.held_ns <= 0) && ++tries < 20);
    MG_CHECK(!full.unseen);
    MG_CHECK(!full.exited);
    MG_CHECK(full.cpu_time_ns > 0);
    /* the stop travels with the reading, for the front's monitor cost */
    MG_CHECK(full.held_ns > 0 && full.frozen_ns >= 0 && full.frozen_ns <= full.held_ns);
    MG_CHECK(before >= 0 && sampled > before);
    /* retakes: CPU time and counter, no stop */
    agent_proto_reading gap = full;
    for (int k = 0; k < 3; k++) {
        agent_proto_reading last = gap;
        wait_to_run_past(rank, last.cpu_time_ns);
        gap = read_rank0(fd, AGENT_READS_GAP_ONLY, &b);
        MG_CHECK(!gap.unseen && !gap.exited && !gap.in_mpi);
        MG_CHECK(gap.cpu_time_ns > last.cpu_time_ns);
        MG_CHECK(gap.held_ns == 0 && gap.frozen_ns == 0);
    }
    long retaken = voluntary_switches(rank);
    MG_CHECK_INT(retaken, sampled);
    /* the scan after them stops it again: the count above would have seen a stop */
    agent_proto_reading scan = read_rank0(fd, AGENT_READS_CPU_TIME, &b);
    MG_CHECK(!scan.unseen && scan.cpu_time_ns >= gap.cpu_time_ns && scan.held_ns > 0);
    MG_CHECK(voluntary_switches(rank) > retaken);

    MG_CHECK_INT(agent_proto_frame_begin(&b, AGENT_PROTO_MSG_BYE), MG_ERROR_OK);
    agent_proto_frame_finish(&b);
    MG_CHECK_INT(agent_proto_send(fd, &b), MG_ERROR_OK);
    pthread_join(thread, NULL);
    MG_CHECK_INT(run.rc, MG_ERROR_OK);
    close(fd);
    close(listener);
    agent_proto_buf_free(&b);
    kill(rank, SIGKILL);
    waitpid(rank, NULL, 0);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "spin") == 0)
        for (volatile unsigned long i = 0;; i++)
            continue;
    MG_RUN(gap_only_read_through_an_agent_stops_no_rank);
    MG_TEST_END();
}
