/* The MPI calls the instrumenter redirects here (compiled once per MPI): MPI_Comm_rank and
 * MPI_Comm_size call the real function and then mark the result as the rank or size of the
 * world or of another communicator, told apart by comparing with MPI_COMM_WORLD at run time
 * (dissertation §2.3.1); MPI_Abort is recorded as the run's outcome; MPI_Finalize is when the
 * rank's run ends (the cost split of docs/design/concolic.md). The only MPI calls added are local
 * queries (group translation for the local-to-global map of §2.3.3): no communication. */
#include "rt_internal.h"

#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The communicator's handle as a key: a pointer in Open MPI, an int in MPICH. */
static uint64_t comm_key(MPI_Comm c)
{
    uint64_t k = 0;
    memcpy(&k, &c, sizeof c < sizeof k ? sizeof c : sizeof k);
    return k;
}

/* Declares comm (with its local-to-global map) and returns its index, or -1. */
static int64_t comm_index(MPI_Comm comm)
{
    int size;
    MPI_Group g, world;
    if (MPI_Comm_size(comm, &size) != MPI_SUCCESS || size <= 0)
        return -1;
    int *local = malloc((size_t)size * sizeof *local),
        *global = malloc((size_t)size * sizeof *global);
    uint32_t idx, ok = local && global && MPI_Comm_group(comm, &g) == MPI_SUCCESS;
    if (ok && MPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS) {
        for (int i = 0; i < size; i++)
            local[i] = i;
        ok = MPI_Group_translate_ranks(g, size, local, world, global) == MPI_SUCCESS;
        MPI_Group_free(&world);
        MPI_Group_free(&g);
    } else
        ok = 0;
    for (int i = 0; ok && i < size; i++)
        ok = global[i] >= 0;
    ok = ok && rt_log_declare_comm(comm_key(comm), (uint32_t)size, (uint32_t *)global, &idx) == 0;
    free(local);
    free(global);
    return ok ? (int64_t)idx : -1;
}

static void mark_mpi(MPI_Comm comm, int *p, int world_kind, int comm_kind)
{
    uint32_t id, c = SYM_VAR_NO_COMM;
    int kind = world_kind;
    if (!rt_log_heavy)
        return;
    if (comm != MPI_COMM_WORLD) {
        int64_t i = comm_index(comm);
        if (i < 0)
            return;
        c = (uint32_t)i;
        kind = comm_kind;
    }
    if (rt_log_declare_var((uint8_t)kind, 0, 0, c, *p, &id) == 0)
        rt_shadow_mark(p, sizeof *p, id, 0);
}

int mgrt_MPI_Comm_rank(MPI_Comm comm, int *rank);
int mgrt_MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    int rc = MPI_Comm_rank(comm, rank);
    if (rc == MPI_SUCCESS)
        mark_mpi(comm, rank, SYM_VAR_RANK_WORLD, SYM_VAR_RANK_COMM);
    return rc;
}

int mgrt_MPI_Comm_size(MPI_Comm comm, int *size);
int mgrt_MPI_Comm_size(MPI_Comm comm, int *size)
{
    int rc = MPI_Comm_size(comm, size);
    if (rc == MPI_SUCCESS)
        mark_mpi(comm, size, SYM_VAR_SIZE_WORLD, SYM_VAR_SIZE_COMM);
    return rc;
}

int mgrt_MPI_Abort(MPI_Comm comm, int code);
int mgrt_MPI_Abort(MPI_Comm comm, int code)
{
    rt_log_outcome_mpi_abort(code);
    return MPI_Abort(comm, code);
}

int mgrt_MPI_Finalize(void);
int mgrt_MPI_Finalize(void)
{
    rt_log_ended();
    return MPI_Finalize();
}
