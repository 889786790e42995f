/* stack_classify: MPI entry names, one thread's class, MPI's own threads, and the process rule
 * (main thread, or a user thread in an MPI entry; progress threads never). Spec: docs/sampler.md
 * "The IN_MPI rule". */
#include "mg_test.h"
#include "stack_classify.h"

static stack_classify_frame fr(const char *name, bool in_mpi_module)
{
    return (stack_classify_frame){.pc = 0x1000, .function = name, .in_mpi_module = in_mpi_module};
}

static void test_entry_names(void)
{
    /* The C spellings are entries wherever they are (a PMPI tool layer's wrapper too). */
    MG_CHECK(stack_classify_is_mpi_entry("MPI_Send", false));
    MG_CHECK(stack_classify_is_mpi_entry("PMPI_Send", false));
    MG_CHECK(stack_classify_is_mpi_entry("MPI_SEND", false));
    MG_CHECK(stack_classify_is_mpi_entry("MPI_Send", true));
    /* Other cases only inside MPI (Fortran bindings), never in user code. */
    MG_CHECK(stack_classify_is_mpi_entry("mpi_send_", true));
    MG_CHECK(stack_classify_is_mpi_entry("pmpi_send__", true));
    MG_CHECK(stack_classify_is_mpi_entry("Pmpi_send", true));
    MG_CHECK(!stack_classify_is_mpi_entry("mpi_send_", false));
    MG_CHECK(!stack_classify_is_mpi_entry("mpi_target_compute", false));
    MG_CHECK(!stack_classify_is_mpi_entry("pMPI_Send", false));
    /* Not entries at all. */
    MG_CHECK(!stack_classify_is_mpi_entry("MPIR_Barrier_impl", true));
    MG_CHECK(!stack_classify_is_mpi_entry("MPIDI_progress", true));
    MG_CHECK(!stack_classify_is_mpi_entry("MPI_", true));
    MG_CHECK(!stack_classify_is_mpi_entry("MPI_1", true));
    MG_CHECK(!stack_classify_is_mpi_entry("PPMPI_Send", true));
    MG_CHECK(!stack_classify_is_mpi_entry("ompi_coll_base_barrier", true));
    MG_CHECK(!stack_classify_is_mpi_entry("compute", false));
    MG_CHECK(!stack_classify_is_mpi_entry("", true));
    MG_CHECK(!stack_classify_is_mpi_entry(NULL, true));
}

static void test_thread_outermost_entry(void)
{
    /* A user reduction operator called back from inside MPI_Allreduce, which itself was called
     * inside a user-level MPI_Barrier wrapper: the outermost (nearest main) entry names it. */
    const stack_classify_frame f[] = {fr("my_op", false),         fr("ompi_op_reduce", true),
                             fr("PMPI_Allreduce", true), fr("MPI_Wrapper_barrier", false),
                             fr("main", false),          fr(NULL, false)};
    stack_classify_thread_class c = stack_classify_thread(f, 6);
    MG_CHECK(c.in_mpi);
    MG_CHECK_STR(c.mpi_function, "MPI_Wrapper_barrier");
    c = stack_classify_thread(f, 3);
    MG_CHECK_STR(c.mpi_function, "MPI_Allreduce"); /* the profiling P is dropped */
    /* Fortran: mpi_barrier_ inside the MPI mapping is the entry; the user's mpi_solver is not. */
    const stack_classify_frame g[] = {fr("ompi_request_wait", true), fr("pmpi_barrier_", true),
                             fr("mpi_solver", false), fr("MAIN__", false)};
    c = stack_classify_thread(g, 4);
    MG_CHECK(c.in_mpi);
    MG_CHECK_STR(c.mpi_function, "MPI_Barrier");
    /* Every binding's spelling of a wrapped function reads as the function table names it. */
    const char *const spellings[] = {"mpi_send_",  "mpi_send",  "mpi_send__",    "MPI_SEND",
                                     "pmpi_send_", "PMPI_SEND", "mpi_send_f08_", "mpi_send_f08ts_"};
    for (size_t i = 0; i < sizeof spellings / sizeof *spellings; i++) {
        const stack_classify_frame h[] = {fr(spellings[i], true), fr("MAIN__", false)};
        MG_CHECK_STR(stack_classify_thread(h, 2).mpi_function, "MPI_Send");
    }
    const stack_classify_frame ompi_f[] = {fr("PMPI_Comm_dup", true), fr("ompi_comm_dup_f", true),
                                  fr("mpi_comm_dup_f08_", true), fr("MAIN__", false)};
    MG_CHECK_STR(stack_classify_thread(ompi_f, 4).mpi_function, "MPI_Comm_dup");
    /* A function the table lacks keeps its own name. */
    const stack_classify_frame rank_f[] = {fr("pmpi_comm_rank_", true), fr("MAIN__", false)};
    MG_CHECK_STR(stack_classify_thread(rank_f, 2).mpi_function, "mpi_comm_rank_");
}

