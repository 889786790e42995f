/* `mpiguard agent <tool>`: the one entry point of every tool's per-node agent, which the tool
 * starts by itself (users do not run it by hand): `hang` answers the front's requests for
 * readings and stacks (docs/hang.md, "Many nodes"); `check` streams its ranks' records to the
 * detector (docs/design/check.md, "How it is built"). Both speak src/wire/agent_proto.h. */
#include "agent_stage.h"
#include "check_agent_proc.h"
#include "cli.h"
#include "hang_agent.h"

#include "agent_proto.h"
#include "mg_env.h"
#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const agent_samplers[] = {"shm", "ptrace", NULL};

static int run_hang(const char *host, int port, const char *token, const uint8_t *secret,
                    int sampler, const char *ranks)
{
    hang_agent_params p = {.host = host,
                           .port = port,
                           .token = token,
                           .secret = secret,
                           .kind = sampler ? RANK_PROBE_PTRACE : RANK_PROBE_SHM,
                           .first_rank = -1,
                           .last_rank = -1,
                           .discover_seconds = 30};
    if (ranks && (sscanf(ranks, "%d-%d", &p.first_rank, &p.last_rank) != 2 || p.first_rank < 0 ||
                  p.last_rank < p.first_rank)) {
        mg_log_error("agent hang: --ranks takes A-B with 0 <= A <= B, not '%s'", ranks);
        return MG_EXIT_USAGE;
    }
    char err[256];
    int rc = hang_agent_run(&p, err, sizeof err);
    if (rc) {
        mg_log_error("agent hang: %s", err);
        return rc == MG_ERROR_ENOENT ? MG_EXIT_NOINPUT : MG_EXIT_SOFTWARE;
    }
    return 0;
}

static const char usage[] =
    "mpiguard agent hang|check --connect HOST:PORT|--output FD --token TOKEN [--sampler "
    "shm|ptrace] "
    "[--ranks A-B] [--share K --shares N | --library PATH --mpi openmpi|mpich [--shares N]]\n"
    "       mpiguard agent stage --ranks A-B[+C-D...] --inputs FD:A-B[+C-D...][/FD],... "
    "--output FD[/FD]";

/* What the command line of an agent says. */
typedef struct agent_args {
    const char *tool, *connect, *token, *ranks, *library, *inputs, *output;
    int sampler;
    long share, shares;
} agent_args;

/* Parses the command line into a; cli_options_parse's status, or MG_EXIT_USAGE (said) when the tool
 * is unknown, or hang's or check's --connect or --token is missing or wrong. */
static int parse(int argc, char **argv, agent_args *a, int *done)
{
    const mg_options_option options[] = {
        {"connect", 0, MG_OPTIONS_STRING, &a->connect, "HOST:PORT", "the tool to answer", NULL, 0,
         0},
        {"token", 0, MG_OPTIONS_STRING, &a->token, "TOKEN", "the job's token", NULL, 0, 0},
        {"sampler", 0, MG_OPTIONS_CHOICE, &a->sampler, "shm|ptrace",
         "hang: how ranks are looked at", agent_samplers, 0, 0},
        {"ranks", 0, MG_OPTIONS_STRING, &a->ranks, "A-B",
         "hang: own only these ranks (agents standing in for nodes); stage: its share, any set "
         "A-B+C+... (else --share K --shares N)",
         NULL, 0, 0},
        {"inputs", 0, MG_OPTIONS_STRING, &a->inputs, "FD:A-B[+C-D...][/FD],...",
         "stage: each child's stream, its ranks, where its answers go", NULL, 0, 0},
        {"output", 0, MG_OPTIONS_STRING, &a->output, "FD[/FD]",
         "stage: the parent's stream and its answers; check: the leaf's socket, for --connect",
         NULL, 0, 0},
        {"share", 0, MG_OPTIONS_INT, &a->share, "K", "check: own share K of N, a block of ranks",
         NULL, 0, 255},
        {"shares", 0, MG_OPTIONS_INT, &a->shares, "N",
         "check: the number of agents; a node agent: the job's nodes, each streaming through a "
         "leaf of the tree of detectors it starts",
         NULL, 1, 256},
        {"library", 0, MG_OPTIONS_STRING, &a->library, "PATH",
         "check: the one agent of its node, judging its ranks given this interposition library",
         NULL, 0, 0},
        {NULL, 0, 0, NULL, NULL, NULL, NULL, 0, 0},
    };
    char *tool[1] = {NULL};
    mg_options_parsed_args args;
    int rc = cli_options_parse(usage,
                               "The per-node agent of mpiguard hang and check; started by the tool "
                               "itself.",
                               options, argc, argv, 0, tool, 1, &args, done);
    if (rc || *done)
        return rc;
    a->tool = tool[0];
    if (a->tool && strcmp(a->tool, "stage") == 0)
        return 0;
    /* check's agent under a leaf of the tree of detectors streams to an inherited descriptor */
    int to_leaf = a->tool && strcmp(a->tool, "check") == 0 && !a->connect && a->output;
    if (!a->tool || (strcmp(a->tool, "hang") != 0 && strcmp(a->tool, "check") != 0) ||
        (!to_leaf && (!a->connect || !strrchr(a->connect, ':'))) || !a->token)
        return cli_options_refuse(usage, "agent: needs the tool (hang, check or stage), --connect "
                                         "HOST:PORT (check: or --output FD) and --token");
    return 0;
}

static int run_check(const agent_args *a, const uint8_t *secret)
{
    if (a->library && cli_options_mpi() == MG_MPI_FLAVOR_UNKNOWN) {
        mg_log_error("agent check: --library needs --mpi openmpi or --mpi mpich");
        return MG_EXIT_USAGE;
    }
    /* a node agent owns every ring of its node; its --shares numbers the leaves, one a node */
    const check_agent_proc_params p = {.token = a->token,
                                       .share = a->library ? 0 : (int)a->share,
                                       .shares = a->library || !a->shares ? 1 : (int)a->shares,
                                       .leaves = a->library ? (int)a->shares : 0,
                                       .address = a->connect,
                                       .output = a->connect ? -1 : atoi(a->output),
                                       .secret = secret,
                                       .library = a->library,
                                       .flavor = cli_options_mpi()};
    return check_agent_proc_run(&p);
}

int cmd_agent(int argc, char **argv)
{
    agent_args a = {0};
    int done;
    int rc = parse(argc, argv, &a, &done);
    if (rc || done)
        return rc;
    if (strcmp(a.tool, "stage") == 0)
        return agent_stage_run(a.ranks, (int)a.share, (int)a.shares, a.inputs, a.output, 0);
    /* The secret comes only from the environment: a command line is for every user to read. */
    uint8_t secret[AGENT_PROTO_SECRET_BYTES];
    if (agent_proto_secret_parse(getenv(MG_ENV_AGENT_SECRET), secret) != MG_ERROR_OK) {
        mg_log_error(
            "agent: %s is missing or not %u hex digits (the tool that starts its agents sets "
            "it)",
            MG_ENV_AGENT_SECRET, 2 * AGENT_PROTO_SECRET_BYTES);
        return MG_EXIT_USAGE;
    }
    if (strcmp(a.tool, "check") == 0)
        return run_check(&a, secret);
    const char *colon = strrchr(a.connect, ':');
    char host[256];
    snprintf(host, sizeof host, "%.*s", (int)(colon - a.connect), a.connect);
    return run_hang(host, atoi(colon + 1), a.token, secret, a.sampler, a.ranks);
}
