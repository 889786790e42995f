/* A program that is not MPI, built static or dynamic by tests/integration/observe.sh: sleeps for
 * argv[1] seconds and exits 0. */
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    sleep(argc > 1 ? (unsigned)atoi(argv[1]) : 5);
    return 0;
}