static void test_thread_by_address_or_nothing(void)
{
    const stack_classify_frame in_lib[] = {fr(NULL, true), fr("start_thread", false)};
    stack_classify_thread_class c = stack_classify_thread(in_lib, 2);
    MG_CHECK(c.in_mpi && c.mpi_function == NULL);
    const stack_classify_frame user[] = {fr("solve", false), fr("main", false)};
    c = stack_classify_thread(user, 2);
    MG_CHECK(!c.in_mpi && c.mpi_function == NULL);
    c = stack_classify_thread(NULL, 0);
    MG_CHECK(!c.in_mpi && c.mpi_function == NULL);
}

static stack_classify_frame in(const char *name, const char *module, bool in_mpi_module)
{
    return (stack_classify_frame){.function = name, .module = module, .in_mpi_module = in_mpi_module};
}

/* MPI's own threads: the start routine in an MPI mapping, the walk complete, no entry frame. */
static void test_mpi_own_thread(void)
{
    const char *libc = "/usr/lib/x86_64-linux-gnu/libc.so.6", *pal = "/usr/lib/libopen-pal.so.40";
    const char *app = "/home/u/app", *ucs = "/usr/lib/libucs.so.0";
    const stack_classify_frame libevent[] = {in("epoll_wait", libc, false), in(NULL, pal, true),
                                    in("progress_engine", pal, true),
                                    in("start_thread", libc, false), in("clone3", libc, false)};
    MG_CHECK(stack_classify_is_mpi_own_thread(libevent, 5));
    const stack_classify_frame async[] = {in("ucs_async_thread_func", ucs, true), in(NULL, libc, false)};
    MG_CHECK(stack_classify_is_mpi_own_thread(async, 2));
    /* cut short: the walk did not reach the C library's thread start */
    MG_CHECK(!stack_classify_is_mpi_own_thread(libevent, 3));
    /* a user thread waiting inside MPI, or started by the application */
    const stack_classify_frame user_in_mpi[] = {in(NULL, pal, true), in("PMPI_Recv", pal, true),
                                       in("worker", app, false), in("start_thread", libc, false)};
    MG_CHECK(!stack_classify_is_mpi_own_thread(user_in_mpi, 4));
    const stack_classify_frame user_loop[] = {in("epoll_wait", libc, false), in("worker", app, false),
                                     in("start_thread", libc, false)};
    MG_CHECK(!stack_classify_is_mpi_own_thread(user_loop, 3));
    /* an MPI entry called from a thread MPI started (a callback into MPI) is not ignored */
    const stack_classify_frame entry[] = {in("MPI_Send", pal, true), in("progress_engine", pal, true),
                                 in("start_thread", libc, false)};
    MG_CHECK(!stack_classify_is_mpi_own_thread(entry, 3));
    const stack_classify_frame only_libc[] = {in("pause", libc, false), in("start_thread", libc, false)};
    MG_CHECK(!stack_classify_is_mpi_own_thread(only_libc, 2));
    MG_CHECK(!stack_classify_is_mpi_own_thread(NULL, 0));
}

static void test_process_rule(void)
{
    const stack_classify_thread_class computing = {false, NULL};
    const stack_classify_thread_class progress = {true, NULL};
    const stack_classify_thread_class barrier = {true, "MPI_Barrier"};
    const stack_classify_thread_class recv = {true, "MPI_Recv"};
    const char *fn = "unset";

    stack_classify_thread_class a[] = {computing, progress, progress};
    MG_CHECK_INT(stack_classify_process(a, 3, 0, &fn), STACK_CLASSIFY_OUT_MPI);
    MG_CHECK(fn == NULL);

    stack_classify_thread_class b[] = {barrier, progress};
    MG_CHECK_INT(stack_classify_process(b, 2, 0, &fn), STACK_CLASSIFY_IN_MPI);
    MG_CHECK_STR(fn, "MPI_Barrier");

    stack_classify_thread_class c[] = {computing, progress, recv}; /* a user thread calling MPI */
    MG_CHECK_INT(stack_classify_process(c, 3, 0, &fn), STACK_CLASSIFY_IN_MPI);
    MG_CHECK_STR(fn, "MPI_Recv");

    stack_classify_thread_class d[] = {progress, recv}; /* main inside MPI by address: its (NULL) name
                                                * wins the IN_MPI, the user thread names it */
    MG_CHECK_INT(stack_classify_process(d, 2, 0, &fn), STACK_CLASSIFY_IN_MPI);
    MG_CHECK_STR(fn, "MPI_Recv");

    stack_classify_thread_class e[] = {recv, barrier}; /* the main thread's call is preferred */
    MG_CHECK_INT(stack_classify_process(e, 2, 1, &fn), STACK_CLASSIFY_IN_MPI);
    MG_CHECK_STR(fn, "MPI_Barrier");

    stack_classify_thread_class f[] = {progress, progress}; /* main not sampled: progress threads only */
    MG_CHECK_INT(stack_classify_process(f, 2, 2, &fn), STACK_CLASSIFY_OUT_MPI);
    MG_CHECK_INT(stack_classify_process(NULL, 0, 0, NULL), STACK_CLASSIFY_OUT_MPI);
}

int main(void)
{
    MG_RUN(test_entry_names);
    MG_RUN(test_thread_outermost_entry);
    MG_RUN(test_thread_by_address_or_nothing);
    MG_RUN(test_mpi_own_thread);
    MG_RUN(test_process_rule);
    MG_TEST_END();
}
