/* Unwinding a ptrace-stopped process with libdwfl through caller-provided thread callbacks.
 * Spec: docs/design/platform-notes.md "ptrace and unwinding"; docs/sampler.md "Unwinder". */
#include "stack_unwind.h"

#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/ucontext.h>
#include <sys/user.h>
#include <unistd.h>

#include "fortran_source.h"
#include "mg_error.h"
#include "symbol_cache.h"

#if !defined(__x86_64__)
#error "stack_unwind.c maps ptrace registers to DWARF numbers for x86_64 only"
#endif

/* x86_64 DWARF register numbers 0..16: rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip. */
enum { X86_64_DWARF_REGS = 17, X86_64_DWARF_RSP = 7 };

/* Code checked for a signal trampoline (at_sigreturn), by address: 2^CODE_SLOTS_BITS slots. */
enum { CODE_SLOTS_BITS = 10 };

typedef struct code_slot {
    uint64_t pc; /* 0: empty */
    bool sigreturn;
} code_slot;

typedef struct page_slot {
    uint64_t page;       /* page number held */
    uint64_t generation; /* sample in which it was read; older contents are stale */
} page_slot;

struct stack_unwind {
    pid_t pid;
    int mem_fd; /* /proc/PID/mem */
    Dwfl *dwfl;
    Dwfl_Callbacks callbacks; /* must outlive dwfl */
    char *debuginfo_path;     /* NULL: libdwfl's default search path (/usr/lib/debug) */
    symbol_cache *names;
    size_t page_size, npages;
    page_slot *slots;
    unsigned char *pages; /* npages * page_size bytes */
    uint64_t generation;
    /* 0, or where a signal frame saved the registers of the code it interrupted (a ucontext_t):
     * the walk starts from them, not from the thread's registers (stack_unwind_thread) */
    uint64_t resume_context;
    code_slot code[1 << CODE_SLOTS_BITS];
};

void stack_unwind_params_default(stack_unwind_params *p)
{
    p->page_cache_pages = 32;
    p->name_cache_capacity = 16384;
}

static bool read_direct(stack_unwind *u, uint64_t addr, void *buf, size_t len)
{
    return pread(u->mem_fd, buf, len, (off_t)addr) == (ssize_t)len;
}

/* One word of target memory, through a direct-mapped cache of whole pages valid for one sample. */
static bool read_word(stack_unwind *u, uint64_t addr, Dwarf_Word *result)
{
    uint64_t page = addr / u->page_size, offset = addr % u->page_size;
    if (offset + sizeof *result > u->page_size) {
        return read_direct(u, addr, result, sizeof *result);
    }
    size_t slot = (size_t)(page % u->npages);
    unsigned char *data = u->pages + slot * u->page_size;
    page_slot *s = &u->slots[slot];
    if (s->generation != u->generation || s->page != page) {
        if (!read_direct(u, page * u->page_size, data, u->page_size)) {
            s->generation = 0; /* unmapped: the walk ends here */
            return false;
        }
        *s = (page_slot){page, u->generation};
    }
    memcpy(result, data + offset, sizeof *result);
    return true;
}

static bool memory_read_cb(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
    (void)dwfl;
    return read_word(arg, addr, result);
}

/* Threads are always named by tid (dwfl_getthread_frames), never enumerated through libdwfl. */
static pid_t next_thread_cb(Dwfl *dwfl, void *arg, void **thread_argp)
{
    (void)dwfl;
    (void)arg;
    (void)thread_argp;
    return 0;
}

static bool get_thread_cb(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
    (void)dwfl;
    (void)tid;
    *thread_argp = arg;
    return true;
}

/* The registers of the code a signal interrupted, as the kernel saved them in the ucontext_t at
 * u->resume_context. */
static bool saved_registers(stack_unwind *u, Dwarf_Word *regs)
{
    static const int order[X86_64_DWARF_REGS] = {
        REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI, REG_RBP, REG_RSP, REG_R8,
        REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP};
    uint64_t gregs = u->resume_context + offsetof(ucontext_t, uc_mcontext.gregs);
    for (int i = 0; i < X86_64_DWARF_REGS; i++) {
        if (!read_word(u, gregs + (uint64_t)order[i] * sizeof(greg_t), &regs[i])) {
            return false;
        }
    }
    return true;
}

