/* Preloaded by the apps tests (tests/apps/app_hang.sh): SIGUSR2 makes the process that receives it
 * spin forever in the signal's handler, in its main thread, a computation hang injected from
 * outside an application that cannot be rebuilt with a fault of its own. */
#include <signal.h>
#include <unistd.h>

/* A signal sent to the process may land in any of its threads (Open MPI's PMIx and libevent
 * threads among them: spinning there leaves the main thread running and hangs MPI_Finalize
 * instead); that thread passes it on to the main thread, whose thread id is the process id. */
static void spin_forever(int signo)
{
    if (gettid() != getpid()) {
        tgkill(getpid(), getpid(), signo);
        return;
    }
    for (;;)
        ;
}

__attribute__((constructor)) static void install_spin_handler(void)
{
    struct sigaction action = {.sa_handler = spin_forever};
    sigemptyset(&action.sa_mask);
    sigaction(SIGUSR2, &action, NULL);
}
