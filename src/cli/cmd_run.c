/* `mpiguard run`: runs a job under the interposition library with every cheap guard on, finds its
 * ranks, and reports what it saw (docs/cli.md). */
#include "cli.h"

#include "mg_exit.h"
#include "mg_log.h"

#include <stdio.h>

/* Modules `run` switches on: the ones that cost nothing measurable while the job is healthy. */
#define RUN_MODULES "state"

static void record_ranks(cli_session *s)
{
    json_object *data = mg_report_tool_data(s->report);
    json_object *calls = json_object_new_array();
    int interposed = 0;
    unsigned long long total = 0;
    for (int r = 0; r < s->nranks; r++) {
        const mg_rank_state *st = s->ranks[r].state;
        unsigned long long c = st ? (unsigned long long)atomic_load(&st->calls) : 0;
        interposed += st != NULL;
        total += c;
        json_object_array_add(calls, st ? json_object_new_int64((int64_t)c) : NULL);
        if (cli_opts.verbose)
            fprintf(stderr, "mpiguard: run: rank %d pid %d %s, %llu MPI calls\n", r,
                    s->ranks[r].pid, st ? "interposed" : "not interposed", c);
    }
    json_object_object_add(data, "ranks_found", json_object_new_int(s->found));
    json_object_object_add(data, "world_size", json_object_new_int(s->nranks));
    json_object_object_add(data, "ranks_interposed", json_object_new_int(interposed));
    json_object_object_add(data, "mpi_calls", calls);
    if (!cli_opts.quiet)
        fprintf(stderr, "mpiguard: run: %d of %d ranks found, %d interposed, %llu MPI calls\n",
                s->found, s->nranks, interposed, total);
}

int cmd_run(int argc, char **argv)
{
    static const char usage[] = "mpiguard run [options] -- <launcher> <args>";
    mg_parsed_args args;
    int done;
    int rc = cli_parse(usage,
                       "Run an MPI job under mpiguard's interposition library with its cheap guards\n"
                       "on, find every rank, and report what was seen. Exits with the job's status.",
                       NULL, argc, argv, 1, NULL, 0, &args, &done);
    if (rc || done)
        return rc;
    cli_session s;
    if ((rc = cli_session_start(&s, "run", RUN_MODULES, args.command, args.ncommand)))
        return rc;
    while (!cli_session_wait(&s, 200))
        cli_session_discover(&s);
    cli_session_discover(&s);
    record_ranks(&s);
    return cli_session_finish(&s, 0);
}
