/* The table of the collectives of Table V; see scaling_coll.h, docs/collectives-engine.md §1. */
#include "scaling_coll.h"

#include <string.h>
#include <strings.h>

#include "mg_error.h"

#define VA (SCALING_VEC_A_COUNTS | SCALING_VEC_A_DISPLS)
#define SN SCALING_GBUF_SN
#define SNP SCALING_GBUF_SNP

static const scaling_coll_info table[SCALING_COLL_COUNT] = {
    [SCALING_BCAST] = {.name = "Bcast", .rooted = 1, .gbuf = SN, .w1a = 1, .w2 = 1},
    [SCALING_SCATTER] =
        {.name = "Scatter", .rooted = 1, .gbuf = SNP, .in_place = 1, .w1a = 1, .w2 = 1},
    [SCALING_SCATTERV] = {.name = "Scatterv",
                          .irregular = 1,
                          .rooted = 1,
                          .vectors_at_root_only = 1,
                          .vectors = VA,
                          .gbuf = SNP,
                          .in_place = 1,
                          .w1a = 1,
                          .w2 = 1},
    [SCALING_GATHER] =
        {.name = "Gather", .rooted = 1, .gbuf = SNP, .in_place = 1, .w1a = 1, .w2 = 1},
    [SCALING_GATHERV] = {.name = "Gatherv",
                         .irregular = 1,
                         .rooted = 1,
                         .vectors_at_root_only = 1,
                         .vectors = VA,
                         .gbuf = SNP,
                         .in_place = 1,
                         .w1a = 1,
                         .w2 = 1},
    [SCALING_ALLGATHER] = {.name = "Allgather", .gbuf = SNP, .in_place = 1, .w2 = 1},
    [SCALING_ALLGATHERV] = {.name = "Allgatherv",
                            .irregular = 1,
                            .vectors = VA,
                            .gbuf = SNP,
                            .in_place = 1,
                            .w1a = 1,
                            .w2 = 1},
    [SCALING_ALLTOALL] = {.name = "Alltoall", .gbuf = SNP, .in_place = 1, .w2 = 1},
    [SCALING_ALLTOALLV] = {.name = "Alltoallv",
                           .irregular = 1,
                           .vectors = VA | SCALING_VEC_B,
                           .gbuf = SNP,
                           .in_place = 1,
                           .w2 = 1},
    [SCALING_REDUCE] = {.name = "Reduce", .rooted = 1, .reduction = 1, .gbuf = SN, .in_place = 1},
    [SCALING_ALLREDUCE] = {.name = "Allreduce", .reduction = 1, .gbuf = SN, .in_place = 1},
    [SCALING_REDUCE_SCATTER] = {.name = "Reduce_scatter",
                                .irregular = 1,
                                .reduction = 1,
                                .vectors = SCALING_VEC_A_COUNTS,
                                .gbuf = SN,
                                .in_place = 1},
};

const scaling_coll_info *scaling_coll_get(scaling_coll c)
{
    if ((unsigned)c >= SCALING_COLL_COUNT)
        return NULL;
    return &table[c];
}

/* Matches name against base, ignoring case and an optional "_c" suffix. */
static int same_name(const char *name, size_t len, const char *base)
{
    size_t blen = strlen(base);
    if (len == blen + 2 && strncasecmp(name + blen, "_c", 2) == 0)
        len = blen;
    return len == blen && strncasecmp(name, base, blen) == 0;
}

int scaling_coll_from_name(const char *name, scaling_coll *out, int *nonblocking)
{
    if (!name || !out || !nonblocking)
        return MG_EINVAL;
    if (strncasecmp(name, "MPI_", 4) == 0)
        name += 4;
    size_t len = strlen(name);
    for (int c = 0; c < SCALING_COLL_COUNT; c++) {
        if (same_name(name, len, table[c].name)) {
            *out = (scaling_coll)c;
            *nonblocking = 0;
            return 0;
        }
        if (len > 1 && (name[0] == 'I' || name[0] == 'i') &&
            same_name(name + 1, len - 1, table[c].name)) {
            *out = (scaling_coll)c;
            *nonblocking = 1;
            return 0;
        }
    }
    return MG_ENOENT;
}
