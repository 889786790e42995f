/* The job session shared by every job-running tool: its job (src/agent/job_session.h), its report,
 * its exit status (cli.h). */
#include "cli.h"

#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

char **cli_session_command_line;
int cli_session_command_words;

/* Creates the session's report and, with --report, writes it at once, so that a tool stopped
 * early still leaves one. Returns 0 or an exit status, with no report left on failure. */
static int open_report(cli_session *s, const char *flavor, const char *launcher,
                       const char *library)
{
    s->report = cli_session_report_create(s->tool);
    if (!s->report) {
        mg_log_error("out of memory");
        return MG_EXIT_SOFTWARE;
    }
    report_set_mpi(s->report, flavor, launcher, library);
    if (cli_options.report_path && cli_session_save(s) != 0) {
        report_destroy(s->report);
        s->report = NULL;
        return MG_EXIT_CANTCREAT;
    }
    return 0;
}

int cli_session_start(cli_session *s, const char *tool, const char *modules, char **command,
                      int ncommand)
{
    memset(s, 0, sizeof *s);
    s->tool = tool;
    char library_dir[4096];
    if (cli_install_path("lib", library_dir, sizeof library_dir) != MG_ERROR_OK)
        snprintf(library_dir, sizeof library_dir, "lib");
    int rc = job_session_identify(&s->job, tool, cli_options_mpi(), library_dir, command, ncommand);
    if (rc || (rc = open_report(s, mg_mpi_flavor_name(s->job.flavor), s->job.launcher.path,
                                s->job.library)))
        return rc;
    if ((rc = job_session_launch(&s->job, modules, command, ncommand, cli_options.verbose))) {
        report_destroy(s->report);
        s->report = NULL;
    }
    return rc;
}

int cli_session_attach(cli_session *s, const char *tool, const char *target)
{
    memset(s, 0, sizeof *s);
    s->tool = tool;
    char launcher_name[64];
    int rc = job_session_attach(&s->job, tool, target, launcher_name);
    if (rc)
        return rc;
    if ((rc = open_report(s, NULL, launcher_name, NULL)))
        job_session_end(&s->job);
    return rc;
}

report_doc *cli_session_report_create(const char *tool)
{
    return report_create(tool, CLI_MPIGUARD_VERSION, cli_session_command_line,
                         cli_session_command_words);
}

int cli_session_report_write(const report_doc *report)
{
    char err[1024];
    if (cli_options.report_path &&
        report_write(report, cli_options.report_path, err, sizeof err) != MG_ERROR_OK) {
        mg_log_error("%s", err);
        return MG_EXIT_CANTCREAT;
    }
    return 0;
}

int cli_session_save(cli_session *s)
{
    return cli_session_report_write(s->report);
}

void cli_session_record_observation(cli_session *s, const observe_ranks *o,
                                    const char *const *sampler)
{
    const char *cause, *detail;
    for (int r = 0; observe_ranks_verdict(o, r, &cause, &detail); r++)
        report_add_observation(s->report, r, sampler && sampler[r], cause, detail,
                               sampler ? sampler[r] : NULL);
}

observe_ranks *cli_session_watch_ranks(cli_session *s)
{
    observe_ranks *o = observe_ranks_create(&s->job, observe_ranks_by_state, &s->job);
    if (!o) {
        mg_log_error("out of memory");
        job_stop(s->job.process, JOB_STOP_GRACE_SECONDS);
        return NULL;
    }
    while (!observe_ranks_settled(o) && !job_session_wait(&s->job, 250)) {
        job_session_discover(&s->job);
        observe_ranks_update(o, 0);
    }
    job_session_wait_end(&s->job, 1 /* a rank that ended before a scan is read from its segment */);
    observe_ranks_update(o, 1);
    return o;
}

int cli_session_record_by_state(cli_session *s, const observe_ranks *o)
{
    const char *sampler[s->job.nranks > 0 ? s->job.nranks : 1];
    for (int r = 0; r < s->job.nranks; r++)
        sampler[r] = s->job.ranks[r].state ? "shm" : NULL;
    cli_session_record_observation(s, o, sampler);
    if (s->job.nranks == 0)
        fprintf(stderr,
                "mpiguard: %s: no rank was found: the job ended before a scan saw one, "
                "and none published its state\n",
                s->tool);
    return observe_ranks_blind(o) + (s->job.nranks ? s->job.nranks - s->job.found : 1);
}

int cli_session_finish(cli_session *s, int finding_status)
{
    int job_status = job_exit_status(s->job.process);
    int signal_received = job_interrupting_signal(s->job.process);
    if (job_leftovers_killed(s->job.process))
        mg_log_warn("%s: killed %d process(es) of the job that outlived the launcher", s->tool,
                    job_leftovers_killed(s->job.process));
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    for (int r = 0; r < s->job.nranks; r++)
        if (s->job.ranks[r].pid)
            report_add_rank(s->report, r, s->job.ranks[r].pid,
                            s->job.ranks[r].host[0] ? s->job.ranks[r].host : host);
    /* A job attached to runs on after a signal to mpiguard (job_wait): let go of, not ended. */
    int released = signal_received && s->job.attached && job_status < 0;
    const char *outcome = released                                 ? "released"
                          : signal_received                        ? "interrupted"
                          : finding_status && !s->job.ended_itself ? "stopped"
                          : job_status == 0 && !finding_status     ? "completed"
                                                                   : "failed";
    report_set_exit(s->report, job_status, outcome);
    if (released)
        cli_options_say(s->tool, "stopped watching on signal %d; the job attached to runs on",
                        signal_received);
    else if (signal_received)
        cli_options_say(s->tool, "interrupted by signal %d (%s): the job was stopped%s",
                        signal_received, strsignal(signal_received),
                        finding_status ? "" : "; nothing found up to then");
    int save_status = cli_session_save(s);
    report_destroy(s->report);
    job_session_end(&s->job);
    if (signal_received)
        return MG_EXIT_SIGNAL_BASE + signal_received;
    if (finding_status)
        return finding_status;
    if (save_status)
        return save_status;
    return job_status;
}
