/* Held records of model-blocked ranks, see record_backlog.h. */
#include "record_backlog.h"

#include <stdlib.h>
#include <string.h>

#include "mg_array.h"
#include "mg_error.h"

#define BACKLOG_NONE UINT32_MAX

int record_backlog_init(record_backlog *b, int32_t ranks)
{
    if (!b || ranks <= 0) {
        return MG_ERROR_EINVAL;
    }
    memset(b, 0, sizeof *b);
    b->free_head = BACKLOG_NONE;
    b->ranks = ranks;
    b->head = malloc((size_t)ranks * sizeof(uint32_t));
    b->tail = malloc((size_t)ranks * sizeof(uint32_t));
    if (!b->head || !b->tail) {
        record_backlog_free(b);
        return MG_ERROR_ENOMEM;
    }
    memset(b->head, 0xFF, (size_t)ranks * sizeof(uint32_t));
    memset(b->tail, 0xFF, (size_t)ranks * sizeof(uint32_t));
    return MG_ERROR_OK;
}

void record_backlog_free(record_backlog *b)
{
    for (size_t i = 0; i < b->n; i++) {
        free(b->entries[i].bytes);
    }
    free(b->entries);
    free(b->head);
    free(b->tail);
    memset(b, 0, sizeof *b);
}

int record_backlog_clone(const record_backlog *src, record_backlog *dst)
{
    int rc = record_backlog_init(dst, src->ranks);
    if (rc) {
        return rc;
    }
    memcpy(dst->head, src->head, (size_t)src->ranks * sizeof(uint32_t));
    memcpy(dst->tail, src->tail, (size_t)src->ranks * sizeof(uint32_t));
    if (src->cap) {
        dst->entries = calloc(src->cap, sizeof *dst->entries);
        if (!dst->entries) {
            record_backlog_free(dst);
            return MG_ERROR_ENOMEM;
        }
        dst->cap = src->cap;
    }
    for (size_t i = 0; i < src->n; i++, dst->n++) {
        dst->entries[i] = src->entries[i];
        if (src->entries[i].bytes) {
            dst->entries[i].bytes = malloc(src->entries[i].len);
            if (!dst->entries[i].bytes) {
                record_backlog_free(dst);
                return MG_ERROR_ENOMEM;
            }
            memcpy(dst->entries[i].bytes, src->entries[i].bytes, src->entries[i].len);
        }
    }
    dst->free_head = src->free_head;
    dst->total = src->total;
    dst->bytes = src->bytes;
    return MG_ERROR_OK;
}

int record_backlog_push(record_backlog *b, int32_t rank, const uint8_t *bytes, size_t len)
{
    if (rank < 0 || rank >= b->ranks || len > UINT32_MAX) {
        return MG_ERROR_EINVAL;
    }
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy) {
        return MG_ERROR_ENOMEM;
    }
    memcpy(copy, bytes, len);
    uint32_t x = b->free_head;
    if (x == BACKLOG_NONE) {
        if (mg_array_reserve((void **)&b->entries, &b->cap, b->n + 1, sizeof *b->entries)) {
            free(copy);
            return MG_ERROR_ENOMEM;
        }
        x = (uint32_t)b->n++;
    } else {
        b->free_head = b->entries[x].next;
    }
    b->entries[x] = (record_backlog_entry){copy, (uint32_t)len, BACKLOG_NONE};
    if (b->tail[rank] == BACKLOG_NONE) {
        b->head[rank] = x;
    } else {
        b->entries[b->tail[rank]].next = x;
    }
    b->tail[rank] = x;
    b->total++;
    b->bytes += len;
    return MG_ERROR_OK;
}

int record_backlog_front(const record_backlog *b, int32_t rank, const uint8_t **bytes, size_t *len)
{
    uint32_t x = b->head[rank];
    if (x == BACKLOG_NONE) {
        return 0;
    }
    *bytes = b->entries[x].bytes;
    *len = b->entries[x].len;
    return 1;
}

void record_backlog_pop(record_backlog *b, int32_t rank)
{
    uint32_t x = b->head[rank];
    if (x == BACKLOG_NONE) {
        return;
    }
    record_backlog_entry *e = &b->entries[x];
    b->head[rank] = e->next;
    if (e->next == BACKLOG_NONE) {
        b->tail[rank] = BACKLOG_NONE;
    }
    b->total--;
    b->bytes -= e->len;
    free(e->bytes);
    e->bytes = NULL;
    e->next = b->free_head;
    b->free_head = x;
}

int record_backlog_has(const record_backlog *b, int32_t rank)
{
    return b->head[rank] != BACKLOG_NONE;
}
