/* The collective descriptors of Table V and name parsing (docs/collectives-engine.md §1). */
#include "mg_error.h"
#include "mg_test.h"
#include "scaling_args.h"
#include "scaling_coll.h"

#include <string.h>

static void test_table_v(void)
{
    int irregular = 0, rooted = 0, sn = 0, w1a = 0, w2 = 0;
    for (int c = 0; c < SCALING_COLL_COUNT; c++) {
        const scaling_coll_info *i = scaling_coll_get((scaling_coll)c);
        MG_CHECK(i != NULL);
        irregular += i->irregular;
        rooted += i->rooted;
        sn += i->gbuf == SCALING_COLL_GBUF_SN;
        w1a += i->w1a;
        w2 += i->w2;
        /* W1-A never for Alltoall(v); W2 never for a reduction. */
        if (c == SCALING_COLL_ALLTOALL || c == SCALING_COLL_ALLTOALLV)
            MG_CHECK(!i->w1a);
        if (i->reduction)
            MG_CHECK(!i->w2 && !i->w1a);
    }
    MG_CHECK_INT(irregular, 5); /* Scatterv, Gatherv, Allgatherv, Alltoallv, Reduce_scatter */
    MG_CHECK_INT(rooted, 6);    /* Bcast, Scatter(v), Gather(v), Reduce */
    MG_CHECK_INT(sn, 4);        /* Table V: Bcast, Allreduce, Reduce_scatter, Reduce */
    MG_CHECK_INT(w1a, 6);       /* Bcast, Scatter(v), Gather(v), Allgatherv */
    MG_CHECK_INT(w2, 9);
    const scaling_coll_info *gv = scaling_coll_get(SCALING_COLL_GATHERV);
    MG_CHECK_STR(gv->name, "Gatherv");
    MG_CHECK(gv->vectors_at_root_only);
    MG_CHECK_INT(gv->vectors, SCALING_COLL_VEC_A_COUNTS | SCALING_COLL_VEC_A_DISPLS);
    MG_CHECK_INT(scaling_coll_get(SCALING_COLL_ALLTOALLV)->vectors,
                 SCALING_COLL_VEC_A_COUNTS | SCALING_COLL_VEC_A_DISPLS | SCALING_COLL_VEC_B);
    MG_CHECK_INT(scaling_coll_get(SCALING_COLL_REDUCE_SCATTER)->vectors, SCALING_COLL_VEC_A_COUNTS);
    MG_CHECK(!scaling_coll_get(SCALING_COLL_BCAST)->in_place);
    MG_CHECK(scaling_coll_get(SCALING_COLL_COUNT) == NULL);
    MG_CHECK(scaling_coll_get((scaling_coll)-1) == NULL);
}

/* The V-form of each regular blocked collective is its irregular twin on the same global buffer;
 * every other collective is its own; a zeroed plan call issues the original collective. */
static void test_v_forms(void)
{
    int v_forms = 0;
    for (int c = 0; c < SCALING_COLL_COUNT; c++) {
        scaling_coll v = scaling_coll_v_form((scaling_coll)c);
        const scaling_coll_info *i = scaling_coll_get((scaling_coll)c), *vi = scaling_coll_get(v);
        if (v == (scaling_coll)c)
            continue;
        v_forms++;
        MG_CHECK(!i->irregular && vi->irregular);
        MG_CHECK(i->gbuf == SCALING_COLL_GBUF_SNP && vi->gbuf == SCALING_COLL_GBUF_SNP);
        MG_CHECK_INT(vi->rooted, i->rooted);
    }
    MG_CHECK_INT(v_forms, 4);
    MG_CHECK_INT(scaling_coll_v_form(SCALING_COLL_ALLTOALL), SCALING_COLL_ALLTOALLV);
    scaling_args_call call = {0};
    MG_CHECK_INT(scaling_call_coll(&call, SCALING_COLL_GATHER), SCALING_COLL_GATHER);
    call.v_form = 1;
    MG_CHECK_INT(scaling_call_coll(&call, SCALING_COLL_GATHER), SCALING_COLL_GATHERV);
}

