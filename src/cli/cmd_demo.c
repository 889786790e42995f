/* `mpiguard demo`: shows every tool of this build on bundled programs, with every installed MPI
 * (docs/cli.md). */
#include "cli.h"

#include "mg_env.h"
#include "mg_exit.h"
#include "mg_log.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const demo_launchers[][2] = {
    {"openmpi", "mpirun.openmpi"},
    {"mpich", "mpiexec.mpich"},
};

enum { DEMO_LIMIT_SECONDS = 300 };

static void stop_demo(int sig)
{
    (void)sig;
    kill(getpid(), SIGTERM);
}

/* Open MPI refuses root and more ranks than cores unless told; the demo is ours to configure. */
static void allow_demo_launch(void)
{
    setenv(MG_ENV_OMPI_ALLOW_ROOT, "1", 0);
    setenv(MG_ENV_OMPI_ALLOW_ROOT_CONFIRM, "1", 0);
    setenv(MG_ENV_OMPI_OVERSUBSCRIBE, "1", 0);
}

/* One part of the demo: a tool on a bundled program. The words "@report", "@dir", "@launcher" and
 * "@program" stand for the part's report, its own directory, the MPI's launcher and the program. */
typedef struct demo_part {
    const char *tool_name;
    int (*tool)(int, char **);
    int expected;        /* the status the part must end with */
    const char *program; /* in the build, %s the MPI's flavour */
    const char *title;
    const char *shows; /* what to look at in its output */
    const char *words[20];
} demo_part;

/* One demo step: prints the command, runs the tool in this process, renders its report, and
 * counts a failure when the tool's status is not the expected one. */
static void demo_step(const demo_part *part, const char *title, char **argv, int argc,
                      const char *report, int *failures)
{
    printf("\n== %s ==\nshows: %s\n$ mpiguard %s", title, part->shows, part->tool_name);
    for (int i = 0; i < argc; i++)
        printf(" %s", argv[i]);
    printf("\n");
    fflush(stdout);
    /* The step's report records the step's command line, not the demo's. */
    char *command[24] = {"mpiguard", (char *)part->tool_name};
    for (int i = 0; i < argc && i + 2 < 24; i++)
        command[i + 2] = argv[i];
    char **demo_line = cli_session_command_line;
    int demo_words = cli_session_command_words;
    cli_session_command_line = command;
    cli_session_command_words = argc + 2 < 24 ? argc + 2 : 24;
    int status = part->tool(argc, argv);
    cli_session_command_line = demo_line;
    cli_session_command_words = demo_words;
    printf("exit status %d%s\n$ mpiguard report %s\n", status,
           status == part->expected ? "" : " (unexpected)", report);
    fflush(stdout);
    char *report_argv[] = {(char *)report, NULL};
    if (cmd_report(1, report_argv) != 0 || status != part->expected)
        (*failures)++;
}

static const demo_part demo_parts[] = {
    {"run",
     cmd_run,
     0,
     "examples/%s/stencil",
     "run: a healthy 2-D stencil on 4 ranks for 2 s",
     "every rank found with its pid and its MPI calls counted; exit status the job's own (0)",
     {"--report", "@report", "--", "@launcher", "-n", "4", "@program", "--seconds", "2"}},
    {"hang",
     cmd_hang,
     MG_EXIT_HANG,
     "examples/%s/cg",
     "hang: rank 2 of a CG solver falls into an endless loop after 3 s",
     "a computation hang found with no timeout set, rank 2 named as the faulty rank with the "
     "function it spins in; the job stopped (exit 81). Samples start 0.1 s apart, not 0.4, to "
     "keep the demo short",
     {"--seed", "1", "--interval", "0.1", "--report", "@report", "--", "@launcher", "-n", "4",
      "@program", "--seconds", "300", "--fault", "compute-loop", "--fault-rank", "2", "--fault-at",
      "3"}},
    {"check",
     cmd_check,
     MG_EXIT_DEADLOCK,
     "tests/check/%s/fig1b_recv_recv",
     "check: two ranks that each receive before they send (MUST's Fig. 1b)",
     "the deadlock found while the job runs: its knot (ranks 0 and 1 wait for each other) and "
     "each rank's blocked MPI_Recv with its file:line; the job stopped (exit 82)",
     {"--report", "@report", "--", "@launcher", "-n", "2", "@program"}},
    {"protect",
     cmd_protect,
     0,
     "tests/collectives/%s/coll_displ",
     "protect: an MPI_Gatherv whose int displacements wrap past INT_MAX (a 4.5 GB layout)",
     "Detector D fires at the call and a workaround delivers every byte where it belongs "
     "(the program checks them: exit 0); the finding names the call's file:line",
     {"--report", "@report", "--", "@launcher", "-n", "4", "@program", "gatherv-wrap1"}},
    {"concolic",
     cmd_concolic,
     MG_EXIT_FINDINGS,
     "examples/%s/secret",
     "concolic: a tiny program built with mpiguard-cc whose rank 1 crashes on one input value",
     "the solver derives the input, the process count and the focus rank that reach the crash "
     "in a few runs; the finding carries a reproducer (exit 80)",
     {"--np", "2", "--iterations", "4", "--timeout", "20", "--dir", "@dir", "--report", "@report",
      "--", "@program"}},
};

