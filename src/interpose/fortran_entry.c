/* The Fortran entry points of the interposition library: the mpif.h / `use mpi` bindings in every
 * mangling and the `use mpi_f08` ones of both MPIs, generated from mpi_functions.def by
 * fortran_bindings.awk, and the hand-written Grequest_start, Init, Init_thread, Finalize and
 * Abort.
 * docs/architecture.md, "Fortran entry points".
 *
 * Open MPI's Fortran bindings and MPICH's `use mpi_f08` call PMPI_X themselves, and MPICH's mpif.h
 * ones reach MPI_X from inside libmpichfort, so the C wrappers see no call or not its site. Each
 * entry converts its arguments as the MPI's own binding does (handles through _f2c/_c2f, the
 * Fortran sentinels, statuses, 1-based indices) and enters the shared core (interpose_entry.h) with
 * its own return address, in the Fortran program, as the call site. An array of requests or
 * statuses up to FORTRAN_STACK_ARRAY long lives on the stack; a longer one costs a malloc. */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "interpose_entry.h"
#include "interpose_log.h"
#include "interpose_next.h"
#include "topology_degrees.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>

_Static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER arguments are read as C int");

/* A Fortran status is MPI_STATUS_SIZE INTEGERs: the C status's size in both MPIs (6 in Open MPI
 * 4.1, 5 in MPICH 4.0). */
enum { FORTRAN_STATUS_SIZE = sizeof(MPI_Status) / sizeof(MPI_Fint), FORTRAN_STACK_ARRAY = 16 };

#define FORTRAN_ALIAS(target, name) extern __typeof__(target) name __attribute__((alias(#target)));
#define FORTRAN_ALIASES(target, a, b, c)                                                           \
    FORTRAN_ALIAS(target, a) FORTRAN_ALIAS(target, b) FORTRAN_ALIAS(target, c)

#ifdef OPEN_MPI
#define F2C(kind, f) PMPI_##kind##_f2c(f)
#define C2F(kind, c) PMPI_##kind##_c2f(c)
#pragma weak PMPI_Comm_f2c
#pragma weak PMPI_Comm_c2f
#pragma weak PMPI_Type_f2c
#pragma weak PMPI_Type_c2f
#pragma weak PMPI_Op_f2c
#pragma weak PMPI_Op_c2f
#pragma weak PMPI_Group_f2c
#pragma weak PMPI_Group_c2f
#pragma weak PMPI_Info_f2c
#pragma weak PMPI_Info_c2f
#pragma weak PMPI_Request_f2c
#pragma weak PMPI_Request_c2f
#pragma weak PMPI_Message_f2c
#pragma weak PMPI_Message_c2f
#pragma weak PMPI_Win_f2c
#pragma weak PMPI_Win_c2f
#pragma weak PMPI_Errhandler_f2c
#pragma weak PMPI_Errhandler_c2f
#pragma weak PMPI_File_c2f
#pragma weak PMPI_File_f2c
/* Open MPI's Fortran request is an index into a table of its own, whose entry goes when the
 * request is freed: a copy of the index kept past that converts to NULL, in which the capture
 * module would not know the freed request it was (request_freed, as it knows a C copy). So the C
 * request each index last stood for is kept here and handed over for an index Open MPI no longer
 * holds. Any index: blocks made as indexes reach them (Open MPI's grow with the live requests),
 * found by one lock-free load, so the C path, which never comes here, pays nothing. */
enum { FORTRAN_REQUEST_BLOCK_BITS = 14, FORTRAN_REQUEST_BLOCKS = 1 << (31 - 14) };
typedef _Atomic(MPI_Request) fortran_request_block[1 << FORTRAN_REQUEST_BLOCK_BITS];
static _Atomic(fortran_request_block *) fortran_request_blocks[FORTRAN_REQUEST_BLOCKS];

