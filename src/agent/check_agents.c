/* The sources of `mpiguard check`'s records (check_agents.h). */
#include "check_agents.h"

#include "agent_start.h"
#include "mg_error.h"
#include "mg_log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* The agent processes, with --agent-launcher one per node (expected: the leaves they each start,
 * numbered as on one machine), else p->agents on this machine, each owning a block of ranks. */
static int start_processes(check_agents *a, check_feed *f, const check_agents_params *p)
{
    char exe[4096], address[300], share[16], shares[16], err[256];
    uint8_t secret[AGENT_PROTO_SECRET_BYTES];
    const char *launcher = p->agent_launcher;
    int n = launcher ? 1 : (int)p->agents;
    int expected = launcher ? (int)p->detector_leaves : n;
    int fd = agent_start_listen(!launcher, 1, address, sizeof address, err, sizeof err);
    if (fd < 0)
        mg_log_error("check: %s", err);
    if (fd < 0 || agent_start_secret(secret) != MG_ERROR_OK ||
        check_remote_create(fd, expected, secret, &f->remote) != MG_ERROR_OK ||
        agent_start_self(exe, sizeof exe) != MG_ERROR_OK ||
        !(a->jobs = calloc((size_t)n, sizeof *a->jobs)))
        return MG_ERROR_ESYS;
    mg_log_info("check: the agents stream to %s", address);
    snprintf(shares, sizeof shares, "%d", launcher ? expected : n);
    for (int k = 0; k < n; k++) {
        snprintf(share, sizeof share, "%d", k);
        char *local[] = {exe,   "agent",    "check", "--connect", address,       "--share",
                         share, "--shares", shares,  "--token",   f->job->token, NULL};
        char *node[16] = {exe,
                          "agent",
                          "check",
                          "--connect",
                          address,
                          "--token",
                          f->job->token,
                          "--library",
                          f->job->library,
                          "--mpi",
                          (char *)mg_mpi_flavor_name(f->job->flavor)};
        int words = 11;
        if (expected) {
            node[words++] = "--shares";
            node[words++] = shares;
        }
        /* what each node's agent found and when, beside what this process says, when a rank
         * goes unobserved on another node */
        if (p->verbose)
            node[words++] = "-v";
        if (agent_start_launch(launcher, launcher ? node : local, &a->jobs[k], err, sizeof err) !=
            MG_ERROR_OK) {
            mg_log_error("check: %s", err);
            return MG_ERROR_ESYS;
        }
        a->njobs++;
    }
    return MG_ERROR_OK;
}

/* Makes fd inherited by the processes started next (on), or not (off). */
static int inherit(int fd, int on)
{
    int flags = fcntl(fd, F_GETFD);
    return flags < 0 ? -1 : fcntl(fd, F_SETFD, on ? flags & ~FD_CLOEXEC : flags | FD_CLOEXEC);
}

/* Starts `mpiguard agent ...` (argv) on this machine with the descriptors fds[0..n) inherited by
 * it alone. */
static int launch_with(check_agents *a, char *const *argv, const int *fds, int n)
{
    char err[256];
    int rc = MG_ERROR_OK;
    for (int i = 0; i < n && rc == MG_ERROR_OK; i++)
        rc = inherit(fds[i], 1) == 0 ? MG_ERROR_OK : MG_ERROR_ESYS;
    rc = rc ? rc : agent_start_launch(NULL, argv, &a->jobs[a->njobs], err, sizeof err);
    for (int i = 0; i < n; i++)
        inherit(fds[i], 0);
    if (rc != MG_ERROR_OK)
        mg_log_error("check: %s", rc == MG_ERROR_ESYS ? strerror(errno) : err);
    else
        a->njobs++;
    return rc;
}

/* The tree of detectors on this machine: per share k of n, an agent draining its rings into a
 * leaf stage (tbon_stage.h) over a socketpair, and the leaf streaming to this process, the root,
 * over another, which the agents' listener code reads as it reads agents. */
static int start_leaves(check_agents *a, check_feed *f, int n)
{
    char exe[4096], share[16], shares[16], to_leaf[16], from_agent[16], to_root[32];
    uint8_t secret[AGENT_PROTO_SECRET_BYTES];
    if (agent_start_self(exe, sizeof exe) != MG_ERROR_OK ||
        agent_start_secret(secret) != MG_ERROR_OK ||
        check_remote_create(-1, n, secret, &f->remote) != MG_ERROR_OK ||
        !(a->jobs = calloc(2 * (size_t)n, sizeof *a->jobs)))
        return MG_ERROR_ESYS;
    snprintf(shares, sizeof shares, "%d", n);
    for (int k = 0; k < n; k++) {
        int agent_leaf[2], leaf_root[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, agent_leaf) != 0)
            return MG_ERROR_ESYS;
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, leaf_root) != 0) {
            close(agent_leaf[0]);
            close(agent_leaf[1]);
            return MG_ERROR_ESYS;
        }
        snprintf(share, sizeof share, "%d", k);
        snprintf(to_leaf, sizeof to_leaf, "%d", agent_leaf[0]);
        snprintf(from_agent, sizeof from_agent, "%d", agent_leaf[1]);
        snprintf(to_root, sizeof to_root, "%d/%d", leaf_root[1], leaf_root[1]);
        char *agent[] = {exe,   "agent",    "check", "--output", to_leaf,       "--share",
                         share, "--shares", shares,  "--token",  f->job->token, NULL};
        char *leaf[] = {exe,    "agent",    "stage",    "--share",  share,   "--shares",
                        shares, "--inputs", from_agent, "--output", to_root, NULL};
        const int leaf_fds[] = {agent_leaf[1], leaf_root[1]};
        int rc = launch_with(a, agent, agent_leaf, 1);
        rc = rc ? rc : launch_with(a, leaf, leaf_fds, 2);
        close(agent_leaf[0]);
        close(agent_leaf[1]);
        close(leaf_root[1]);
        if (rc != MG_ERROR_OK)
            close(leaf_root[0]);
        /* the root reads the leaf's stream (its AUTH frame first) as it reads an agent's */
        rc = rc ? rc : check_remote_adopt_leaf(f->remote, leaf_root[0], k, n);
        if (rc != MG_ERROR_OK)
            return rc;
    }
    return MG_ERROR_OK;
}

int check_agents_start(check_agents *a, check_feed *f, const check_agents_params *p)
{
    if (p->detector_leaves && !p->agent_launcher)
        return start_leaves(a, f, (int)p->detector_leaves);
    if (p->agents || p->agent_launcher)
        return start_processes(a, f, p);
    return check_agent_create(f->job->token, 0, 1, &f->agent);
}

void check_agents_stop(check_agents *a, check_feed *f)
{
    for (int k = 0; k < a->njobs; k++)
        job_destroy(a->jobs[k]);
    free(a->jobs);
    *a = (check_agents){0};
    check_remote_destroy(f->remote);
    f->remote = NULL;
}
