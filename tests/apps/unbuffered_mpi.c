/* What an MPI without buffering may legally do, preloaded into a Debian application to show that a
 * potential deadlock check reports is real: MG_UNBUFFERED_SENDS=1 makes every standard MPI_Send
 * synchronous (it returns once its receive is posted), MG_SYNCHRONIZING_BCAST=1 makes every
 * MPI_Bcast wait for every member first (MPI lets any collective synchronise). */
#include <mpi.h>
#include <stdlib.h>

static int set(const char *name)
{
    const char *v = getenv(name);
    return v && v[0] == '1';
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    if (set("MG_UNBUFFERED_SENDS"))
        return PMPI_Ssend(buf, count, type, dest, tag, comm);
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    if (set("MG_SYNCHRONIZING_BCAST"))
        PMPI_Barrier(comm);
    return PMPI_Bcast(buf, count, type, root, comm);
}
