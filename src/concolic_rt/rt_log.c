/* The runtime's side of a run: mgrt_init, the path log written record by record with write(2)
 * (so a crash or a timeout leaves a decodable prefix), coverage, variable declarations, and the
 * outcome file the driver classifies runs with (docs/design/concolic.md "Runtime" and "Interface").
 */
#include "rt_internal.h"

#include "mg_array.h"
#include "mg_error.h"
#include "path_reduce.h"
#include "mg_env.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int rt_log_heavy;

static int log_fd = -1, outcome_fd = -1, outcome_written;
static uint64_t build_id;
static uint32_t my_rank;
static uintptr_t exe_base;
static uint8_t *covered; /* one byte per arm: 1 once logged */
static size_t ncovered;
static path_reduce reduce;
static uint32_t next_var;
static uint32_t last_branch = UINT32_MAX; /* for outcomes without a useful PC (abort, exit) */
static int no_reduce;
static uint8_t small[4096];
static volatile sig_atomic_t ended; /* the ENDED time is logged once */
static char rank_path_prefix[4096]; /* "<dir>/rank-", for the settling wait of a crash */
static size_t rank_path_len;
static uint32_t world_size = 1;

typedef struct comm_table_entry {
    uint64_t key;
    uint32_t index;
} comm_table_entry;
static comm_table_entry *comms;
static uint32_t ncomms;

static uint32_t env_u32(const char *a, const char *b, uint32_t dflt)
{
    const char *v = getenv(a);
    if (!v)
        v = getenv(b);
    return v ? (uint32_t)strtoul(v, NULL, 10) : dflt;
}

void rt_log_record(const uint8_t *bytes, size_t len)
{
    while (log_fd >= 0 && len) {
        ssize_t n = write(log_fd, bytes, len);
        if (n <= 0)
            return;
        bytes += n;
        len -= (size_t)n;
    }
}

/* Encodes one record with put (into the static buffer, or a heap one when it is too small) and
 * writes it. */
#define EMIT(put, ...)                                                                             \
    do {                                                                                           \
        size_t len_;                                                                               \
        int rc_ = put(small, sizeof small, &len_, __VA_ARGS__);                                    \
        if (rc_ == 0)                                                                              \
            rt_log_record(small, len_);                                                            \
        else if (rc_ == MG_ERROR_EFULL) {                                                          \
            uint8_t *big_ = malloc(len_);                                                          \
            if (big_ && put(big_, len_, &len_, __VA_ARGS__) == 0)                                  \
                rt_log_record(big_, len_);                                                         \
            free(big_);                                                                            \
        }                                                                                          \
    } while (0)

void rt_log_cover(uint32_t id, int taken)
{
    uint32_t arm = coverage_arm(id, taken);
    last_branch = id;
    if (log_fd < 0 || id > COVERAGE_SET_MAX_BRANCH)
        return;
    if (arm >= ncovered) {
        size_t old = ncovered;
        if (mg_array_reserve((void **)&covered, &ncovered, (size_t)arm + 1, 1) != MG_ERROR_OK)
            return;
        memset(covered + old, 0, ncovered - old);
    }
    if (covered[arm])
        return;
    covered[arm] = 1;
    EMIT(path_log_put_cover, &arm, 1);
}

void rt_log_branch(uint32_t id, int taken, const sym_expr_pred *pred)
{
    int record = 1;
    if (log_fd < 0 || !rt_log_heavy)
        return;
    if (!no_reduce)
        path_reduce_admit(&reduce, id, taken, &record);
    if (!record)
        return;
    path_log_branch b = {.branch_id = id, .taken = (uint8_t)taken, .pred = *pred};
    EMIT(path_log_put_branch, &b);
}

int rt_log_declare_var(uint8_t kind, int has_cap, int64_t cap, uint32_t comm, int64_t value,
                       uint32_t *id)
{
    if (log_fd < 0 || !rt_log_heavy)
        return MG_ERROR_ESTATE;
    sym_var v = {.id = next_var,
                 .kind = kind,
                 .sort = (uint8_t)sym_var_kind_sort(kind),
                 .has_cap = (uint8_t)has_cap,
                 .cap = cap,
                 .comm = comm,
                 .value = value};
    if (sym_var_check(&v))
        return MG_ERROR_EINVAL;
    EMIT(path_log_put_var, &v);
    *id = next_var++;
    return 0;
}