/* The entry of index f (>= 0), its block made first when `make`; NULL without one (or memory). */
static _Atomic(MPI_Request) *fortran_request_slot(MPI_Fint f, int make)
{
    _Atomic(fortran_request_block *) *at = &fortran_request_blocks[f >> FORTRAN_REQUEST_BLOCK_BITS];
    fortran_request_block *b = atomic_load_explicit(at, memory_order_acquire);
    if (!b && make && (b = calloc(1, sizeof *b))) {
        fortran_request_block *none = NULL;
        /* another thread's block made first is the one kept */
        if (!atomic_compare_exchange_strong_explicit(at, &none, b, memory_order_acq_rel,
                                                     memory_order_acquire)) {
            free(b);
            b = none;
        }
    }
    return b ? &(*b)[f & ((1 << FORTRAN_REQUEST_BLOCK_BITS) - 1)] : NULL;
}

static MPI_Request fortran_request_f2c(MPI_Fint f)
{
    MPI_Request c = PMPI_Request_f2c(f);
    _Atomic(MPI_Request) *slot = f >= 0 ? fortran_request_slot(f, c != NULL) : NULL;
    if (!slot)
        return c;
    if (!c)
        return atomic_load_explicit(slot, memory_order_relaxed);
    atomic_store_explicit(slot, c, memory_order_relaxed);
    return c;
}

static MPI_Fint fortran_request_c2f(MPI_Request c)
{
    MPI_Fint f = PMPI_Request_c2f(c);
    _Atomic(MPI_Request) *slot =
        c != MPI_REQUEST_NULL && f >= 0 ? fortran_request_slot(f, 1) : NULL;
    if (slot)
        atomic_store_explicit(slot, c, memory_order_relaxed);
    return f;
}
/* F2C(Request, f) and C2F(Request, c) name them from here on. */
#define PMPI_Request_f2c fortran_request_f2c
#define PMPI_Request_c2f fortran_request_c2f
/* MPI_BOTTOM and MPI_IN_PLACE are common blocks of libmpi that mpif.h, `use mpi` and
 * `use mpi_f08` all name. */
extern int mpi_fortran_bottom_, mpi_fortran_in_place_;
#pragma weak mpi_fortran_bottom_
#pragma weak mpi_fortran_in_place_
#define FORTRAN_BOTTOM ((void *)&mpi_fortran_bottom_)
#define FORTRAN_IN_PLACE ((void *)&mpi_fortran_in_place_)
#define FORTRAN_STATUS_IGNORED(f) ((f) == MPI_F_STATUS_IGNORE)
#define FORTRAN_STATUSES_IGNORED(f) ((f) == MPI_F_STATUSES_IGNORE)
/* Open MPI's mpi_send_f08_ takes the arguments of mpi_send_ (a TYPE(MPI_Comm) is its INTEGER), its
 * ierror optional (NULL when absent). */
#define FORTRAN_F08_DESCRIPTORS 0
#else
/* MPICH's handles are INTEGERs already (macros of mpi.h); libmpichfort's MPI_Init publishes the
 * addresses of its MPI_BOTTOM and MPI_IN_PLACE common blocks. */
#define F2C(kind, f) MPI_##kind##_f2c(f)
#define C2F(kind, c) MPI_##kind##_c2f(c)
/* MPI_File_c2f and MPI_File_f2c are MPICH's conversions that are functions, not macros: weak, so
 * that the library still loads into a process without libmpi (mpi_handles_weak.h). */
#pragma weak MPI_File_c2f
#pragma weak MPI_File_f2c
extern void *MPIR_F_MPI_BOTTOM, *MPIR_F_MPI_IN_PLACE;
#pragma weak MPIR_F_MPI_BOTTOM
#pragma weak MPIR_F_MPI_IN_PLACE
#define FORTRAN_BOTTOM MPIR_F_MPI_BOTTOM
#define FORTRAN_IN_PLACE MPIR_F_MPI_IN_PLACE
/* MPICH's `use mpi_f08` calls PMPI_X itself. Its entries take the arguments of the mpif.h ones
 * (mpi_waitall_f08_; a TYPE(MPI_Status) is laid out as a C status, and ignored with its own
 * sentinel), except that each buffer comes as gfortran's array descriptor (mpi_send_f08ts_). */
