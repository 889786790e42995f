/* The options every tool shares and the one parse path of the CLI (cli.h). */
#include "cli.h"

#include "mg_exit.h"
#include "mg_log.h"

#include <stdarg.h>
#include <stdio.h>

cli_common cli_options;

static const char *const mpi_choices[] = {"auto", "openmpi", "mpich", NULL};

mg_mpi_flavor cli_options_mpi(void)
{
    static const mg_mpi_flavor named[] = {MG_MPI_FLAVOR_UNKNOWN, MG_MPI_FLAVOR_OPENMPI,
                                          MG_MPI_FLAVOR_MPICH};
    return named[cli_options.mpi_choice];
}

/* Only the tools that run a job write a report of it and need to know its MPI. */
static const mg_options_option job_options[] = {
    {"report", 0, MG_OPTIONS_STRING, &cli_options.report_path, "FILE",
     "write the JSON report to FILE (default: none; see docs/report-schema.md)", NULL, 0, 0},
    {"mpi", 0, MG_OPTIONS_CHOICE, &cli_options.mpi_choice, "auto|openmpi|mpich",
     "which MPI the application uses (default: from the launcher and the binary)", mpi_choices, 0,
     0},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, 0, 0},
};

static const mg_options_option common_options[] = {
    {"verbose", 'v', MG_OPTIONS_FLAG, &cli_options.verbose, NULL,
     "say more (the ranks found, each step)", NULL, 0, 0},
    {"quiet", 'q', MG_OPTIONS_FLAG, &cli_options.quiet, NULL, "print only findings and errors",
     NULL, 0, 0},
    {"help", 'h', MG_OPTIONS_FLAG, &cli_options.help, NULL, "show this help", NULL, 0, 0},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, 0, 0},
};

int cli_options_parse(const char *usage, const char *description,
                      const mg_options_option *tool_options, int argc, char **argv, int mode,
                      char **positional, int max_positional, mg_options_parsed_args *parsed,
                      int *done)
{
    const mg_options_option *const tool_tables[] = {tool_options, NULL};
    return cli_options_parse_tables(usage, description, tool_tables, argc, argv, mode, positional,
                                    max_positional, parsed, done);
}

void cli_options_say(const char *tool, const char *fmt, ...)
{
    if (cli_options.quiet)
        return;
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "mpiguard: %s: %s\n", tool, line);
}

int cli_options_refuse(const char *usage, const char *fmt, ...)
{
    char why[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    mg_log_error("%s", why);
    fprintf(stderr, "usage: %s\n", usage);
    return MG_EXIT_USAGE;
}

enum { TABLES_MAX = 4 };

int cli_options_parse_tables(const char *usage, const char *description,
                             const mg_options_option *const *tool_tables, int argc, char **argv,
                             int mode, char **positional, int max_positional,
                             mg_options_parsed_args *parsed, int *done)
{
    /* The tool's tables, then the job's options for a tool that runs one, then the common ones. */
    const mg_options_option *use[TABLES_MAX + 3];
    int n = 0;
    for (int i = 0; tool_tables[i] && n < TABLES_MAX; i++)
        use[n++] = tool_tables[i];
    if (!(mode & CLI_NO_JOB))
        use[n++] = job_options;
    use[n++] = common_options;
    use[n] = NULL;
    char err[512];
    *done = 0;
    cli_options = (cli_common){0};
    if (mg_options_parse(use, argc, argv, positional, max_positional, parsed, err, sizeof err))
        return cli_options_refuse(usage, "%s", err);
    if (cli_options.help) {
        mg_options_print_help(stdout, usage, description, use);
        *done = 1;
        return 0;
    }
    mg_log_set_level(cli_options.quiet     ? MG_LOG_ERROR
                     : cli_options.verbose ? MG_LOG_INFO
                                           : MG_LOG_WARN);
    if ((mode & CLI_COMMAND) && !parsed->command)
        return cli_options_refuse(
            usage, "missing '--' before the launcher command (e.g. -- mpirun -n 4 ./app)");
    if ((mode & CLI_COMMAND) && parsed->ncommand == 0)
        return cli_options_refuse(usage,
                                  "no launcher command after '--' (e.g. -- mpirun -n 4 ./app)");
    return 0;
}
