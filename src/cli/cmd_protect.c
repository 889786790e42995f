/* `mpiguard protect`: runs a job with its collectives protected against scaling problems; the
 * module's options, settings and findings are protect_setup.c's, shared with `mpiguard run`
 * (docs/cli.md, docs/collectives.md). Each rank is observed as under run, by the segment it
 * publishes at MPI_Init: the state module stays off, its per-call stores too. */
#include "cli.h"
#include "protect_setup.h"

#include "mg_exit.h"

#include <stdio.h>

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
    if ((rc = protect_setup_prepare(args.command, args.ncommand)))
        return rc;
    cli_session s;
    if ((rc = cli_session_start(&s, "protect", "protect", args.command, args.ncommand))) {
        protect_setup_discard();
        return rc;
    }
    observe_ranks *o = cli_session_watch_ranks(&s);
    if (!o) {
        protect_setup_collect(&s, 0);
        return cli_session_finish(&s, MG_EXIT_SOFTWARE);
    }
    int blind = cli_session_record_by_state(&s, o);
    if (!cli_options.quiet)
        fprintf(stderr, "mpiguard: protect: %d of %d ranks found; %d of %d ranks observed\n",
                s.job.found, s.job.nranks, observe_ranks_observed(o), s.job.nranks);
    observe_ranks_destroy(o);
    protect_setup_collect(&s, 0);
    rc = cli_session_finish(&s, 0);
    /* as run: a job that ran well but was partly unseen, or not found at all, is not clean */
    return rc == 0 && blind ? MG_EXIT_UNOBSERVED : rc;
}
