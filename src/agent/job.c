/* Process ownership of a job's launcher and ranks (job.h). */
#include "job.h"

#include "mg_env.h"
#include "mg_error.h"
#include "rank_scan.h"
#include "mg_clock.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How often a wait looks for the end of a job it cannot be woken by (an attached Slurm job: no
 * process to wait on, only /proc to scan), and of any job where the kernel gives no pidfd. */
static const double UNWATCHED_END_POLL_S = 0.1;

struct job_handle {
    pid_t launcher; /* 0 for an attached Slurm job */
    int attached;   /* not our child: poll for its end instead of reaping it */
    char slurm_job_id[32];
    char token[64];
    int pidfd;  /* the launcher's, which a wait sleeps on (it becomes readable at its end); -1 none
                 */
    int status; /* shell form, -1 while running */
    int interrupting_signal;
    int released; /* an attached job let go of on a signal: the wait is over, the job runs on */
    int leftovers_killed;
    double kill_deadline; /* 0: none */
};

static volatile sig_atomic_t received_signal;
/* The handler writes a byte here, so that a wait sleeping in poll wakes at once whenever the
 * signal lands, even between its check of received_signal and the poll. */
static int wake_pipe[2] = {-1, -1};
static volatile sig_atomic_t received_from_terminal;
static volatile sig_atomic_t received_count;
static void (*volatile signal_hook)(void);

void job_set_signal_hook(void (*hook)(void))
{
    signal_hook = hook;
}

static void on_signal(int sig, siginfo_t *info, void *context)
{
    (void)context;
    received_signal = sig;
    /* The terminal's signals come from the kernel to the whole foreground group. */
    received_from_terminal = info && info->si_code == SI_KERNEL;
    received_count = received_count + 1;
    if (signal_hook)
        signal_hook();
    int saved_errno = errno;
    ssize_t ignored = write(wake_pipe[1], "", 1); /* full or absent: a wake is pending anyway */
    (void)ignored;
    errno = saved_errno;
}

void job_install_signal_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (wake_pipe[0] < 0 && pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
        wake_pipe[0] = wake_pipe[1] = -1;
    static const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof signals / sizeof *signals; i++)
        sigaction(signals[i], &sa, NULL);
}

/* This process's environment with MG_ENV_JOB_TREE set to token (in *var, which it points to),
 * for a launcher: the daemons it starts (hydra_pmi_proxy) inherit it, though they get none of the
 * variables it passes its ranks (-genv), and the leftover search finds them by it. NULL when out of
 * memory. */
static char **launcher_environ(const char *token, char **var)
{
    size_t n = 0, kept = 0, prefix = strlen(MG_ENV_JOB_TREE "=");
    while (environ[n])
        n++;
    char **env = malloc((n + 2) * sizeof *env);
    if (!env || asprintf(var, "%s=%s", MG_ENV_JOB_TREE, token) < 0) {
        free(env);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], MG_ENV_JOB_TREE "=", prefix) != 0)
            env[kept++] = environ[i];
    env[kept++] = *var;
    env[kept] = NULL;
    return env;
}

int job_start(char *const *argv, const char *token, job_handle **out, char *err, size_t errlen)
{
    *out = NULL;
    job_handle *job = calloc(1, sizeof *job);
    if (!job)
        return MG_ERROR_ENOMEM;
    job->status = -1;
    char *tree_var = NULL, **env = environ;
    if (token) {
        snprintf(job->token, sizeof job->token, "%s", token);
        if (!(env = launcher_environ(token, &tree_var))) {
            free(job);
            return MG_ERROR_ENOMEM;
        }
    }
    int report_pipe[2];
    pid_t pid = -1;
    if (pipe2(report_pipe, O_CLOEXEC) != 0)
        snprintf(err, errlen, "cannot start '%s': pipe: %s", argv[0], strerror(errno));
    else if ((pid = fork()) < 0) {
        snprintf(err, errlen, "cannot start '%s': fork: %s", argv[0], strerror(errno));
        close(report_pipe[0]);
        close(report_pipe[1]);
    }
    if (pid == 0) {
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        execvpe(argv[0], argv, env);
        int e = errno;
        ssize_t ignored = write(report_pipe[1], &e, sizeof e);
        (void)ignored;
        _exit(127);
    }
    if (env != environ)
        free(env);
    free(tree_var);
    if (pid < 0) {
        free(job);
        return MG_ERROR_ESYS;
    }
    close(report_pipe[1]);
    int exec_errno = 0;
    ssize_t n;
    do
        n = read(report_pipe[0], &exec_errno, sizeof exec_errno);
    while (n < 0 && errno == EINTR);
    close(report_pipe[0]);
    if (n == (ssize_t)sizeof exec_errno) {
        waitpid(pid, NULL, 0);
        snprintf(err, errlen, "cannot start '%s': %s", argv[0], strerror(exec_errno));
        free(job);
        return MG_ERROR_ENOENT;
    }
    job->launcher = pid;
    job->pidfd = pidfd_open(pid, 0);
    *out = job;
    return MG_ERROR_OK;
}

