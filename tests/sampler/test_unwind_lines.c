/* One frame's pc looked up for its source line with and without the MPI function it calls
 * (stack_unwind_symbol), on a real Fortran process whose call gfortran gave the subroutine
 * statement's row (unwind_lines.f90): without the function the line stays the subroutine's (16);
 * with it, the call's own (20), whichever lookup came first, in the unwinder's own cache and in the
 * one every unwinder of the process shares. */
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mg_error.h"
#include "mg_test.h"
#include "sampler_ptrace.h"
#include "stack_unwind.h"

enum { PROCEDURE_LINE = 16, CALL_LINE = 20, TRIES = 50 };

/* The pc of run's call of mg_wait (run_'s frame), once the child is in it; 0 if never. */
static uint64_t main_call_pc(pid_t pid)
{
    sampler_ptrace_params params;
    sampler_ptrace_params_default(&params);
    for (int i = 0; i < TRIES; i++) {
        usleep(100000);
        sampler_ptrace *s = NULL;
        const sampler_ptrace_result *sample = NULL;
        if (sampler_ptrace_open(pid, &params, &s) != MG_ERROR_OK)
            continue;
        uint64_t pc = 0;
        if (sampler_ptrace_sample(s, &sample) == MG_ERROR_OK && sample->nthreads > 0)
            for (size_t k = 0; k < sample->threads[0].nframes; k++) {
                const stack_classify_frame *f = &sample->threads[0].frames[k];
                pc = f->function && strcmp(f->function, "run_") == 0 ? f->pc : pc;
            }
        sampler_ptrace_close(s);
        if (pc)
            return pc;
    }
    return 0;
}

static int line_of(stack_unwind *u, uint64_t pc, const char *called)
{
    symbol_cache_info info;
    stack_unwind_symbol(u, pc, true, called, &info);
    return info.file && strstr(info.file, "unwind_lines.f90") ? info.line : -1;
}

static void test_lines_by_called_function(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* a test that dies leaves no child */
        execl(UNWIND_LINES_PROGRAM, UNWIND_LINES_PROGRAM, (char *)NULL);
        _exit(127);
    }
    MG_CHECK(pid > 0);
    uint64_t pc = pid > 0 ? main_call_pc(pid) : 0;
    MG_CHECK(pc != 0);
    stack_unwind_params params;
    stack_unwind_params_default(&params);
    stack_unwind *first = NULL, *second = NULL;
    MG_CHECK_INT(stack_unwind_open(pid, &params, &first), MG_ERROR_OK);
    MG_CHECK_INT(stack_unwind_open(pid, &params, &second), MG_ERROR_OK);
    if (pc && first && second) {
        MG_CHECK_INT(line_of(first, pc, NULL), PROCEDURE_LINE);
        /* the shared cache holds the line looked up without the function: not this one's */
        MG_CHECK_INT(line_of(second, pc, "mg_wait"), CALL_LINE);
        /* the unwinder's own cache too */
        MG_CHECK_INT(line_of(first, pc, "mg_wait"), CALL_LINE);
        MG_CHECK_INT(line_of(second, pc, NULL), PROCEDURE_LINE);
        MG_CHECK_INT(line_of(second, pc, "mg_wait"), CALL_LINE);
    }
    stack_unwind_close(first);
    stack_unwind_close(second);
    if (pid > 0) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
}

int main(void)
{
    MG_RUN(test_lines_by_called_function);
    MG_TEST_END();
}
