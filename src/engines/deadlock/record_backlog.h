/* Internal to src/engines/deadlock: no other folder includes it (docs/architecture.md). */
/* Per-rank FIFO of held records: the records of a rank that arrive while the detector's model
 * has that rank blocked (MUST analyses nothing a blocked process issued later, paper 5.1), kept
 * as opaque byte blocks the detector packs. Spec: docs/design/check-detector.md §6. */
#ifndef RECORD_BACKLOG_H
#define RECORD_BACKLOG_H

#include <stddef.h>
#include <stdint.h>

typedef struct record_backlog_entry {
    uint8_t *bytes;
    uint32_t len;
    uint32_t next;
} record_backlog_entry;

typedef struct record_backlog {
    record_backlog_entry *entries;
    size_t n, cap;
    uint32_t free_head;
    uint32_t *head, *tail; /* per rank */
    int32_t ranks;
    size_t total; /* held records */
    size_t bytes; /* held bytes */
} record_backlog;

/* Errors: MG_ERROR_EINVAL, MG_ERROR_ENOMEM. */
int record_backlog_init(record_backlog *b, int32_t ranks);
void record_backlog_free(record_backlog *b);
int record_backlog_clone(const record_backlog *src, record_backlog *dst);
/* Appends a copy of bytes[0..len) to rank's FIFO. Errors: MG_ERROR_ENOMEM (nothing appended). */
int record_backlog_push(record_backlog *b, int32_t rank, const uint8_t *bytes, size_t len);
/* The oldest held record of rank: 1 with *bytes and *len (valid until the next pop/push), or 0. */
int record_backlog_front(const record_backlog *b, int32_t rank, const uint8_t **bytes, size_t *len);
/* Drops the oldest held record of rank (no-op when none). */
void record_backlog_pop(record_backlog *b, int32_t rank);
/* 1 when rank holds records. */
int record_backlog_has(const record_backlog *b, int32_t rank);

#endif