static bool thread_registers(pid_t tid, Dwarf_Word *regs)
{
    struct user_regs_struct r;
    if (ptrace(PTRACE_GETREGS, tid, NULL, &r) != 0) {
        return false;
    }
    const Dwarf_Word now[X86_64_DWARF_REGS] = {r.rax, r.rdx, r.rcx, r.rbx, r.rsi, r.rdi,
                                               r.rbp, r.rsp, r.r8,  r.r9,  r.r10, r.r11,
                                               r.r12, r.r13, r.r14, r.r15, r.rip};
    memcpy(regs, now, sizeof now);
    return true;
}

static bool set_initial_registers_cb(Dwfl_Thread *thread, void *arg)
{
    stack_unwind *u = arg;
    Dwarf_Word regs[X86_64_DWARF_REGS];
    bool read = u->resume_context ? saved_registers(u, regs)
                                  : thread_registers(dwfl_thread_tid(thread), regs);
    return read && dwfl_thread_state_registers(thread, 0, X86_64_DWARF_REGS, regs);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
    .next_thread = next_thread_cb,
    .get_thread = get_thread_cb,
    .memory_read = memory_read_cb,
    .set_initial_registers = set_initial_registers_cb,
};

static int errno_to_mg(int err)
{
    if (err == ENOENT || err == ESRCH) {
        return MG_ERROR_ENOENT;
    }
    return err == EACCES || err == EPERM ? MG_ERROR_EPERM : MG_ERROR_ESYS;
}

static int open_dwfl(stack_unwind *u)
{
    u->callbacks = (Dwfl_Callbacks){
        .find_elf = dwfl_linux_proc_find_elf,
        .find_debuginfo = dwfl_standard_find_debuginfo,
        .debuginfo_path = &u->debuginfo_path,
    };
    u->dwfl = dwfl_begin(&u->callbacks);
    if (!u->dwfl) {
        return MG_ERROR_ENOMEM;
    }
    dwfl_report_begin(u->dwfl);
    int rc = dwfl_linux_proc_report(u->dwfl, u->pid);
    if (rc > 0) {
        return errno_to_mg(rc); /* an errno value from opening the proc files */
    }
    if (rc < 0 || dwfl_report_end(u->dwfl, NULL, NULL) != 0) {
        return MG_ERROR_ENOMEM;
    }
    return dwfl_attach_state(u->dwfl, NULL, u->pid, &thread_callbacks, u) ? MG_ERROR_OK
                                                                          : MG_ERROR_EUNSUPPORTED;
}

static int open_memory(stack_unwind *u, const stack_unwind_params *params)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/mem", (int)u->pid);
    u->mem_fd = open(path, O_RDONLY | O_CLOEXEC);
    if (u->mem_fd < 0) {
        return errno_to_mg(errno);
    }
    u->page_size = (size_t)getpagesize();
    u->npages = params->page_cache_pages;
    if (u->npages > SIZE_MAX / u->page_size) {
        return MG_ERROR_EINVAL;
    }
    u->slots = calloc(u->npages, sizeof *u->slots);
    u->pages = malloc(u->npages * u->page_size);
    return u->slots && u->pages ? MG_ERROR_OK : MG_ERROR_ENOMEM;
}

int stack_unwind_open(pid_t pid, const stack_unwind_params *params, stack_unwind **out)
{
    if (pid <= 0 || !params || !out || params->page_cache_pages == 0) {
        return MG_ERROR_EINVAL;
    }
    stack_unwind *u = calloc(1, sizeof *u);
    if (!u) {
        return MG_ERROR_ENOMEM;
    }
    u->pid = pid;
    u->mem_fd = -1;
    u->generation = 1;
    int rc = open_memory(u, params);
    if (rc == MG_ERROR_OK) {
        rc = symbol_cache_create(params->name_cache_capacity, &u->names);
    }
    if (rc == MG_ERROR_OK) {
        rc = open_dwfl(u);
    }
    if (rc) {
        stack_unwind_close(u);
        return rc;
    }
    *out = u;
    return MG_ERROR_OK;
}

