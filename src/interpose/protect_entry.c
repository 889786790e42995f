/* The protection module's replacements of the 12 collectives of Table V and their nonblocking
 * forms (24 entry points; the "16" counts Table V's rows differently), and of their MPI-4
 * large-count `_c` forms where mpi.h declares them: each describes its call for protect_run and
 * passes it to MPI unchanged when the module does not act. One text serves both: each entry point
 * is written once per argument shape, in the int or the `_c` binding's types. */
#include "protect_entry.h"
#include "protect_pmpi.h"
#include "interpose_next.h"

#include "mpi_binding.h"

#include "protect_run.h"

/* Whether a call of family F and mode can be acted on at all (protect_watched): only those entry
 * points are installed, so that an unwatched collective's wrapper goes straight to PMPI. */
#define WATCHED(coll, F, mode) protect_watched(coll, LARGE_##F, NONBLOCKING_##mode)
#define LARGE_INT 0
#define LARGE_LARGE 1
#define NONBLOCKING_B 0
#define NONBLOCKING_NB 1

/* Every entry point, as two functions. The first, name itself, passes the call to MPI at once when
 * quick (an expression on the raw arguments) says it passes, and otherwise hands it to the second:
 * kept apart (noinline), the second's frame (the call's record, protect_run's arguments) is not set
 * up on the path most calls of a correct program take, which is then a few loads and a tail call
 * (docs/collectives-measurements.md, "Cost when no detector fires"). The quick pass only reads the
 * thread's remembered communicator, so the second looks comm up and asks it again: a program that
 * alternates between communicators (rows and columns of a grid) is not sent the long way on every
 * call. Then it describes the call (the describer with its arguments, a parenthesized list, then
 * the vector setter of family F with vectors) and protects it; when the module does not act, it too
 * passes the call to MPI. The describers fill the record in place: built in one function and
 * returned by value through another, it was copied twice, and those copies (loads of fields just
 * stored) cost more than MPI's own Gatherv at 64 bytes. */
#define UNPACK(...) __VA_ARGS__
#define ENTRY_POINT(F, name, params, args, quick, describer, described, vectors)                   \
    static __attribute__((noinline)) int name##_described params                                   \
    {                                                                                              \
        if (protect_comm_remember(comm) && (quick))                                                \
            return mg_next_##name args;                                                            \
        protect_call pc;                                                                           \
        describer(&pc, UNPACK described);                                                          \
        FORM_##F(&pc, UNPACK vectors);                                                             \
        int run_rc; /* not rc: a parameter of the rooted shapes */                                 \
        return protect_run(&pc, &run_rc) ? run_rc : mg_next_##name args;                           \
    }                                                                                              \
    static int name params                                                                         \
    {                                                                                              \
        return (quick) ? mg_next_##name args : name##_described args;                              \
    }

/* The quick test of an irregular entry point (protect_quick_pass), on its raw arguments: the int
 * binding's vectors only (a `_c` call's displacements cannot wrap, so D never fires there and only
 * a bound can, which protect_run checks). */
#define QUICK_INT(coll, mode, ...) protect_quick_pass(coll, NONBLOCKING_##mode, __VA_ARGS__)
#define QUICK_LARGE(coll, mode, ...) 0

static void call_of(protect_call *pc, mpi_function_ids_fn fn, scaling_coll coll,
                    const void *sendbuf, MPI_Datatype st, void *recvbuf, MPI_Datatype rt,
                    MPI_Comm comm, MPI_Request *request)
{
    *pc = (protect_call){.fn = fn,
                         .nonblocking = request != NULL,
                         .sendbuf = sendbuf,
                         .recvbuf = recvbuf,
                         .sendtype = st,
                         .recvtype = rt,
                         .op = MPI_OP_NULL,
                         .comm = comm,
                         .request = request};
    pc->a.coll = coll;
    pc->a.in_place = sendbuf == MPI_IN_PLACE;
}

