/* A handler that never returns, sampled on a real process: the trampoline it would return through
 * is the one frame named STACK_CLASSIFY_SIGNAL_FRAME, between the handler and the frame the signal
 * interrupted, which keeps its own name (issue 29: the interrupted frame took the trampoline's
 * name, so a rank interrupted in mpiguard's own MPI_Waitall lost both its MPI entry and its signal
 * frame, and the culprit went unnamed). A trampoline without unwind information, which libdwfl
 * cannot unwind as a signal frame, is named all the same, and the walk goes on through it to the
 * interrupted function and _start. */
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mg_error.h"
#include "mg_test.h"
#include "sampler_ptrace.h"

#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000 /* the kernel's flag; glibc's headers keep it to themselves */
#endif

/* What the child tells the parent, in memory both map. */
typedef struct shared_flags {
    atomic_ulong loops;    /* iterations of interrupted_loop */
    atomic_int in_handler; /* the handler runs */
} shared_flags;

static shared_flags *flags;

/* The frame the signal interrupts. */
__attribute__((noinline, noclone)) static void interrupted_loop(void)
{
    for (;;)
        atomic_fetch_add_explicit(&flags->loops, 1, memory_order_relaxed);
}

__attribute__((noinline, noclone)) static void spin_in_handler(int signo)
{
    (void)signo;
    atomic_store(&flags->in_handler, 1);
    for (;;)
        ;
}

/* x86-64's rt_sigreturn as glibc's __restore_rt has it, but with no unwind information: a return
 * into it is unwound by frame pointers, not as a signal frame. The nop keeps return address - 1,
 * where libdwfl looks for the caller's unwind information, out of any function's. */
__asm__(".text\n"
        ".p2align 4\n"
        "nop\n"
        "restorer_without_cfi:\n"
        "movq $15, %rax\n"
        "syscall\n"
        "hlt\n");
void restorer_without_cfi(void);

/* The kernel's struct sigaction on x86-64: glibc's sigaction always puts its own restorer. */
struct kernel_sigaction {
    void (*handler)(int);
    unsigned long flags;
    void (*restorer)(void);
    unsigned long mask;
};

static pid_t spawn(bool own_restorer)
{
    atomic_store(&flags->loops, 0);
    atomic_store(&flags->in_handler, 0);
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* a test that dies leaves no spinning child */
        if (own_restorer) {
            struct kernel_sigaction k = {spin_in_handler, SA_RESTORER, restorer_without_cfi, 0};
            syscall(SYS_rt_sigaction, SIGUSR2, &k, NULL, sizeof k.mask);
        } else {
            struct sigaction action = {.sa_handler = spin_in_handler};
            sigemptyset(&action.sa_mask);
            sigaction(SIGUSR2, &action, NULL);
        }
        interrupted_loop();
    }
    while (pid > 0 && atomic_load(&flags->loops) == 0)
        usleep(1000);
    kill(pid, SIGUSR2);
    while (pid > 0 && !atomic_load(&flags->in_handler))
        usleep(1000);
    return pid;
}

static const sampler_ptrace_thread *sample(sampler_ptrace **s, pid_t pid)
{
    sampler_ptrace_params params;
    sampler_ptrace_params_default(&params);
    const sampler_ptrace_result *out = NULL;
    MG_CHECK_INT(sampler_ptrace_open(pid, &params, s), MG_ERROR_OK);
    MG_CHECK_INT(*s ? sampler_ptrace_sample(*s, &out) : MG_ERROR_EINVAL, MG_ERROR_OK);
    return out && out->nthreads > 0 ? &out->threads[0] : NULL;
}

static size_t signal_frames(const sampler_ptrace_thread *t)
{
    size_t n = 0;
    for (size_t k = 0; k < t->nframes; k++)
        n += t->frames[k].function && strcmp(t->frames[k].function, STACK_CLASSIFY_SIGNAL_FRAME) == 0;
    return n;
}

static void show(const sampler_ptrace_thread *t)
{
    for (size_t k = 0; t && k < t->nframes; k++)
        printf("  #%zu %s (%s)\n", k, t->frames[k].function ? t->frames[k].function : "??",
               t->frames[k].module ? t->frames[k].module : "?");
}

static void reap(sampler_ptrace *s, pid_t pid)
{
    sampler_ptrace_close(s);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

/* Both trampolines the same: the handler innermost, the one trampoline, the interrupted function,
 * and the walk on to _start. */
static void check_handler_stack(bool own_restorer)
{
    pid_t pid = spawn(own_restorer);
    MG_CHECK(pid > 0);
    sampler_ptrace *s = NULL;
    const sampler_ptrace_thread *t = sample(&s, pid);
    show(t);
    MG_CHECK(t && t->nframes >= 4);
    if (t && t->nframes >= 4) {
        MG_CHECK_STR(t->frames[0].function, "spin_in_handler");
        MG_CHECK_STR(t->frames[1].function, STACK_CLASSIFY_SIGNAL_FRAME);
        MG_CHECK_STR(t->frames[2].function, "interrupted_loop");
        MG_CHECK_STR(t->frames[t->nframes - 1].function, "_start");
        MG_CHECK_INT((int)signal_frames(t), 1);
    }
    reap(s, pid);
}

static void trampoline_between_the_handler_and_the_interrupted_frame(void)
{
    check_handler_stack(false);
}

static void trampoline_without_unwind_information(void)
{
    check_handler_stack(true);
}

int main(void)
{
    flags = mmap(NULL, sizeof *flags, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    MG_CHECK(flags != MAP_FAILED);
    MG_RUN(trampoline_between_the_handler_and_the_interrupted_frame);
    MG_RUN(trampoline_without_unwind_information);
    MG_TEST_END();
}
