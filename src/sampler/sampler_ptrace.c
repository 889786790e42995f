/* The ptrace sampler: stop the main thread, unwind, release, classify, and the other threads only
 * when the main one does not answer. Spec: docs/design/hang.md "How it samples"; docs/sampler.md
 * for the guarantees, the IN_MPI rule and what a sample stops. */
#include "sampler_ptrace.h"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mg_array.h"
#include "mg_error.h"
#include "proc_maps.h"

const char *const sampler_ptrace_default_mpi_prefixes[] = {
    "libmpi.", "libmpi_",   "libmpich",  "libopen-pal", "libopen-rte", "libmca_common",
    "mca_",    "libpmix",   "pmix_mca_", "libucp",      "libucs",      "libuct",
    "libucm",  "libfabric", "libpsm2",   NULL,
};

enum { DEFAULT_MAX_FRAMES = 128 };

void sampler_ptrace_params_default(sampler_ptrace_params *p)
{
    p->max_frames = DEFAULT_MAX_FRAMES;
    ptrace_stop_params_default(&p->stop);
    stack_unwind_params_default(&p->unwind);
    p->mpi_library_prefixes = sampler_ptrace_default_mpi_prefixes;
    p->counter_module_prefix = "libmpiguard-";
    p->counter_symbol = "mpiguard_calls_entered";
    p->on_stopped = NULL;
    p->on_stopped_arg = NULL;
    p->hold_priority = 1;
}

/* What /proc/PID/stat says about the process's identity and liveness. */
typedef struct proc_identity {
    bool exists;
    char state;               /* 'R', 'S', 'Z', ... */
    unsigned long long start; /* start time in clock ticks: tells a reused pid apart */
} proc_identity;

struct sampler_ptrace {
    pid_t pid;
    sampler_ptrace_params params;
    proc_identity identity; /* as seen at open */
    proc_maps *maps;
    stack_unwind *unwind;
    uint64_t counter_addr; /* of the call counter in the process, 0 when it holds none */
    ptrace_stop *stop;
    /* The sampling thread's own scheduling, restored after each hold; hold_refused once the
     * kernel refused the hold priority, not asked again. */
    int own_policy;
    struct sched_param own_param;
    bool hold_refused;
    atomic_int abort;
    /* Threads seen to be MPI's own (stack_classify_is_mpi_own_thread): left out of later samples.
     * A tid is unique while its thread lives, and the kernel hands it out again only after the
     * pid space wrapped. */
    pid_t *mpi_threads;
    size_t nmpi_threads, mpi_threads_capacity;
    /* The main thread's stack above its MPI call as the latest sample read it (digest_frames), to
     * be read again without a stop (sampler_ptrace_frames_moved); frames_len 0 when none. */
    uint64_t frames_from, frames_bytes_digest;
    size_t frames_len;
    bool maps_stale; /* a frame fell outside every mapping: something was mapped since */
    bool exited;     /* sticky: the process is gone, every sample says so */
    /* Per-sample storage, grown to the largest thread count seen. */
    sampler_ptrace_result sample;
    sampler_ptrace_thread *threads;
    stack_classify_frame *frames; /* max_frames per thread */
    uint64_t *pcs;                /* max_frames per thread */
    bool *signal_frames;          /* likewise: stack_unwind_thread's */
    stack_unwind_locals *locals;  /* likewise */
    stack_classify_thread_class *classes;
    size_t threads_capacity;
};

static uint64_t find_counter(const sampler_ptrace *s)
{
    const sampler_ptrace_params *p = &s->params;
    if (!p->counter_module_prefix || !p->counter_symbol) {
        return 0;
    }
    return stack_unwind_find_object(s->unwind, p->counter_module_prefix, p->counter_symbol);
}

