/* Unit tests of the shm probe's progress (src/agent/rank_probe.h) on a state segment the test
 * writes as the interposition library does: a rank read inside MPI_Testany at every reading whose
 * calls moved by its polls and by sends and receives posted in between (hpcc's MPIRandomAccess,
 * issue 29's false alarm under shm) progressed; one whose calls moved by its polls alone (a rank
 * polling for a message never sent) did not, and counts as in MPI. */
#include "mg_error.h"
#include "mg_test.h"
#include "rank_probe.h"
#include "rank_segment.h"
#include "rank_state.h"

#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

static char token[64];

/* The library's hooks for n calls of fn, the rank left inside `inside` (threads_in_mpi 1). */
static void calls(rank_state *s, mpi_function_ids_fn fn, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        atomic_store(&s->current_fn, fn);
        if (mpi_function_ids_class_of(fn) != MG_MPI_FUNCTION_IDS_CLASS_POLL)
            atomic_fetch_add(&s->calls_not_polling, 1);
        atomic_fetch_add(&s->calls, 1);
    }
}

static void enter(rank_state *s, mpi_function_ids_fn fn)
{
    atomic_store(&s->current_fn, fn);
    atomic_store(&s->threads_in_mpi, 1);
}

/* Opens the probe on a segment made for rank and takes the first reading (nothing to compare). */
static rank_probe *first_reading(int rank, rank_state **state)
{
    rank_probe *p = NULL;
    rank_probe_reading r = mg_probe_reading_unknown();
    *state = rank_segment_publish(token, rank, (int)getpid());
    MG_CHECK(*state != NULL);
    if (!*state)
        return NULL;
    calls(*state, MG_FN_Irecv, 1);
    enter(*state, MG_FN_Testany);
    MG_CHECK_INT(rank_probe_open(RANK_PROBE_SHM, token, rank, (int)getpid(), &p), MG_ERROR_OK);
    rank_segment_unpublish(token, rank, NULL); /* mapped by both: nothing is left in /dev/shm */
    if (p)
        MG_CHECK_INT(rank_probe_read(p, 0, &r), MG_ERROR_OK);
    MG_CHECK(!r.progressed);
    return p;
}

static void test_poller_posting_between_polls_progressed(void)
{
    rank_state *s;
    rank_probe *p = first_reading(0, &s);
    if (!p)
        return;
    rank_probe_reading r = mg_probe_reading_unknown();
    calls(s, MG_FN_Testany, 40);
    calls(s, MG_FN_Isend, 1);
    calls(s, MG_FN_Testany, 40);
    calls(s, MG_FN_Irecv, 1);
    enter(s, MG_FN_Testany);
    MG_CHECK_INT(rank_probe_read(p, 0, &r), MG_ERROR_OK);
    MG_CHECK_INT(r.fn, MG_FN_Testany);
    MG_CHECK(r.in_mpi);
    MG_CHECK_INT((int)r.counter, 83);
    MG_CHECK(r.progressed);
    rank_probe_close(p);
    munmap(s, sizeof *s);
}

static void test_poller_polling_only_did_not(void)
{
    rank_state *s;
    rank_probe *p = first_reading(1, &s);
    if (!p)
        return;
    rank_probe_reading r = mg_probe_reading_unknown();
    calls(s, MG_FN_Testany, 500);
    atomic_store(&s->threads_in_mpi, 0); /* read between two polls: still in MPI */
    MG_CHECK_INT(rank_probe_read(p, 0, &r), MG_ERROR_OK);
    MG_CHECK_INT(r.fn, MG_FN_Testany);
    MG_CHECK(r.in_mpi);
    MG_CHECK(!r.progressed);
    rank_probe_close(p);
    munmap(s, sizeof *s);
}

int main(void)
{
    snprintf(token, sizeof token, "probetest%ld", (long)getpid());
    MG_RUN(test_poller_posting_between_polls_progressed);
    MG_RUN(test_poller_polling_only_did_not);
    MG_TEST_END();
}
