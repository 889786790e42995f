/* The capture module's live handles and their creation sites (capture_handles.h). Constructors and
 * frees are not on the hot path. */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "capture_handles.h"

#include "capture_call.h"
#include "capture_emit.h"
#include "capture_table.h"
#include "handle_bits.h"
#include "interpose_log.h"
#include "mg_error.h"

#include <stdlib.h>

/* Live handles a rank can have at once (2 MB of table); past that new ones are not tracked. */
enum { MAX_HANDLES = 1 << 16 };
/* A key is the handle's bits with its kind in the top byte (an Open MPI handle is a user-space
 * pointer, below 2^48; an MPICH one is 32 bits): handles of two kinds never collide. A value is
 * the creation's call site (a user-space address, below 2^48) with the maker's mpi_function_ids_fn
 * above it. */
enum { KIND_SHIFT = 56, MAKER_SHIFT = 48 };
#define SITE_MASK ((UINT64_C(1) << MAKER_SHIFT) - 1)

static capture_table live;
/* Handles freed and not handed out again since, by the same keys and with the same values: a copy
 * of a group's passed to a call is reported with the group's creation (group_freed). */
static capture_table freed;
static int overflow_logged;

static uint64_t key_of(check_event_handle_kind kind, const void *handle, size_t size)
{
    return mg_handle_bits(handle, size) ^ (uint64_t)kind << KIND_SHIFT;
}

int capture_handles_init(void)
{
    return capture_table_init(&live, MAX_HANDLES) || capture_table_init(&freed, MAX_HANDLES)
               ? MG_ERROR_ENOMEM
               : MG_ERROR_OK;
}

void capture_handles_made(check_event_handle_kind kind, const void *handle, size_t size,
                          mpi_function_ids_fn maker)
{
    uint64_t site = (uint64_t)(uintptr_t)interpose_call_site & SITE_MASK;
    capture_table_remove(&freed, key_of(kind, handle, size));
    if (capture_table_put(&live, key_of(kind, handle, size),
                          site | (uint64_t)maker << MAKER_SHIFT) != MG_ERROR_OK &&
        !overflow_logged) {
        overflow_logged = 1;
        interpose_log("capture module: too many live groups, datatypes, ops, infos and error "
                      "handlers; the leaks of those made from now on are not checked",
                      NULL);
    }
}

void capture_handles_freed(check_event_handle_kind kind, const void *handle, size_t size)
{
    uint64_t key = key_of(kind, handle, size), made = 0;
    /* a handle freed twice keeps its creation; 0: made past the table's room */
    if (!capture_table_get(&live, key, &made))
        (void)capture_table_get(&freed, key, &made);
    capture_table_remove(&live, key);
    /* past the table's room a freed handle is simply not reported */
    (void)capture_table_put(&freed, key, made);
}

int capture_handles_was_freed(check_event_handle_kind kind, const void *handle, size_t size)
{
    uint64_t unused;
    return capture_table_get(&freed, key_of(kind, handle, size), &unused);
}

typedef struct leaked {
    uint64_t kind, made; /* made: site | maker << MAKER_SHIFT */
} leaked;

static int by_kind_and_creation(const void *a, const void *b)
{
    const leaked *x = a, *y = b;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return x->made < y->made ? -1 : x->made > y->made;
}

/* A record about handles of kind made at made (site | maker << MAKER_SHIFT), at the creation's
 * call site. */
static void emit_made(uint16_t fn, uint64_t kind, uint64_t made, int64_t count)
{
    void *call_site = interpose_call_site;
    check_event ev = capture_emit_event(fn, CHECK_EVENT_EV_ENTER, NULL);
    ev.aux = kind;
    ev.count = count;
    ev.result = (int32_t)(made >> MAKER_SHIFT);
    interpose_call_site = (void *)(uintptr_t)(made & SITE_MASK);
    capture_emit(&ev);
    interpose_call_site = call_site;
}

void capture_handles_name_creation(check_event_handle_kind kind, const void *handle, size_t size)
{
    uint64_t made;
    if (capture_table_get(&freed, key_of(kind, handle, size), &made) && made)
        emit_made(CHECK_EVENT_FN_HANDLE_MADE, kind, made, 0);
}

void capture_handles_report(void)
{
    leaked *all = malloc((live.used ? live.used : 1) * sizeof *all);
    if (!all) {
        interpose_log("capture module: out of memory at MPI_Finalize; leaks are not reported",
                      NULL);
        return;
    }
    size_t n = 0;
    for (size_t slot = 0; slot <= live.mask; slot++)
        if (live.keys[slot])
            all[n++] = (leaked){(live.keys[slot] - 1) >> KIND_SHIFT, live.values[slot]};
    qsort(all, n, sizeof *all, by_kind_and_creation);
    for (size_t i = 0, count = 1; i < n; i++, count++) {
        if (i + 1 < n && !by_kind_and_creation(&all[i], &all[i + 1]))
            continue;
        emit_made(CHECK_EVENT_FN_HANDLE_LEAK, all[i].kind, all[i].made, (int64_t)count);
        count = 0;
    }
    free(all);
    capture_table_free(&live);
    capture_table_free(&freed);
}