#pragma weak MPI_F08_STATUS_IGNORE
#pragma weak MPI_F08_STATUSES_IGNORE
#pragma weak MPIR_F08_MPI_BOTTOM
#pragma weak MPIR_F08_MPI_IN_PLACE
#define FORTRAN_STATUS_IGNORED(f)                                                                  \
    ((f) == MPI_F_STATUS_IGNORE || (void *)(f) == (void *)MPI_F08_STATUS_IGNORE)
#define FORTRAN_STATUSES_IGNORED(f)                                                                \
    ((f) == MPI_F_STATUSES_IGNORE || (void *)(f) == (void *)MPI_F08_STATUSES_IGNORE)
#define FORTRAN_F08_DESCRIPTORS 1
#endif
#pragma weak PMPI_Status_c2f
#pragma weak PMPI_Comm_test_inter
#pragma weak PMPI_Comm_remote_size
#pragma weak PMPI_Comm_size
#pragma weak MPI_F_STATUS_IGNORE
#pragma weak MPI_F_STATUSES_IGNORE

static inline void *fortran_buffer(void *buf)
{
    return buf == FORTRAN_BOTTOM ? MPI_BOTTOM : buf == FORTRAN_IN_PLACE ? MPI_IN_PLACE : buf;
}

static inline MPI_Status *fortran_status_in(MPI_Fint *f, MPI_Status *c)
{
    return FORTRAN_STATUS_IGNORED(f) ? MPI_STATUS_IGNORE : c;
}

static inline void fortran_status_out(int rc, MPI_Fint *f, const MPI_Status *c)
{
    if (rc == MPI_SUCCESS && !FORTRAN_STATUS_IGNORED(f))
        PMPI_Status_c2f(c, f);
}

/* Room for n elements of size bytes: stack (FORTRAN_STACK_ARRAY long) or the heap for more, freed
 * by fortran_array_free. NULL with *rc = MPI_ERR_NO_MEM when the heap has no room. */
static void *fortran_array(int *rc, int n, size_t size, void *stack)
{
    void *c = n <= FORTRAN_STACK_ARRAY ? stack : malloc((size_t)n * size);
    if (!c)
        *rc = MPI_ERR_NO_MEM;
    return c;
}

static inline void fortran_array_free(void *c, const void *stack)
{
    if (c != stack)
        free(c);
}

/* The C handles of n Fortran requests in a fortran_array; the caller hands the result to
 * fortran_requests_out. */
static MPI_Request *fortran_requests_in(int *rc, const MPI_Fint *f, int n, MPI_Request *stack)
{
    MPI_Request *c = fortran_array(rc, n, sizeof *c, stack);
    for (int i = 0; c && i < n; i++)
        c[i] = F2C(Request, f[i]);
    return c;
}

/* Writes back the requests a completion or start changed, and frees a heap array. */
static void fortran_requests_out(int rc, MPI_Fint *f, MPI_Request *c, int n,
                                 const MPI_Request *stack)
{
    if (!c)
        return;
    if (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS)
        for (int i = 0; i < n; i++)
            f[i] = C2F(Request, c[i]);
    fortran_array_free(c, stack);
}

/* Room for n C statuses in a fortran_array, or MPI_STATUSES_IGNORE for Fortran's. */
static MPI_Status *fortran_statuses_in(int *rc, MPI_Fint *f, int n, MPI_Status *stack)
{
    return FORTRAN_STATUSES_IGNORED(f) ? MPI_STATUSES_IGNORE
                                       : fortran_array(rc, n, sizeof *stack, stack);
}

