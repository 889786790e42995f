/* The cost measurement `mpiguard collectives` runs once per process count before its tests
 * (docs/collectives-measurements.md, "The cost model, measured"): the quantities of the protection
 * module's cost model (scaling_params.h), timed on the installed MPI at this P, each the slowest
 * rank's median of several repetitions: call_ns       a collective's fixed cost: MPI_Allgather of 8
 * bytes per rank; byte_ns       a byte of the global buffer moved: MPI_Allgather of 4 MiB per rank,
 * less one call, over the P x 4 MiB gathered; copy_byte_ns  a byte staged by memcpy (W1-B): 64 MiB
 * copied by every rank at once; type_ns       W2's big datatype: MPI_Type_contiguous,
 * MPI_Type_create_resized, commit, free; comm_ns       W1-A's group communicator: MPI_Group_incl
 * and MPI_Comm_create_group of half the ranks, freed (each rank in its half);
 *   allgather_block_stride  1 when MPI_Allgather into a strided (resized) type is faster than
 *                 MPI_Allgatherv of the same layout (1 MiB blocks 2 MiB apart), which W1-B's
 *                 Allgather rounds then keep.
 * The sizes shrink with P (sized_for): the ranks of one node hold at most about 256 MiB at a time.
 * Rank 0 prints one line, which the CLI parses:
 *   coll_costs: np P call_ns X byte_ns X copy_byte_ns X type_ns X comm_ns X
 *               allgather_block_stride B   (one line)
 * Exit 0, or 2 with no memory.
 * Usage: mpiguard-coll-costs-<flavor> */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    SMALL_BYTES = 8,
    NODE_BYTES = 256 << 20, /* what one measurement may take of a node, all ranks together */
    CALL_REPS = 201,
    BIG_REPS = 5,
    TYPE_REPS = 201,
    COMM_REPS = 21,
};

static int P, me;
static int big_bytes, copy_bytes, block_bytes;

/* want bytes, or less where P ranks each holding factor times the size would need more than
 * NODE_BYTES; never below 64 KiB. */
static int sized_for(int want, double factor)
{
    double most = NODE_BYTES / ((double)P * factor);
    int got = most < want ? (int)most : want;
    return got < (64 << 10) ? 64 << 10 : got;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of t[0..n) (sorted in place), the largest over the ranks. */
static double slowest_median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, by_value);
    double mine = t[n / 2], all;
    MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return all;
}

static void *alloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (!p) {
        fprintf(stderr, "coll_costs: rank %d: no memory for %zu bytes\n", me, bytes);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    memset(p, me & 0x7f, bytes); /* touched: no page faults inside the timings */
    return p;
}

/* Seconds of one MPI_Allgather of bytes per rank, the slowest rank's median of reps. */
static double allgather_seconds(char *send, char *recv, int bytes, int reps)
{
    double t[CALL_REPS];
    for (int i = 0; i < reps; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        MPI_Allgather(send, bytes, MPI_BYTE, recv, bytes, MPI_BYTE, MPI_COMM_WORLD);
        t[i] = MPI_Wtime() - t0;
    }
    return slowest_median(t, reps);
}

static double copy_seconds(void)
{
    char *from = alloc(copy_bytes), *to = alloc(copy_bytes);
    double t[BIG_REPS];
    for (int i = 0; i < BIG_REPS; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        memcpy(to, from, copy_bytes);
        t[i] = MPI_Wtime() - t0;
        from[i] = to[copy_bytes - 1 - i]; /* the copy is used: not optimized away */
    }
    free(from);
    free(to);
    return slowest_median(t, BIG_REPS);
}

static double type_seconds(void)
{
    double t[TYPE_REPS];
    for (int i = 0; i < TYPE_REPS; i++) {
        MPI_Datatype block, resized;
        double t0 = MPI_Wtime();
        MPI_Type_contiguous(block_bytes, MPI_BYTE, &block);
        MPI_Type_create_resized(block, 0, 2 * block_bytes, &resized);
        MPI_Type_commit(&resized);
        MPI_Type_free(&resized);
        MPI_Type_free(&block);
        t[i] = MPI_Wtime() - t0;
    }
    return slowest_median(t, TYPE_REPS);
}

static double comm_seconds(void)
{
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int half = P / 2 > 0 ? P / 2 : 1, lower = me < half;
    int first = lower ? 0 : half, count = lower ? half : P - half;
    int *members = malloc((size_t)count * sizeof *members);
    for (int i = 0; i < count; i++)
        members[i] = first + i;
    double t[COMM_REPS];
    for (int i = 0; i < COMM_REPS; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        MPI_Group group;
        MPI_Comm comm;
        MPI_Group_incl(world, count, members, &group);
        MPI_Comm_create_group(MPI_COMM_WORLD, group, 7, &comm);
        MPI_Group_free(&group);
        MPI_Comm_free(&comm);
        t[i] = MPI_Wtime() - t0;
    }
    free(members);
    MPI_Group_free(&world);
    return slowest_median(t, COMM_REPS);
}

/* Whether the strided Allgather beats Allgatherv on blocks block_bytes long, twice that apart. */
static int strided_allgather_is_faster(void)
{
    char *send = alloc(block_bytes), *recv = alloc((size_t)P * 2 * block_bytes);
    int *counts = malloc((size_t)P * sizeof *counts), *displs = malloc((size_t)P * sizeof *displs);
    for (int r = 0; r < P; r++) {
        counts[r] = block_bytes;
        displs[r] = r * 2 * block_bytes;
    }
    MPI_Datatype block, strided;
    MPI_Type_contiguous(block_bytes, MPI_BYTE, &block);
    MPI_Type_create_resized(block, 0, 2 * block_bytes, &strided);
    MPI_Type_commit(&strided);
    double v[BIG_REPS], s[BIG_REPS];
    for (int i = 0; i < BIG_REPS; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        MPI_Allgatherv(send, block_bytes, MPI_BYTE, recv, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
        v[i] = MPI_Wtime() - t0;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        MPI_Allgather(send, block_bytes, MPI_BYTE, recv, 1, strided, MPI_COMM_WORLD);
        s[i] = MPI_Wtime() - t0;
    }
    double tv = slowest_median(v, BIG_REPS), ts = slowest_median(s, BIG_REPS);
    MPI_Type_free(&strided);
    MPI_Type_free(&block);
    free(counts);
    free(displs);
    free(send);
    free(recv);
    return ts < tv;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    big_bytes = sized_for(4 << 20, P);
    copy_bytes = sized_for(64 << 20, 2);
    block_bytes = sized_for(1 << 20, 2.0 * P);
    char *send = alloc(big_bytes), *recv = alloc((size_t)P * big_bytes);
    allgather_seconds(send, recv, SMALL_BYTES, 11); /* warm-up: connections, buffers */
    double call = allgather_seconds(send, recv, SMALL_BYTES, CALL_REPS);
    double big = allgather_seconds(send, recv, big_bytes, BIG_REPS);
    free(send);
    free(recv);
    double bytes = (double)P * big_bytes, moved = big > call ? big - call : big;
    double copy = copy_seconds(), type = type_seconds(), comm = comm_seconds();
    int stride = strided_allgather_is_faster();
    if (me == 0)
        printf("coll_costs: np %d call_ns %.1f byte_ns %.5f copy_byte_ns %.5f type_ns %.1f "
               "comm_ns %.1f allgather_block_stride %d\n",
               P, call * 1e9, moved * 1e9 / bytes, copy * 1e9 / copy_bytes, type * 1e9, comm * 1e9,
               stride);
    MPI_Finalize();
    return 0;
}
