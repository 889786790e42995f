/* Unit tests of launcher recognition, command rewriting and MPI flavour detection, against the
 * launchers installed on this machine. argv[1] and argv[2]: an Open MPI and an MPICH example
 * binary. */
#include "launcher.h"
#include "mg_error.h"
#include "mg_test.h"
#include "mpi_flavor.h"

#include <stdlib.h>

static const char *openmpi_app, *mpich_app;

static int identify(char **cmd, int n, launcher *l, char *err)
{
    return launcher_identify(cmd, n, l, err, 512);
}

static void recognises_each_launcher(void)
{
    launcher l;
    char err[512];
    char *ompi[] = {"mpirun.openmpi",    "--mca", "btl", "self", "-x", "FOO", "-n", "4",
                    (char *)openmpi_app, "-v"};
    MG_CHECK_INT(identify(ompi, 10, &l, err), MG_ERROR_OK);
    MG_CHECK_INT(l.kind, LAUNCHER_OPENMPI);
    MG_CHECK_INT(l.app_index, 8);
    MG_CHECK_INT(l.flavor, MG_MPI_FLAVOR_OPENMPI);
    char *hydra[] = {"mpiexec.mpich", "-genv", "A", "B", "-n", "2", (char *)mpich_app};
    MG_CHECK_INT(identify(hydra, 7, &l, err), MG_ERROR_OK);
    MG_CHECK_INT(l.kind, LAUNCHER_HYDRA);
    MG_CHECK_INT(l.app_index, 6);
    MG_CHECK_INT(l.flavor, MG_MPI_FLAVOR_MPICH);
    char *srun[] = {"srun", "--mpi=pmi2", "-n", "2", (char *)mpich_app};
    MG_CHECK_INT(identify(srun, 5, &l, err), MG_ERROR_OK);
    MG_CHECK_INT(l.kind, LAUNCHER_SRUN);
    MG_CHECK_INT(l.flavor, MG_MPI_FLAVOR_MPICH); /* from the binary: srun serves both */
    char *mpmd[] = {"mpiexec.mpich", "-n", "1", "/bin/true", ":", "-n", "2", "/nonexistent/app"};
    MG_CHECK_INT(identify(mpmd, 8, &l, err), MG_ERROR_ENOENT);
    MG_CHECK(strstr(err, "/nonexistent/app") != NULL);
}

static void rejects_what_it_cannot_run(void)
{
    launcher l;
    char err[512];
    char *missing[] = {"mpirun.nosuch", "-n", "2", "/bin/true"};
    MG_CHECK_INT(identify(missing, 4, &l, err), MG_ERROR_ENOENT);
    MG_CHECK(strstr(err, "not installed") != NULL);
    char *unknown[] = {"/bin/echo", "x"};
    MG_CHECK_INT(identify(unknown, 2, &l, err), MG_ERROR_EUNSUPPORTED);
    char *no_app[] = {"mpirun.openmpi", "-n", "2"};
    MG_CHECK_INT(identify(no_app, 3, &l, err), MG_ERROR_EINVAL);
    char *not_in_path[] = {"mpirun.openmpi", "-n", "2", "no-such-program-anywhere"};
    MG_CHECK_INT(identify(not_in_path, 4, &l, err), MG_ERROR_ENOENT);
    MG_CHECK(strstr(err, "PATH") != NULL);
    MG_CHECK_INT(identify(NULL, 0, &l, err), MG_ERROR_EINVAL);
}

static int argv_equals(char **got, const char *const *want)
{
    int i = 0;
    for (; want[i]; i++)
        if (!got[i] || strcmp(got[i], want[i]) != 0) {
            fprintf(stderr, "argv[%d] is '%s', expected '%s'\n", i, got[i] ? got[i] : "(end)",
                    want[i]);
            return 0;
        }
    return got[i] == NULL;
}