/* From a stat file of /proc: /proc/PID/stat, or /proc/PID/task/TID/stat for one thread. */
static proc_identity read_stat(const char *path)
{
    proc_identity id = {false, '?', 0};
    char buf[1024];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return id;
    }
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) {
        return id;
    }
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* the command name may hold spaces and ')' */
    /* After ") ": field 3 the state, fields 4..21 skipped as words, field 22 the start time. */
    if (!p || sscanf(p + 1,
                     " %c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s"
                     " %llu",
                     &id.state, &id.start) != 2) {
        return id;
    }
    id.exists = true;
    return id;
}

static proc_identity read_identity(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    return read_stat(path);
}

/* Whether a thread of the process other than its leader lives: a leader that ended with
 * pthread_exit reads as a zombie while the process runs on in its other threads. */
static bool other_thread_lives(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *dir = opendir(path);
    if (!dir) {
        return false;
    }
    bool lives = false;
    for (struct dirent *e; !lives && (e = readdir(dir));) {
        pid_t tid = (pid_t)atoi(e->d_name);
        if (tid > 0 && tid != pid) {
            snprintf(path, sizeof path, "/proc/%d/task/%d/stat", (int)pid, (int)tid);
            proc_identity t = read_stat(path);
            lives = t.exists && t.state != 'Z' && t.state != 'X';
        }
    }
    closedir(dir);
    return lives;
}

static bool still_same_process(const sampler_ptrace *s)
{
    proc_identity now = read_identity(s->pid);
    if (!now.exists || now.start != s->identity.start) {
        return false;
    }
    return (now.state != 'Z' && now.state != 'X') || other_thread_lives(s->pid);
}

static int64_t clock_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t now_ns(void)
{
    return clock_ns(CLOCK_MONOTONIC);
}

static bool valid_params(const sampler_ptrace_params *p)
{
    return p && p->max_frames > 0 && p->max_frames <= SIZE_MAX / sizeof(stack_classify_frame);
}

int sampler_ptrace_open(pid_t pid, const sampler_ptrace_params *params, sampler_ptrace **out)
{
    if (pid <= 0 || !out || !valid_params(params)) {
        return MG_ERROR_EINVAL;
    }
    sampler_ptrace *s = calloc(1, sizeof *s);
    if (!s) {
        return MG_ERROR_ENOMEM;
    }
    s->pid = pid;
    s->params = *params;
    atomic_init(&s->abort, 0);
    s->identity = read_identity(pid);
    int rc = s->identity.exists ? MG_ERROR_OK : MG_ERROR_ENOENT;
    if (rc == MG_ERROR_OK) {
        rc = proc_maps_read(pid, params->mpi_library_prefixes, &s->maps);
    }
    if (rc == MG_ERROR_OK) {
        rc = stack_unwind_open(pid, &params->unwind, &s->unwind);
    }
    if (rc == MG_ERROR_OK) {
        s->counter_addr = find_counter(s);
    }
    if (rc == MG_ERROR_OK) {
        rc = ptrace_stop_create(pid, &params->stop, &s->stop);
    }
    s->own_policy = sched_getscheduler(0);
    s->hold_refused = s->own_policy < 0 || sched_getparam(0, &s->own_param) != 0 ||
                      s->own_policy == SCHED_FIFO || s->own_policy == SCHED_RR;
    if (rc) {
        sampler_ptrace_close(s);
        return rc;
    }
    *out = s;
    return MG_ERROR_OK;
}

