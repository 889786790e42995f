/* Unit tests of the /proc reading of a rank (rank_sight.h) over a made-up proc root. */
#include "mg_error.h"
#include "mg_test.h"
#include "rank_sight.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define LIBRARY "/opt/mpiguard/lib/libmpiguard-openmpi.so"

static void write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "w");
    MG_CHECK(f != NULL);
    if (f) {
        fwrite(text, 1, len, f);
        fclose(f);
    }
}

/* A proc root with one process: its environ, maps and exe (this test's own binary). */
static void reads_a_process(void)
{
    char root[] = "/tmp/mg-sight.XXXXXX", dir[64], path[128], self[4096];
    MG_CHECK(mkdtemp(root) != NULL);
    snprintf(dir, sizeof dir, "%s/42", root);
    mkdir(dir, 0700);
    static const char env[] = "A=1\0LD_PRELOAD=/x/libother.so:" LIBRARY "\0B=2";
    snprintf(path, sizeof path, "%s/environ", dir);
    write_file(path, env, sizeof env);
    static const char maps[] =
        "7f00-7f01 r-xp 0 08:01 1 /usr/lib/x86_64-linux-gnu/libmpi_mpifh.so.40.30.0\n"
        "7f02-7f03 r-xp 0 08:01 2 /usr/lib/x86_64-linux-gnu/libmpi.so.40.30.4\n"
        "7f04-7f05 r-xp 0 08:01 3 /elsewhere/libmpiguard-openmpi.so\n"
        "7ffd-7ffe rw-p 0 00:00 0 [stack]\n";
    snprintf(path, sizeof path, "%s/maps", dir);
    write_file(path, maps, sizeof maps - 1);
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    snprintf(path, sizeof path, "%s/exe", dir);
    MG_CHECK(symlink(self, path) == 0);
    rank_observe_sight s;
    MG_CHECK_INT(rank_sight_read(root, 42, LIBRARY, &s), MG_ERROR_OK);
    MG_CHECK_INT(s.read, 1);
    MG_CHECK_INT(s.preload_names_library, 1);
    MG_CHECK_INT(s.library_mapped, 1);
    MG_CHECK_INT(s.mapped_mpi, MG_MPI_FLAVOR_OPENMPI);
    MG_CHECK_STR(s.binding, "libmpi_mpifh.so.40.30.0");
    MG_CHECK_INT(s.static_binary, 0);
    MG_CHECK_INT(s.binary_defines_mpi, 0);
    MG_CHECK_INT(rank_sight_read(root, 43, LIBRARY, &s), MG_ERROR_ENOENT);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    MG_CHECK_INT(system(cmd), 0);
}

int main(void)
{
    MG_RUN(reads_a_process);
    MG_TEST_END();
}
