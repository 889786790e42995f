/* The collectives of Table V (12, each with a blocking and a nonblocking form that share one
 * descriptor): the shape of their arguments and which workarounds can apply to them
 * (docs/collectives-engine.md §1; Li et al. 2018, "Non-Intrusively Avoiding Scaling Problems",
 * Table V). */
#ifndef SCALING_COLL_H
#define SCALING_COLL_H

#include <stddef.h>

typedef enum scaling_coll {
    SCALING_COLL_BCAST,
    SCALING_COLL_SCATTER,
    SCALING_COLL_SCATTERV,
    SCALING_COLL_GATHER,
    SCALING_COLL_GATHERV,
    SCALING_COLL_ALLGATHER,
    SCALING_COLL_ALLGATHERV,
    SCALING_COLL_ALLTOALL,
    SCALING_COLL_ALLTOALLV,
    SCALING_COLL_REDUCE,
    SCALING_COLL_ALLREDUCE,
    SCALING_COLL_REDUCE_SCATTER,
    SCALING_COLL_COUNT
} scaling_coll;

/* Global data buffer size G_b as a function of (s, n, P) (Table V). */
typedef enum scaling_coll_gbuf {
    SCALING_COLL_GBUF_SN,  /* G_b = s n: Bcast, Allreduce, Reduce, Reduce_scatter */
    SCALING_COLL_GBUF_SNP, /* G_b = s n P: Scatter, Gather, Allgather, Alltoall and their v forms */
} scaling_coll_gbuf;

/* Which argument vectors a collective has. Vector A is the one of the global buffer (Gatherv and
 * Allgatherv receive side, Scatterv send side, Alltoallv send side, Reduce_scatter's recvcounts);
 * vector B exists only for Alltoallv (its receive side). */
enum scaling_coll_vec_flags {
    SCALING_COLL_VEC_A_COUNTS = 1u << 0,
    SCALING_COLL_VEC_A_DISPLS = 1u << 1,
    SCALING_COLL_VEC_B = 1u << 2, /* counts and displs */
};

typedef struct scaling_coll_info {
    const char *name; /* MPI name without the prefix: "Gatherv" (MPI_Gatherv, MPI_Igatherv) */
    int irregular;    /* has per-rank counts */
    int rooted;       /* one-to-all or all-to-one */
    int reduction;    /* applies an MPI_Op */
    int vectors_at_root_only; /* the vectors are significant at the root only (Gatherv, Scatterv) */
    unsigned vectors;         /* enum scaling_coll_vec_flags */
    scaling_coll_gbuf gbuf;
    int in_place; /* MPI_IN_PLACE is allowed (at the root for rooted collectives) */
    int w1a;      /* W1-A (process partitioning) can apply: rooted or allgatherv, not Alltoall(v) */
    int w2;       /* W2 (big datatype) can apply: every non-reduction (predefined ops refuse
                     derived datatypes) */
} scaling_coll_info;

/* Returns the descriptor of c (static storage), or NULL when c is out of range. Thread-safe. */
const scaling_coll_info *scaling_coll_get(scaling_coll c);

/* The V-form of a regular blocked collective (Scatterv for Scatter, Gatherv, Allgatherv,
 * Alltoallv): the same data movement, each rank's block given by a count and a displacement.
 * c itself for every other collective. */
scaling_coll scaling_coll_v_form(scaling_coll c);

/* Whether every rank passes MPI_IN_PLACE in c's call with it (Allgather(v), Alltoall(v), Allreduce,
 * Reduce_scatter), and not the root alone (Gather(v), Scatter(v), Reduce) or none (Bcast): only
 * then do all ranks see it and hold one buffer each. */
int scaling_coll_in_place_everywhere(scaling_coll c);

/* Parses an MPI name ("Gatherv", "MPI_Igatherv", "igatherv", "Gatherv_c", "Alltoall_inplace";
 * case-insensitive, optional "MPI_" and "I" prefix, optional "_c" suffix, then an optional
 * "_inplace" suffix) into *out, *nonblocking (1 for the I form), *large_count (1 for the MPI-4
 * large-count `_c` form) and *in_place (1 for the call with MPI_IN_PLACE: tested apart, since
 * libraries run other code for it; only where MPI allows it). large_count and in_place may be
 * NULL: the caller then accepts no such name (MG_ERROR_ENOENT), so that one is never taken for
 * another form. Returns 0, or MG_ERROR_EINVAL for NULL arguments, MG_ERROR_ENOENT when no
 * collective has that name. */
int scaling_coll_from_name(const char *name, scaling_coll *out, int *nonblocking, int *large_count,
                           int *in_place);

/* Writes the MPI name of a form of c into out: "MPI_Gatherv", "MPI_Igatherv" (nonblocking),
 * "MPI_Igatherv_c" (and large_count). Returns 0, or MG_ERROR_EINVAL for an unknown c or a short
 * out. */
int scaling_coll_mpi_name(scaling_coll c, int nonblocking, int large_count, char *out, size_t len);

#endif
