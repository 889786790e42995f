/* Internal to src/cc: no other folder includes it (docs/architecture.md). */
/* The MPI calls that write a user buffer, and which of their arguments say where
 * (docs/design/concolic.md "Memory MPI writes"): the instrumenter passes those arguments to the
 * runtime after the call so the bytes written lose their stale symbolic values. */
#ifndef CC_MPI_WRITE_H
#define CC_MPI_WRITE_H

/* Argument positions (0-based; -1: the call has none). `count` is an int, or an int array for
 * the shapes RT_MPI_WRITE_MY_COUNT and RT_MPI_WRITE_V (rt_mpi_write.h). */
typedef struct cc_mpi_write {
    const char *name, *nonblocking; /* MPI_Recv and MPI_Irecv: the same arguments */
    signed char who, shape;         /* enum rt_mpi_write_who, rt_mpi_write_shape */
    signed char buf, sendbuf, count, displs, type, comm, root;
} cc_mpi_write;

/* The row of the MPI function `name` (blocking or nonblocking form), or NULL. */
const cc_mpi_write *cc_mpi_write_find(const char *name);

#endif