static void injects_variables_the_launchers_way(void)
{
    launcher l;
    char err[512];
    launcher_env_var vars[] = {{"LD_PRELOAD", "/lib/x.so"}, {"MPIGUARD_JOB_TOKEN", "abc"}};
    char *ompi[] = {"mpirun.openmpi", "-n", "4", "/bin/true"};
    identify(ompi, 4, &l, err);
    char **a = launcher_build_argv(&l, ompi, 4, vars, 2);
    static const char *const want_ompi[] = {
        "mpirun.openmpi", "-x", "LD_PRELOAD=/lib/x.so", "-x", "MPIGUARD_JOB_TOKEN=abc", "-n", "4",
        "/bin/true",      NULL};
    MG_CHECK(argv_equals(a, want_ompi));
    launcher_free_argv(a);
    char *hydra[] = {"mpiexec.mpich", "-n", "4", "/bin/true"};
    identify(hydra, 4, &l, err);
    a = launcher_build_argv(&l, hydra, 4, vars, 2);
    static const char *const want_hydra[] = {
        "mpiexec.mpich", "-genv", "LD_PRELOAD", "/lib/x.so", "-genv", "MPIGUARD_JOB_TOKEN",
        "abc",           "-n",    "4",          "/bin/true", NULL};
    MG_CHECK(argv_equals(a, want_hydra));
    launcher_free_argv(a);
    char *srun[] = {"srun", "-n", "4", (char *)mpich_app};
    identify(srun, 4, &l, err);
    a = launcher_build_argv(&l, srun, 4, vars, 2);
    const char *const want_srun[] = {
        "srun", "--export=ALL,LD_PRELOAD=/lib/x.so,MPIGUARD_JOB_TOKEN=abc", "-n", "4", mpich_app,
        NULL};
    MG_CHECK(argv_equals(a, want_srun));
    launcher_free_argv(a);
    char *srun_user[] = {"srun", "--export", "NONE", "-n", "4", (char *)mpich_app};
    identify(srun_user, 6, &l, err);
    a = launcher_build_argv(&l, srun_user, 6, vars, 2);
    MG_CHECK_STR(a[1], "--export=LD_PRELOAD=/lib/x.so,MPIGUARD_JOB_TOKEN=abc");
    MG_CHECK_STR(a[2], "-n");
    launcher_free_argv(a);
    launcher_env_var comma[] = {{"X", "a,b"}};
    identify(srun, 4, &l, err);
    MG_CHECK(launcher_build_argv(&l, srun, 4, comma, 1) == NULL);
}

/* The LD_PRELOAD the user gives the ranks, by each launcher's options (never an application's
 * arguments) or the environment, with the value the last setting gives. */
