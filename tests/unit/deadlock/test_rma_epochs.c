/* One rank's epochs on one window (rma_epochs.h, issue 28 item 5): each kind of epoch done right,
 * and each problem: an access outside any epoch, a flush outside a passive-target one, an epoch
 * opened twice, a close without its open, a window freed with an epoch open. */
#include <string.h>

#include "mg_test.h"
#include "rma_epochs.h"

enum { TARGETS = 4 };
static uint8_t locked[TARGETS];

static rma_epochs fresh(void)
{
    memset(locked, 0, sizeof locked);
    return (rma_epochs){.locked = locked, .targets = TARGETS};
}

static void test_legal_epochs(void)
{
    rma_epochs w = fresh();
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FENCE, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_ACCESS, 1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FENCE, -1), USAGE_ARGS_OK);
    /* the epoch the last plain fence opened holds no access: freeing is legal */
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FREE, -1), USAGE_ARGS_OK);
    w = fresh();
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_POST, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_START, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_ACCESS, 3), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_COMPLETE, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_WAIT, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_LOCK, 2), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_LOCK, 3), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_ACCESS, 2), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_UNLOCK, 2), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_UNLOCK, 3), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_LOCK_ALL, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_ACCESS, 0), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_UNLOCK_ALL, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FREE, -1), USAGE_ARGS_OK);
    /* targets outside the group are MPI's to refuse */
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_ACCESS, TARGETS), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_UNLOCK, -2), USAGE_ARGS_OK);
}

static void test_problems(void)
{
    rma_epochs w = fresh();
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_ACCESS, 1), USAGE_ARGS_RMA_OUTSIDE_EPOCH);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FENCE, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FENCE_LAST, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_ACCESS, 1), USAGE_ARGS_RMA_OUTSIDE_EPOCH);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_UNLOCK, 1), USAGE_ARGS_RMA_CLOSE_UNOPENED);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_UNLOCK_ALL, -1), USAGE_ARGS_RMA_CLOSE_UNOPENED);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_COMPLETE, -1), USAGE_ARGS_RMA_CLOSE_UNOPENED);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_WAIT, -1), USAGE_ARGS_RMA_CLOSE_UNOPENED);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_LOCK, 1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_LOCK, 1), USAGE_ARGS_RMA_EPOCH_TWICE);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_LOCK_ALL, -1), USAGE_ARGS_RMA_EPOCH_TWICE);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FENCE, -1), USAGE_ARGS_RMA_EPOCH_TWICE);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FREE, -1), USAGE_ARGS_RMA_EPOCH_UNCLOSED);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_UNLOCK, 1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_POST, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_POST, -1), USAGE_ARGS_RMA_EPOCH_TWICE);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FREE, -1), USAGE_ARGS_RMA_EPOCH_UNCLOSED);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_WAIT, -1), USAGE_ARGS_OK);
    /* a fence epoch with an access not yet completed by the next fence */
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FENCE, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_ACCESS, 0), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FREE, -1), USAGE_ARGS_RMA_EPOCH_UNCLOSED);
}

/* A flush needs a lock of its target or Lock_all: a fence or PSCW epoch, a lock of another target
 * or one already released do not make it legal; a flush to MPI_PROC_NULL is MPI's to refuse. */
static void test_flush_outside_passive_epoch(void)
{
    rma_epochs w = fresh();
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FLUSH, 1), USAGE_ARGS_RMA_OUTSIDE_EPOCH);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FLUSH_ALL, -1), USAGE_ARGS_RMA_OUTSIDE_EPOCH);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FLUSH, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FENCE, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FLUSH, 1), USAGE_ARGS_RMA_OUTSIDE_EPOCH);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FENCE_LAST, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_START, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FLUSH_ALL, -1), USAGE_ARGS_RMA_OUTSIDE_EPOCH);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_COMPLETE, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_LOCK, 2), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FLUSH, 2), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FLUSH_ALL, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FLUSH, 1), USAGE_ARGS_RMA_OUTSIDE_EPOCH);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_UNLOCK, 2), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FLUSH, 2), USAGE_ARGS_RMA_OUTSIDE_EPOCH);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_LOCK_ALL, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FLUSH, 3), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FLUSH_ALL, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_UNLOCK_ALL, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FLUSH_ALL, -1), USAGE_ARGS_RMA_OUTSIDE_EPOCH);
    /* a refused flush changes no epoch */
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FREE, -1), USAGE_ARGS_OK);
}

/* A request-based access (Rput, Rget, Raccumulate, Rget_accumulate) needs a passive-target epoch
 * on its target (MPI 3.1 §11.3.5): a fence or PSCW epoch that would cover a Put does not, and a
 * refused one steps nothing (the fence epoch stays free of accesses). */
static void test_request_access_passive_only(void)
{
    rma_epochs w = fresh();
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_REQUEST_ACCESS, 1), USAGE_ARGS_RMA_OUTSIDE_EPOCH);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FENCE, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_REQUEST_ACCESS, 1), USAGE_ARGS_RMA_OUTSIDE_EPOCH);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_FREE, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_START, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_REQUEST_ACCESS, 2), USAGE_ARGS_RMA_OUTSIDE_EPOCH);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_COMPLETE, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_LOCK, 2), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_REQUEST_ACCESS, 2), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_REQUEST_ACCESS, 1), USAGE_ARGS_RMA_OUTSIDE_EPOCH);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_UNLOCK, 2), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_LOCK_ALL, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_REQUEST_ACCESS, 3), USAGE_ARGS_OK);
    /* a target outside the group is MPI's argument error, not an epoch's */
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_UNLOCK_ALL, -1), USAGE_ARGS_OK);
    MG_CHECK_INT(rma_epochs_step(&w, RMA_EPOCHS_REQUEST_ACCESS, TARGETS), USAGE_ARGS_OK);
}

static void test_names(void)
{
    MG_CHECK_STR(usage_args_problem_name(USAGE_ARGS_RMA_OUTSIDE_EPOCH), "rma_access_outside_epoch");
    MG_CHECK_STR(usage_args_problem_name(USAGE_ARGS_RMA_EPOCH_TWICE), "rma_epoch_twice");
    MG_CHECK_STR(usage_args_problem_name(USAGE_ARGS_RMA_EPOCH_UNCLOSED), "rma_epoch_unclosed");
    MG_CHECK_STR(usage_args_problem_name(USAGE_ARGS_RMA_CLOSE_UNOPENED), "rma_close_without_open");
}

int main(void)
{
    MG_RUN(test_legal_epochs);
    MG_RUN(test_problems);
    MG_RUN(test_flush_outside_passive_epoch);
    MG_RUN(test_request_access_passive_only);
    MG_RUN(test_names);
    MG_TEST_END();
}
