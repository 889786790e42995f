/* The table of the collectives of Table V; see scaling_coll.h, docs/collectives-engine.md §1. */
#include "scaling_coll.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "mg_error.h"

#define VA (SCALING_COLL_VEC_A_COUNTS | SCALING_COLL_VEC_A_DISPLS)
#define SN SCALING_COLL_GBUF_SN
#define SNP SCALING_COLL_GBUF_SNP

static const scaling_coll_info table[SCALING_COLL_COUNT] = {
    [SCALING_COLL_BCAST] = {.name = "Bcast", .rooted = 1, .gbuf = SN, .w1a = 1, .w2 = 1},
    [SCALING_COLL_SCATTER] =
        {.name = "Scatter", .rooted = 1, .gbuf = SNP, .in_place = 1, .w1a = 1, .w2 = 1},
    [SCALING_COLL_SCATTERV] = {.name = "Scatterv",
                               .irregular = 1,
                               .rooted = 1,
                               .vectors_at_root_only = 1,
                               .vectors = VA,
                               .gbuf = SNP,
                               .in_place = 1,
                               .w1a = 1,
                               .w2 = 1},
    [SCALING_COLL_GATHER] =
        {.name = "Gather", .rooted = 1, .gbuf = SNP, .in_place = 1, .w1a = 1, .w2 = 1},
    [SCALING_COLL_GATHERV] = {.name = "Gatherv",
                              .irregular = 1,
                              .rooted = 1,
                              .vectors_at_root_only = 1,
                              .vectors = VA,
                              .gbuf = SNP,
                              .in_place = 1,
                              .w1a = 1,
                              .w2 = 1},
    [SCALING_COLL_ALLGATHER] = {.name = "Allgather", .gbuf = SNP, .in_place = 1, .w2 = 1},
    [SCALING_COLL_ALLGATHERV] = {.name = "Allgatherv",
                                 .irregular = 1,
                                 .vectors = VA,
                                 .gbuf = SNP,
                                 .in_place = 1,
                                 .w1a = 1,
                                 .w2 = 1},
    [SCALING_COLL_ALLTOALL] = {.name = "Alltoall", .gbuf = SNP, .in_place = 1, .w2 = 1},
    [SCALING_COLL_ALLTOALLV] = {.name = "Alltoallv",
                                .irregular = 1,
                                .vectors = VA | SCALING_COLL_VEC_B,
                                .gbuf = SNP,
                                .in_place = 1,
                                .w2 = 1},
    [SCALING_COLL_REDUCE] =
        {.name = "Reduce", .rooted = 1, .reduction = 1, .gbuf = SN, .in_place = 1},
    [SCALING_COLL_ALLREDUCE] = {.name = "Allreduce", .reduction = 1, .gbuf = SN, .in_place = 1},
    [SCALING_COLL_REDUCE_SCATTER] = {.name = "Reduce_scatter",
                                     .irregular = 1,
                                     .reduction = 1,
                                     .vectors = SCALING_COLL_VEC_A_COUNTS,
                                     .gbuf = SN,
                                     .in_place = 1},
};

const scaling_coll_info *scaling_coll_get(scaling_coll c)
{
    if ((unsigned)c >= SCALING_COLL_COUNT)
        return NULL;
    return &table[c];
}

scaling_coll scaling_coll_v_form(scaling_coll c)
{
    switch (c) {
    case SCALING_COLL_SCATTER:
        return SCALING_COLL_SCATTERV;
    case SCALING_COLL_GATHER:
        return SCALING_COLL_GATHERV;
    case SCALING_COLL_ALLGATHER:
        return SCALING_COLL_ALLGATHERV;
    case SCALING_COLL_ALLTOALL:
        return SCALING_COLL_ALLTOALLV;
    default:
        return c;
    }
}

int scaling_coll_in_place_everywhere(scaling_coll c)
{
    const scaling_coll_info *info = scaling_coll_get(c);
    return info && info->in_place && !info->rooted;
}

/* Matches name against base, ignoring case; *large tells whether name had the "_c" suffix. */
static int same_name(const char *name, size_t len, const char *base, int *large)
{
    size_t blen = strlen(base);
    *large = len == blen + 2 && strncasecmp(name + blen, "_c", 2) == 0;
    if (*large)
        len = blen;
    return len == blen && strncasecmp(name, base, blen) == 0;
}

int scaling_coll_from_name(const char *name, scaling_coll *out, int *nonblocking, int *large_count,
                           int *in_place)
{
    if (!name || !out || !nonblocking)
        return MG_ERROR_EINVAL;
    if (strncasecmp(name, "MPI_", 4) == 0)
        name += 4;
    size_t len = strlen(name);
    static const char suffix[] = "_inplace";
    size_t slen = sizeof suffix - 1;
    int ip = len > slen && strcasecmp(name + len - slen, suffix) == 0;
    if (ip)
        len -= slen;
    for (int c = 0; c < SCALING_COLL_COUNT; c++) {
        int large = 0, nb = 0;
        if (same_name(name, len, table[c].name, &large))
            nb = 0;
        else if (len > 1 && (name[0] == 'I' || name[0] == 'i') &&
                 same_name(name + 1, len - 1, table[c].name, &large))
            nb = 1;
        else
            continue;
        /* A caller that takes no `_c` (or no in-place) names never gets another form for one. */
        if ((large && !large_count) || (ip && (!in_place || !table[c].in_place)))
            return MG_ERROR_ENOENT;
        *out = (scaling_coll)c;
        *nonblocking = nb;
        if (large_count)
            *large_count = large;
        if (in_place)
            *in_place = ip;
        return 0;
    }
    return MG_ERROR_ENOENT;
}

int scaling_coll_mpi_name(scaling_coll c, int nonblocking, int large_count, char *out, size_t len)
{
    const scaling_coll_info *info = scaling_coll_get(c);
    if (!info || !out)
        return MG_ERROR_EINVAL;
    /* The I form lowercases the name's first letter: MPI_Igatherv. */
    int n = snprintf(out, len, "MPI_%s%c%s%s", nonblocking ? "I" : "",
                     nonblocking ? tolower((unsigned char)info->name[0]) : info->name[0],
                     info->name + 1, large_count ? "_c" : "");
    return n > 0 && (size_t)n < len ? 0 : MG_ERROR_EINVAL;
}
