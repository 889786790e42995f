/* Test helper: holds a process as its tracer (PTRACE_SEIZE, without stopping it) for SECONDS, so
 * that any other tracer is refused, as when a debugger is attached. Usage: ptrace_holder PID
 * SECONDS */
#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: ptrace_holder PID SECONDS\n");
        return 2;
    }
    pid_t pid = (pid_t)atoi(argv[1]);
    if (ptrace(PTRACE_SEIZE, pid, 0, 0) != 0) {
        perror("ptrace_holder: PTRACE_SEIZE");
        return 1;
    }
    printf("holding %d\n", (int)pid);
    fflush(stdout);
    sleep((unsigned)atoi(argv[2]));
    return 0; /* exiting detaches the tracee */
}
