/* Unit tests of launcher recognition, command rewriting and MPI flavour detection, against the
 * launchers installed on this machine. argv[1] and argv[2]: an Open MPI and an MPICH example binary. */
#include "launcher.h"
#include "mg_error.h"
#include "mg_test.h"
#include "mpi_flavor.h"

static const char *openmpi_app, *mpich_app;

static int identify(char **cmd, int n, mg_launcher *l, char *err)
{
    return mg_launcher_identify(cmd, n, l, err, 512);
}

static void recognises_each_launcher(void)
{
    mg_launcher l;
    char err[512];
    char *ompi[] = {"mpirun.openmpi", "--mca", "btl", "self", "-x", "FOO", "-n", "4", (char *)openmpi_app, "-v"};
    MG_CHECK_INT(identify(ompi, 10, &l, err), MG_OK);
    MG_CHECK_INT(l.kind, MG_LAUNCHER_OPENMPI);
    MG_CHECK_INT(l.app_index, 8);
    MG_CHECK_INT(l.flavor, MG_FLAVOR_OPENMPI);
    char *hydra[] = {"mpiexec.mpich", "-genv", "A", "B", "-n", "2", (char *)mpich_app};
    MG_CHECK_INT(identify(hydra, 7, &l, err), MG_OK);
    MG_CHECK_INT(l.kind, MG_LAUNCHER_HYDRA);
    MG_CHECK_INT(l.app_index, 6);
    MG_CHECK_INT(l.flavor, MG_FLAVOR_MPICH);
    char *srun[] = {"srun", "--mpi=pmi2", "-n", "2", (char *)mpich_app};
    MG_CHECK_INT(identify(srun, 5, &l, err), MG_OK);
    MG_CHECK_INT(l.kind, MG_LAUNCHER_SRUN);
    MG_CHECK_INT(l.flavor, MG_FLAVOR_MPICH); /* from the binary: srun serves both */
    char *mpmd[] = {"mpiexec.mpich", "-n", "1", "/bin/true", ":", "-n", "2", "/nonexistent/app"};
    MG_CHECK_INT(identify(mpmd, 8, &l, err), MG_ENOENT);
    MG_CHECK(strstr(err, "/nonexistent/app") != NULL);
}

static void rejects_what_it_cannot_run(void)
{
    mg_launcher l;
    char err[512];
    char *missing[] = {"mpirun.nosuch", "-n", "2", "/bin/true"};
    MG_CHECK_INT(identify(missing, 4, &l, err), MG_ENOENT);
    MG_CHECK(strstr(err, "not installed") != NULL);
    char *unknown[] = {"/bin/echo", "x"};
    MG_CHECK_INT(identify(unknown, 2, &l, err), MG_EUNSUPPORTED);
    char *no_app[] = {"mpirun.openmpi", "-n", "2"};
    MG_CHECK_INT(identify(no_app, 3, &l, err), MG_EINVAL);
    char *not_in_path[] = {"mpirun.openmpi", "-n", "2", "no-such-program-anywhere"};
    MG_CHECK_INT(identify(not_in_path, 4, &l, err), MG_ENOENT);
    MG_CHECK(strstr(err, "PATH") != NULL);
    MG_CHECK_INT(identify(NULL, 0, &l, err), MG_EINVAL);
}

static int argv_equals(char **got, const char *const *want)
{
    int i = 0;
    for (; want[i]; i++)
        if (!got[i] || strcmp(got[i], want[i]) != 0) {
            fprintf(stderr, "argv[%d] is '%s', expected '%s'\n", i, got[i] ? got[i] : "(end)", want[i]);
            return 0;
        }
    return got[i] == NULL;
}

