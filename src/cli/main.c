/* The mpiguard command: one entry point dispatching to its subcommands (docs/cli.md). */
#include "cli.h"

#include "mg_exit.h"
#include "mg_log.h"

#include <stdio.h>
#include <string.h>

typedef struct subcommand {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary; /* NULL: a tool mpiguard starts by itself, left out of the usage */
} subcommand;

static const subcommand subcommands[] = {
    {"hang", cmd_hang,
     "detect a hang with no timeout to choose, name the faulty ranks, stop the job"},
    {"check", cmd_check, "find deadlocks and MPI usage errors while the job runs"},
    {"collectives", cmd_collectives, "find the safe bounds of the installed MPI's collectives"},
    {"protect", cmd_protect, "run a job with its collectives protected against scaling problems"},
    {"concolic", cmd_concolic,
     "generate inputs, process counts and focus ranks that reach new branches"},
    {"run", cmd_run, "run a job under every cheap guard and report what was seen"},
    {"report", cmd_report, "render a report as text, JSON, DOT or HTML"},
    {"demo", cmd_demo, "show the tools on the bundled examples"},
    {"version", cmd_version, "print the version and what this installation has"},
    {"agent", cmd_agent, NULL}, /* started by mpiguard hang on each node */
};

static void print_usage(FILE *out)
{
    fprintf(out, "usage: mpiguard <tool> [options] -- <launcher> <args>\n"
                 "       mpiguard <tool> --help\n\ntools:\n");
    for (size_t i = 0; i < sizeof subcommands / sizeof *subcommands; i++)
        if (subcommands[i].summary)
            fprintf(out, "  %-12s %s\n", subcommands[i].name, subcommands[i].summary);
    fprintf(out, "\nExit status: the job's own when nothing is found; see docs/cli.md for the "
                 "statuses of mpiguard itself.\n");
}

int main(int argc, char **argv)
{
    cli_session_command_line = argv;
    cli_session_command_words = argc;
    if (argc < 2) {
        print_usage(stderr);
        return MG_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        print_usage(stdout);
        return 0;
    }
    if (strcmp(name, "--version") == 0)
        name = "version";
    for (size_t i = 0; i < sizeof subcommands / sizeof *subcommands; i++)
        if (strcmp(subcommands[i].name, name) == 0)
            return subcommands[i].run(argc - 2, argv + 2);
    mg_log_error("unknown tool '%s'", name);
    print_usage(stderr);
    return MG_EXIT_USAGE;
}
