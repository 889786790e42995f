/* `mpiguard demo`: shows the tools of this build on the bundled examples, with every installed MPI. */
#include "cli.h"

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

enum { DEMO_LIMIT_SECONDS = 600 };

static void stop_demo(int sig)
{
    (void)sig;
    kill(getpid(), SIGTERM);
}

/* Open MPI refuses root and more ranks than cores unless told; the demo is ours to configure. */
static void allow_demo_launch(void)
{
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
    setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 0);
}

/* One demo step: prints the command, runs the tool in this process, renders its report, and
 * counts a failure when the tool's status is not the expected one. */
static void demo_step(const char *title, int (*tool)(int, char **), const char *tool_name,
                      char **argv, int argc, const char *report, int expected, int *failures)
{
    printf("\n== %s ==\n$ mpiguard %s", title, tool_name);
    for (int i = 0; i < argc; i++)
        printf(" %s", argv[i]);
    printf("\n");
    fflush(stdout);
    /* The step's report records the step's command line, not the demo's. */
    char *command[24] = {"mpiguard", (char *)tool_name};
    for (int i = 0; i < argc && i + 2 < 24; i++)
        command[i + 2] = argv[i];
    char **demo_line = cli_command_line;
    int demo_words = cli_command_words;
    cli_command_line = command;
    cli_command_words = argc + 2 < 24 ? argc + 2 : 24;
    int status = tool(argc, argv);
    cli_command_line = demo_line;
    cli_command_words = demo_words;
    printf("exit status %d%s\n$ mpiguard report %s\n", status,
           status == expected ? "" : " (unexpected)", report);
    fflush(stdout);
    char *report_argv[] = {(char *)report, NULL};
    if (cmd_report(1, report_argv) != 0 || status != expected)
        (*failures)++;
}

static int demo_run(const char *flavor, const char *launcher, const char *dir, int *failures)
{
    char stencil[4096], cg[4096], relative[128], run_report[4096], hang_report[4096];
    snprintf(relative, sizeof relative, "examples/%s/stencil", flavor);
    int found = cli_install_path(relative, stencil, sizeof stencil) == 0 && access(stencil, X_OK) == 0;
    snprintf(relative, sizeof relative, "examples/%s/cg", flavor);
    found = found && cli_install_path(relative, cg, sizeof cg) == 0 && access(cg, X_OK) == 0;
    if (!found) {
        mg_error("demo: the example programs for %s are missing: build the project first", flavor);
        (*failures)++;
        return 0;
    }
    snprintf(run_report, sizeof run_report, "%s/run-%s.json", dir, flavor);
    snprintf(hang_report, sizeof hang_report, "%s/hang-%s.json", dir, flavor);
    char title[256];
    snprintf(title, sizeof title, "mpiguard run with %s: a healthy 2-D stencil on 4 ranks for 2 s", flavor);
    char *run_argv[] = {"--report", run_report, "--", (char *)launcher, "-n", "4", stencil,
                        "--seconds", "2", NULL};
    demo_step(title, cmd_run, "run", run_argv, 9, run_report, 0, failures);
    snprintf(title, sizeof title,
             "mpiguard hang with %s: rank 2 of a CG solver falls into an endless loop after 20 s", flavor);
    char *hang_argv[] = {"--seed", "1", "--report", hang_report, "--", (char *)launcher, "-n", "4", cg,
                         "--seconds", "300", "--fault", "compute-loop", "--fault-rank", "2",
                         "--fault-at", "20", NULL};
    demo_step(title, cmd_hang, "hang", hang_argv, 17, hang_report, MG_EXIT_HANG, failures);
    return 1;
}

int cmd_demo(int argc, char **argv)
{
    static const char usage[] = "mpiguard demo [--output-dir DIR]";
    const char *dir = "mpiguard-demo";
    const mg_option options[] = {
        {"output-dir", 0, MG_OPT_STRING, &dir, "DIR", "where the demo's reports go (default ./mpiguard-demo)",
         NULL, 0, 0},
        {NULL, 0, 0, NULL, NULL, NULL, NULL, 0, 0},
    };
    mg_parsed_args args;
    int done;
    int rc = cli_parse(usage, "Show the tools of this build on the bundled example programs.",
                       options, argc, argv, 0, NULL, 0, &args, &done);
    if (rc || done)
        return rc;
    if (mkdir(dir, 0755) != 0 && access(dir, W_OK) != 0) {
        mg_error("demo: cannot create the output directory '%s'", dir);
        return MG_EXIT_CANTCREAT;
    }
    allow_demo_launch();
    /* A demo must end: past DEMO_LIMIT_SECONDS it stops its job as a user's kill would. */
    signal(SIGALRM, stop_demo);
    alarm(DEMO_LIMIT_SECONDS);
    printf("mpiguard %s demo. Tools shown: run, hang, report. Reports go to %s/.\n",
           MPIGUARD_VERSION, dir);
    int failures = 0, ran = 0;
    for (size_t i = 0; i < sizeof demo_launchers / sizeof *demo_launchers; i++) {
        char path[4096];
        if (mg_launcher_which(demo_launchers[i][1], path, sizeof path) != 0) {
            printf("\n(%s is not installed: skipping the %s part)\n", demo_launchers[i][1],
                   demo_launchers[i][0]);
            continue;
        }
        ran += demo_run(demo_launchers[i][0], demo_launchers[i][1], dir, &failures);
    }
    if (!ran) {
        mg_error("demo: no MPI launcher found (install one with scripts/install-deps.sh)");
        return MG_EXIT_UNAVAILABLE;
    }
    printf("\ndemo %s\n", failures ? "FAILED" : "done");
    return failures ? MG_EXIT_SOFTWARE : 0;
}
