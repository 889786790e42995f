/* For tests/integration/state_waits.sh: one rank, the state module preloaded with its waits, reads
 * its own rank-state segment after each call and prints what it published, one line:
 * "Barrier W Irecv P:peer:tag Sendrecv W:peer:tag Testany W Bcast W:root Waitall W" (W: wait_on,
 * P: posted count). Each call's wait differs from the previous one's, so a call that published
 * nothing shows the previous value. */
#include <mpi.h>

#include "mg_env.h"
#include "rank_state.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static unsigned on(const rank_state *s)
{
    return atomic_load(&s->wait_on);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    char name[128];
    snprintf(name, sizeof name, RANK_STATE_NAME_FORMAT, getenv(MG_ENV_JOB_TOKEN), 0);
    int fd = shm_open(name, O_RDONLY, 0);
    const rank_state *s = fd < 0 ? MAP_FAILED
                                    : mmap(NULL, sizeof *s, PROT_READ, MAP_SHARED, fd, 0);
    if (s == MAP_FAILED) {
        printf("no segment %s\n", name);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Request requests[2];
    MPI_Status statuses[2];
    int in = 0, out = 1, index, flag;
    MPI_Barrier(MPI_COMM_WORLD);
    printf("Barrier %u", on(s));
    MPI_Irecv(&in, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &requests[0]);
    printf(" Irecv %u:%d:%d", atomic_load(&s->posted), atomic_load(&s->posted_peer[0]),
           atomic_load(&s->posted_tag[0]));
    MPI_Sendrecv(&out, 1, MPI_INT, 0, 8, &in, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf(" Sendrecv %u:%d:%d", on(s), atomic_load(&s->wait_peer), atomic_load(&s->wait_tag));
    MPI_Testany(1, requests, &index, &flag, MPI_STATUS_IGNORE);
    printf(" Testany %u", on(s));
    MPI_Bcast(&out, 1, MPI_INT, 0, MPI_COMM_WORLD);
    printf(" Bcast %u:%d", on(s), atomic_load(&s->wait_peer));
    MPI_Isend(&out, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &requests[1]);
    MPI_Waitall(2, requests, statuses);
    printf(" Waitall %u\n", on(s));
    MPI_Finalize();
    return 0;
}
