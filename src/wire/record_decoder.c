/* Record decoding into reusable storage (record_decoder.h). */
#include "record_decoder.h"

#include "mg_error.h"

#include <stdlib.h>

static int reserve(record_decoder *d, size_t need)
{
    if (need <= d->cap)
        return MG_ERROR_OK;
    record_decoder_free(d);
    d->requests = malloc(need * sizeof *d->requests);
    d->statuses = malloc(need * sizeof *d->statuses);
    d->ranks = malloc(need * sizeof *d->ranks);
    d->cap = d->requests && d->statuses && d->ranks ? need : 0;
    return d->cap ? MG_ERROR_OK : MG_ERROR_ENOMEM;
}

int record_decoder_decode(record_decoder *d, const uint8_t *buf, size_t len, check_event *ev)
{
    size_t used;
    int rc = check_event_decode(buf, len, ev, &used);
    if (rc != MG_ERROR_OK)
        return rc;
    if (used != len)
        return MG_ERROR_EFORMAT;
    size_t need = ev->n_requests > ev->n_statuses ? ev->n_requests : ev->n_statuses;
    if ((rc = reserve(d, ev->n_ranks > need ? ev->n_ranks : need)) != MG_ERROR_OK)
        return rc;
    return check_event_decode_arrays(buf, ev, d->requests, d->statuses, d->ranks);
}

void record_decoder_free(record_decoder *d)
{
    free(d->requests);
    free(d->statuses);
    free(d->ranks);
    *d = (record_decoder){0};
}
