/* Internal to src/cli: no other folder includes it (docs/architecture.md). */
/* What the subcommands of the mpiguard CLI share: the common options, the job session every
 * job-running tool uses, and the subcommand entry points. docs/cli.md is the user's view. */
#ifndef MG_CLI_H
#define MG_CLI_H

#include "job_session.h"
#include "mg_options.h"
#include "observe_ranks.h"
#include "report.h"

#define CLI_MPIGUARD_VERSION "0.1.0"

/* Options every tool takes (--verbose, --quiet, --help), and those of the tools that run a job
 * (--report, --mpi). */
typedef struct cli_common {
    const char *report_path;
    int mpi_choice; /* index into cli_mpi_choices: 0 auto */
    int verbose, quiet, help;
} cli_common;

extern cli_common cli_options;

/* The MPI --mpi names; MG_MPI_FLAVOR_UNKNOWN for auto (the launcher and the binary decide). */
mg_mpi_flavor cli_options_mpi(void);

/* How a tool's command line is read: CLI_COMMAND, the words after "--" are required; CLI_NO_JOB,
 * the tool runs no job, so it takes no --report or --mpi. 0: a job tool whose command is optional.
 */
enum { CLI_COMMAND = 1, CLI_NO_JOB = 2 };

/* Parses argv against the common options plus tool_options; prints help and returns 0 with
 * *done = 1 for --help; on a usage error prints it and returns MG_EXIT_USAGE. mode: CLI_* flags. */
int cli_options_parse(const char *usage, const char *description,
                      const mg_options_option *tool_options, int argc, char **argv, int mode,
                      char **positional, int max_positional, mg_options_parsed_args *parsed,
                      int *done);
/* Says a tool's line, "mpiguard: TOOL: ...", on stderr unless --quiet: what a run found and saw,
 * which is neither a warning nor an error (mg_log). */
void cli_options_say(const char *tool, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Says a usage error (mg_log_error) and the usage line; returns MG_EXIT_USAGE. */
int cli_options_refuse(const char *usage, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The same with several tables of tool options (NULL-terminated), for a tool that takes another
 * tool's options too (`run` takes protect's). */
int cli_options_parse_tables(const char *usage, const char *description,
                             const mg_options_option *const *tool_tables, int argc, char **argv,
                             int mode, char **positional, int max_positional,
                             mg_options_parsed_args *parsed, int *done);

/* A job started or attached to by a tool, and what the tool reports of it. */
typedef struct cli_session {
    const char *tool;
    job_session job;
    report_doc *report;
} cli_session;

/* The whole mpiguard command line as typed, recorded by main() for the reports. */
extern char **cli_session_command_line;
extern int cli_session_command_words;

/* Checks the command, picks the interposition library, opens the report, and starts the job with
 * the given modules ("state:protect", separated by ':' which every launcher can pass; "" for
 * none). Returns 0, or the exit status to end with after printing why (usage 64, missing
 * application 66, unavailable launcher/library 69, report not writable 73, tool failure 70). */
int cli_session_start(cli_session *s, const char *tool, const char *modules, char **command,
                      int ncommand);

/* Takes charge of a running job instead of starting one (`--attach TARGET`, job_session_attach)
 * and opens the report. Returns 0 or an exit status after printing why (66: nothing to attach to;
 * 73: report not writable). */
int cli_session_attach(cli_session *s, const char *tool, const char *target);

/* A new report of tool, with this version and the command line as typed; NULL when out of
 * memory. */
report_doc *cli_session_report_create(const char *tool);
/* Writes report to --report FILE, if given; 0, or MG_EXIT_CANTCREAT after saying why. */
int cli_session_report_write(const report_doc *report);
/* Writes the session's report now (tools call it after each finding so nothing found is lost). */
int cli_session_save(cli_session *s);
/* Writes each rank's observation verdict to the report: {rank, observed, cause, detail,
 * sampler}; sampler[r] names how the tool read rank r ("shm", "ptrace", "ring"), or is NULL when it
 * did not (then the rank is not observed, whatever the cause says of the interposition library). */
void cli_session_record_observation(cli_session *s, const observe_ranks *o,
                                    const char *const *sampler);
/* Run and protect: observes the job's ranks by the segments they publish at MPI_Init
 * (observe_ranks_by_state) until the job ends, each judged within seconds of its start and once
 * more at the end on what the ranks left. NULL when out of memory (said, and the job stopped). */
observe_ranks *cli_session_watch_ranks(cli_session *s);
/* Writes those observations to the report (sampler "shm") and returns the ranks not observed,
 * counting those never found (one when no rank was: the job is then unseen), for exit 83. */
int cli_session_record_by_state(cli_session *s, const observe_ranks *o);
/* Records the outcome, writes the final report, frees everything, returns the exit status: the
 * job's own, or finding_status when it is non-zero and no signal stopped mpiguard. */
int cli_session_finish(cli_session *s, int finding_status);

/* Path of this build's files: "<dir of the mpiguard binary>/../<relative>". */
int cli_install_path(const char *relative, char *out, size_t outlen);

int cmd_run(int argc, char **argv);
/* How cmd_run_job protects the collectives: not at all, or with the protection module
 * (protect_setup.h), its closing line said always or only when a call site fired. */
enum { CLI_RUN_UNPROTECTED, CLI_RUN_PROTECTED, CLI_RUN_PROTECTED_QUIETLY };
/* The job of `run` and `protect`, its command parsed: prepares the protection (protect, a
 * CLI_RUN_*), starts the job with modules, observes its ranks until it ends, records them with
 * record (which returns the ranks not observed), collects the protection's findings and finishes
 * the session. Returns the exit status: the job's own, MG_EXIT_UNOBSERVED when it ended 0 with a
 * rank not observed or none found, or that of a failure (said). */
int cmd_run_job(const char *tool, const char *modules, int protect, char **command, int ncommand,
                int (*record)(cli_session *s, const observe_ranks *o));
int cmd_hang(int argc, char **argv);
int cmd_agent(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_protect(int argc, char **argv);
int cmd_collectives(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_concolic(int argc, char **argv);
int cmd_version(int argc, char **argv);

#endif
