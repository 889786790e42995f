/* `mpiguard protect`: runs a job with its collectives protected against scaling problems; the
 * module's options, settings and findings are protect_setup.c's, shared with `mpiguard run`
 * (docs/cli.md, docs/collectives.md). */
#include "cli.h"
#include "protect_setup.h"

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
        "workaround that delivers the same bytes. Exits with the job's status.",
        tables, argc, argv, CLI_COMMAND, NULL, 0, &args, &done);
    if (rc || done)
        return rc;
    if ((rc = protect_setup_prepare(args.command, args.ncommand)))
        return rc;
    cli_session s;
    if ((rc = cli_session_start(&s, "protect", "protect", args.command, args.ncommand))) {
        protect_setup_discard();
        return rc;
    }
    job_session_wait_end(&s.job, 0);
    protect_setup_collect(&s, 0);
    return cli_session_finish(&s, 0);
}
