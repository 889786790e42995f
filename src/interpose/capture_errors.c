/* MPI's own errors as check records (capture_errors.h). Only under `mpiguard check`; the handler
 * runs on MPI's error path alone, never on a call that succeeds. */
#include "capture_errors.h"

#include <mpi.h>
#include "mpi_handles_weak.h"

/* Weak as mpi_handles_weak.h explains: the handles and calls only this file refers to. */
#ifdef OPEN_MPI
#pragma weak ompi_mpi_errors_are_fatal
#pragma weak ompi_mpi_errors_return
#endif
#pragma weak PMPI_Comm_create_errhandler
#pragma weak PMPI_Comm_get_errhandler
#pragma weak PMPI_Comm_set_errhandler
#pragma weak PMPI_Errhandler_free
#pragma weak PMPI_Error_class
#pragma weak PMPI_Abort

#include <dlfcn.h>
#include <execinfo.h>
#include <stdint.h>
#include <string.h>

#include "capture_emit.h"
#include "interpose_hooks.h"

/* The portable class of an MPI error class (check_event_mpi_error_name), 0 when not a standard one.
 */
static uint64_t portable_class(int mpi_class)
{
#define X(name) MPI_ERR_##name,
    static const int classes[] = {
#include "mpi_error_classes.def"
    };
#undef X
    for (size_t i = 0; i < sizeof classes / sizeof *classes; i++)
        if (classes[i] == mpi_class)
            return i + 1;
    return 0;
}

/* Libraries between the program's call and this handler: MPI's own, its runtimes, mpiguard's. */
static int inside_mpi(const char *object)
{
    static const char *const libraries[] = {"libmpi", "libmpiguard", "libopen-", "libpmix",
                                            "libucp", "libucs",      "libuct",   "libc.so"};
    const char *base = strrchr(object, '/');
    base = base ? base + 1 : object;
    for (size_t i = 0; i < sizeof libraries / sizeof *libraries; i++)
        if (strncmp(base, libraries[i], strlen(libraries[i])) == 0)
            return 1;
    return 0;
}

void *capture_errors_program_site(const char **mpi_function)
{
    void *frames[64];
    int n = backtrace(frames, 64);
    for (int i = 1; i < n; i++) {
        Dl_info info;
        if (dladdr(frames[i], &info) && info.dli_fname && !inside_mpi(info.dli_fname)) {
            /* a return address: the call may be its function's last instruction (exit's call
             * of its handlers), the address past it in the next function */
            Dl_info called;
            if (mpi_function)
                *mpi_function = dladdr((char *)frames[i - 1] - 1, &called) ? called.dli_sname
                                                                           : NULL;
            return frames[i];
        }
    }
    return NULL;
}

static void record_and_abort(MPI_Comm *comm, int *code, ...)
{
    int mpi_class = MPI_ERR_UNKNOWN;
    PMPI_Error_class(*code, &mpi_class);
    check_event ev = capture_emit_event(CHECK_EVENT_FN_MPI_ERROR, CHECK_EVENT_EV_ENTER, NULL);
    ev.aux = portable_class(mpi_class);
    ev.result = *code;
    interpose_call_site = capture_errors_program_site(NULL);
    capture_emit(&ev);
    capture_emit_wait_read();
    capture_emit_close(CHECK_EVENT_FN_ABORT);
    (void)comm;
    PMPI_Abort(MPI_COMM_WORLD, *code); /* MPI_ERRORS_ARE_FATAL ends every process (MPI 3.1 §8.3) */
}

static void replace_fatal(MPI_Comm comm, MPI_Errhandler handler)
{
    MPI_Errhandler current;
    if (PMPI_Comm_get_errhandler(comm, &current) != MPI_SUCCESS)
        return;
    if (current == MPI_ERRORS_ARE_FATAL)
        PMPI_Comm_set_errhandler(comm, handler);
    if (current != MPI_ERRORS_ARE_FATAL && current != MPI_ERRORS_RETURN)
        PMPI_Errhandler_free(&current);
}

void capture_errors_install(void)
{
    MPI_Errhandler handler;
    if (PMPI_Comm_create_errhandler(record_and_abort, &handler) != MPI_SUCCESS)
        return;
    replace_fatal(MPI_COMM_WORLD, handler);
    replace_fatal(MPI_COMM_SELF, handler);
    PMPI_Errhandler_free(&handler);
}