static int reserve_threads(sampler_ptrace *s, size_t n)
{
    if (n <= s->threads_capacity) {
        return MG_ERROR_OK;
    }
    size_t f = s->params.max_frames;
    if (n > SIZE_MAX / f / sizeof(stack_classify_frame)) {
        return MG_ERROR_ENOMEM;
    }
    sampler_ptrace_thread *threads = realloc(s->threads, n * sizeof *threads);
    if (threads) {
        s->threads = threads;
    }
    stack_classify_frame *frames = realloc(s->frames, n * f * sizeof *frames);
    if (frames) {
        s->frames = frames;
        for (size_t i = 0; i < s->sample.nthreads; i++) { /* the main thread's, unwound first */
            s->threads[i].frames = &frames[i * f];
        }
    }
    uint64_t *pcs = realloc(s->pcs, n * f * sizeof *pcs);
    if (pcs) {
        s->pcs = pcs;
    }
    bool *signal_frames = realloc(s->signal_frames, n * f * sizeof *signal_frames);
    if (signal_frames) {
        s->signal_frames = signal_frames;
    }
    stack_unwind_locals *locals = realloc(s->locals, n * f * sizeof *locals);
    if (locals) {
        s->locals = locals;
    }
    stack_classify_thread_class *classes = realloc(s->classes, n * sizeof *classes);
    if (classes) {
        s->classes = classes;
    }
    if (!threads || !frames || !pcs || !signal_frames || !locals || !classes) {
        return MG_ERROR_ENOMEM;
    }
    s->threads_capacity = n;
    return MG_ERROR_OK;
}

/* Re-reads the maps after a frame fell outside them; a changed map gets a fresh unwinder (its
 * modules and names are those of the old map), and *changed says so. */
static int refresh_maps(sampler_ptrace *s, bool *changed)
{
    *changed = false;
    proc_maps *fresh = NULL;
    int rc = proc_maps_read(s->pid, s->params.mpi_library_prefixes, &fresh);
    if (rc) {
        return rc;
    }
    s->maps_stale = false;
    if (proc_maps_same(fresh, s->maps)) {
        proc_maps_free(fresh);
        return MG_ERROR_OK;
    }
    stack_unwind *unwind = NULL;
    rc = stack_unwind_open(s->pid, &s->params.unwind, &unwind);
    if (rc) {
        proc_maps_free(fresh);
        return rc;
    }
    stack_unwind_close(s->unwind);
    proc_maps_free(s->maps);
    s->unwind = unwind;
    s->maps = fresh;
    s->counter_addr = find_counter(s);
    *changed = true;
    return MG_ERROR_OK;
}

/* The process is gone: reap its threads that died in our hands, so its parent can reap it. */
static const sampler_ptrace_result *exited_sample(sampler_ptrace *s)
{
    if (!s->exited) {
        (void)ptrace_stop_settle(s->stop);
    }
    s->exited = true;
    s->sample = (sampler_ptrace_result){.pid = s->pid, .verdict = STACK_CLASSIFY_EXITED};
    return &s->sample;
}

/* Unwinds the threads the latest stop took into per-sample storage after the threads already
 * there (pcs only: names come after release). Returns MG_ERROR_ESTATE as soon as an abort is
 * requested.
 */
static int unwind_taken(sampler_ptrace *s)
{
    const ptrace_stop *ps = s->stop;
    size_t f = s->params.max_frames, n = s->sample.nthreads;
    for (size_t i = 0; i < ps->count; i++) {
        const ptrace_stop_thread *t = &ps->threads[i];
        if (!t->taken) {
            continue;
        }
        if (atomic_load(&s->abort)) {
            return MG_ERROR_ESTATE;
        }
        sampler_ptrace_thread *out = &s->threads[n];
        *out = (sampler_ptrace_thread){
            .tid = t->tid, .stop_ns = t->stop_ns, .frames = &s->frames[n * f]};
        if (t->state == PTRACE_STOP_SEIZED) {
            out->state = SAMPLER_PTRACE_THREAD_LATE;
        } else if (t->state == PTRACE_STOP_GONE ||
                   stack_unwind_thread(s->unwind, t->tid, &s->pcs[n * f], &s->signal_frames[n * f],
                                       &s->locals[n * f], f, &out->nframes)) {
            out->state = SAMPLER_PTRACE_THREAD_VANISHED;
        }
        n++;
    }
    s->sample.nthreads = n;
    s->sample.threads = s->threads;
    return MG_ERROR_OK;
}

