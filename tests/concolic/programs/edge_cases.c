/* Edge cases selected by argv[1]: a marked variable never reached ("unreached"), an unsatisfiable
 * path ("unsat"), a hang on a specific input ("hang"), a fork whose child outlives the rank
 * ("fork"), a target that deletes its own log ("delete-log") or overwrites its start with
 * garbage ("corrupt-log"), a rank that crashes while another
 * is still computing ("crash-early": rank 1 at once, rank 0 after 100 ms reaches a branch, then
 * waits for rank 1). */
#include <mpi.h>
#include <mpiguard/concolic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, x = 1, y = 0;
    const char *mode = argc > 1 ? argv[1] : "";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mpiguard_int(&x);
    if (!strcmp(mode, "unreached") && x == 123456789)
        mpiguard_int(&y);                         /* only on a path no run takes at first */
    if (!strcmp(mode, "unsat") && x > 5 && x < 3) /* UNSAT */
        printf("unreachable\n");
    if (!strcmp(mode, "hang") && x == 42)
        for (;;)
            sleep(1);
    if (!strcmp(mode, "fork") && fork() == 0) {
        close(0); /* a daemon-like child: the launcher does not wait for its output */
        close(1);
        close(2);
        sleep(120);
        _exit(0);
    }
    if (!strcmp(mode, "delete-log")) {
        char path[4096];
        snprintf(path, sizeof path, "%s/rank-%d.log", getenv("MPIGUARD_CONCOLIC_DIR"), rank);
        unlink(path);
    }
    if (!strcmp(mode, "corrupt-log")) {
        char path[4096];
        snprintf(path, sizeof path, "%s/rank-%d.log", getenv("MPIGUARD_CONCOLIC_DIR"), rank);
        FILE *log = fopen(path, "r+b");
        if (log) {
            fputs("not a path log: garbage over the header", log);
            fclose(log);
        }
    }
    if (!strcmp(mode, "crash-early")) {
        if (rank == 1)
            raise(SIGSEGV);
        nanosleep(&(struct timespec){0, 100000000L}, NULL);
        if (x == 7) /* CRASH-EARLY */
            y = 1;
        MPI_Recv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (x > 0 && y >= 0 && rank >= 0)
        printf("ok %d\n", x);
    MPI_Finalize();
    return 0;
}