static void test_names(void)
{
    scaling_coll c;
    int nb, lc;
    MG_CHECK_INT(scaling_coll_from_name("MPI_Igatherv", &c, &nb, &lc, NULL), 0);
    MG_CHECK_INT(c, SCALING_COLL_GATHERV);
    MG_CHECK_INT(nb, 1);
    MG_CHECK_INT(lc, 0);
    MG_CHECK_INT(scaling_coll_from_name("allgather", &c, &nb, NULL, NULL), 0);
    MG_CHECK_INT(c, SCALING_COLL_ALLGATHER);
    MG_CHECK_INT(nb, 0);
    MG_CHECK_INT(scaling_coll_from_name("MPI_Reduce_scatter_c", &c, &nb, &lc, NULL), 0);
    MG_CHECK_INT(c, SCALING_COLL_REDUCE_SCATTER);
    MG_CHECK_INT(lc, 1);
    MG_CHECK_INT(scaling_coll_from_name("Ialltoallv_c", &c, &nb, &lc, NULL), 0);
    MG_CHECK_INT(c, SCALING_COLL_ALLTOALLV);
    MG_CHECK_INT(nb, 1);
    MG_CHECK_INT(lc, 1);
    /* A caller that takes no `_c` names never gets the int form for one. */
    MG_CHECK_INT(scaling_coll_from_name("Gatherv_c", &c, &nb, NULL, NULL), MG_ERROR_ENOENT);
    MG_CHECK_INT(scaling_coll_from_name("MPI_Send", &c, &nb, &lc, NULL), MG_ERROR_ENOENT);
    MG_CHECK_INT(scaling_coll_from_name("Gathervx", &c, &nb, &lc, NULL), MG_ERROR_ENOENT);
    MG_CHECK_INT(scaling_coll_from_name("Gatherv_cc", &c, &nb, &lc, NULL), MG_ERROR_ENOENT);
    MG_CHECK_INT(scaling_coll_from_name("I", &c, &nb, &lc, NULL), MG_ERROR_ENOENT);
    /* The calls with MPI_IN_PLACE, where MPI allows it, and only for a caller that takes them. */
    int ip = -1;
    MG_CHECK_INT(scaling_coll_from_name("Ialltoall_c_inplace", &c, &nb, &lc, &ip), 0);
    MG_CHECK_INT(c, SCALING_COLL_ALLTOALL);
    MG_CHECK_INT(nb, 1);
    MG_CHECK_INT(lc, 1);
    MG_CHECK_INT(ip, 1);
    MG_CHECK_INT(scaling_coll_from_name("MPI_Reduce_scatter_INPLACE", &c, &nb, &lc, &ip), 0);
    MG_CHECK_INT(c, SCALING_COLL_REDUCE_SCATTER);
    MG_CHECK_INT(ip, 1);
    MG_CHECK_INT(scaling_coll_from_name("Gather", &c, &nb, &lc, &ip), 0);
    MG_CHECK_INT(ip, 0);
    MG_CHECK_INT(scaling_coll_from_name("Alltoall_inplace", &c, &nb, &lc, NULL), MG_ERROR_ENOENT);
    MG_CHECK_INT(scaling_coll_from_name("Bcast_inplace", &c, &nb, &lc, &ip), MG_ERROR_ENOENT);
    MG_CHECK_INT(scaling_coll_from_name("Alltoall_inplace_c", &c, &nb, &lc, &ip), MG_ERROR_ENOENT);
    MG_CHECK_INT(scaling_coll_from_name("_inplace", &c, &nb, &lc, &ip), MG_ERROR_ENOENT);
    /* Where every rank passes MPI_IN_PLACE, not the root alone or none. */
    MG_CHECK_INT(scaling_coll_in_place_everywhere(SCALING_COLL_ALLTOALLV), 1);
    MG_CHECK_INT(scaling_coll_in_place_everywhere(SCALING_COLL_REDUCE_SCATTER), 1);
    MG_CHECK_INT(scaling_coll_in_place_everywhere(SCALING_COLL_GATHER), 0);
    MG_CHECK_INT(scaling_coll_in_place_everywhere(SCALING_COLL_BCAST), 0);
    MG_CHECK_INT(scaling_coll_in_place_everywhere(SCALING_COLL_COUNT), 0);
    MG_CHECK_INT(scaling_coll_from_name(NULL, &c, &nb, &lc, NULL), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_coll_from_name("Bcast", NULL, &nb, &lc, NULL), MG_ERROR_EINVAL);
    char name[32];
    MG_CHECK_INT(scaling_coll_mpi_name(SCALING_COLL_GATHERV, 1, 1, name, sizeof name), 0);
    MG_CHECK(strcmp(name, "MPI_Igatherv_c") == 0);
    MG_CHECK_INT(scaling_coll_mpi_name(SCALING_COLL_REDUCE_SCATTER, 0, 0, name, sizeof name), 0);
    MG_CHECK(strcmp(name, "MPI_Reduce_scatter") == 0);
    MG_CHECK_INT(scaling_coll_mpi_name(SCALING_COLL_BCAST, 1, 0, name, 8), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_coll_mpi_name(SCALING_COLL_COUNT, 0, 0, name, sizeof name), MG_ERROR_EINVAL);
}