int rt_log_declare_comm(uint64_t key, uint32_t size, const uint32_t *global, uint32_t *index)
{
    for (uint32_t i = 0; i < ncomms; i++)
        if (comms[i].key == key) {
            *index = comms[i].index;
            return 0;
        }
    comm_table_entry *c = realloc(comms, (ncomms + 1) * sizeof *c);
    if (!c)
        return MG_ERROR_ENOMEM;
    comms = c;
    sym_var_comm sc = {.index = ncomms, .size = size, .global = (uint32_t *)global};
    EMIT(path_log_put_comm, &sc);
    comms[ncomms] = (comm_table_entry){key, ncomms};
    *index = ncomms++;
    return 0;
}

/* CLOCK_MONOTONIC in nanoseconds: one clock for every process of the node, so the driver can
 * compare the ranks' readings with its own. Async-signal-safe. */
static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Encodes into a buffer of its own (not `small`): it runs in signal handlers too. */
static void log_time(uint8_t event, uint64_t ns)
{
    uint8_t buf[32];
    size_t len;
    if (path_log_put_time(buf, sizeof buf, &len, event, ns) == 0)
        rt_log_record(buf, len);
}

void rt_log_ended(void)
{
    if (log_fd < 0 || ended)
        return;
    ended = 1;
    log_time(PATH_LOG_ENDED, monotonic_ns());
}

/* ---- the outcome file: one line, written once, with write(2) only ---- */

static void put_u64(char *buf, size_t *at, unsigned long long v, int base)
{
    char tmp[24];
    int n = 0;
    do
        tmp[n++] = "0123456789abcdef"[v % (unsigned)base];
    while ((v /= (unsigned)base) && n < 24);
    while (n)
        buf[(*at)++] = tmp[--n];
}

/* Writes "<word> <number> 0x<pc offset, 0: none> b<last branch id>\n". Async-signal-safe. */
static void outcome(const char *word, long long num, unsigned long long hex)
{
    char buf[96];
    size_t at = 0;
    if (outcome_fd < 0 || outcome_written)
        return;
    outcome_written = 1;
    for (const char *w = word; *w; w++)
        buf[at++] = *w;
    buf[at++] = ' ';
    if (num < 0) {
        buf[at++] = '-';
        num = -num;
    }
    put_u64(buf, &at, (unsigned long long)num, 10);
    buf[at++] = ' ';
    buf[at++] = '0';
    buf[at++] = 'x';
    put_u64(buf, &at, hex, 16);
    buf[at++] = ' ';
    buf[at++] = 'b';
    put_u64(buf, &at, last_branch, 10);
    buf[at++] = '\n';
    ssize_t ignored = write(outcome_fd, buf, at);
    (void)ignored;
}

void rt_log_outcome_mpi_abort(int code)
{
    outcome("mpi_abort", code, 0);
}

static void on_exit_status(int status, void *arg)
{
    (void)arg;
    rt_log_ended();
    outcome("exit", status, 0);
}

/* The summed sizes of every rank's log. Async-signal-safe. */
static long long logs_size(void)
{
    long long sum = 0;
    char path[sizeof rank_path_prefix + 32];
    memcpy(path, rank_path_prefix, rank_path_len);
    for (uint32_t k = 0; k < world_size; k++) {
        size_t at = rank_path_len;
        struct stat st;
        put_u64(path, &at, k, 10);
        memcpy(path + at, ".log", 5);
        if (stat(path, &st) == 0)
            sum += (long long)st.st_size;
    }
    return sum;
}

/* Once a rank dies the launcher ends the others wherever they are, so the focus's path, and the
 * search after it, would depend on timing. A crashing rank therefore dies only once the logs of
 * all ranks have stopped growing for SETTLE_QUIET_MS (the others have blocked on it, ended or
 * crashed too), or after SETTLE_MAX_MS (a rank that keeps logging). Async-signal-safe. */
enum { SETTLE_QUIET_MS = 250, SETTLE_POLL_MS = 10, SETTLE_MAX_MS = 3000 };
static void settle_other_ranks(void)
{
    const uint64_t ms = 1000000u, start = monotonic_ns();
    const struct timespec poll = {0, SETTLE_POLL_MS * 1000000L};
    if (world_size < 2 || !rank_path_len)
        return;
    uint64_t quiet_since = start;
    long long last = logs_size();
    for (uint64_t now = start; now - start < SETTLE_MAX_MS * ms; now = monotonic_ns()) {
        long long size = logs_size();
        if (size != last) {
            last = size;
            quiet_since = now;
        } else if (now - quiet_since >= SETTLE_QUIET_MS * ms)
            return;
        nanosleep(&poll, NULL);
    }
}