/* Runs every part with one MPI; a part whose program is missing counts as a failure. */
static void demo_mpi(const char *flavor, const char *launcher, const char *dir, int *failures)
{
    for (size_t p = 0; p < sizeof demo_parts / sizeof *demo_parts; p++) {
        const demo_part *part = &demo_parts[p];
        char relative[128], program[4096], report[4096], part_dir[4096], title[256];
        snprintf(relative, sizeof relative, part->program, flavor);
        if (cli_install_path(relative, program, sizeof program) != 0 ||
            access(program, X_OK) != 0) {
            mg_log_error("demo: %s is missing: build the project first", relative);
            (*failures)++;
            continue;
        }
        snprintf(report, sizeof report, "%s/%s-%s.json", dir, part->tool_name, flavor);
        snprintf(part_dir, sizeof part_dir, "%s/%s-%s", dir, part->tool_name, flavor);
        enum { WORDS = sizeof part->words / sizeof *part->words };
        char *argv[WORDS + 1]; /* NULL-terminated as main's */
        int argc = 0;
        for (; argc < WORDS && part->words[argc]; argc++) {
            const char *word = part->words[argc];
            argv[argc] = strcmp(word, "@report") == 0     ? report
                         : strcmp(word, "@dir") == 0      ? part_dir
                         : strcmp(word, "@launcher") == 0 ? (char *)launcher
                         : strcmp(word, "@program") == 0  ? program
                                                          : (char *)word;
        }
        argv[argc] = NULL;
        snprintf(title, sizeof title, "mpiguard %s (%s)", part->title, flavor);
        demo_step(part, title, argv, argc, report, failures);
    }
}

int cmd_demo(int argc, char **argv)
{
    static const char usage[] = "mpiguard demo [--output-dir DIR]";
    const char *dir = "mpiguard-demo";
    const mg_options_option options[] = {
        {"output-dir", 0, MG_OPTIONS_STRING, &dir, "DIR",
         "where the demo's reports go (default ./mpiguard-demo)", NULL, 0, 0},
        {NULL, 0, 0, NULL, NULL, NULL, NULL, 0, 0},
    };
    mg_options_parsed_args args;
    int done;
    int rc = cli_options_parse(usage,
                               "Show the tools of this build on the bundled example programs.",
                               options, argc, argv, CLI_NO_JOB, NULL, 0, &args, &done);
    if (rc || done)
        return rc;
    if (mkdir(dir, 0755) != 0 && access(dir, W_OK) != 0) {
        mg_log_error("demo: cannot create the output directory '%s'", dir);
        return MG_EXIT_CANTCREAT;
    }
    allow_demo_launch();
    /* A demo must end: past DEMO_LIMIT_SECONDS it stops its job as a user's kill would. */
    signal(SIGALRM, stop_demo);
    alarm(DEMO_LIMIT_SECONDS);
    printf("mpiguard %s demo. Tools shown: run, hang, check, protect, concolic, report. "
           "Reports go to %s/.\n",
           CLI_MPIGUARD_VERSION, dir);
    int failures = 0, ran = 0;
    for (size_t i = 0; i < sizeof demo_launchers / sizeof *demo_launchers; i++) {
        char path[4096];
        if (launcher_which(demo_launchers[i][1], path, sizeof path) != 0) {
            printf("\n(%s is not installed: skipping the %s part)\n", demo_launchers[i][1],
                   demo_launchers[i][0]);
            continue;
        }
        demo_mpi(demo_launchers[i][0], demo_launchers[i][1], dir, &failures);
        ran++;
    }
    if (!ran) {
        mg_log_error("demo: no MPI launcher found (install one with scripts/install-deps.sh)");
        return MG_EXIT_UNAVAILABLE;
    }
    printf("\ndemo %s\n", failures ? "FAILED" : "done");
    return failures ? MG_EXIT_SOFTWARE : 0;
}
