/* The kernel's order of exits (proc_exits.h, run 131088 of issue 29): of two processes killed one
 * after the other, the first, which holds 512 MB the kernel tears down before announcing its exit,
 * begins first whichever exit event comes first; both exits are seen with their signal. Real
 * processes; needs CAP_NET_ADMIN (said and passed without it). */
#include "mg_error.h"
#include "mg_test.h"
#include "proc_exits.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

enum { HELD = 512 << 20 };

static proc_exits *exits;

/* A child that waits to be killed, holding held bytes of touched memory in small pages (many to
 * tear down, as a real application's heap). */
static int waiting_child(size_t held)
{
    int pid = fork();
    if (pid == 0) {
        char *memory = held ? mmap(NULL, held, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                                   -1, 0)
                            : MAP_FAILED;
        if (memory != MAP_FAILED) {
            madvise(memory, held, MADV_NOHUGEPAGE);
            memset(memory, 1, held);
        }
        for (;;)
            pause();
    }
    return pid;
}

/* Polls until index i's exit began (order) or, with status, was announced; false after 10 s. */
static bool await(proc_exits *e, int i, bool status)
{
    for (int tries = 0; tries < 10000; tries++) {
        proc_exits_poll(e);
        uint64_t value;
        int wait_status;
        if (status ? proc_exits_status(e, i, &wait_status, &value) : proc_exits_order(e, i, &value))
            return true;
        usleep(1000);
    }
    return false;
}

static void the_first_killed_began_first(void)
{
    proc_exits *e = exits;
    int big = waiting_child(HELD), small = waiting_child(0);
    MG_CHECK(big > 0 && small > 0);
    sleep(1); /* the memory touched */
    proc_exits_set_pid(e, 0, big);
    proc_exits_set_pid(e, 1, small);
    kill(big, SIGKILL);
    MG_CHECK(await(e, 0, false));
    kill(small, SIGKILL);
    MG_CHECK(await(e, 0, true) && await(e, 1, true));
    uint64_t order[2] = {0, 0}, when[2] = {0, 0};
    int status[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        MG_CHECK(proc_exits_order(e, i, &order[i]));
        MG_CHECK(proc_exits_status(e, i, &status[i], &when[i]));
        MG_CHECK(WIFSIGNALED(status[i]) && WTERMSIG(status[i]) == SIGKILL);
    }
    MG_CHECK(order[0] < order[1]);
    printf("the big process's exit was announced %.1f ms %s the small one's\n",
           (double)(when[0] > when[1] ? when[0] - when[1] : when[1] - when[0]) / 1e6,
           when[0] > when[1] ? "after" : "before");
    waitpid(big, NULL, 0);
    waitpid(small, NULL, 0);
}

int main(void)
{
    int rc = proc_exits_open(2, &exits);
    if (rc == MG_ERROR_EPERM) {
        printf("the kernel refuses its process events here (no CAP_NET_ADMIN): nothing to test\n");
        return 0;
    }
    MG_CHECK_INT(rc, MG_ERROR_OK);
    if (rc == MG_ERROR_OK)
        MG_RUN(the_first_killed_began_first);
    proc_exits_close(exits);
    MG_TEST_END();
}
