/* mpiguard version: the version and which interposition libraries this installation has (cli.h). */
#include "cli.h"

#include "mg_exit.h"
#include "mg_log.h"

#include <stdio.h>
#include <unistd.h>

int cmd_version(int argc, char **argv)
{
    (void)argv;
    if (argc > 0) {
        mg_log_error("version takes no arguments");
        return MG_EXIT_USAGE;
    }
    printf("mpiguard %s\n", CLI_MPIGUARD_VERSION);
    static const char *const flavors[] = {"openmpi", "mpich"};
    for (size_t i = 0; i < 2; i++) {
        char relative[64], path[4096];
        snprintf(relative, sizeof relative, "lib/libmpiguard-%s.so", flavors[i]);
        int found = cli_install_path(relative, path, sizeof path) == 0 && access(path, R_OK) == 0;
        printf("interposition library for %-8s %s\n", flavors[i], found ? "present" : "missing");
    }
    return 0;
}
