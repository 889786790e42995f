/* A small PMPI tool of the tests' own, standing for any other PMPI library a user preloads beside
 * mpiguard (a profiler): it counts the calls of each function it wraps and, at MPI_Finalize, writes
 * them to $PMPI_COUNTER_DIR/rank.<rank>, one "MPI_<Name> <calls>" a line. Like any such tool, each
 * wrapper calls PMPI_<Name>: a library loaded before it in the lookup order must hand the call on
 * to it (interpose_next.h) for it to count anything. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

/* The functions the bundled examples and the check suite's programs call, by counter index. */
#define COUNTED(X)                                                                                 \
    X(Init)                                                                                        \
    X(Init_thread) X(Send) X(Recv) X(Isend) X(Irecv) X(Wait) X(Waitall) X(Test) X(Barrier)         \
        X(Bcast) X(Reduce) X(Allreduce) X(Alltoall) X(Cart_create) X(Comm_free)

#define INDEX(name) COUNT_##name,
enum { COUNTED(INDEX) COUNTED_FUNCTIONS };
#define NAME(name) "MPI_" #name,
static const char *const names[] = {COUNTED(NAME)};
static unsigned long calls[COUNTED_FUNCTIONS];

int MPI_Init(int *argc, char ***argv)
{
    calls[COUNT_Init]++;
    return PMPI_Init(argc, argv);
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    calls[COUNT_Init_thread]++;
    return PMPI_Init_thread(argc, argv, required, provided);
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    calls[COUNT_Send]++;
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    calls[COUNT_Recv]++;
    return PMPI_Recv(buf, count, type, source, tag, comm, status);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request *request)
{
    calls[COUNT_Isend]++;
    return PMPI_Isend(buf, count, type, dest, tag, comm, request);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request *request)
{
    calls[COUNT_Irecv]++;
    return PMPI_Irecv(buf, count, type, source, tag, comm, request);
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    calls[COUNT_Wait]++;
    return PMPI_Wait(request, status);
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    calls[COUNT_Waitall]++;
    return PMPI_Waitall(count, requests, statuses);
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    calls[COUNT_Test]++;
    return PMPI_Test(request, flag, status);
}

int MPI_Barrier(MPI_Comm comm)
{
    calls[COUNT_Barrier]++;
    return PMPI_Barrier(comm);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    calls[COUNT_Bcast]++;
    return PMPI_Bcast(buf, count, type, root, comm);
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
               int root, MPI_Comm comm)
{
    calls[COUNT_Reduce]++;
    return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm)
{
    calls[COUNT_Allreduce]++;
    return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    calls[COUNT_Alltoall]++;
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Cart_create(MPI_Comm old, int ndims, const int dims[], const int periods[], int reorder,
                    MPI_Comm *cart)
{
    calls[COUNT_Cart_create]++;
    return PMPI_Cart_create(old, ndims, dims, periods, reorder, cart);
}

int MPI_Comm_free(MPI_Comm *comm)
{
    calls[COUNT_Comm_free]++;
    return PMPI_Comm_free(comm);
}

/* The counts go out before the library ends; a rank that cannot write them says so and the test,
 * finding no file, fails. */
int MPI_Finalize(void)
{
    const char *dir = getenv("PMPI_COUNTER_DIR");
    int rank = -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char path[4096];
    snprintf(path, sizeof path, "%s/rank.%d", dir ? dir : ".", rank);
    FILE *out = fopen(path, "w");
    if (!out)
        perror(path);
    for (int i = 0; out && i < COUNTED_FUNCTIONS; i++)
        if (calls[i])
            fprintf(out, "%s %lu\n", names[i], calls[i]);
    if (out)
        fclose(out);
    return PMPI_Finalize();
}