void stack_unwind_begin_sample(stack_unwind *u)
{
    u->generation++;
}

/* A signal trampoline is known by its code, x86-64's rt_sigreturn call `mov $15,%rax; syscall`
 * (glibc's and musl's __restore_rt; gdb knows it so too), not by libdwfl's activation marks: they
 * mark the trampoline and the frame the signal interrupted alike (issue 29: that frame, mpiguard's
 * MPI_Waitall, was named the trampoline, and the handler inside MPI went unseen), and none where
 * the trampoline has no unwind information. */
static const unsigned char sigreturn_code[9] = {0x48, 0xc7, 0xc0, 0x0f, 0x00,
                                                0x00, 0x00, 0x0f, 0x05};

/* Whether the code at pc is a trampoline, remembered for the unwinder's life: code does not
 * change, and a changed map gets a new unwinder (sampler_ptrace.c). Read anew for every frame of
 * every sample, it added a third to the unwind's share of the held time
 * (bench/hang/unwind_cost.sh).
 */
static bool at_sigreturn(stack_unwind *u, uint64_t pc)
{
    code_slot *slot = &u->code[(pc * 0x9e3779b97f4a7c15u) >> (64 - CODE_SLOTS_BITS)];
    if (slot->pc != pc) {
        unsigned char code[sizeof sigreturn_code];
        slot->pc = pc;
        slot->sigreturn = read_direct(u, pc, code, sizeof code) &&
                          memcmp(code, sigreturn_code, sizeof code) == 0;
    }
    return slot->sigreturn;
}

/* stack_unwind_locals.kept: FNV-1a over the callee-saved registers the frame's state knows. */
static uint64_t kept(Dwfl_Frame *state)
{
    static const unsigned callee_saved[] = {3, 6, 12, 13, 14, 15}; /* rbx rbp r12-r15 */
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < sizeof callee_saved / sizeof *callee_saved; i++) {
        Dwarf_Word value = 0;
        if (dwfl_frame_reg(state, callee_saved[i], &value) != 0) {
            value = 0;
        }
        for (int b = 0; b < 64; b += 8) {
            h = (h ^ ((value >> b) & 0xff)) * 0x100000001b3u;
        }
    }
    return h;
}

typedef struct frame_sink {
    stack_unwind *u;
    uint64_t *pcs;
    bool *signal_frames;
    stack_unwind_locals *locals;
    size_t max, n;
    uint64_t resume_at; /* the saved context a walk stopped at a trampoline leaves, or 0 */
} frame_sink;

/* A trampoline counts past the first frame only: there it is where a running handler returns to,
 * while a first frame in it is a handler that already returned. libdwfl unwinds a trampoline by
 * its unwind information, and makes the frame after it an activation; one without (musl's, a
 * program's own SA_RESTORER) it would unwind by frame pointers, losing the interrupted code's
 * frames, MPI's among them: the walk stops there, to resume from the saved context (the
 * trampoline's stack pointer points at it). */
