/* Unit tests of the /proc reading of a rank (rank_sight.h) over a made-up proc root. */
#include "mg_error.h"
#include "mg_test.h"
#include "rank_sight.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* A process of pid under root: its environ, maps (no library), exe (this test's own binary),
 * cmdline (argv joined by NULs, len bytes), stat with its parent, and cwd. */
static void fake_process(const char *root, int pid, int ppid, const char *env, size_t envlen,
                         const char *argv, size_t len, const char *cwd)
{
    char dir[256], path[300], self[4096], stat[128];
    snprintf(dir, sizeof dir, "%s/%d", root, pid);
    mkdir(dir, 0700);
    snprintf(path, sizeof path, "%s/environ", dir);
    write_file(path, env, envlen);
    snprintf(path, sizeof path, "%s/maps", dir);
    write_file(path, "", 0);
    snprintf(path, sizeof path, "%s/cmdline", dir);
    write_file(path, argv, len);
    snprintf(path, sizeof path, "%s/stat", dir);
    int n = snprintf(stat, sizeof stat, "%d (x) S %d 1 1 0 -1\n", pid, ppid);
    write_file(path, stat, (size_t)n);
    ssize_t got = readlink("/proc/self/exe", self, sizeof self - 1);
    self[got > 0 ? got : 0] = '\0';
    snprintf(path, sizeof path, "%s/exe", dir);
    MG_CHECK(symlink(self, path) == 0);
    snprintf(path, sizeof path, "%s/cwd", dir);
    MG_CHECK(symlink(cwd, path) == 0);
}

/* A wrapper script between the launcher and the program: the shell that interprets it (the script
 * named relative to its working directory) and the sleep it runs, whose parent is that shell of
 * the same rank, are both read as a script; a program given a word that is no file, or a process
 * below one of another rank, is not; the executable's path is read. */
static void reads_a_script(void)
{
    char root[] = "/tmp/mg-sight.XXXXXX", path[128], self[4096];
    MG_CHECK(mkdtemp(root) != NULL);
    snprintf(path, sizeof path, "%s/wrapper.sh", root);
    static const char script[] = "#!/bin/sh\nsleep 3\nexec \"$@\"\n";
    write_file(path, script, sizeof script - 1);
    static const char rank1[] = "OMPI_COMM_WORLD_RANK=1", rank0[] = "OMPI_COMM_WORLD_RANK=0";
    static const char shell[] = "/bin/sh\0wrapper.sh\0./app", sleep3[] = "sleep\0" "3",
                      sleeper[] = "./sleeper\0" "60";
    fake_process(root, 42, 7, rank1, sizeof rank1, shell, sizeof shell, root);
    fake_process(root, 44, 42, rank1, sizeof rank1, sleep3, sizeof sleep3, "/");
    fake_process(root, 45, 7, rank0, sizeof rank0, sleeper, sizeof sleeper, root);
    fake_process(root, 46, 42, rank0, sizeof rank0, sleep3, sizeof sleep3, "/");
    rank_observe_sight s;
    MG_CHECK_INT(rank_sight_read(root, 42, LIBRARY, &s), MG_ERROR_OK);
    MG_CHECK_INT(s.script, 1);
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    MG_CHECK_STR(s.exe, self);
    MG_CHECK_INT(rank_sight_read(root, 44, LIBRARY, &s), MG_ERROR_OK);
    MG_CHECK_INT(s.script, 1);
    MG_CHECK_INT(rank_sight_read(root, 45, LIBRARY, &s), MG_ERROR_OK);
    MG_CHECK_INT(s.script, 0);
    MG_CHECK_INT(rank_sight_read(root, 46, LIBRARY, &s), MG_ERROR_OK);
    MG_CHECK_INT(s.script, 0);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    MG_CHECK_INT(system(cmd), 0);
}

int main(void)
{
    MG_RUN(reads_a_process);
    MG_RUN(reads_a_script);
    MG_TEST_END();
}
