/* Deciding from call stacks whether a process is inside MPI (the IN_MPI rule).
 * Spec: docs/design/hang.md "How it samples"; the rule is written out in docs/sampler.md. */
#include "stack_classify.h"

#include "rank_stack.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

bool stack_classify_is_mpi_entry(const char *name, bool in_mpi_module)
{
    if (!name) {
        return false;
    }
    const char *rest = tolower((unsigned char)name[0]) == 'p' ? name + 1 : name;
    if (strncasecmp(rest, "mpi_", 4) != 0 || !isalpha((unsigned char)rest[4])) {
        return false;
    }
    bool c_spelling = (rest == name || name[0] == 'P') && strncmp(rest, "MPI_", 4) == 0;
    return c_spelling || in_mpi_module;
}

stack_classify_thread_class stack_classify_thread(const stack_classify_frame *frames, size_t n)
{
    stack_classify_thread_class c = {false, NULL};
    for (size_t i = 0; i < n; i++) {
        if (stack_classify_is_mpi_entry(frames[i].function, frames[i].in_mpi_module)) {
            c.mpi_function = rank_stack_public_name(
                frames[i].function); /* later = nearer main: keep last */
            c.in_mpi = true;
        }
        c.in_mpi |= frames[i].in_mpi_module;
    }
    return c;
}

static bool in_c_library(const stack_classify_frame *frame)
{
    const char *slash = frame->module ? strrchr(frame->module, '/') : NULL;
    const char *base = slash ? slash + 1 : frame->module;
    return base && (strncmp(base, "libc.so", 7) == 0 || strncmp(base, "libc-", 5) == 0);
}

bool stack_classify_is_mpi_own_thread(const stack_classify_frame *frames, size_t n)
{
    if (n == 0 || !in_c_library(&frames[n - 1])) {
        return false;
    }
    size_t start = n;
    while (start > 0 && in_c_library(&frames[start - 1])) {
        start--;
    }
    if (start == 0 || !frames[start - 1].in_mpi_module) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (stack_classify_is_mpi_entry(frames[i].function, frames[i].in_mpi_module)) {
            return false;
        }
    }
    return true;
}

stack_classify_verdict stack_classify_process(const stack_classify_thread_class *threads, size_t n,
                                              size_t main_index, const char **mpi_function)
{
    const char *name = NULL;
    bool in_mpi = false;
    if (main_index < n && threads[main_index].in_mpi) {
        in_mpi = true;
        name = threads[main_index].mpi_function;
    }
    for (size_t i = 0; i < n; i++) {
        if (i != main_index && threads[i].mpi_function) {
            in_mpi = true;
            name = name ? name : threads[i].mpi_function;
        }
    }
    if (mpi_function) {
        *mpi_function = name;
    }
    return in_mpi ? STACK_CLASSIFY_IN_MPI : STACK_CLASSIFY_OUT_MPI;
}
