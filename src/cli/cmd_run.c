/* `mpiguard run`: runs a job under the interposition library with its guards on, finds its ranks,
 * and reports what it saw (docs/cli.md): the `state` module, and the protection of the
 * collectives (protect_setup.h: Detector D without a bounds file, G and X with --bounds) unless
 * --no-protect. */
#include "cli.h"
#include "observe_ranks.h"
#include "protect_setup.h"

#include "mg_exit.h"
#include "mg_log.h"

#include <stdio.h>

/* What run checked in the ranks it observed, for its closing line. */
static const char *checked(int no_protect)
{
    if (no_protect)
        return "nothing checked (the collectives unguarded), MPI calls counted";
    if (protect_setup_opts.bounds || protect_setup_opts.bound)
        return "checked: collectives' counts and displacements (Detectors D, G, X)";
    return "checked: collectives' displacements (Detector D)";
}

static int no_protect; /* --no-protect */

/* Returns the ranks not observed (cli_session_record_by_state). */
static int record_ranks(cli_session *s, const observe_ranks *o)
{
    json_object *data = report_tool_data(s->report);
    json_object *calls = json_object_new_array();
    int interposed = 0;
    unsigned long long total = 0;
    for (int r = 0; r < s->job.nranks; r++) {
        const rank_state *st = s->job.ranks[r].state;
        unsigned long long c = st ? (unsigned long long)atomic_load(&st->calls) : 0;
        interposed += st != NULL;
        total += c;
        json_object_array_add(calls, st ? json_object_new_int64((int64_t)c) : NULL);
        mg_log_info("run: rank %d pid %d %s, %llu MPI calls", r, s->job.ranks[r].pid,
                    st ? "interposed" : "not interposed", c);
    }
    json_object_object_add(data, "ranks_found", json_object_new_int(s->job.found));
    json_object_object_add(data, "world_size", json_object_new_int(s->job.nranks));
    json_object_object_add(data, "ranks_interposed", json_object_new_int(interposed));
    json_object_object_add(data, "mpi_calls", calls);
    int blind = cli_session_record_by_state(s, o);
    cli_options_say("run",
                    "%d of %d ranks found, %d interposed, %llu MPI calls; %d of %d ranks observed, "
                    "%s",
                    s->job.found, s->job.nranks, interposed, total, observe_ranks_observed(o),
                    s->job.nranks, checked(no_protect));
    return blind;
}

int cmd_run(int argc, char **argv)
{
    static const char usage[] =
        "mpiguard run [--no-protect | --bounds FILE ...] [options] -- <launcher> <args>";
    static const mg_options_option run_options[] = {
        {"no-protect", 0, MG_OPTIONS_FLAG, &no_protect, NULL,
         "do not protect the collectives (the protect module stays off)", NULL, 0, 0},
        {NULL, 0, 0, NULL, NULL, NULL, NULL, 0, 0},
    };
    const mg_options_option *const tables[] = {run_options, protect_setup_options, NULL};
    mg_options_parsed_args args;
    int done;
    no_protect = 0;
    protect_setup_opts = (protect_setup_settings){0};
    int rc = cli_options_parse_tables(
        usage,
        "Run an MPI job under mpiguard's interposition library with its guards on\n"
        "(the ranks' state, and the collectives protected against scaling problems as\n"
        "by `mpiguard protect`), find every rank, and report what was seen. Exits\n"
        "with the job's status.",
        tables, argc, argv, CLI_COMMAND, NULL, 0, &args, &done);
    if (rc || done)
        return rc;
    if (no_protect && protect_setup_options_given())
        return cli_options_refuse(usage,
                                  "--no-protect turns the protection off: --bounds, --bound, "
                                  "--bound-form and --workaround would do nothing");
    return cmd_run_job("run", no_protect ? "state" : "state:protect",
                       no_protect ? CLI_RUN_UNPROTECTED : CLI_RUN_PROTECTED_QUIETLY, args.command,
                       args.ncommand, record_ranks);
}

int cmd_run_job(const char *tool, const char *modules, int protect, char **command, int ncommand,
                int (*record)(cli_session *s, const observe_ranks *o))
{
    int rc;
    if (protect && (rc = protect_setup_prepare(command, ncommand)))
        return rc;
    cli_session s;
    if ((rc = cli_session_start(&s, tool, modules, command, ncommand))) {
        protect_setup_discard();
        return rc;
    }
    observe_ranks *o = cli_session_watch_ranks(&s);
    int failed = !o, blind = o ? record(&s, o) : 0;
    observe_ranks_destroy(o);
    if (protect)
        protect_setup_collect(&s, protect == CLI_RUN_PROTECTED_QUIETLY);
    rc = cli_session_finish(&s, failed ? MG_EXIT_SOFTWARE : 0);
    /* a job that ran well but was partly unseen, or not found at all, is not a clean result */
    return rc == 0 && blind ? MG_EXIT_UNOBSERVED : rc;
}