static void reads_the_users_own_setting(void)
{
    launcher l;
    char err[512], value[256];
    setenv("LD_PRELOAD", "/env.so", 1);
    char *ompi_value[] = {"mpirun.openmpi", "-x", "LD_PRELOAD=/u.so",  "-n", "2",
                          "/bin/true",      "-x", "LD_PRELOAD=/app.so"};
    identify(ompi_value, 8, &l, err);
    MG_CHECK_INT(launcher_user_value(&l, ompi_value, 8, "LD_PRELOAD", value, sizeof value), 1);
    MG_CHECK_STR(value, "/u.so");
    MG_CHECK_INT(launcher_user_value(&l, ompi_value, 8, "LD_PRELOAD", value, 4), MG_ERROR_ERANGE);
    char *ompi_inherited[] = {"mpirun.openmpi", "-n", "2", "/bin/true", "-x", "LD_PRELOAD=/app.so"};
    identify(ompi_inherited, 6, &l, err);
    MG_CHECK_INT(launcher_user_value(&l, ompi_inherited, 6, "LD_PRELOAD", value, sizeof value),
                 1);
    MG_CHECK_STR(value, "/env.so");
    char *hydra_mpmd[] = {
        "mpiexec.mpich", "-genv",      "LD_PRELOAD", "/g.so", "-n", "1",        "/bin/true", ":",
        "-env",          "LD_PRELOAD", "/e.so",      "-n",    "1",  "/bin/true"};
    identify(hydra_mpmd, 14, &l, err);
    MG_CHECK_INT(launcher_user_value(&l, hydra_mpmd, 14, "LD_PRELOAD", value, sizeof value), 1);
    MG_CHECK_STR(value, "/e.so");
    char *hydra_list[] = {"mpiexec.mpich", "-genvnone", "-genvlist", "FOO,LD_PRELOAD", "-n", "2",
                          "/bin/true"};
    identify(hydra_list, 7, &l, err);
    MG_CHECK_INT(launcher_user_value(&l, hydra_list, 7, "LD_PRELOAD", value, sizeof value), 1);
    MG_CHECK_STR(value, "/env.so");
    char *hydra_none[] = {"mpiexec.mpich", "-genvnone", "-n", "2", "/bin/true"};
    identify(hydra_none, 5, &l, err);
    MG_CHECK_INT(launcher_user_value(&l, hydra_none, 5, "LD_PRELOAD", value, sizeof value), 0);
    char *srun_value[] = {"srun", "--export=ALL,LD_PRELOAD=/s.so,FOO=1", "-n", "2",
                          (char *)mpich_app};
    identify(srun_value, 5, &l, err);
    MG_CHECK_INT(launcher_user_value(&l, srun_value, 5, "LD_PRELOAD", value, sizeof value), 1);
    MG_CHECK_STR(value, "/s.so");
    char *srun_named[] = {"srun", "--export", "FOO=1", "-n", "2", (char *)mpich_app};
    identify(srun_named, 6, &l, err);
    MG_CHECK_INT(launcher_user_value(&l, srun_named, 6, "LD_PRELOAD", value, sizeof value), 0);
    srun_named[2] = "LD_PRELOAD";
    MG_CHECK_INT(launcher_user_value(&l, srun_named, 6, "LD_PRELOAD", value, sizeof value), 1);
    MG_CHECK_STR(value, "/env.so");
    unsetenv("LD_PRELOAD");
    MG_CHECK_INT(launcher_user_value(&l, srun_named, 6, "LD_PRELOAD", value, sizeof value), 0);
}

/* mpiguard's library first, the user's after it in their order, each file once. */
static void merges_preload_lists(void)
{
    char out[64];
    MG_CHECK_INT(
        launcher_merge_preload("/lib/x.so", "/a.so:/b.so /lib/x.so:/a.so", out, sizeof out),
        MG_ERROR_OK);
    MG_CHECK_STR(out, "/lib/x.so:/a.so:/b.so");
    MG_CHECK_INT(launcher_merge_preload("/usr/bin/true", "/bin/true::/c.so", out, sizeof out),
                 MG_ERROR_OK);
    MG_CHECK_STR(out, "/usr/bin/true:/c.so");
    MG_CHECK_INT(launcher_merge_preload("/lib/x.so", NULL, out, sizeof out), MG_ERROR_OK);
    MG_CHECK_STR(out, "/lib/x.so");
    MG_CHECK_INT(launcher_merge_preload("/lib/x.so", "/a.so", out, 12), MG_ERROR_ERANGE);
}

