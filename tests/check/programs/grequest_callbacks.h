/* The callbacks of a generalized request that does nothing, for the programs of the suite that
 * start one (MPI_Grequest_start(query, release, cancel, NULL, &req)): each is complete as soon as
 * the program calls MPI_Grequest_complete, with an empty status. */
#ifndef GREQUEST_CALLBACKS_H
#define GREQUEST_CALLBACKS_H

#include <mpi.h>
#include <stddef.h>

static int query(void *state, MPI_Status *status)
{
    (void)state;
    MPI_Status_set_elements(status, MPI_BYTE, 0);
    MPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_UNDEFINED;
    status->MPI_TAG = MPI_UNDEFINED;
    return MPI_SUCCESS;
}

static int release(void *state)
{
    (void)state;
    return MPI_SUCCESS;
}

static int cancel(void *state, int complete)
{
    (void)state, (void)complete;
    return MPI_SUCCESS;
}

#endif
