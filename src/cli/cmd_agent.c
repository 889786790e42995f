/* `mpiguard agent`: the per-node agent `mpiguard hang` starts by itself (docs/hang.md, "Many
 * nodes"); users do not run it by hand. */
#include "cli.h"
#include "hang_agent.h"

#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const agent_samplers[] = {"shm", "ptrace", NULL};

int cmd_agent(int argc, char **argv)
{
    static const char usage[] =
        "mpiguard agent --connect HOST:PORT --token TOKEN [--sampler shm|ptrace] [--ranks A-B]";
    const char *connect = NULL, *token = NULL, *ranks = NULL;
    int sampler = 0;
    const mg_option options[] = {
        {"connect", 0, MG_OPT_STRING, &connect, "HOST:PORT", "the front to answer", NULL, 0, 0},
        {"token", 0, MG_OPT_STRING, &token, "TOKEN", "the job's token", NULL, 0, 0},
        {"sampler", 0, MG_OPT_CHOICE, &sampler, "shm|ptrace", "how ranks are looked at", agent_samplers, 0, 0},
        {"ranks", 0, MG_OPT_STRING, &ranks, "A-B", "own only these ranks (agents standing in for nodes)",
         NULL, 0, 0},
        {NULL, 0, 0, NULL, NULL, NULL, NULL, 0, 0},
    };
    mg_parsed_args args;
    int done;
    int rc = cli_parse(usage, "The per-node agent of mpiguard hang; started by mpiguard hang itself.",
                       options, argc, argv, 0, NULL, 0, &args, &done);
    if (rc || done)
        return rc;
    const char *colon = connect ? strrchr(connect, ':') : NULL;
    hang_agent_params p = {.token = token, .kind = sampler ? MG_PROBE_PTRACE : MG_PROBE_SHM,
                           .first_rank = -1, .last_rank = -1, .discover_seconds = 30};
    if (!colon || !token || (ranks && sscanf(ranks, "%d-%d", &p.first_rank, &p.last_rank) != 2) ||
        (ranks && (p.first_rank < 0 || p.last_rank < p.first_rank))) {
        mg_error("agent: needs --connect HOST:PORT, --token, and --ranks as A-B");
        return MG_EXIT_USAGE;
    }
    char host[256];
    snprintf(host, sizeof host, "%.*s", (int)(colon - connect), connect);
    p.host = host;
    p.port = atoi(colon + 1);
    char err[256];
    rc = hang_agent_run(&p, err, sizeof err);
    if (rc) {
        mg_error("agent: %s", err);
        return rc == MG_ENOENT ? MG_EXIT_NOINPUT : MG_EXIT_SOFTWARE;
    }
    return 0;
}