/* Fills names, modules and the MPI marks of the frames of the threads unwound from index first
 * on, and classifies each thread. */
static void describe_threads(sampler_ptrace *s, size_t first)
{
    size_t f = s->params.max_frames;
    for (size_t i = first; i < s->sample.nthreads; i++) {
        sampler_ptrace_thread *t = &s->threads[i];
        stack_classify_frame *frames = &s->frames[i * f];
        for (size_t k = 0; k < t->nframes; k++) {
            stack_classify_frame *fr = &frames[k];
            fr->pc = s->pcs[i * f + k];
            symbol_cache_info info;
            stack_unwind_symbol(s->unwind, fr->pc, false, NULL, &info);
            fr->function = s->signal_frames[i * f + k] ? STACK_CLASSIFY_SIGNAL_FRAME : info.name;
            fr->offset = info.offset;
            fr->file = NULL; /* sampler_ptrace_add_sources */
            fr->line = 0;
            const proc_maps_entry *e = proc_maps_find(s->maps, fr->pc);
            fr->module = e ? e->path : NULL;
            fr->in_mpi_module = e && e->in_mpi;
            s->maps_stale |= e == NULL;
        }
        s->classes[i] = stack_classify_thread(frames, t->nframes);
        t->in_mpi = s->classes[i].in_mpi;
        t->mpi_function = s->classes[i].mpi_function;
    }
}

/* The index of the frame that calls the thread's outermost MPI entry (the program's call of the
 * MPI function it is in), or nframes when none does. */
static size_t mpi_caller(const stack_classify_frame *frames, size_t nframes)
{
    for (size_t k = nframes; k > 1; k--) {
        if (stack_classify_is_mpi_entry(frames[k - 2].function, frames[k - 2].in_mpi_module)) {
            return k - 1;
        }
    }
    return nframes;
}

void sampler_ptrace_add_sources(sampler_ptrace *s)
{
    size_t f = s->params.max_frames;
    for (size_t i = 0; i < s->sample.nthreads; i++) {
        size_t caller = mpi_caller(&s->frames[i * f], s->threads[i].nframes);
        for (size_t k = 0; k < s->threads[i].nframes; k++) {
            stack_classify_frame *fr = &s->frames[i * f + k];
            symbol_cache_info info;
            stack_unwind_symbol(s->unwind, fr->pc, true,
                                k == caller ? s->threads[i].mpi_function : NULL, &info);
            fr->file = info.file;
            fr->line = info.line;
        }
    }
}

/* Why no thread of a live process was sampled (sampler_ptrace_result.unsampled). */
static const char *unsampled_reason(const sampler_ptrace *s, size_t late)
{
    if (late > 0) {
        return "no thread stopped before the timeout";
    }
    return s->nmpi_threads > 0 ? "the main thread is gone and every other thread is MPI's own"
                               : "the main thread is gone and no other thread could be stopped";
}

/* The verdict over the sampled threads; the main thread is first when it was sampled. A process
 * whose every thread taken vanished is dead (none was left to create another), even if the kernel
 * has not finished tearing it down. One with no thread taken is dead only if /proc says so: its
 * main thread may have ended and left the others to MPI. */
static int conclude(sampler_ptrace *s)
{
    size_t sampled = 0, late = 0, main_index = SIZE_MAX;
    bool vanished = false;
    for (size_t i = 0; i < s->sample.nthreads; i++) {
        const sampler_ptrace_thread *t = &s->threads[i];
        vanished |= t->state == SAMPLER_PTRACE_THREAD_VANISHED;
        late += t->state == SAMPLER_PTRACE_THREAD_LATE;
        if (t->state == SAMPLER_PTRACE_THREAD_SAMPLED) {
            main_index = t->tid == s->pid ? sampled : main_index;
            s->classes[sampled++] = s->classes[i];
        }
    }
    bool all_vanished = sampled == 0 && late == 0 && vanished;
    if (all_vanished || ((sampled == 0 || vanished) && !still_same_process(s))) {
        exited_sample(s);
        return MG_ERROR_OK;
    }
    if (sampled == 0) {
        s->sample.unsampled = unsampled_reason(s, late);
        return MG_ERROR_ETIMEOUT;
    }
    s->sample.verdict = stack_classify_process(s->classes, sampled,
                                               main_index == SIZE_MAX ? sampled : main_index,
                                               &s->sample.mpi_function);
    return MG_ERROR_OK;
}

