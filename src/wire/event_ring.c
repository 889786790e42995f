/* The per-rank shared-memory ring of check event records (event_ring.h, docs/design/check.md). */
#include "event_ring.h"

#include "mg_error.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { RECORD_ALIGN = 8, LENGTH_BYTES = 4 };

static uint64_t padded(uint32_t len)
{
    return ((uint64_t)len + LENGTH_BYTES + RECORD_ALIGN - 1) & ~(uint64_t)(RECORD_ALIGN - 1);
}

static size_t round_capacity(size_t capacity)
{
    size_t c = EVENT_RING_MIN_BYTES;
    while (c < capacity && c < ((size_t)1 << 40))
        c <<= 1;
    return c;
}

static int ring_name(char *out, size_t len, const char *token, int rank)
{
    if (!token || !*token || strchr(token, '/'))
        return MG_ERROR_EINVAL;
    int n = snprintf(out, len, EVENT_RING_NAME_FORMAT, token, rank);
    return n > 0 && (size_t)n < len ? MG_ERROR_OK : MG_ERROR_EINVAL;
}

int event_ring_create(event_ring_writer *w, const char *token, int rank, int size, size_t capacity)
{
    memset(w, 0, sizeof *w);
    int rc = ring_name(w->name, sizeof w->name, token, rank);
    if (rc)
        return rc;
    capacity = round_capacity(capacity);
    int fd = shm_open(w->name, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return MG_ERROR_ESYS;
    size_t total = sizeof(event_ring_header) + capacity;
    void *map = MAP_FAILED;
    if (ftruncate(fd, (off_t)total) == 0)
        map = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int saved = errno;
    close(fd);
    if (map == MAP_FAILED) {
        shm_unlink(w->name);
        errno = saved;
        return MG_ERROR_ESYS;
    }
    event_ring_header *h = map;
    h->version = EVENT_RING_VERSION;
    h->header_size = sizeof *h;
    h->rank = rank;
    h->size = size;
    h->writer_pid = (int32_t)getpid();
    h->capacity = capacity;
    /* The magic goes last so a reader never takes a half-initialised segment as valid. */
    atomic_thread_fence(memory_order_release);
    h->magic = EVENT_RING_MAGIC;
    w->hdr = h;
    w->data = (uint8_t *)map + sizeof *h;
    w->map_size = total;
    return MG_ERROR_OK;
}

static void copy_in(event_ring_writer *w, uint64_t pos, const void *src, uint64_t n)
{
    uint64_t mask = w->hdr->capacity - 1, off = pos & mask, first = w->hdr->capacity - off;
    if (first > n)
        first = n;
    memcpy(w->data + off, src, first);
    memcpy(w->data, (const uint8_t *)src + first, n - first);
}

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int pid_gone(int32_t pid)
{
    return kill(pid, 0) != 0 && errno == ESRCH;
}

/* Waits until `need` bytes are free. Returns 0 when they are, -1 when the record must be dropped:
 * the reader died, stalled for EVENT_RING_STALL_NS, or never attached within EVENT_RING_ATTACH_NS
 * (counted over the rank's whole life, so a job run without a reader is slowed once, not per
 * record). */
static int wait_for_room(event_ring_writer *w, uint64_t head, uint64_t need)
{
    event_ring_header *h = w->hdr;
    atomic_fetch_add_explicit(&h->full_waits, 1, memory_order_relaxed);
    uint64_t last_tail = atomic_load_explicit(&h->tail, memory_order_acquire);
    long long stalled_since = now_ns();
    const struct timespec pause = {0, 100000};
    for (;;) {
        uint64_t tail = atomic_load_explicit(&h->tail, memory_order_acquire);
        if (h->capacity - (head - tail) >= need)
            return 0;
        int32_t reader = atomic_load_explicit(&h->reader_pid, memory_order_acquire);
        long long now = now_ns();
        if (reader == 0) {
            w->attach_waited_ns += 100000;
            if (w->attach_waited_ns > EVENT_RING_ATTACH_NS)
                return -1;
        } else if (pid_gone(reader)) {
            w->reader_gone = 1;
            return -1;
        } else if (tail != last_tail) {
            last_tail = tail;
            stalled_since = now;
        } else if (now - stalled_since > EVENT_RING_STALL_NS) {
            return -1;
        }
        nanosleep(&pause, NULL);
    }
}

int event_ring_write(event_ring_writer *w, const void *rec, uint32_t len)
{
    event_ring_header *h = w->hdr;
    uint64_t need = padded(len);
    if (need > h->capacity)
        return MG_ERROR_ERANGE;
    uint64_t head = atomic_load_explicit(&h->head, memory_order_relaxed);
    uint64_t tail = atomic_load_explicit(&h->tail, memory_order_acquire);
    if (h->capacity - (head - tail) < need &&
        (w->reader_gone || wait_for_room(w, head, need) != 0)) {
        atomic_fetch_add_explicit(&h->lost, 1, memory_order_relaxed);
        return MG_ERROR_EFULL;
    }
    uint32_t le = len; /* the header is little-endian like the records: x86-64 and aarch64 here */
    copy_in(w, head, &le, LENGTH_BYTES);
    copy_in(w, head + LENGTH_BYTES, rec, len);
    atomic_store_explicit(&h->head, head + need, memory_order_release);
    atomic_fetch_add_explicit(&h->records, 1, memory_order_relaxed);
    return MG_ERROR_OK;
}

void event_ring_close(event_ring_writer *w, uint32_t life)
{
    if (!w->hdr)
        return;
    atomic_store_explicit(&w->hdr->life, life, memory_order_release);
    struct timespec step = {0, 1000000};
    for (long long waited = 0; waited < EVENT_RING_FINALIZE_WAIT_NS &&
                               atomic_load_explicit(&w->hdr->reader_pid, memory_order_acquire) == 0;
         waited += step.tv_nsec)
        nanosleep(&step, NULL);
    /* A reader that has not attached yet (a short job) still needs the name: it removes what is
     * left at its end (check_agent_remove_rings). */
    if (atomic_load_explicit(&w->hdr->reader_pid, memory_order_acquire) != 0)
        shm_unlink(w->name);
}

int event_ring_peek(event_ring_reader *r, const char *token, int rank)
{
    memset(r, 0, sizeof *r);
    char name[160];
    int rc = ring_name(name, sizeof name, token, rank);
    if (rc)
        return rc;
    int fd = shm_open(name, O_RDWR, 0);
    if (fd < 0)
        return errno == ENOENT ? MG_ERROR_ENOENT : MG_ERROR_ESYS;
    struct stat st;
    void *map = MAP_FAILED;
    if (fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof(event_ring_header))
        map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return MG_ERROR_ENOENT; /* created but not sized yet: try again later */
    event_ring_header *h = map;
    size_t total = (size_t)st.st_size;
    atomic_thread_fence(memory_order_acquire);
    uint32_t magic = h->magic;
    if (magic != EVENT_RING_MAGIC) {
        /* Read before the unmap: a writer that has sized its ring but not stamped it yet. */
        munmap(map, total);
        return magic == 0 ? MG_ERROR_ENOENT : MG_ERROR_EVERSION;
    }
    if (h->version != EVENT_RING_VERSION || h->header_size != sizeof *h) {
        munmap(map, total);
        return MG_ERROR_EVERSION;
    }
    if (h->capacity < EVENT_RING_MIN_BYTES || (h->capacity & (h->capacity - 1)) ||
        h->capacity > total - sizeof *h) {
        munmap(map, total);
        return MG_ERROR_EFORMAT;
    }
    r->hdr = h;
    r->shared = h;
    r->data = (const uint8_t *)map + sizeof *h;
    r->map_size = total;
    return MG_ERROR_OK;
}

void event_ring_claim(event_ring_reader *r)
{
    atomic_store_explicit(&r->shared->reader_pid, (int32_t)getpid(), memory_order_release);
}

int event_ring_open(event_ring_reader *r, const char *token, int rank)
{
    int rc = event_ring_peek(r, token, rank);
    if (rc == MG_ERROR_OK)
        event_ring_claim(r);
    return rc;
}

static void copy_out(const event_ring_reader *r, uint64_t pos, void *dst, uint64_t n)
{
    uint64_t mask = r->hdr->capacity - 1, off = pos & mask, first = r->hdr->capacity - off;
    if (first > n)
        first = n;
    memcpy(dst, r->data + off, first);
    memcpy((uint8_t *)dst + first, r->data, n - first);
}

int event_ring_read(event_ring_reader *r, uint8_t *buf, size_t cap, uint32_t *len)
{
    event_ring_header *h = r->shared;
    uint64_t tail = atomic_load_explicit(&h->tail, memory_order_relaxed);
    uint64_t head = atomic_load_explicit(&h->head, memory_order_acquire);
    if (head == tail)
        return 0;
    uint32_t n;
    if (head - tail < LENGTH_BYTES || head - tail > h->capacity)
        return MG_ERROR_EFORMAT;
    copy_out(r, tail, &n, LENGTH_BYTES);
    uint64_t need = padded(n);
    if (need > head - tail)
        return MG_ERROR_EFORMAT;
    *len = n;
    int rc = 1;
    if (n > cap)
        rc = MG_ERROR_ERANGE;
    else
        copy_out(r, tail + LENGTH_BYTES, buf, n);
    atomic_store_explicit(&h->tail, tail + need, memory_order_release);
    return rc;
}

int event_ring_writer_dead(const event_ring_reader *r)
{
    return pid_gone(r->hdr->writer_pid);
}

void event_ring_detach(event_ring_reader *r)
{
    if (r->hdr)
        munmap((void *)r->hdr, r->map_size);
    memset(r, 0, sizeof *r);
}