/* The user's own setting of a variable mpiguard passes is left out; the rest stays as written. */
static void replaces_the_users_own_setting(void)
{
    launcher l;
    char err[512];
    launcher_env_var vars[] = {{"LD_PRELOAD", "/lib/x.so"}, {"MPIGUARD_JOB_TOKEN", "abc"}};
    char *ompi[] = {
        "mpirun.openmpi", "-x", "LD_PRELOAD=/u.so",  "-x", "LD_PRELOAD", "-x", "FOO", "-n", "2",
        "/bin/true",      "-x", "LD_PRELOAD=/app.so"};
    identify(ompi, 12, &l, err);
    char **a = launcher_build_argv(&l, ompi, 12, vars, 2);
    static const char *const want_ompi[] = {"mpirun.openmpi",
                                            "-x",
                                            "LD_PRELOAD=/lib/x.so",
                                            "-x",
                                            "MPIGUARD_JOB_TOKEN=abc",
                                            "-x",
                                            "FOO",
                                            "-n",
                                            "2",
                                            "/bin/true",
                                            "-x",
                                            "LD_PRELOAD=/app.so",
                                            NULL};
    MG_CHECK(argv_equals(a, want_ompi));
    launcher_free_argv(a);
    char *hydra[] = {"mpiexec.mpich",
                     "-genvlist",
                     "FOO,LD_PRELOAD",
                     "-envlist",
                     "LD_PRELOAD",
                     "-genv",
                     "LD_PRELOAD",
                     "/g.so",
                     "-n",
                     "1",
                     "/bin/true",
                     ":",
                     "-env",
                     "LD_PRELOAD",
                     "/e.so",
                     "-n",
                     "1",
                     "/bin/true"};
    identify(hydra, 18, &l, err);
    a = launcher_build_argv(&l, hydra, 18, vars, 2);
    static const char *const want_hydra[] = {"mpiexec.mpich",
                                             "-genv",
                                             "LD_PRELOAD",
                                             "/lib/x.so",
                                             "-genv",
                                             "MPIGUARD_JOB_TOKEN",
                                             "abc",
                                             "-genvlist",
                                             "FOO",
                                             "-n",
                                             "1",
                                             "/bin/true",
                                             ":",
                                             "-n",
                                             "1",
                                             "/bin/true",
                                             NULL};
    MG_CHECK(argv_equals(a, want_hydra));
    launcher_free_argv(a);
    char *srun[] = {"srun", "--export=ALL,LD_PRELOAD=/s.so,FOO=1", "-n", "2", (char *)mpich_app};
    identify(srun, 5, &l, err);
    a = launcher_build_argv(&l, srun, 5, vars, 2);
    MG_CHECK_STR(a[1], "--export=ALL,FOO=1,LD_PRELOAD=/lib/x.so,MPIGUARD_JOB_TOKEN=abc");
    launcher_free_argv(a);
}

static void tells_flavours_of_binaries(void)
{
    mg_mpi_flavor f;
    MG_CHECK_INT(mpi_flavor_of_binary(openmpi_app, &f), MG_ERROR_OK);
    MG_CHECK_INT(f, MG_MPI_FLAVOR_OPENMPI);
    MG_CHECK_INT(mpi_flavor_of_binary(mpich_app, &f), MG_ERROR_OK);
    MG_CHECK_INT(f, MG_MPI_FLAVOR_MPICH);
    MG_CHECK_INT(mpi_flavor_of_binary("/bin/true", &f), MG_ERROR_OK);
    MG_CHECK_INT(f, MG_MPI_FLAVOR_UNKNOWN);
    MG_CHECK_INT(mpi_flavor_of_binary("/etc/hostname", &f), MG_ERROR_OK);
    MG_CHECK_INT(f, MG_MPI_FLAVOR_UNKNOWN);
    MG_CHECK_INT(mpi_flavor_of_binary("/nonexistent", &f), MG_ERROR_ENOENT);
    MG_CHECK_INT(mpi_flavor_of_library("/usr/lib/x86_64-linux-gnu/libmpich.so.12.2.0"),
                 MG_MPI_FLAVOR_MPICH);
    MG_CHECK_INT(mpi_flavor_of_library("libmpi.so.12"), MG_MPI_FLAVOR_MPICH);
    MG_CHECK_INT(mpi_flavor_of_library("/usr/lib/x86_64-linux-gnu/libmpi.so.40.30.4"),
                 MG_MPI_FLAVOR_OPENMPI);
    MG_CHECK_INT(mpi_flavor_of_library("libmpi_mpifh.so.40"), MG_MPI_FLAVOR_UNKNOWN);
    MG_CHECK_STR(mg_mpi_flavor_name(MG_MPI_FLAVOR_MPICH), "mpich");
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_launcher OPENMPI_APP MPICH_APP\n");
        return 2;
    }
    openmpi_app = argv[1];
    mpich_app = argv[2];
    MG_RUN(recognises_each_launcher);
    MG_RUN(rejects_what_it_cannot_run);
    MG_RUN(injects_variables_the_launchers_way);
    MG_RUN(reads_the_users_own_setting);
    MG_RUN(merges_preload_lists);
    MG_RUN(replaces_the_users_own_setting);
    MG_RUN(tells_flavours_of_binaries);
    MG_TEST_END();
}