static bool is_mpi_thread(pid_t tid, void *arg)
{
    const sampler_ptrace *s = arg;
    for (size_t i = 0; i < s->nmpi_threads; i++) {
        if (s->mpi_threads[i] == tid) {
            return true;
        }
    }
    return false;
}

/* Remembers the threads from index first on that are MPI's own, to leave them out from now on. */
static int note_mpi_threads(sampler_ptrace *s, size_t first)
{
    size_t f = s->params.max_frames;
    for (size_t i = first; i < s->sample.nthreads; i++) {
        const sampler_ptrace_thread *t = &s->threads[i];
        if (t->state != SAMPLER_PTRACE_THREAD_SAMPLED ||
            !stack_classify_is_mpi_own_thread(&s->frames[i * f], t->nframes)) {
            continue;
        }
        int rc = mg_array_reserve((void **)&s->mpi_threads, &s->mpi_threads_capacity,
                                  s->nmpi_threads + 1, sizeof *s->mpi_threads);
        if (rc) {
            return rc;
        }
        s->mpi_threads[s->nmpi_threads++] = t->tid;
    }
    return MG_ERROR_OK;
}

/* The longest wait of a thread the latest stop took, from its interrupt until it stopped, or until
 * the stop gave up on it at end (left out, a late thread's wait read as a 2 s "seize"). */
static int64_t longest_wait(const ptrace_stop *ps, int64_t end)
{
    int64_t longest = 0;
    for (size_t i = 0; i < ps->count; i++) {
        const ptrace_stop_thread *t = &ps->threads[i];
        int64_t wait = t->state == PTRACE_STOP_SEIZED ? end - t->waited_from : t->stop_ns;
        if (t->taken && wait > longest) {
            longest = wait;
        }
    }
    return longest;
}

/* Puts the sampling thread at the hold priority; false when it stays as it was. */
static bool hold_begin(sampler_ptrace *s)
{
    if (s->params.hold_priority <= 0 || s->hold_refused) {
        return false;
    }
    struct sched_param rt = {.sched_priority = s->params.hold_priority};
    s->hold_refused = sched_setscheduler(0, SCHED_FIFO, &rt) != 0;
    return !s->hold_refused;
}

static void hold_end(const sampler_ptrace *s, bool raised)
{
    if (raised) {
        (void)sched_setscheduler(0, s->own_policy, &s->own_param);
    }
}

/* Stops the main thread (main_only) or the others that are not MPI's own, unwinds them and
 * releases them; they are held stopped only inside this function, at the hold priority. */
static int stop_unwind_release(sampler_ptrace *s, bool main_only)
{
    bool raised = hold_begin(s);
    int64_t t0 = now_ns();
    int rc = main_only ? ptrace_stop_main(s->stop, &s->abort)
                       : ptrace_stop_others(s->stop, is_mpi_thread, s, &s->abort);
    if (rc) {
        hold_end(s, raised);
        return rc;
    }
    int64_t stopped_at = now_ns();
    s->sample.stop_ns += stopped_at - t0;
    s->sample.wait_ns += longest_wait(s->stop, stopped_at);
    rc = reserve_threads(s, s->sample.nthreads + s->stop->count);
    if (rc == MG_ERROR_OK) {
        if (main_only && s->params.on_stopped) {
            s->params.on_stopped(s->pid, s->params.on_stopped_arg);
        }
        rc = unwind_taken(s);
    }
    if (rc == MG_ERROR_OK && main_only && s->counter_addr) {
        s->sample.counter_known = sampler_ptrace_read_counter(s, &s->sample.counter,
                                                              &s->sample.polls);
    }
    int64_t unwound_at = now_ns();
    int release_rc = ptrace_stop_release(s->stop, &s->sample.signals_reinjected);
    int64_t released_at = now_ns();
    hold_end(s, raised);
    s->sample.unwind_ns += unwound_at - stopped_at;
    s->sample.release_ns += released_at - unwound_at;
    s->sample.held_ns += released_at - t0;
    return rc ? rc : release_rc;
}