static void injects_variables_the_launchers_way(void)
{
    mg_launcher l;
    char err[512];
    mg_env_var vars[] = {{"LD_PRELOAD", "/lib/x.so"}, {"MPIGUARD_JOB_TOKEN", "abc"}};
    char *ompi[] = {"mpirun.openmpi", "-n", "4", "/bin/true"};
    identify(ompi, 4, &l, err);
    char **a = mg_launcher_build_argv(&l, ompi, 4, vars, 2);
    static const char *const want_ompi[] = {"mpirun.openmpi", "-x", "LD_PRELOAD=/lib/x.so", "-x",
                                            "MPIGUARD_JOB_TOKEN=abc", "-n", "4", "/bin/true", NULL};
    MG_CHECK(argv_equals(a, want_ompi));
    mg_launcher_free_argv(a);
    char *hydra[] = {"mpiexec.mpich", "-n", "4", "/bin/true"};
    identify(hydra, 4, &l, err);
    a = mg_launcher_build_argv(&l, hydra, 4, vars, 2);
    static const char *const want_hydra[] = {"mpiexec.mpich", "-genv", "LD_PRELOAD", "/lib/x.so",
                                             "-genv", "MPIGUARD_JOB_TOKEN", "abc", "-n", "4",
                                             "/bin/true", NULL};
    MG_CHECK(argv_equals(a, want_hydra));
    mg_launcher_free_argv(a);
    char *srun[] = {"srun", "-n", "4", (char *)mpich_app};
    identify(srun, 4, &l, err);
    a = mg_launcher_build_argv(&l, srun, 4, vars, 2);
    const char *const want_srun[] = {"srun", "--export=ALL,LD_PRELOAD=/lib/x.so,MPIGUARD_JOB_TOKEN=abc",
                                     "-n", "4", mpich_app, NULL};
    MG_CHECK(argv_equals(a, want_srun));
    mg_launcher_free_argv(a);
    char *srun_user[] = {"srun", "--export", "NONE", "-n", "4", (char *)mpich_app};
    identify(srun_user, 6, &l, err);
    a = mg_launcher_build_argv(&l, srun_user, 6, vars, 2);
    MG_CHECK_STR(a[1], "--export=LD_PRELOAD=/lib/x.so,MPIGUARD_JOB_TOKEN=abc");
    MG_CHECK_STR(a[2], "-n");
    mg_launcher_free_argv(a);
    mg_env_var comma[] = {{"X", "a,b"}};
    identify(srun, 4, &l, err);
    MG_CHECK(mg_launcher_build_argv(&l, srun, 4, comma, 1) == NULL);
}

static void tells_flavours_of_binaries(void)
{
    mg_mpi_flavor f;
    MG_CHECK_INT(mg_mpi_flavor_of_binary(openmpi_app, &f), MG_OK);
    MG_CHECK_INT(f, MG_FLAVOR_OPENMPI);
    MG_CHECK_INT(mg_mpi_flavor_of_binary(mpich_app, &f), MG_OK);
    MG_CHECK_INT(f, MG_FLAVOR_MPICH);
    MG_CHECK_INT(mg_mpi_flavor_of_binary("/bin/true", &f), MG_OK);
    MG_CHECK_INT(f, MG_FLAVOR_UNKNOWN);
    MG_CHECK_INT(mg_mpi_flavor_of_binary("/etc/hostname", &f), MG_OK);
    MG_CHECK_INT(f, MG_FLAVOR_UNKNOWN);
    MG_CHECK_INT(mg_mpi_flavor_of_binary("/nonexistent", &f), MG_ENOENT);
    MG_CHECK_INT(mg_mpi_flavor_of_library("/usr/lib/x86_64-linux-gnu/libmpich.so.12.2.0"), MG_FLAVOR_MPICH);
    MG_CHECK_INT(mg_mpi_flavor_of_library("libmpi.so.12"), MG_FLAVOR_MPICH);
    MG_CHECK_INT(mg_mpi_flavor_of_library("/usr/lib/x86_64-linux-gnu/libmpi.so.40.30.4"), MG_FLAVOR_OPENMPI);
    MG_CHECK_INT(mg_mpi_flavor_of_library("libmpi_mpifh.so.40"), MG_FLAVOR_UNKNOWN);
    MG_CHECK_STR(mg_mpi_flavor_name(MG_FLAVOR_MPICH), "mpich");
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
    MG_RUN(tells_flavours_of_binaries);
    MG_TEST_END();
}