static int job_selector(const job_handle *job, rank_scan_selector *sel)
{
    *sel = (rank_scan_selector){0};
    if (job->token[0]) {
        sel->token = job->token;
        sel->any_process = 1; /* hydra_pmi_proxy has no rank variable, and it is ours too */
    } else if (job->slurm_job_id[0])
        sel->slurm_job_id = job->slurm_job_id;
    else if (job->attached)
        sel->ancestor_pid = job->launcher;
    else
        return 0;
    return 1;
}

static void kill_leftovers(job_handle *job)
{
    rank_scan_selector sel;
    if (!job_selector(job, &sel))
        return;
    rank_scan_proc *ranks;
    size_t n;
    if (rank_scan("/proc", &sel, &ranks, &n) != MG_ERROR_OK)
        return;
    for (size_t i = 0; i < n; i++)
        if (kill(ranks[i].pid, SIGKILL) == 0)
            job->leftovers_killed++;
    free(ranks);
}

static void kill_everything(job_handle *job)
{
    if (job->launcher)
        kill(job->launcher, SIGKILL);
    kill_leftovers(job);
}

static int job_processes_left(const job_handle *job)
{
    rank_scan_selector sel;
    rank_scan_proc *ranks;
    size_t n = 0;
    if (!job_selector(job, &sel) || rank_scan("/proc", &sel, &ranks, &n) != MG_ERROR_OK)
        return 0;
    free(ranks);
    return n > 0;
}

int job_attach(int launcher_pid, const char *slurm_job_id, job_handle **out, char *err,
               size_t errlen)
{
    *out = NULL;
    job_handle *job = calloc(1, sizeof *job);
    if (!job)
        return MG_ERROR_ENOMEM;
    job->status = -1;
    job->attached = 1;
    job->launcher = launcher_pid;
    job->pidfd = -1;
    if (slurm_job_id)
        snprintf(job->slurm_job_id, sizeof job->slurm_job_id, "%s", slurm_job_id);
    int exists = launcher_pid > 0 ? kill(launcher_pid, 0) == 0 : job_processes_left(job);
    if (!exists) {
        if (launcher_pid > 0)
            snprintf(err, errlen, "no process %d to attach to", launcher_pid);
        else
            snprintf(err, errlen, "no process of Slurm job %s on this node to attach to",
                     slurm_job_id);
        free(job);
        return MG_ERROR_ENOENT;
    }
    if (launcher_pid > 0)
        job->pidfd = pidfd_open(launcher_pid, 0);
    *out = job;
    return MG_ERROR_OK;
}

/* An attached job's end: its launcher gone (a zombie counts as gone), or no process left. */
static int attached_job_ended(job_handle *job)
{
    if (job->launcher > 0)
        return mg_process_state_gone(rank_scan_process_state(job->launcher));
    return !job_processes_left(job);
}

static void handle_received_signal(job_handle *job)
{
    int sig = received_signal;
    if (!sig)
        return;
    received_signal = 0;
    int first = job->interrupting_signal == 0;
    job->interrupting_signal = sig;
    if (job->attached) {
        /* Not mpiguard's to stop: whoever watches a running job and presses Ctrl-C means the
         * watching, and killing it 5 s later, as a job mpiguard started, would lose their run. */
        job->released = 1;
        return;
    }
    if (!first && received_count > 1) {
        kill_everything(job); /* a second Ctrl-C: no more waiting */
        return;
    }
    if (!received_from_terminal && !job->attached)
        kill(job->launcher, sig);
    job->kill_deadline = mg_clock_seconds() + JOB_STOP_GRACE_SECONDS;
}