/* Whether the main thread's stack settles the verdict and the function: inside a named MPI call
 * it does, since no other thread changes either (stack_classify_process); inside MPI's code
 * without an entry frame another thread may still name the call. */
static bool main_thread_answers(const sampler_ptrace *s)
{
    return s->sample.nthreads == 1 && s->threads[0].state == SAMPLER_PTRACE_THREAD_SAMPLED &&
           s->threads[0].mpi_function;
}

enum { FRAMES_DIGEST_BYTES = 4096 };
static const uint64_t FNV_OFFSET_BASIS = 0xcbf29ce484222325u;

/* FNV-1a over len bytes, from h (stack_unwind_locals.kept is one too). */
static uint64_t digest_bytes(uint64_t h, const void *data, size_t len)
{
    const uint8_t *b = data;
    for (size_t i = 0; i < len; i++) {
        h = (h ^ b[i]) * 0x100000001b3u;
    }
    return h;
}

/* Reads the stack bytes of the frames kept by digest_frames into stack. */
static bool read_frames_bytes(sampler_ptrace *s, uint8_t stack[FRAMES_DIGEST_BYTES])
{
    return stack_unwind_read(s->unwind, s->frames_from, stack, s->frames_len);
}

/* The main thread's frames digest (sampler_ptrace_result.frames_digest), read after its release:
 * the stack of a thread waiting in MPI does not change above the call, and a thread that left the
 * call changed it whenever it is read. Without the library's counter it is what tells a rank read
 * "in MPI_Waitall" at every sample because it is stuck there from one that keeps coming back to it
 * (a healthy stencil attached to on a loaded node read as hung from its first call: issue 29). */
static void digest_frames(sampler_ptrace *s)
{
    const sampler_ptrace_thread *t = &s->threads[0];
    size_t caller = mpi_caller(t->frames, t->nframes);
    if (s->counter_addr || caller >= t->nframes || s->locals[caller].sp == 0) {
        return;
    }
    uint64_t from = s->locals[caller].sp, outermost = s->locals[t->nframes - 1].sp;
    size_t len = outermost > from ? (size_t)(outermost - from) : 0;
    s->frames_from = from;
    s->frames_len = len < FRAMES_DIGEST_BYTES ? len : FRAMES_DIGEST_BYTES;
    uint8_t stack[FRAMES_DIGEST_BYTES];
    if (s->frames_len == 0 || !read_frames_bytes(s, stack)) {
        s->frames_len = 0;
        return;
    }
    uint64_t h = digest_bytes(s->locals[caller].kept, &s->pcs[caller],
                              (t->nframes - caller) * sizeof *s->pcs);
    s->sample.frames_digest = digest_bytes(h, stack, s->frames_len);
    s->sample.frames_known = true;
    s->frames_bytes_digest = digest_bytes(FNV_OFFSET_BASIS, stack, s->frames_len);
}

/* Samples the main thread, then, when it does not answer, the other threads but MPI's own; names
 * and classifies the frames after each release. A main thread that is gone (the process exited,
 * or its main thread did) leaves the answer to the others. */