static void fortran_statuses_out(int rc, MPI_Fint *f, MPI_Status *c, int n, const MPI_Status *stack)
{
    if (FORTRAN_STATUSES_IGNORED(f) || !c)
        return;
    if (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS)
        for (int i = 0; i < n; i++)
            PMPI_Status_c2f(&c[i], f + (size_t)i * FORTRAN_STATUS_SIZE);
    fortran_array_free(c, stack);
}

/* The C handles of n Fortran datatypes in a fortran_array (n is 0 for the send types of an
 * in-place Alltoallw, which the program need not give), for fortran_array_free. Nonblocking
 * collectives of both MPIs take the types into their schedule at the call, so the copy can go at
 * its return, as the MPIs' own bindings do. */
static MPI_Datatype *fortran_types_in(int *rc, const MPI_Fint *f, int n, MPI_Datatype *stack)
{
    MPI_Datatype *c = fortran_array(rc, n, sizeof *c, stack);
    for (int i = 0; c && i < n; i++)
        c[i] = F2C(Type, f[i]);
    return c;
}

/* How many neighbours a neighbourhood Alltoallw's send (receiving 0) or receive (1) datatypes
 * describe: the rank's out- or in-degree in the communicator's topology; 0 without one, where MPI
 * reads none and refuses the call (MPI_ERR_TOPOLOGY). */
static int fortran_neighbors(MPI_Comm comm, int receiving)
{
    int in, out;
    topology_degrees(comm, &in, &out);
    return receiving ? in : out;
}

/* How many ranks an Alltoallw's arrays describe: the communicator's size, its remote group's on an
 * intercommunicator. An invalid communicator goes to the MPI's error handler here, as in the MPI's
 * own binding, which asks the same first. */
static int fortran_peers(MPI_Comm comm)
{
    int inter = 0, peers = 0;
    PMPI_Comm_test_inter(comm, &inter);
    if (inter)
        PMPI_Comm_remote_size(comm, &peers);
    else
        PMPI_Comm_size(comm, &peers);
    return peers;
}

/* A reduction function of a Fortran program: (invec, inoutvec, len, datatype), the last two by
 * reference and the datatype a Fortran handle (MPI_User_function in mpif.h, `use mpi`, and
 * `use mpi_f08`, whose c_ptr arguments by value are the same addresses). The MPI calls an op's
 * function as C's MPI_User_function, with a C datatype; each Fortran function gets a trampoline of
 * its own, which converts it. A slot, once taken, stays for the process: an op keeps its function
 * beyond MPI_Op_free while a nonblocking reduction still runs, and programs create few. */
typedef void fortran_user_function(void *invec, void *inoutvec, MPI_Fint *len, MPI_Fint *datatype);
/* A procedure of the program the MPI calls back, as a slot keeps it. */
typedef void fortran_procedure(void);
enum { FORTRAN_USER_FUNCTIONS = 64 };
static fortran_procedure *_Atomic user_functions[FORTRAN_USER_FUNCTIONS];

static void call_user_function(int slot, void *invec, void *inoutvec, int *len, MPI_Datatype *type)
{
    MPI_Fint fortran_type = C2F(Type, *type);
    ((fortran_user_function *)user_functions[slot])(invec, inoutvec, len, &fortran_type);
}

#define TRAMPOLINE(row, column)                                                                    \
    static void trampoline_##row##_##column(void *in, void *inout, int *len, MPI_Datatype *type)   \
    {                                                                                              \
        call_user_function(row * 8 + column, in, inout, len, type);                                \
    }
#define TRAMPOLINE_ROW(row)                                                                        \
    TRAMPOLINE(row, 0)                                                                             \
    TRAMPOLINE(row, 1)                                                                             \
    TRAMPOLINE(row, 2) TRAMPOLINE(row, 3) TRAMPOLINE(row, 4) TRAMPOLINE(row, 5) TRAMPOLINE(row, 6) \
        TRAMPOLINE(row, 7)
