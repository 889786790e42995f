/* Decoding check event records whose arrays land in reusable storage that grows to the largest
 * record seen: what the agent (rings) and the detector's TCP side (agent streams) both do. */
#ifndef MG_RECORD_DECODER_H
#define MG_RECORD_DECODER_H

#include <stddef.h>

#include "check_event.h"

typedef struct record_decoder {
    uint64_t *requests;
    check_event_status *statuses;
    int32_t *ranks;
    size_t cap;
} record_decoder;

/* Validates and decodes exactly one record in buf[0..len) into *ev, its arrays pointing into the
 * decoder (valid until the next call). Errors: MG_ERROR_EFORMAT/MG_ERROR_EVERSION (invalid record,
 * or bytes left after it), MG_ERROR_ENOMEM. */
int record_decoder_decode(record_decoder *d, const uint8_t *buf, size_t len, check_event *ev);
void record_decoder_free(record_decoder *d);

#endif
