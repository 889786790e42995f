/* Once-per-call-site logging of the protection module; see protect_site.h. Runs only when a
 * detector fired or a call could not be protected, never on the untriggered path. */
#include "protect_site.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "interpose_hooks.h"
#include "interpose_log.h"
#include "protect_event.h"

enum { SITES = 512 };

/* (site, fn, kind) keys already reported; a full table stops the reporting, not the protection. */
static _Atomic uintptr_t seen[SITES];
static int events_fd = -1;

void protect_site_setup(const char *dir, int rank, int size)
{
    if (!dir || !*dir)
        return;
    char name[128], path[4096];
    protect_event_file_name(name, sizeof name, rank, size, (int)getpid());
    snprintf(path, sizeof path, "%s/%s", dir, name);
    events_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (events_fd < 0)
        interpose_log("protect: cannot write the events file ", path);
}

void protect_site_close(void)
{
    if (events_fd >= 0)
        close(events_fd);
    events_fd = -1;
}

/* 1 the first time key is seen. */
static int first_time(uintptr_t key)
{
    if (key == 0)
        key = 1;
    for (unsigned i = 0, h = (unsigned)(key * 0x9e3779b97f4a7c15ULL >> 40) % SITES; i < SITES;
         i++, h = (h + 1) % SITES) {
        uintptr_t cur = atomic_load_explicit(&seen[h], memory_order_acquire);
        if (cur == key)
            return 0;
        if (cur == 0) {
            uintptr_t expected = 0;
            if (atomic_compare_exchange_strong(&seen[h], &expected, key))
                return 1;
            if (expected == key)
                return 0;
        }
    }
    return 0;
}

/* "object+0xoffset" (addr2line -e object reads it), the object named by its absolute path, which
 * the CLI resolves to file and line after the job; or the bare address. The main program's name
 * is argv[0] to dladdr: a name without a slash was found on PATH, which /proc/self/exe follows. */
static void site_text(void *site, char *out, size_t len)
{
    Dl_info info;
    char path[PATH_MAX];
    if (site && dladdr(site, &info) && info.dli_fname && info.dli_fname[0]) {
        const char *object = info.dli_fname;
        if (!strchr(object, '/')) {
            ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
            if (n > 0) {
                path[n] = '\0';
                object = path;
            }
        } else if (realpath(object, path)) {
            object = path;
        }
        snprintf(out, len, "%s+0x%lx", object,
                 (unsigned long)((uintptr_t)site - (uintptr_t)info.dli_fbase));
    } else {
        snprintf(out, len, "%p", site);
    }
}

void protect_site_note(const char *kind, mpi_function_ids_fn fn, const char *detectors,
                       const char *workaround, int eager, const char *detail)
{
    void *site = interpose_call_site;
    uintptr_t key = (uintptr_t)site * 31 + (uintptr_t)fn * 7 + (uintptr_t)kind[0];
    if (!first_time(key))
        return;
    char where[PATH_MAX + 32], line[1024];
    site_text(site, where, sizeof where);
    const protect_event ev = {kind,  mpi_function_ids_name(fn), where, detectors, workaround, eager,
                              detail};
    protect_event_summary(&ev, protect_event_site_short(where), line, sizeof line);
    interpose_log("protect: ", line);
    if (events_fd < 0)
        return;
    char out[PATH_MAX + 1400];
    int n = protect_event_put(out, sizeof out, &ev);
    if (n > 0) {
        size_t len = (size_t)n < sizeof out ? (size_t)n : sizeof out - 1;
        ssize_t ignored = write(events_fd, out, len);
        (void)ignored;
    }
}