/* The interrupted instruction's offset in the executable, for addr2line (0: unknown). */
static unsigned long long pc_offset(void *uc_)
{
    uintptr_t pc = 0;
#if defined(__x86_64__)
    ucontext_t *uc = uc_;
    pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#else
    (void)uc_;
#endif
    return pc >= exe_base && exe_base ? pc - exe_base : 0;
}

static void on_fatal(int sig, siginfo_t *si, void *uc)
{
    (void)si;
    rt_log_ended();
    /* The PC is the faulting instruction for SIGSEGV/SIGFPE/SIGILL/SIGBUS; for SIGABRT it is
     * inside libc and the offset means nothing (the driver then uses the stderr message). */
    outcome("signal", sig, pc_offset(uc));
    settle_other_ranks();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* The launcher stopping the job (the driver's timeout): the outcome's last branch tells where the
 * rank was, and one hang from another. */
static void on_stopped(int sig, siginfo_t *si, void *uc)
{
    (void)si, (void)uc;
    outcome("stopped", sig, 0);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handlers(void)
{
    static const int sigs[] = {SIGSEGV, SIGFPE, SIGBUS, SIGILL, SIGABRT};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        sigaction(sigs[i], &sa, NULL);
    static const int stops[] = {SIGTERM, SIGINT, SIGHUP};
    sa.sa_sigaction = on_stopped;
    for (size_t i = 0; i < sizeof stops / sizeof *stops; i++)
        sigaction(stops[i], &sa, NULL);
    on_exit(on_exit_status, NULL);
}

static int open_in_dir(const char *dir, const char *suffix)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/rank-%u.%s", dir, my_rank, suffix);
    return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

void rt_log_outcome_overflow(const char *site)
{
    static int written;
    const char *dir = getenv(MG_ENV_CONCOLIC_DIR);
    if (written || !dir)
        return;
    written = 1;
    int fd = open_in_dir(dir, "overflow");
    if (fd < 0)
        return;
    ssize_t ignored = write(fd, site, strlen(site));
    ignored = write(fd, "\n", 1);
    (void)ignored;
    close(fd);
}

/* Called first thing in main by the instrumented module. Without MPIGUARD_CONCOLIC_DIR the
 * program runs with no log at all (outside a campaign). */
void mgrt_init(int heavy, uint64_t build);
void mgrt_init(int heavy, uint64_t build)
{
    uint64_t started = monotonic_ns();
    const char *dir = getenv(MG_ENV_CONCOLIC_DIR);
    const char *run = getenv(MG_ENV_CONCOLIC_RUN_ID);
    build_id = build;
    my_rank = env_u32(MG_ENV_OMPI_RANK, MG_ENV_PMI_RANK, 0);
    if (!dir)
        return;
    Dl_info info;
    if (dladdr((void *)mgrt_init, &info))
        exe_base = (uintptr_t)info.dli_fbase;
    world_size = env_u32(MG_ENV_OMPI_SIZE, MG_ENV_PMI_SIZE, 1);
    int len = snprintf(rank_path_prefix, sizeof rank_path_prefix, "%s/rank-", dir);
    rank_path_len = len > 0 && (size_t)len < sizeof rank_path_prefix ? (size_t)len : 0;
    outcome_fd = open_in_dir(dir, "outcome");
    install_handlers();
    if ((log_fd = open_in_dir(dir, "log")) < 0)
        return;
    rt_log_heavy = heavy;
    no_reduce = getenv(MG_ENV_CONCOLIC_NO_REDUCE) != NULL;
    if (heavy && path_reduce_init(&reduce, 1024))
        rt_log_heavy = 0;
    path_log_header h = {.kind = rt_log_heavy ? PATH_LOG_HEAVY : PATH_LOG_LIGHT,
                         .build_id = build_id,
                         .run_id = run ? strtoull(run, NULL, 10) : 0,
                         .rank = my_rank,
                         .world_size = world_size};
    EMIT(path_log_put_header, &h);
    log_time(PATH_LOG_STARTED, started);
}