static int take_sample(sampler_ptrace *s)
{
    s->sample = (sampler_ptrace_result){.pid = s->pid};
    s->frames_len = 0;
    stack_unwind_begin_sample(s->unwind);
    int rc = stop_unwind_release(s, true);
    if (rc == MG_ERROR_OK) {
        describe_threads(s, 0);
    } else if (rc != MG_ERROR_ENOENT) {
        return rc;
    }
    if (main_thread_answers(s)) {
        digest_frames(s);
        return MG_ERROR_OK;
    }
    size_t first = s->sample.nthreads;
    rc = stop_unwind_release(s, false);
    if (rc == MG_ERROR_OK) {
        describe_threads(s, first);
        rc = note_mpi_threads(s, first);
    }
    return rc;
}

int sampler_ptrace_sample(sampler_ptrace *s, const sampler_ptrace_result **out)
{
    if (!s || !out) {
        return MG_ERROR_EINVAL;
    }
    if (atomic_load(&s->abort)) {
        return MG_ERROR_ESTATE;
    }
    int64_t t0 = now_ns(), cpu0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    if (s->exited || !still_same_process(s)) {
        *out = exited_sample(s);
        return MG_ERROR_OK;
    }
    bool changed = false;
    int rc = s->maps_stale ? refresh_maps(s, &changed) : MG_ERROR_OK;
    if (rc == MG_ERROR_OK) {
        rc = take_sample(s);
    }
    /* A frame outside the maps read so far lies in code mapped since (MPI_Init dlopens its
     * transports, UCX's among them). It was unwound without that library's unwind tables, so the
     * walk may have skipped the frames above it, MPI's included, and a rank waiting in MPI would
     * read as computing. Where the maps did change, the sample is taken again with an unwinder
     * that knows the new library. */
    if (rc == MG_ERROR_OK && s->maps_stale) {
        rc = refresh_maps(s, &changed);
        if (rc == MG_ERROR_OK && changed) {
            rc = take_sample(s);
        }
    }
    if (rc == MG_ERROR_ENOENT) {
        *out = exited_sample(s);
        return MG_ERROR_OK;
    }
    if (rc) {
        return rc;
    }
    rc = conclude(s);
    s->sample.total_ns = now_ns() - t0;
    s->sample.cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
    if (rc == MG_ERROR_OK || rc == MG_ERROR_ETIMEOUT) {
        *out = &s->sample;
    }
    return rc;
}

void sampler_ptrace_release_late(sampler_ptrace *s)
{
    if (s && !s->exited) {
        (void)ptrace_stop_release_late(s->stop);
    }
}

bool sampler_ptrace_read_counter(sampler_ptrace *s, uint64_t *counter, uint64_t *polls)
{
    uint64_t counts[2]; /* the library's mpiguard_calls_entered: every call, the polling ones */
    if (!s || !s->counter_addr || s->exited ||
        !stack_unwind_read(s->unwind, s->counter_addr, counts, sizeof counts))
        return false;
    *counter = counts[0];
    *polls = counts[1];
    return true;
}

int sampler_ptrace_frames_moved(sampler_ptrace *s)
{
    uint8_t stack[FRAMES_DIGEST_BYTES];
    if (!s || s->exited || s->frames_len == 0 || !read_frames_bytes(s, stack)) {
        return -1;
    }
    uint64_t now = digest_bytes(FNV_OFFSET_BASIS, stack, s->frames_len);
    bool moved = now != s->frames_bytes_digest;
    s->frames_bytes_digest = now;
    return moved;
}

void sampler_ptrace_abort(sampler_ptrace *s)
{
    if (s) {
        atomic_store(&s->abort, 1);
    }
}

int sampler_ptrace_close(sampler_ptrace *s)
{
    if (!s) {
        return MG_ERROR_OK;
    }
    int rc = ptrace_stop_destroy(s->stop);
    stack_unwind_close(s->unwind);
    proc_maps_free(s->maps);
    free(s->threads);
    free(s->frames);
    free(s->pcs);
    free(s->signal_frames);
    free(s->locals);
    free(s->classes);
    free(s->mpi_threads);
    free(s);
    return rc;
}