static void test_args_validate(void)
{
    int counts[2] = {1, 1}, displs[2] = {0, 1};
    scaling_args a = {.coll = SCALING_COLL_GATHERV, .nprocs = 2, .type_size = 4, .count = 1};
    a.counts_a = counts, a.displs_a = displs;
    MG_CHECK_INT(scaling_args_validate(&a), 0);
    MG_CHECK(scaling_args_has_vectors(&a));
    a.rank = 1; /* a non-root needs no vectors */
    a.counts_a = a.displs_a = NULL;
    MG_CHECK_INT(scaling_args_validate(&a), 0);
    MG_CHECK(!scaling_args_has_vectors(&a));
    a.in_place = 1; /* in place only at the root */
    MG_CHECK_INT(scaling_args_validate(&a), MG_ERROR_EINVAL);
    a.in_place = 0;
    a.rank = 0; /* the root without vectors */
    MG_CHECK_INT(scaling_args_validate(&a), MG_ERROR_EINVAL);
    scaling_args b = {.coll = SCALING_COLL_BCAST, .nprocs = 2, .type_size = 4, .in_place = 1};
    b.count = 1;
    MG_CHECK_INT(scaling_args_validate(&b), MG_ERROR_EINVAL); /* Bcast has no in-place form */
    b.in_place = 0;
    b.count = -1;
    MG_CHECK_INT(scaling_args_validate(&b), MG_ERROR_EINVAL);
    b.count = 1;
    b.root = 2;
    MG_CHECK_INT(scaling_args_validate(&b), MG_ERROR_EINVAL);
    b.root = 0;
    b.type_size = 0;
    MG_CHECK_INT(scaling_args_validate(&b), MG_ERROR_EINVAL);
    b.type_size = 1;
    b.rank = 2;
    MG_CHECK_INT(scaling_args_validate(&b), MG_ERROR_EINVAL);
    MG_CHECK_INT(scaling_args_validate(NULL), MG_ERROR_EINVAL);
    /* In-place Alltoallv: only the receive vector is needed. */
    scaling_args v = {.coll = SCALING_COLL_ALLTOALLV, .nprocs = 2, .type_size = 4, .in_place = 1};
    v.counts_b = counts, v.displs_b = displs;
    MG_CHECK_INT(scaling_args_validate(&v), 0);
    v.in_place = 0;
    MG_CHECK_INT(scaling_args_validate(&v), MG_ERROR_EINVAL);
}

int main(void)
{
    MG_RUN(test_table_v);
    MG_RUN(test_v_forms);
    MG_RUN(test_names);
    MG_RUN(test_args_validate);
    MG_TEST_END();
}