static int reap(job_handle *job, int flags)
{
    if (job->attached) {
        if (!attached_job_ended(job))
            return 0;
        job->status = 0;
        return 1;
    }
    int wstatus;
    pid_t r;
    do
        r = waitpid(job->launcher, &wstatus, flags);
    while (r < 0 && errno == EINTR && !(flags & WNOHANG));
    if (r != job->launcher)
        return 0;
    job->status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
    kill_leftovers(job);
    return 1;
}

/* Sleeps up to `seconds`, waking when the launcher ends or a signal lands: a job that runs well
 * costs its watcher no wakeup but those it asks for (the samples). */
static void sleep_until_event(job_handle *job, double seconds)
{
    if (job->pidfd < 0 && seconds > UNWATCHED_END_POLL_S)
        seconds = UNWATCHED_END_POLL_S;
    struct pollfd fds[2] = {{.fd = job->pidfd, .events = POLLIN},
                            {.fd = wake_pipe[0], .events = POLLIN}};
    int ms = (int)(seconds * 1000) + 1; /* never 0: a deadline under a millisecond must not spin */
    if (poll(fds, 2, ms) > 0 && (fds[1].revents & POLLIN)) {
        char drained[64];
        while (read(wake_pipe[0], drained, sizeof drained) > 0)
            ;
    }
}

int job_wait(job_handle *job, int timeout_ms, int *finished)
{
    *finished = job->status >= 0;
    double deadline = mg_clock_seconds() + timeout_ms / 1000.0;
    while (!*finished) {
        handle_received_signal(job);
        if (job->released) {
            *finished = 1;
            break;
        }
        if (job->kill_deadline > 0 && mg_clock_seconds() >= job->kill_deadline) {
            kill_everything(job);
            job->kill_deadline = 0;
        }
        if (reap(job, WNOHANG)) {
            *finished = 1;
            break;
        }
        double now = mg_clock_seconds(), left = deadline - now;
        if (left <= 0)
            break;
        if (job->kill_deadline > 0 && job->kill_deadline - now < left)
            left = job->kill_deadline - now;
        sleep_until_event(job, left);
    }
    return MG_ERROR_OK;
}

/* scancel through the one process launcher (this file). */
static void cancel_slurm_job(const char *id)
{
    char *argv[] = {"scancel", (char *)id, NULL};
    job_handle *scancel;
    char err[256];
    if (job_start(argv, NULL, &scancel, err, sizeof err) != MG_ERROR_OK)
        return;
    int done = 0;
    while (!done)
        job_wait(scancel, 1000, &done);
    job_destroy(scancel);
}

int job_stop(job_handle *job, double grace_s)
{
    if (job->status >= 0)
        return MG_ERROR_OK;
    if (grace_s <= 0)
        kill_everything(job);
    else if (job->slurm_job_id[0] && !job->launcher)
        cancel_slurm_job(job->slurm_job_id);
    else
        kill(job->launcher, SIGTERM);
    job->kill_deadline = grace_s > 0 ? mg_clock_seconds() + grace_s : 0;
    int finished = 0;
    while (!finished)
        job_wait(job, 1000, &finished);
    return MG_ERROR_OK;
}

int job_launcher_pid(const job_handle *job)
{
    return job->launcher;
}

int job_exit_status(const job_handle *job)
{
    return job->status;
}

int job_interrupting_signal(const job_handle *job)
{
    return job->interrupting_signal;
}

int job_leftovers_killed(const job_handle *job)
{
    return job->leftovers_killed;
}

void job_destroy(job_handle *job)
{
    if (!job)
        return;
    if (job->status < 0 && !job->attached)
        job_stop(job, JOB_STOP_GRACE_SECONDS);
    if (job->pidfd >= 0)
        close(job->pidfd);
    free(job);
}