TRAMPOLINE_ROW(0)
TRAMPOLINE_ROW(1)
TRAMPOLINE_ROW(2) TRAMPOLINE_ROW(3) TRAMPOLINE_ROW(4) TRAMPOLINE_ROW(5) TRAMPOLINE_ROW(6)
    TRAMPOLINE_ROW(7)
#define TRAMPOLINE_NAMES(row)                                                                      \
    trampoline_##row##_0, trampoline_##row##_1, trampoline_##row##_2, trampoline_##row##_3,        \
        trampoline_##row##_4, trampoline_##row##_5, trampoline_##row##_6, trampoline_##row##_7
        static MPI_User_function *const trampolines[FORTRAN_USER_FUNCTIONS] = {
            TRAMPOLINE_NAMES(0), TRAMPOLINE_NAMES(1), TRAMPOLINE_NAMES(2), TRAMPOLINE_NAMES(3),
            TRAMPOLINE_NAMES(4), TRAMPOLINE_NAMES(5), TRAMPOLINE_NAMES(6), TRAMPOLINE_NAMES(7)};

/* The slot of function among slots[0..n): the one it has, or a free one it takes (thread-safe).
 * -1 with *rc = MPI_ERR_INTERN, said in the log (refused names the call and what it takes), when
 * n distinct functions have one. */
static int fortran_slot(int *rc, fortran_procedure *_Atomic *slots, int n,
                        fortran_procedure *function, const char *refused)
{
    for (int slot = 0; slot < n; slot++) {
        fortran_procedure *expected = NULL;
        if (atomic_compare_exchange_strong(&slots[slot], &expected, function) ||
            expected == function)
            return slot;
    }
    *rc = MPI_ERR_INTERN;
    interpose_log(refused, " are more than mpiguard's trampolines");
    return -1;
}

/* The trampoline of function (NULL when fortran_slot refuses it). */
static MPI_User_function *fortran_user_function_in(int *rc, fortran_user_function *function)
{
    int slot = fortran_slot(rc, user_functions, FORTRAN_USER_FUNCTIONS,
                            (fortran_procedure *)function,
                            "MPI_Op_create refused with MPI_ERR_INTERN: the program's Fortran "
                            "reduction functions");
    return slot < 0 ? NULL : trampolines[slot];
}

/* An error handler of a Fortran program: (handle, error code) by reference, the handle a Fortran
 * communicator, window or file (in `use mpi_f08` a TYPE(MPI_Comm), TYPE(MPI_Win) or TYPE(MPI_File),
 * one INTEGER: the same). The MPI calls it as C's MPI_Comm_errhandler_function (_Win_, _File_),
 * with a C handle; as a reduction function, each gets a trampoline of its own among the 8 of its
 * kind, which converts the handle, and keeps its slot (MPICH 4.0's own binding hands a file's
 * handler the C MPI_File, a pointer the program cannot use). ERRHANDLER_KIND(comm, Comm) defines the type
 * fortran_comm_errhandler, its slots and trampolines, and fortran_comm_errhandler_in(rc, function),
 * the trampoline of function (NULL when fortran_slot refuses it). */
