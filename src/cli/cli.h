/* Internal to src/cli: no other folder includes it (docs/architecture.md). */
/* What the subcommands of the mpiguard CLI share: the common options, the job session every
 * job-running tool uses, and the subcommand entry points. docs/cli.md is the user's view. */
#ifndef MG_CLI_H
#define MG_CLI_H

#include "job.h"
#include "launcher.h"
#include "mg_options.h"
#include "rank_scan.h"
#include "rank_state_reader.h"
#include "report.h"

#define MPIGUARD_VERSION "0.1.0"

/* Options every tool takes (--verbose, --quiet, --help), and those of the tools that run a job
 * (--report, --mpi). */
typedef struct cli_common {
    const char *report_path;
    int mpi_choice; /* index into cli_mpi_choices: 0 auto */
    int verbose, quiet, help;
} cli_common;

extern cli_common cli_opts;

/* How a tool's command line is read: CLI_COMMAND, the words after "--" are required; CLI_NO_JOB,
 * the tool runs no job, so it takes no --report or --mpi. 0: a job tool whose command is optional.
 */
enum { CLI_COMMAND = 1, CLI_NO_JOB = 2 };

/* Parses argv against the common options plus tool_options; prints help and returns 0 with
 * *done = 1 for --help; on a usage error prints it and returns MG_EXIT_USAGE. mode: CLI_* flags. */
int cli_parse(const char *usage, const char *description, const mg_option *tool_options, int argc,
              char **argv, int mode, char **positional, int max_positional, mg_parsed_args *parsed,
              int *done);
/* The same with several tables of tool options (NULL-terminated), for a tool that takes another
 * tool's options too (`run` takes protect's). */
int cli_parse_tables(const char *usage, const char *description,
                     const mg_option *const *tool_tables, int argc, char **argv, int mode,
                     char **positional, int max_positional, mg_parsed_args *parsed, int *done);

/* One rank as a tool sees it. */
typedef struct cli_rank {
    int pid;                    /* 0 until found */
    const mg_rank_state *state; /* NULL unless the state module published it */
    char host[64];              /* its node, when an agent there told of it; "": this one */
} cli_rank;

/* A job started by a tool: its launcher, library, token, ranks and report. */
typedef struct cli_session {
    const char *tool;
    mg_launcher launcher;
    mg_mpi_flavor flavor;
    char library[4096];
    char token[40];
    mg_job *job;
    mg_report *report;
    mg_rank_selector selector; /* how this job's ranks are found */
    int attached;              /* --attach: the job is not ours to clean up after */
    cli_rank *ranks;
    int nranks;           /* world size once known, else 0 */
    int found;            /* ranks discovered so far */
    double discovered_at; /* when cli_session_discover last looked (mg_clock_seconds) */
    int ended_itself;     /* the job ended before its finding was made: not stopped by mpiguard */
} cli_session;

/* The whole mpiguard command line as typed, recorded by main() for the reports. */
extern char **cli_command_line;
extern int cli_command_words;

/* Checks the command, picks the interposition library, opens the report, and starts the job with
 * the given modules ("state:protect", separated by ':' which every launcher can pass; "" for
 * none). Returns 0, or the exit status to end with after printing why (usage 64, missing
 * application 66, unavailable launcher/library 69, report not writable 73, tool failure 70). */
int cli_session_start(cli_session *s, const char *tool, const char *modules, char **command,
                      int ncommand);

/* Adds NAME=VALUE to what the next cli_session_start passes to the ranks (and only to them), for a
 * tool's module settings. The strings must outlive the session. Returns 0, or MG_EFULL past
 * CLI_EXTRA_ENV_MAX. */
enum { CLI_EXTRA_ENV_MAX = 8 };
int cli_session_add_env(const char *name, const char *value);
/* Takes charge of a running job instead of starting one (`--attach TARGET`): TARGET is a launcher's
 * pid, or else a Slurm job id. Ranks are found as the launcher's descendants or by SLURM_JOB_ID;
 * when they carry an mpiguard token (a job run under `mpiguard run`), s->token is set and their
 * published state can be read. Returns 0 or an exit status after printing why (66: nothing to
 * attach to; 73: report not writable). */
int cli_session_attach(cli_session *s, const char *tool, const char *target);

/* Scans for ranks not found yet and maps their published state; does nothing when it looked less
 * than 100 ms ago. Cheap when all are found. */
void cli_session_discover(cli_session *s);
/* Waits up to timeout_ms for the job to end; returns 1 once it ended. */
int cli_session_wait(cli_session *s, int timeout_ms);
/* Waits for the job's end, discovering its ranks meanwhile: every 200 ms while a rank (or, with
 * states, a rank's published state) is still to be found, then in waits of a minute, which the
 * job's end and a signal still cut short at once. A long job costs mpiguard no wakeups once its
 * ranks are known. */
void cli_session_wait_end(cli_session *s, int with_states);
/* Writes the report now (tools call it after each finding so nothing found is lost). */
int cli_session_save(cli_session *s);
/* Records the outcome, writes the final report, frees everything, returns the exit status: the
 * job's own, or finding_status when it is non-zero and no signal stopped mpiguard. */
int cli_session_finish(cli_session *s, int finding_status);

/* Path of this build's files: "<dir of the mpiguard binary>/../<relative>". */
int cli_install_path(const char *relative, char *out, size_t outlen);

int cmd_run(int argc, char **argv);
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
