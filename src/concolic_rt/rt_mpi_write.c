/* Memory an MPI call writes becomes concrete (docs/design/concolic.md "Memory MPI writes"): the
 * instrumenter calls mgrt_mpi_wrote after each call of its table (src/cc/cc_mpi_write.c) with the
 * call's arguments, and the bytes the call wrote on this rank lose the symbolic values the program
 * stored there: they hold another rank's data (or a reduction) now, not this rank's expression.
 * The extent of `count` elements of `type` is (count - 1) * extent + true extent from the true
 * lower bound, so a derived type's holes inside that span are cleared too (a cleared value only
 * makes the runtime miss a constraint, never log a false one). The queries used (rank, size,
 * intercommunicator test, type extents) are local: no communication is added, and they go to the
 * PMPI names so an interposition library does not count them as the program's calls. */
#include "rt_internal.h"
#include "rt_mpi_write.h"

#include <mpi.h>
#include <stdint.h>

/* A handle passed as i64 (rt_mpi_write.h): a pointer in Open MPI, an int in MPICH; casting
 * through uintptr_t gives back the handle in both. */
#define HANDLE(T, v) ((T)(uintptr_t)(v))

/* Clears `count` elements of `type` starting `disp` elements (of the type's extent) past buf. */
static void clear_elements(const void *buf, int64_t disp, int64_t count, MPI_Datatype type)
{
    MPI_Aint lb, extent, tlb, textent;
    if (count <= 0 || PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
        PMPI_Type_get_true_extent(type, &tlb, &textent) != MPI_SUCCESS)
        return;
    int64_t first = disp * (int64_t)extent + (int64_t)tlb;
    int64_t last = (disp + count - 1) * (int64_t)extent + (int64_t)tlb;
    int64_t lo = first < last ? first : last, hi = (first < last ? last : first) + (int64_t)textent;
    if (hi > lo)
        rt_shadow_forget((uintptr_t)buf + (uintptr_t)lo, (size_t)(hi - lo));
}

/* Whether this rank's buffer is written, given who (enum rt_mpi_write_who) and root. On an
 * intercommunicator the root group passes MPI_ROOT (the root) or MPI_PROC_NULL (the others). */
static int written_here(int who, int root, int rank, int inter)
{
    int is_root = root == MPI_ROOT || (!inter && rank == root);
    switch (who) {
    case RT_MPI_WRITE_ROOT:
        return is_root;
    case RT_MPI_WRITE_NONROOT:
        return !is_root && root != MPI_PROC_NULL;
    case RT_MPI_WRITE_RECEIVERS:
        return root != MPI_ROOT && root != MPI_PROC_NULL;
    default:
        return 1; /* RT_MPI_WRITE_ALL */
    }
}

void mgrt_mpi_wrote(int32_t who, int32_t shape, void *buf, const void *sendbuf, int64_t count,
                    const int *counts, const int *displs, int64_t type, int64_t comm, int64_t root);
void mgrt_mpi_wrote(int32_t who, int32_t shape, void *buf, const void *sendbuf, int64_t count,
                    const int *counts, const int *displs, int64_t type, int64_t comm, int64_t root)
{
    MPI_Comm c = HANDLE(MPI_Comm, comm);
    MPI_Datatype t = HANDLE(MPI_Datatype, type);
    int rank = 0, peers = 1, inter = 0;
    if (!rt_log_heavy || buf == MPI_IN_PLACE)
        return;
    /* MPI_Mrecv has no communicator: its one shape needs none. */
    if (shape != RT_MPI_WRITE_COUNT || who != RT_MPI_WRITE_ALL) {
        if (PMPI_Comm_rank(c, &rank) != MPI_SUCCESS ||
            PMPI_Comm_test_inter(c, &inter) != MPI_SUCCESS ||
            (inter ? PMPI_Comm_remote_size(c, &peers) : PMPI_Comm_size(c, &peers)) != MPI_SUCCESS)
            return;
    }
    if (!written_here(who, (int)root, rank, inter))
        return;
    /* In place, a gather's or all-to-all's own block is not written (it is this rank's data). */
    int own = sendbuf == MPI_IN_PLACE ? rank : -1;
    switch (shape) {
    case RT_MPI_WRITE_COUNT:
        clear_elements(buf, 0, count, t);
        break;
    case RT_MPI_WRITE_MY_COUNT:
        clear_elements(buf, 0, counts[rank], t);
        break;
    default: /* RT_MPI_WRITE_PER_PEER, RT_MPI_WRITE_V */
        for (int i = 0; i < peers; i++)
            if (i != own)
                clear_elements(buf, shape == RT_MPI_WRITE_V ? displs[i] : (int64_t)i * count,
                               shape == RT_MPI_WRITE_V ? counts[i] : count, t);
    }
}