/* Bcast: one buffer, the receive side of the engine's view. */
static void bcast(protect_call *pc, mpi_function_ids_fn fn, void *buf, int64_t count,
                  MPI_Datatype t, int root, MPI_Comm comm, MPI_Request *req)
{
    call_of(pc, fn, SCALING_COLL_BCAST, buf, t, buf, t, comm, req);
    pc->a.count = pc->send_count = pc->recv_count = count;
    pc->a.root = (uint32_t)root;
}

static void rooted(protect_call *pc, mpi_function_ids_fn fn, scaling_coll coll, const void *sb,
                   int64_t sc, MPI_Datatype st, void *rb, int64_t rc, MPI_Datatype rt, int root,
                   MPI_Comm comm, MPI_Request *req)
{
    call_of(pc, fn, coll, sb, st, rb, rt, comm, req);
    int scatter = coll == SCALING_COLL_SCATTER || coll == SCALING_COLL_SCATTERV;
    if (scatter)
        pc->a.in_place = rb == MPI_IN_PLACE;
    pc->a.root = (uint32_t)root;
    /* Filled again by the rank test in protect_run: the root's count is its global-buffer side. */
    pc->a.count = scatter ? rc : sc;
    pc->root_count = scatter ? sc : rc;
    pc->send_count = sc;
    pc->recv_count = rc;
}

/* count: the engine's (the receive count of Allgather and Alltoall, Allgatherv's send count). */
static void symmetric(protect_call *pc, mpi_function_ids_fn fn, scaling_coll coll, const void *sb,
                      int64_t sc, MPI_Datatype st, void *rb, int64_t rc, MPI_Datatype rt,
                      int64_t count, MPI_Comm comm, MPI_Request *req)
{
    call_of(pc, fn, coll, sb, st, rb, rt, comm, req);
    pc->a.count = count;
    pc->send_count = sc;
    pc->recv_count = rc;
}

static void reduction(protect_call *pc, mpi_function_ids_fn fn, scaling_coll coll, const void *sb,
                      void *rb, int64_t count, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm,
                      MPI_Request *req)
{
    call_of(pc, fn, coll, sb, t, rb, t, comm, req);
    pc->a.count = pc->send_count = pc->recv_count = count;
    pc->a.root = (uint32_t)root;
    pc->op = op;
}

/* The irregular collectives' vectors: A (counts, displacements) and, for Alltoallv, B. */
static void vectors(protect_call *pc, const int *ca, const int *da, const int *cb, const int *db)
{
    pc->a.counts_a = ca;
    pc->a.displs_a = da;
    pc->a.counts_b = cb;
    pc->a.displs_b = db;
}

#if MG_MPI_LARGE_COUNT
/* The same of a `_c` call (Bcast_c and the other regular ones have none but are large too):
 * protect_run widens them for the engine where this rank has them. */
static void large_vectors(protect_call *pc, const MPI_Count *ca, const MPI_Aint *da,
                          const MPI_Count *cb, const MPI_Aint *db)
{
    pc->large = 1;
    pc->lcounts_a = ca;
    pc->ldispls_a = da;
    pc->lcounts_b = cb;
    pc->ldispls_b = db;
}
#endif

/* An entry point's vector setter by family (INT: MPI_Gatherv; LARGE: MPI_Gatherv_c); its types
 * and request come from mpi_binding.h. */
#define FORM_INT vectors
#define FORM_LARGE large_vectors

