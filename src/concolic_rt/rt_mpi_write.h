/* What the instrumenter tells the runtime about an MPI call that writes a user buffer
 * (docs/design/concolic.md "Memory MPI writes"): after the call, the heavy build calls
 *   mgrt_mpi_wrote(who, shape, buf, sendbuf, count, counts, displs, type, comm, root)
 * with the call's own arguments (a handle as i64: a pointer in Open MPI, an int in MPICH), and the
 * runtime makes the bytes written concrete. src/cc/cc_mpi_write.c holds the table of calls. */
#ifndef RT_MPI_WRITE_H
#define RT_MPI_WRITE_H

/* Which ranks the call writes `buf` on. */
enum rt_mpi_write_who {
    RT_MPI_WRITE_ALL = 0,   /* every rank (receives, all-to-all collectives) */
    RT_MPI_WRITE_RECEIVERS, /* every rank but an intercommunicator's root group (scatter) */
    RT_MPI_WRITE_ROOT,      /* the root only (reduce, gather) */
    RT_MPI_WRITE_NONROOT    /* every rank but the root (broadcast) */
};

/* Which elements of `buf` it writes (elements of `type`, at its extent). */
enum rt_mpi_write_shape {
    RT_MPI_WRITE_COUNT = 0, /* count elements */
    RT_MPI_WRITE_PER_PEER,  /* count elements per process of the (remote) group */
    RT_MPI_WRITE_MY_COUNT,  /* counts[rank] elements (reduce-scatter) */
    RT_MPI_WRITE_V          /* counts[i] elements at displs[i], for every process i */
};

#endif
