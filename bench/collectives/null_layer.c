/* The least a PMPI layer can be: each collective coll_time calls, forwarded to its PMPI_ entry and
 * nothing else. overhead.sh preloads it (mode "null") to measure, beside the protection module and
 * in the same run, what any interposition costs on these calls: the part of the module's ratio that
 * no PMPI tool can avoid (docs/collectives.md, "Cost when no detector fires"). Built as a shared
 * library with the flavor's mpicc. */
#include <mpi.h>

int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c)
{
    return PMPI_Bcast(b, n, t, root, c);
}

int MPI_Gather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt, int root,
               MPI_Comm c)
{
    return PMPI_Gather(sb, sc, st, rb, rc, rt, root, c);
}

int MPI_Gatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[], const int d[],
                MPI_Datatype rt, int root, MPI_Comm c)
{
    return PMPI_Gatherv(sb, sc, st, rb, rcs, d, rt, root, c);
}

int MPI_Allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                  MPI_Comm c)
{
    return PMPI_Allgather(sb, sc, st, rb, rc, rt, c);
}

int MPI_Allgatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[], const int d[],
                   MPI_Datatype rt, MPI_Comm c)
{
    return PMPI_Allgatherv(sb, sc, st, rb, rcs, d, rt, c);
}

int MPI_Alltoall(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                 MPI_Comm c)
{
    return PMPI_Alltoall(sb, sc, st, rb, rc, rt, c);
}

int MPI_Alltoallv(const void *sb, const int scs[], const int sd[], MPI_Datatype st, void *rb,
                  const int rcs[], const int rd[], MPI_Datatype rt, MPI_Comm c)
{
    return PMPI_Alltoallv(sb, scs, sd, st, rb, rcs, rd, rt, c);
}

int MPI_Reduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c)
{
    return PMPI_Reduce(sb, rb, n, t, op, root, c);
}

int MPI_Allreduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    return PMPI_Allreduce(sb, rb, n, t, op, c);
}

int MPI_Igather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt, int root,
                MPI_Comm c, MPI_Request *rq)
{
    return PMPI_Igather(sb, sc, st, rb, rc, rt, root, c, rq);
}

int MPI_Igatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[], const int d[],
                 MPI_Datatype rt, int root, MPI_Comm c, MPI_Request *rq)
{
    return PMPI_Igatherv(sb, sc, st, rb, rcs, d, rt, root, c, rq);
}
