/* Unit tests of the /proc scan (src/agent/rank_scan.h) over a fake /proc: a job's ranks are found
 * by their token, one per rank; the search for what of a job may be left (any_process) finds its
 * launcher's daemon too (hydra_pmi_proxy: the token as MPIGUARD_JOB_TREE and no rank variable, issue
 * 26) and a wrapper beside the rank it wraps, and never a process of another job. */
#include "mg_env.h"
#include "mg_error.h"
#include "mg_test.h"
#include "rank_scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A process of the fake /proc at root: its stat (its parent) and its environment, "NAME=VALUE"
 * entries separated by '|'. */
static void fake_process(const char *root, int pid, int ppid, const char *env)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%d", root, pid);
    MG_CHECK(mkdir(path, 0755) == 0);
    snprintf(path, sizeof path, "%s/%d/stat", root, pid);
    FILE *f = fopen(path, "w");
    MG_CHECK(f != NULL);
    fprintf(f, "%d (proc %d) S %d 1 1 0 -1\n", pid, pid, ppid);
    fclose(f);
    snprintf(path, sizeof path, "%s/%d/environ", root, pid);
    f = fopen(path, "w");
    MG_CHECK(f != NULL);
    for (const char *c = env; *c; c++)
        fputc(*c == '|' ? '\0' : *c, f);
    fputc('\0', f);
    fclose(f);
}

static int has_pid(const rank_scan_proc *procs, size_t n, int pid)
{
    for (size_t i = 0; i < n; i++)
        if (procs[i].pid == pid)
            return 1;
    return 0;
}

static void leftovers_include_the_launchers_daemon(void)
{
    char root[] = "/tmp/mg_rank_scan_XXXXXX";
    MG_CHECK(mkdtemp(root) != NULL);
    /* mpiexec (100) and its proxy (101), which got the token from the launcher's environment; the
     * proxy's ranks (102, 103 wrapped by 104: `timeout ./app`), and another job's rank (200) */
    fake_process(root, 100, 1, MG_ENV_JOB_TREE "=tok|PATH=/bin");
    fake_process(root, 101, 100, MG_ENV_JOB_TREE "=tok|PATH=/bin");
    fake_process(root, 102, 101, MG_ENV_JOB_TREE "=tok|" MG_ENV_JOB_TOKEN "=tok|PMI_RANK=0|PMI_SIZE=2");
    fake_process(root, 104, 101, MG_ENV_JOB_TREE "=tok|" MG_ENV_JOB_TOKEN "=tok|PMI_RANK=1|PMI_SIZE=2");
    fake_process(root, 103, 104, MG_ENV_JOB_TREE "=tok|" MG_ENV_JOB_TOKEN "=tok|PMI_RANK=1|PMI_SIZE=2");
    fake_process(root, 200, 1, MG_ENV_JOB_TREE "=other|" MG_ENV_JOB_TOKEN "=other|PMI_RANK=0");

    rank_scan_proc *procs;
    size_t n;
    rank_scan_selector ranks = {.token = "tok"};
    MG_CHECK_INT(rank_scan(root, &ranks, &procs, &n), MG_ERROR_OK);
    MG_CHECK_INT((int)n, 2); /* one per rank: the wrapped rank, the deepest */
    MG_CHECK(n == 2 && procs[0].pid == 102 && procs[1].pid == 103 && procs[1].size == 2);
    free(procs);

    rank_scan_selector left = {.token = "tok", .any_process = 1};
    MG_CHECK_INT(rank_scan(root, &left, &procs, &n), MG_ERROR_OK);
    MG_CHECK_INT((int)n, 5);
    for (int pid = 100; pid <= 104; pid++)
        MG_CHECK(has_pid(procs, n, pid));
    MG_CHECK(!has_pid(procs, n, 200));
    free(procs);

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    MG_CHECK_INT(system(cmd), 0);
}

int main(void)
{
    MG_RUN(leftovers_include_the_launchers_daemon);
    MG_TEST_END();
}
