/* `mpiguard protect`: runs a job with its collectives protected against scaling problems; the
 * module's options, settings and findings are protect_setup.c's, shared with `mpiguard run`
 * (docs/cli.md, docs/collectives.md). Each rank is observed as under run, by the segment it
 * publishes at MPI_Init: the state module stays off, its per-call stores too. The job is run as
 * `run` runs it (cmd_run_job). */
#include "cli.h"
#include "protect_setup.h"

#include <stdio.h>

/* Returns the ranks not observed (cli_session_record_by_state). */
static int record_ranks(cli_session *s, const observe_ranks *o)
{
    int blind = cli_session_record_by_state(s, o);
    cli_options_say("protect", "%d of %d ranks found; %d of %d ranks observed", s->job.found,
                    s->job.nranks, observe_ranks_observed(o), s->job.nranks);
    return blind;
}

int cmd_protect(int argc, char **argv)
{
    static const char usage[] = "mpiguard protect [--bounds FILE] [--workaround W] [--agree] "
                                "[options] -- <launcher> <args>";
    const mg_options_option *const tables[] = {protect_setup_options, NULL};
    mg_options_parsed_args args;
    int done;
    protect_setup_opts = (protect_setup_settings){0};
    int rc = cli_options_parse_tables(
        usage,
        "Run an MPI job with its collectives protected against scaling problems:\n"
        "before each collective, Detectors D (a displacement array overflowed), G\n"
        "and X (over a safe bound) run, and a triggered call is routed through a\n"
        "workaround that delivers the same bytes. Exits with the job's status, or\n"
        "83 when it ended 0 with a rank not observed.",
        tables, argc, argv, CLI_COMMAND, NULL, 0, &args, &done);
    if (rc || done)
        return rc;
    return cmd_run_job("protect", "protect", CLI_RUN_PROTECTED, args.command, args.ncommand,
                       record_ranks);
}