static int frame_cb(Dwfl_Frame *state, void *arg)
{
    frame_sink *sink = arg;
    Dwarf_Addr pc;
    bool activation;
    if (!dwfl_frame_pc(state, &pc, &activation)) {
        return DWARF_CB_ABORT;
    }
    bool trampoline = sink->n > 0 && at_sigreturn(sink->u, pc);
    Dwarf_Word sp;
    bool sp_known = dwfl_frame_reg(state, X86_64_DWARF_RSP, &sp) == 0;
    sink->signal_frames[sink->n] = trampoline;
    sink->locals[sink->n] = (stack_unwind_locals){.sp = sp_known ? sp : 0, .kept = kept(state)};
    sink->pcs[sink->n++] = activation ? pc : pc - 1;
    if (trampoline && !activation && sp_known) {
        sink->resume_at = sp;
        return DWARF_CB_ABORT;
    }
    return sink->n < sink->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

int stack_unwind_thread(stack_unwind *u, pid_t tid, uint64_t *pcs, bool *signal_frames,
                        stack_unwind_locals *locals, size_t max, size_t *n)
{
    frame_sink sink = {u, pcs, signal_frames, locals, max, 0, 0};
    *n = 0;
    if (max == 0) {
        return MG_ERROR_OK;
    }
    /* -1 also ends a normal walk ("no matching address range" at the outermost frame), so only
     * a walk that did not even produce the first frame is a failure. */
    (void)dwfl_getthread_frames(u->dwfl, tid, frame_cb, &sink);
    while (sink.resume_at && sink.n < max) {
        u->resume_context = sink.resume_at;
        sink.resume_at = 0;
        (void)dwfl_getthread_frames(u->dwfl, tid, frame_cb, &sink);
    }
    u->resume_context = 0;
    *n = sink.n;
    return sink.n > 0 ? MG_ERROR_OK : MG_ERROR_ENOENT;
}

/* The symbol of .symtab or .dynsym holding pc, or NULL: a sizeless symbol, or one pc lies past
 * the end of, is what dwfl_module_addrinfo answers for code it has no symbol of (a stripped
 * object's static functions). */
static const char *symbol_holding(Dwfl_Module *mod, uint64_t pc, uint64_t *offset)
{
    GElf_Off off = 0;
    GElf_Sym sym;
    const char *found = dwfl_module_addrinfo(mod, pc, &off, &sym, NULL, NULL, NULL);
    if (!found || off >= sym.st_size) {
        return NULL;
    }
    *offset = off;
    return found;
}

/* Source lines by object, offset in it and the MPI function called there, shared by every
 * process unwound here: the ranks of a job run the same objects, and each process's libdwfl
 * decompresses and parses a module's debug information anew (libc's: tens of MB), which took 7-20 s
 * of a hang verdict's stacks on a node loaded to 20 times its cores (docs/hang-measurements.md
 * "Real runs"). An object is told by its path, size and build ID; the strings are kept for the life
 * of the process. The function is part of the key: a Fortran call's line may come from the source's
 * namings of it (fortran_source_site_line), which a lookup without it cannot make. */
enum { SHARED_LINES_CAPACITY = 4096 };

typedef struct shared_line {
    char *object; /* path, size and build ID */
    uint64_t offset;
    char *called; /* NULL: looked up with no function */
    char *file;   /* NULL: no line known */
    int line;
} shared_line;

static struct {
    pthread_mutex_t lock;
    size_t n;
    shared_line lines[SHARED_LINES_CAPACITY];
} shared_lines = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Names the object holding mod in key and sets *offset to pc's in it; false when unnamed. */
static bool shared_lines_key(Dwfl_Module *mod, uint64_t pc, char *key, size_t len, uint64_t *offset)
{
    Dwarf_Addr low = 0, high = 0;
    const char *path = dwfl_module_info(mod, NULL, &low, &high, NULL, NULL, NULL, NULL);
    if (!path || path[0] != '/') {
        return false;
    }
    const unsigned char *id = NULL;
    GElf_Addr id_at;
    int idlen = dwfl_module_build_id(mod, &id, &id_at);
    int used = snprintf(key, len, "%s %llu ", path, (unsigned long long)(high - low));
    for (int i = 0; i < idlen && used > 0 && (size_t)used + 3 < len; i++) {
        used += snprintf(key + used, len - (size_t)used, "%02x", id[i]);
    }
    *offset = pc - low;
    return used > 0 && (size_t)used < len;
}

/* Whether two MPI functions (NULL: none) are the same. */
static bool same_called(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static const shared_line *shared_lines_find(const char *key, uint64_t offset, const char *called)
{
    for (size_t i = 0; i < shared_lines.n; i++) {
        const shared_line *x = &shared_lines.lines[i];
        if (x->offset == offset && same_called(x->called, called) && strcmp(x->object, key) == 0) {
            return x;
        }
    }
    return NULL;
}

/* The source line of pc in mod, a call of `called` or NULL (fortran_source_site_line), looked up in
 * this process's tables only when no process had it. */
static void source_line(Dwfl_Module *mod, uint64_t pc, const char *called, symbol_cache_info *info)
{
    char key[PATH_MAX + 96];
    uint64_t offset = 0;
    bool keyed = shared_lines_key(mod, pc, key, sizeof key, &offset);
    pthread_mutex_lock(&shared_lines.lock);
    const shared_line *known = keyed ? shared_lines_find(key, offset, called) : NULL;
    if (known) {
        info->file = known->file;
        info->line = known->line;
        pthread_mutex_unlock(&shared_lines.lock);
        return;
    }
    Dwfl_Line *line = dwfl_module_getsrc(mod, pc);
    int column = 0;
    const char *file = line ? dwfl_lineinfo(line, NULL, &info->line, &column, NULL, NULL) : NULL;
    if (file && info->line > 0) {
        (void)fortran_source_site_line(mod, pc, called, file, &info->line, column);
    }
    shared_line *x = &shared_lines.lines[shared_lines.n];
    if (keyed && shared_lines.n < SHARED_LINES_CAPACITY && (x->object = strdup(key)) != NULL) {
        x->offset = offset;
        x->called = called ? strdup(called) : NULL;
        x->file = file ? strdup(file) : NULL;
        x->line = x->file ? info->line : 0;
        if ((file && !x->file) || (called && !x->called)) {
            free(x->object);
            free(x->called);
            free(x->file);
        } else {
            shared_lines.n++;
            file = x->file;
        }
    }
    info->file = file;
    pthread_mutex_unlock(&shared_lines.lock);
}

void stack_unwind_symbol(stack_unwind *u, uint64_t pc, bool with_source, const char *called,
                         symbol_cache_info *info)
{
    bool cached = symbol_cache_find(u->names, pc, info);
    if (cached && (!with_source || (info->sourced && same_called(info->called, called)))) {
        return;
    }
    Dwfl_Module *mod = dwfl_addrmodule(u->dwfl, pc);
    if (!cached) {
        *info = (symbol_cache_info){0};
        GElf_Addr bias = 0;
        info->name = mod ? symbol_holding(mod, pc, &info->offset) : NULL;
        if (mod && !info->name && dwfl_module_getelf(mod, &bias)) {
            info->offset = pc - bias;
        }
    }
    if (mod && with_source) {
        info->sourced = true;
        info->called = called;
        source_line(mod, pc, called, info);
        if (!info->file) {
            info->line = 0;
        }
    }
    symbol_cache_insert(u->names, pc, info);
}

typedef struct symbol_query {
    const char *module_prefix, *name;
    uint64_t addr;
} symbol_query;

static int find_symbol_cb(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
                          void *arg)
{
    (void)userdata;
    (void)base;
    symbol_query *q = arg;
    const char *slash = modname ? strrchr(modname, '/') : NULL;
    const char *file = slash ? slash + 1 : modname;
    if (!file || strncmp(file, q->module_prefix, strlen(q->module_prefix)) != 0) {
        return DWARF_CB_OK;
    }
    int n = dwfl_module_getsymtab(mod);
    for (int i = 1; i < n; i++) {
        GElf_Sym sym;
        GElf_Addr addr;
        const char *found = dwfl_module_getsym_info(mod, i, &sym, &addr, NULL, NULL, NULL);
        if (found && GELF_ST_TYPE(sym.st_info) == STT_OBJECT && strcmp(found, q->name) == 0) {
            q->addr = addr;
            return DWARF_CB_ABORT;
        }
    }
    return DWARF_CB_OK;
}

uint64_t stack_unwind_find_object(stack_unwind *u, const char *module_prefix, const char *name)
{
    symbol_query q = {module_prefix, name, 0};
    (void)dwfl_getmodules(u->dwfl, find_symbol_cb, &q, 0);
    return q.addr;
}

bool stack_unwind_read(stack_unwind *u, uint64_t addr, void *buf, size_t len)
{
    return read_direct(u, addr, buf, len);
}

void stack_unwind_close(stack_unwind *u)
{
    if (!u) {
        return;
    }
    if (u->dwfl) {
        dwfl_end(u->dwfl);
    }
    if (u->mem_fd >= 0) {
        close(u->mem_fd);
    }
    symbol_cache_destroy(u->names);
    free(u->slots);
    free(u->pages);
    free(u);
}