enum { FORTRAN_ERRHANDLERS = 8 };
#define ERRHANDLER_TRAMPOLINE(kind, Kind, k)                                                       \
    static void kind##_errhandler_trampoline_##k(MPI_##Kind *handle, int *code, ...)               \
    {                                                                                              \
        MPI_Fint fortran_handle = C2F(Kind, *handle);                                           \
        ((fortran_##kind##_errhandler *)kind##_errhandlers[k])(&fortran_handle, code);             \
    }
#define ERRHANDLER_KIND(kind, Kind)                                                                \
    typedef void fortran_##kind##_errhandler(MPI_Fint *handle, MPI_Fint *code);                    \
    static fortran_procedure *_Atomic kind##_errhandlers[FORTRAN_ERRHANDLERS];                     \
    ERRHANDLER_TRAMPOLINE(kind, Kind, 0)                                                           \
    ERRHANDLER_TRAMPOLINE(kind, Kind, 1)                                                           \
    ERRHANDLER_TRAMPOLINE(kind, Kind, 2)                                                           \
    ERRHANDLER_TRAMPOLINE(kind, Kind, 3)                                                           \
    ERRHANDLER_TRAMPOLINE(kind, Kind, 4)                                                           \
    ERRHANDLER_TRAMPOLINE(kind, Kind, 5)                                                           \
    ERRHANDLER_TRAMPOLINE(kind, Kind, 6)                                                           \
    ERRHANDLER_TRAMPOLINE(kind, Kind, 7)                                                           \
    static MPI_##Kind##_errhandler_function *fortran_##kind##_errhandler_in(                       \
        int *rc, fortran_##kind##_errhandler *function)                                            \
    {                                                                                              \
        static MPI_##Kind##_errhandler_function *const trampolines[FORTRAN_ERRHANDLERS] = {        \
            kind##_errhandler_trampoline_0, kind##_errhandler_trampoline_1,                        \
            kind##_errhandler_trampoline_2, kind##_errhandler_trampoline_3,                        \
            kind##_errhandler_trampoline_4, kind##_errhandler_trampoline_5,                        \
            kind##_errhandler_trampoline_6, kind##_errhandler_trampoline_7};                       \
        int slot = fortran_slot(rc, kind##_errhandlers, FORTRAN_ERRHANDLERS,                       \
                                (fortran_procedure *)function,                                     \
                                "MPI_" #Kind "_create_errhandler refused with MPI_ERR_INTERN: "    \
                                "the program's Fortran error handlers");                           \
        return slot < 0 ? NULL : trampolines[slot];                                                \
    }
ERRHANDLER_KIND(comm, Comm)
ERRHANDLER_KIND(win, Win)
ERRHANDLER_KIND(file, File)

/* Fortran counts indices from 1; MPI_UNDEFINED (negative) stays as it is. */
/* A C index (from 0, or MPI_UNDEFINED) as the binding returns it: from base. */
static inline void fortran_index_out(int rc, MPI_Fint *index, int base)
{
    if (rc == MPI_SUCCESS && *index >= 0)
        *index += base;
}

static void fortran_indices_out(int rc, MPI_Fint *indices, int n, int base)
{
    if (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS)
        for (int i = 0; i < n; i++)
            indices[i] += base;
}

/* ierr is optional in `use mpi_f08` (NULL when absent). */
static inline void fortran_return(MPI_Fint *ierr, int rc)
{
    if (ierr)
        *ierr = rc;
}

#if FORTRAN_F08_DESCRIPTORS
/* gfortran's descriptor of an assumed-rank (`dimension(..)`) argument, as GCC 12 lays it out
 * (libgfortran.h): the address, then the element size, rank and the dimensions. */
typedef struct fortran_descriptor {
    void *base_addr;
    size_t offset;
    size_t elem_len;
    int version;
    signed char rank, type;
    short attribute;
    ptrdiff_t span;
    struct {
        ptrdiff_t stride, lower_bound, upper_bound;
    } dim[15];
} fortran_descriptor;

/* Whether the elements lie one after the other (a scalar, a whole array, a contiguous section). */
static int fortran_contiguous(const fortran_descriptor *d)
{
    if (d->rank < 0 || d->span != (ptrdiff_t)d->elem_len)
        return 0;
    ptrdiff_t expected = 1;
    for (int i = 0; i < d->rank; i++) {
        ptrdiff_t extent = d->dim[i].upper_bound - d->dim[i].lower_bound + 1;
        if (extent > 1 && d->dim[i].stride != expected)
            return 0;
        expected *= extent > 0 ? extent : 0;
    }
    return 1;
}

static void *fortran_f08_buffer(const fortran_descriptor *d)
{
    void *p = d->base_addr;
    return p == &MPIR_F08_MPI_BOTTOM ? MPI_BOTTOM : p == &MPIR_F08_MPI_IN_PLACE ? MPI_IN_PLACE : p;
}

/* Says once per process that a call went to MPICH's own binding, which packs the buffer into a
 * datatype of its own and reaches the C wrapper: seen, but its call site is inside libmpichfort. */
static void fortran_without_site(const char *function)
{
    static int said;
    if (!said) {
        said = 1;
        interpose_log(
            "a non-contiguous use mpi_f08 buffer went through MPICH's own binding: the call "
            "is seen without its Fortran file:line; first in ",
            function);
    }
}
#endif

/* MPICH's MPI_STATUSES_IGNORE is (MPI_Status *)1, which GCC 12 takes for a region of size 0
 * passed where mg_enter_Waitall declares an array of statuses; and a stack array of datatypes
 * that a count of 0 left unwritten is passed, never read, where it declares a const array. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "fortran_bindings.inc"
#pragma GCC diagnostic pop

/* MPI_Grequest_start: the program's query, free and cancel functions reach the MPI unchanged
 * through the MPI's own binding, which passes them to the C function and then tells the MPI that
 * they are Fortran's (the request's language); the modules see the call as the C one's, whose
 * functions they only pass on. MPICH's mpif.h binding calls MPI_Grequest_start, the C wrapper, which
 * passes it straight on inside this call. extra_state stays the program's variable, as the binding
 * takes it. */
typedef void fortran_grequest_start_fn(fortran_procedure *query_fn, fortran_procedure *free_fn,
                                       fortran_procedure *cancel_fn, void *extra_state,
                                       MPI_Fint *request, MPI_Fint *ierr);
fortran_grequest_start_fn pmpi_grequest_start_;
#pragma weak pmpi_grequest_start_

static int fortran_grequest_binding(fortran_grequest_start_fn *binding,
                                    MPI_Grequest_query_function *query_fn,
                                    MPI_Grequest_free_function *free_fn,
                                    MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                                    MPI_Request *request)
{
    MPI_Fint f_request, rc;
    binding((fortran_procedure *)query_fn, (fortran_procedure *)free_fn,
            (fortran_procedure *)cancel_fn, extra_state, &f_request, &rc);
    if (rc == MPI_SUCCESS)
        *request = F2C(Request, f_request);
    return rc;
}

#define GREQUEST_BINDING(entry, binding)                                                           \
    static int entry(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,   \
                     MPI_Grequest_cancel_function *cancel_fn, void *extra_state,                   \
                     MPI_Request *request)                                                         \
    {                                                                                              \
        return fortran_grequest_binding(binding, query_fn, free_fn, cancel_fn, extra_state,        \
                                        request);                                                  \
    }
GREQUEST_BINDING(grequest_start_mpif, pmpi_grequest_start_)

static inline __attribute__((always_inline)) void
fortran_grequest_start(void *site, mg_impl_Grequest_start_fn *binding, fortran_procedure *query_fn,
                       fortran_procedure *free_fn, fortran_procedure *cancel_fn, MPI_Aint *extra_state,
                       MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request c = MPI_REQUEST_NULL;
    int rc = mg_enter_Grequest_start_binding(site, binding, (MPI_Grequest_query_function *)query_fn,
                                             (MPI_Grequest_free_function *)free_fn,
                                             (MPI_Grequest_cancel_function *)cancel_fn, extra_state,
                                             &c);
    if (rc == MPI_SUCCESS)
        *request = C2F(Request, c);
    fortran_return(ierr, rc);
}

void mpi_grequest_start_(fortran_procedure *query_fn, fortran_procedure *free_fn,
                         fortran_procedure *cancel_fn, MPI_Aint *extra_state, MPI_Fint *request,
                         MPI_Fint *ierr)
{
    fortran_grequest_start(__builtin_return_address(0), grequest_start_mpif, query_fn, free_fn,
                           cancel_fn, extra_state, request, ierr);
}
FORTRAN_ALIASES(mpi_grequest_start_, mpi_grequest_start, mpi_grequest_start__, MPI_GREQUEST_START)
#if FORTRAN_F08_DESCRIPTORS
/* MPICH's `use mpi_f08` binding: its own, which marks the request the same way. */
fortran_grequest_start_fn pmpir_grequest_start_f08_;
#pragma weak pmpir_grequest_start_f08_
GREQUEST_BINDING(grequest_start_f08, pmpir_grequest_start_f08_)

void mpi_grequest_start_f08_(fortran_procedure *query_fn, fortran_procedure *free_fn,
                             fortran_procedure *cancel_fn, MPI_Aint *extra_state,
                             MPI_Fint *request, MPI_Fint *ierr)
{
    fortran_grequest_start(__builtin_return_address(0), grequest_start_f08, query_fn, free_fn,
                           cancel_fn, extra_state, request, ierr);
}
#else
FORTRAN_ALIAS(mpi_grequest_start_, mpi_grequest_start_f08_)
#endif

/* Init, Init_thread, Finalize and Abort go through the MPI's own Fortran binding (pmpi_X_), so its
 * Fortran state (MPICH's sentinel addresses) is set up as without mpiguard; the modules start
 * after it and end before it, as around the C functions. A PMPI tool loaded after mpiguard sees the
 * Fortran program's other calls (they enter the shared core, which passes them on), not these four:
 * the MPI's Fortran binding calls PMPI_X itself. */
void pmpi_init_(MPI_Fint *ierr);
void pmpi_init_thread_(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr);
void pmpi_finalize_(MPI_Fint *ierr);
void pmpi_abort_(MPI_Fint *comm, MPI_Fint *errorcode, MPI_Fint *ierr);
#pragma weak pmpi_init_
#pragma weak pmpi_init_thread_
#pragma weak pmpi_finalize_
#pragma weak pmpi_abort_

void mpi_init_(MPI_Fint *ierr)
{
    MPI_Fint rc;
    interpose_next_resolve();
    pmpi_init_(&rc);
    if (rc == MPI_SUCCESS)
        interpose_start();
    fortran_return(ierr, rc);
}
FORTRAN_ALIASES(mpi_init_, mpi_init, mpi_init__, MPI_INIT)
FORTRAN_ALIAS(mpi_init_, mpi_init_f08_)

void mpi_init_thread_(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
    MPI_Fint rc;
    interpose_next_resolve();
    pmpi_init_thread_(required, provided, &rc);
    if (rc == MPI_SUCCESS)
        interpose_start();
    fortran_return(ierr, rc);
}
FORTRAN_ALIASES(mpi_init_thread_, mpi_init_thread, mpi_init_thread__, MPI_INIT_THREAD)
FORTRAN_ALIAS(mpi_init_thread_, mpi_init_thread_f08_)

void mpi_finalize_(MPI_Fint *ierr)
{
    MPI_Fint rc;
    interpose_end(MG_FN_Finalize, __builtin_return_address(0));
    pmpi_finalize_(&rc);
    interpose_finalize_returned();
    fortran_return(ierr, rc);
}
FORTRAN_ALIASES(mpi_finalize_, mpi_finalize, mpi_finalize__, MPI_FINALIZE)
FORTRAN_ALIAS(mpi_finalize_, mpi_finalize_f08_)

void mpi_abort_(MPI_Fint *comm, MPI_Fint *errorcode, MPI_Fint *ierr)
{
    MPI_Fint rc;
    interpose_end(MG_FN_Abort, __builtin_return_address(0));
    pmpi_abort_(comm, errorcode, &rc);
    fortran_return(ierr, rc);
}
FORTRAN_ALIASES(mpi_abort_, mpi_abort, mpi_abort__, MPI_ABORT)
FORTRAN_ALIAS(mpi_abort_, mpi_abort_f08_)
