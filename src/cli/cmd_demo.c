/* `mpiguard demo`: shows the tools of this build on the bundled examples, with every installed MPI. */
#include "cli.h"

#include "mg_exit.h"
#include "mg_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const demo_launchers[][2] = {
    {"openmpi", "mpirun.openmpi"},
    {"mpich", "mpiexec.mpich"},
};

/* Open MPI refuses root and more ranks than cores unless told; the demo is ours to configure. */
static void allow_demo_launch(void)
{
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
    setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 0);
}

static int demo_run(const char *flavor, const char *launcher, const char *dir, int *failures)
{
    char example[4096], report[4096];
    char relative[128];
    snprintf(relative, sizeof relative, "examples/%s/stencil", flavor);
    if (cli_install_path(relative, example, sizeof example) != 0 || access(example, X_OK) != 0) {
        mg_error("demo: example program %s is missing: build the project first", relative);
        (*failures)++;
        return 0;
    }
    snprintf(report, sizeof report, "%s/run-%s.json", dir, flavor);
    printf("\n== mpiguard run with %s: a healthy 2-D stencil on 4 ranks for 2 s ==\n", flavor);
    printf("$ mpiguard run --report %s -- %s -n 4 %s --seconds 2\n", report, launcher, example);
    fflush(stdout);
    char *argv[] = {"--report", report, "--", (char *)launcher, "-n", "4", example,
                    "--seconds", "2", NULL};
    int status = cmd_run(9, argv);
    printf("exit status %d\n$ mpiguard report %s\n", status, report);
    fflush(stdout);
    char *report_argv[] = {report, NULL};
    int render_status = cmd_report(1, report_argv);
    if (status != 0 || render_status != 0)
        (*failures)++;
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
    printf("mpiguard %s demo. Tools in this build: run, report. Reports go to %s/.\n",
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