/* One entry point per argument shape: name is MPI's without the prefix, coll the engine's. */
#define BCAST(name, coll, F, mode)                                                                 \
    ENTRY_POINT(F, name,                                                                           \
                (void *b, MG_MPI_BINDING_COUNT_##F n, MPI_Datatype t, int root,                    \
                 MPI_Comm comm MG_MPI_BINDING_RQ_PARAM_##mode),                                    \
                (b, n, t, root, comm MG_MPI_BINDING_RQ_ARG_##mode), 0, bcast,                      \
                (MG_FN_##name, b, n, t, root, comm, MG_MPI_BINDING_RQ_##mode),                     \
                (NULL, NULL, NULL, NULL))

/* Gather, Scatter */
#define ROOTED(name, coll, F, mode)                                                                \
    ENTRY_POINT(                                                                                   \
        F, name,                                                                                   \
        (const void *sb, MG_MPI_BINDING_COUNT_##F sc, MPI_Datatype st, void *rb,                   \
         MG_MPI_BINDING_COUNT_##F rc, MPI_Datatype rt, int root,                                   \
         MPI_Comm comm MG_MPI_BINDING_RQ_PARAM_##mode),                                            \
        (sb, sc, st, rb, rc, rt, root, comm MG_MPI_BINDING_RQ_ARG_##mode), 0, rooted,              \
        (MG_FN_##name, coll, sb, sc, st, rb, rc, rt, root, comm, MG_MPI_BINDING_RQ_##mode),        \
        (NULL, NULL, NULL, NULL))

#define GATHERV(name, coll, F, mode)                                                               \
    ENTRY_POINT(F, name,                                                                           \
                (const void *sb, MG_MPI_BINDING_COUNT_##F sc, MPI_Datatype st, void *rb,           \
                 const MG_MPI_BINDING_COUNT_##F rcs[], const MG_MPI_BINDING_DISPL_##F d[],         \
                 MPI_Datatype rt, int root, MPI_Comm comm MG_MPI_BINDING_RQ_PARAM_##mode),         \
                (sb, sc, st, rb, rcs, d, rt, root, comm MG_MPI_BINDING_RQ_ARG_##mode),             \
                QUICK_##F(coll, mode, sb == MPI_IN_PLACE, root, comm, rcs, d, NULL, NULL), rooted, \
                (MG_FN_##name, coll, sb, sc, st, rb, 0, rt, root, comm, MG_MPI_BINDING_RQ_##mode), \
                (rcs, d, NULL, NULL))

#define SCATTERV(name, coll, F, mode)                                                              \
    ENTRY_POINT(F, name,                                                                           \
                (const void *sb, const MG_MPI_BINDING_COUNT_##F scs[],                             \
                 const MG_MPI_BINDING_DISPL_##F d[], MPI_Datatype st, void *rb,                    \
                 MG_MPI_BINDING_COUNT_##F rc, MPI_Datatype rt, int root,                           \
                 MPI_Comm comm MG_MPI_BINDING_RQ_PARAM_##mode),                                    \
                (sb, scs, d, st, rb, rc, rt, root, comm MG_MPI_BINDING_RQ_ARG_##mode),             \
                QUICK_##F(coll, mode, rb == MPI_IN_PLACE, root, comm, scs, d, NULL, NULL), rooted, \
                (MG_FN_##name, coll, sb, 0, st, rb, rc, rt, root, comm, MG_MPI_BINDING_RQ_##mode), \
                (scs, d, NULL, NULL))

/* Allgather, Alltoall: the engine's count is the receive count. */
#define SYMMETRIC(name, coll, F, mode)                                                             \
    ENTRY_POINT(F, name,                                                                           \
                (const void *sb, MG_MPI_BINDING_COUNT_##F sc, MPI_Datatype st, void *rb,           \
                 MG_MPI_BINDING_COUNT_##F rc, MPI_Datatype rt,                                     \
                 MPI_Comm comm MG_MPI_BINDING_RQ_PARAM_##mode),                                    \
                (sb, sc, st, rb, rc, rt, comm MG_MPI_BINDING_RQ_ARG_##mode), 0, symmetric,         \
                (MG_FN_##name, coll, sb, sc, st, rb, rc, rt, rc, comm, MG_MPI_BINDING_RQ_##mode),  \
                (NULL, NULL, NULL, NULL))

/* Allgatherv: the engine's count is the send count. */
#define ALLGATHERV(name, coll, F, mode)                                                            \
    ENTRY_POINT(F, name,                                                                           \
                (const void *sb, MG_MPI_BINDING_COUNT_##F sc, MPI_Datatype st, void *rb,           \
                 const MG_MPI_BINDING_COUNT_##F rcs[], const MG_MPI_BINDING_DISPL_##F d[],         \
                 MPI_Datatype rt, MPI_Comm comm MG_MPI_BINDING_RQ_PARAM_##mode),                   \
                (sb, sc, st, rb, rcs, d, rt, comm MG_MPI_BINDING_RQ_ARG_##mode),                   \
                QUICK_##F(coll, mode, sb == MPI_IN_PLACE, 0, comm, rcs, d, NULL, NULL), symmetric, \
                (MG_FN_##name, coll, sb, sc, st, rb, 0, rt, sc, comm, MG_MPI_BINDING_RQ_##mode),   \
                (rcs, d, NULL, NULL))

#define ALLTOALLV(name, coll, F, mode)                                                             \
    ENTRY_POINT(F, name,                                                                           \
                (const void *sb, const MG_MPI_BINDING_COUNT_##F scs[],                             \
                 const MG_MPI_BINDING_DISPL_##F sd[], MPI_Datatype st, void *rb,                   \
                 const MG_MPI_BINDING_COUNT_##F rcs[], const MG_MPI_BINDING_DISPL_##F rd[],        \
                 MPI_Datatype rt, MPI_Comm comm MG_MPI_BINDING_RQ_PARAM_##mode),                   \
                (sb, scs, sd, st, rb, rcs, rd, rt, comm MG_MPI_BINDING_RQ_ARG_##mode),             \
                QUICK_##F(coll, mode, sb == MPI_IN_PLACE, 0, comm, scs, sd, rcs, rd), symmetric,   \
                (MG_FN_##name, coll, sb, 0, st, rb, 0, rt, 0, comm, MG_MPI_BINDING_RQ_##mode),     \
                (scs, sd, rcs, rd))

#define REDUCE(name, coll, F, mode)                                                                \
    ENTRY_POINT(F, name,                                                                           \
                (const void *sb, void *rb, MG_MPI_BINDING_COUNT_##F n, MPI_Datatype t, MPI_Op op,  \
                 int root, MPI_Comm comm MG_MPI_BINDING_RQ_PARAM_##mode),                          \
                (sb, rb, n, t, op, root, comm MG_MPI_BINDING_RQ_ARG_##mode), 0, reduction,         \
                (MG_FN_##name, coll, sb, rb, n, t, op, root, comm, MG_MPI_BINDING_RQ_##mode),      \
                (NULL, NULL, NULL, NULL))

#define ALLREDUCE(name, coll, F, mode)                                                             \
    ENTRY_POINT(F, name,                                                                           \
                (const void *sb, void *rb, MG_MPI_BINDING_COUNT_##F n, MPI_Datatype t, MPI_Op op,  \
                 MPI_Comm comm MG_MPI_BINDING_RQ_PARAM_##mode),                                    \
                (sb, rb, n, t, op, comm MG_MPI_BINDING_RQ_ARG_##mode), 0, reduction,               \
                (MG_FN_##name, coll, sb, rb, n, t, op, 0, comm, MG_MPI_BINDING_RQ_##mode),         \
                (NULL, NULL, NULL, NULL))

#define REDUCE_SCATTER(name, coll, F, mode)                                                        \
    ENTRY_POINT(F, name,                                                                           \
                (const void *sb, void *rb, const MG_MPI_BINDING_COUNT_##F rcs[], MPI_Datatype t,   \
                 MPI_Op op, MPI_Comm comm MG_MPI_BINDING_RQ_PARAM_##mode),                         \
                (sb, rb, rcs, t, op, comm MG_MPI_BINDING_RQ_ARG_##mode),                           \
                QUICK_##F(coll, mode, sb == MPI_IN_PLACE, 0, comm, rcs, NULL, NULL, NULL),         \
                reduction,                                                                         \
                (MG_FN_##name, coll, sb, rb, 0, t, op, 0, comm, MG_MPI_BINDING_RQ_##mode),         \
                (rcs, NULL, NULL, NULL))

/* The 24 entry points of family F, named with suffix c (empty, or _c): E(shape, name, coll, F,
 * mode) for each. */
#define ENTRY_POINTS(E, F, c)                                                                      \
    E(BCAST, Bcast##c, SCALING_COLL_BCAST, F, B)                                                   \
    E(BCAST, Ibcast##c, SCALING_COLL_BCAST, F, NB)                                                 \
    E(ROOTED, Gather##c, SCALING_COLL_GATHER, F, B)                                                \
    E(ROOTED, Igather##c, SCALING_COLL_GATHER, F, NB)                                              \
    E(ROOTED, Scatter##c, SCALING_COLL_SCATTER, F, B)                                              \
    E(ROOTED, Iscatter##c, SCALING_COLL_SCATTER, F, NB)                                            \
    E(GATHERV, Gatherv##c, SCALING_COLL_GATHERV, F, B)                                             \
    E(GATHERV, Igatherv##c, SCALING_COLL_GATHERV, F, NB)                                           \
    E(SCATTERV, Scatterv##c, SCALING_COLL_SCATTERV, F, B)                                          \
    E(SCATTERV, Iscatterv##c, SCALING_COLL_SCATTERV, F, NB)                                        \
    E(SYMMETRIC, Allgather##c, SCALING_COLL_ALLGATHER, F, B)                                       \
    E(SYMMETRIC, Iallgather##c, SCALING_COLL_ALLGATHER, F, NB)                                     \
    E(ALLGATHERV, Allgatherv##c, SCALING_COLL_ALLGATHERV, F, B)                                    \
    E(ALLGATHERV, Iallgatherv##c, SCALING_COLL_ALLGATHERV, F, NB)                                  \
    E(SYMMETRIC, Alltoall##c, SCALING_COLL_ALLTOALL, F, B)                                         \
    E(SYMMETRIC, Ialltoall##c, SCALING_COLL_ALLTOALL, F, NB)                                       \
    E(ALLTOALLV, Alltoallv##c, SCALING_COLL_ALLTOALLV, F, B)                                       \
    E(ALLTOALLV, Ialltoallv##c, SCALING_COLL_ALLTOALLV, F, NB)                                     \
    E(REDUCE, Reduce##c, SCALING_COLL_REDUCE, F, B)                                                \
    E(REDUCE, Ireduce##c, SCALING_COLL_REDUCE, F, NB)                                              \
    E(ALLREDUCE, Allreduce##c, SCALING_COLL_ALLREDUCE, F, B)                                       \
    E(ALLREDUCE, Iallreduce##c, SCALING_COLL_ALLREDUCE, F, NB)                                     \
    E(REDUCE_SCATTER, Reduce_scatter##c, SCALING_COLL_REDUCE_SCATTER, F, B)                        \
    E(REDUCE_SCATTER, Ireduce_scatter##c, SCALING_COLL_REDUCE_SCATTER, F, NB)

#define DEFINE(shape, name, coll, F, mode) shape(name, coll, F, mode)
#define INSTALL(shape, name, coll, F, mode)                                                        \
    if (WATCHED(coll, F, mode))                                                                    \
        mg_impl_##name = name;
#define REMOVE(shape, name, coll, F, mode) mg_impl_##name = NULL;

ENTRY_POINTS(DEFINE, INT, )
#if MG_MPI_LARGE_COUNT
ENTRY_POINTS(DEFINE, LARGE, _c)
#endif

void protect_entry_install(void)
{
    ENTRY_POINTS(INSTALL, INT, )
#if MG_MPI_LARGE_COUNT
    ENTRY_POINTS(INSTALL, LARGE, _c)
#endif
}

void protect_entry_remove(void)
{
    ENTRY_POINTS(REMOVE, INT, )
#if MG_MPI_LARGE_COUNT
    ENTRY_POINTS(REMOVE, LARGE, _c)
#endif
}
