/* Collective matching of the detector, see coll_match.h and docs/design/check-detector.md §4. */
#include "coll_match.h"

#include <stdlib.h>
#include <string.h>

#include "check_event.h"
#include "mg_error.h"

#define COLL_MIN_CAP 4u

void coll_match_init(coll_match *cm, uint32_t keep)
{
    memset(cm, 0, sizeof *cm);
    cm->keep = keep;
}

static coll_match_entry *slot_at(coll_match_comm *c, size_t i)
{
    return &c->slots[(c->head + i) % c->cap];
}

/* Room for the agreeing calls of a slot of c: the others of its members, at most keep. */
static uint32_t agreed_room(const coll_match *cm, const coll_match_comm *c)
{
    return c->size - 1 < cm->keep ? c->size - 1 : cm->keep;
}

static void comm_free(coll_match_comm *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(slot_at(c, i)->agreed);
    }
    free(c->retired.agreed);
    free(c->issued);
    free(c->slots);
}

void coll_match_free(coll_match *cm)
{
    for (size_t i = 0; i < cm->n; i++) {
        comm_free(&cm->comms[i]);
    }
    free(cm->comms);
    coll_match_init(cm, cm->keep);
}

int coll_match_clone(const coll_match *src, coll_match *dst)
{
    coll_match_init(dst, src->keep);
    if (src->n == 0) {
        return MG_ERROR_OK;
    }
    dst->comms = calloc(src->cap, sizeof *dst->comms);
    if (!dst->comms) {
        return MG_ERROR_ENOMEM;
    }
    dst->cap = src->cap;
    for (size_t i = 0; i < src->n; i++, dst->n++) {
        const coll_match_comm *s = &src->comms[i];
        coll_match_comm *d = &dst->comms[i];
        *d = *s;
        d->issued = NULL;
        d->slots = NULL;
        d->retired.agreed = NULL; /* read only right after the arrival that completed it */
        d->retired.n_agreed = 0;
        d->n = 0; /* counts the open slots whose agreed calls are copied: what is freed */
        if (s->size) {
            d->issued = malloc(s->size * sizeof(uint32_t));
            d->slots = malloc(s->cap * sizeof(coll_match_entry));
            if (!d->issued || !d->slots) {
                dst->n++;
                coll_match_free(dst);
                return MG_ERROR_ENOMEM;
            }
            memcpy(d->issued, s->issued, s->size * sizeof(uint32_t));
            memcpy(d->slots, s->slots, s->cap * sizeof(coll_match_entry));
            for (; d->n < s->n; d->n++) {
                coll_match_entry *slot = slot_at(d, d->n);
                const coll_match_call *from = slot->agreed; /* still the source's */
                if (from) {
                    slot->agreed = malloc(agreed_room(src, d) * sizeof *from);
                    if (!slot->agreed) {
                        dst->n++;
                        coll_match_free(dst);
                        return MG_ERROR_ENOMEM;
                    }
                    memcpy(slot->agreed, from, slot->n_agreed * sizeof *from);
                }
            }
        }
    }
    return MG_ERROR_OK;
}

static int comm_ready(coll_match *cm, uint32_t comm, uint32_t size)
{
    if (comm >= cm->cap) {
        size_t cap = cm->cap ? cm->cap : COLL_MIN_CAP;
        while (cap <= comm) {
            cap *= 2;
        }
        coll_match_comm *p = realloc(cm->comms, cap * sizeof *p);
        if (!p) {
            return MG_ERROR_ENOMEM;
        }
        memset(p + cm->cap, 0, (cap - cm->cap) * sizeof *p);
        cm->comms = p;
        cm->cap = cap;
    }
    if (comm >= cm->n) {
        cm->n = comm + 1;
    }
    coll_match_comm *c = &cm->comms[comm];
    if (c->size == 0) {
        c->issued = calloc(size, sizeof(uint32_t));
        c->slots = malloc(COLL_MIN_CAP * sizeof(coll_match_entry));
        if (!c->issued || !c->slots) {
            comm_free(c);
            memset(c, 0, sizeof *c);
            return MG_ERROR_ENOMEM;
        }
        c->size = size;
        c->cap = COLL_MIN_CAP;
    }
    return c->size == size ? MG_ERROR_OK : MG_ERROR_EINVAL;
}

/* Room for one more open slot of c. */
static int slot_room(coll_match_comm *c)
{
    if (c->n < c->cap) {
        return MG_ERROR_OK;
    }
    coll_match_entry *p = malloc(2 * c->cap * sizeof *p);
    if (!p) {
        return MG_ERROR_ENOMEM;
    }
    for (size_t i = 0; i < c->n; i++) {
        p[i] = *slot_at(c, i);
    }
    free(c->slots);
    c->slots = p;
    c->head = 0;
    c->cap *= 2;
    return MG_ERROR_OK;
}

static unsigned compare(const coll_match_call *ref, const coll_match_call *call)
{
    unsigned m = 0;
    if (ref->func != call->func) {
        const check_event_func_info *a = check_event_func_describe(ref->func),
                                    *b = check_event_func_describe(call->func);
        m |= a && b && a->base == b->base ? DL_FINDING_MISMATCH_BLOCKING : DL_FINDING_MISMATCH_KIND;
        return m;
    }
    const check_event_func_info *info = check_event_func_describe(call->func);
    if (info && info->rooted && ref->root != call->root) {
        m |= DL_FINDING_MISMATCH_ROOT;
    }
    if (info && info->has_op && ref->op != call->op) {
        m |= DL_FINDING_MISMATCH_OP;
    }
    if (ref->type_period && call->type_period &&
        (ref->type_elems != call->type_elems || ref->type_hash != call->type_hash)) {
        m |= DL_FINDING_MISMATCH_TYPE;
    }
    return m;
}

/* Keeps call among the calls of slot s that agreed with its first, if there is room. Errors:
 * MG_ERROR_ENOMEM (not kept). */
static int keep_agreed(const coll_match *cm, const coll_match_comm *c, coll_match_entry *s,
                       const coll_match_call *call)
{
    if (s->n_agreed == agreed_room(cm, c)) {
        return MG_ERROR_OK;
    }
    if (!s->agreed) {
        s->agreed = malloc(agreed_room(cm, c) * sizeof *s->agreed);
        if (!s->agreed) {
            return MG_ERROR_ENOMEM;
        }
    }
    s->agreed[s->n_agreed++] = *call;
    return MG_ERROR_OK;
}

int coll_match_arrive(coll_match *cm, uint32_t comm, uint32_t size, uint32_t local,
                      const coll_match_call *call, coll_match_arrival *out)
{
    if (!cm || !call || !out || local >= size) {
        return MG_ERROR_EINVAL;
    }
    int rc = comm_ready(cm, comm, size);
    if (rc) {
        return rc;
    }
    coll_match_comm *c = &cm->comms[comm];
    uint64_t k = c->issued[local];
    size_t i = (size_t)(k - c->base);
    if (i == c->n) {
        if (slot_room(c)) {
            return MG_ERROR_ENOMEM;
        }
        c->n++;
        *slot_at(c, i) = (coll_match_entry){*call, NULL, 0, 0, COLL_MATCH_NONE};
    }
    coll_match_entry *s = slot_at(c, i);
    unsigned mismatch = compare(&s->first, call);
    if (s->arrived && !mismatch && s->finding >= COLL_MATCH_HELD && keep_agreed(cm, c, s, call)) {
        return MG_ERROR_ENOMEM;
    }
    out->slot = k;
    out->mismatch = mismatch;
    out->ref = s;
    c->issued[local]++;
    s->arrived++;
    out->complete = 0;
    while (c->n > 0 && slot_at(c, 0)->arrived == c->size) {
        /* The caller may still read the agreed calls of the slot just completed (out->ref). */
        free(c->retired.agreed);
        c->retired = *slot_at(c, 0);
        out->complete = 1;
        c->head = (c->head + 1) % c->cap;
        c->n--;
        c->base++;
    }
    return MG_ERROR_OK;
}

/* Takes rank's call out of slot s (its reference, or one of the calls that agreed with it). */
static void drop_call(coll_match_entry *s, int32_t rank)
{
    uint32_t i = 0;
    if (s->first.rank == rank) {
        if (s->n_agreed == 0) {
            return;
        }
        s->first = s->agreed[0];
    } else {
        while (i < s->n_agreed && s->agreed[i].rank != rank) {
            i++;
        }
        if (i == s->n_agreed) {
            return;
        }
    }
    memmove(&s->agreed[i], &s->agreed[i + 1], (s->n_agreed - i - 1) * sizeof *s->agreed);
    s->n_agreed--;
}

int coll_match_withdraw(coll_match *cm, uint32_t comm, uint32_t local, int32_t rank, uint64_t k,
                        int *reopened)
{
    coll_match_comm *c = comm < cm->n ? &cm->comms[comm] : NULL;
    if (!c || local >= c->size || c->issued[local] != k + 1 ||
        (k < c->base && (k + 1 != c->base || c->retired.arrived == 0))) {
        return MG_ERROR_EINVAL;
    }
    *reopened = k < c->base;
    if (*reopened) {
        if (slot_room(c)) {
            return MG_ERROR_ENOMEM;
        }
        c->head = (c->head + c->cap - 1) % c->cap;
        c->n++;
        c->base--;
        *slot_at(c, 0) = c->retired;
        c->retired = (coll_match_entry){.agreed = NULL};
    }
    coll_match_entry *s = slot_at(c, (size_t)(k - c->base));
    c->issued[local]--;
    drop_call(s, rank);
    if (--s->arrived == 0) { /* the last open slot, as nobody else issued k */
        free(s->agreed);
        c->n--;
    }
    return MG_ERROR_OK;
}

/* Whether rank's call is slot s's first or one kept as agreeing. */
static int kept(const coll_match_entry *s, int32_t rank)
{
    for (uint32_t i = 0; i < s->n_agreed; i++) {
        if (s->agreed[i].rank == rank) {
            return 1;
        }
    }
    return s->first.rank == rank;
}

int coll_match_recompare(coll_match *cm, uint32_t comm, uint64_t k, int32_t refused,
                         const coll_match_call *calls, uint32_t n, unsigned *mismatch)
{
    coll_match_entry *s = coll_match_slot(cm, comm, k);
    if (!s) {
        return MG_ERROR_EINVAL;
    }
    s->finding = COLL_MATCH_NONE;
    if (s->first.rank == refused && n > 0) {
        s->first = calls[0];
    }
    int rc = MG_ERROR_OK;
    for (uint32_t i = 0; i < n; i++) {
        mismatch[i] = compare(&s->first, &calls[i]);
        if (!mismatch[i] && !kept(s, calls[i].rank) && !rc) {
            rc = keep_agreed(cm, &cm->comms[comm], s, &calls[i]);
        }
    }
    return rc;
}

int coll_match_complete(const coll_match *cm, uint32_t comm, uint64_t k)
{
    return comm < cm->n && cm->comms[comm].size && k < cm->comms[comm].base;
}

uint32_t coll_match_issued(const coll_match *cm, uint32_t comm, uint32_t local)
{
    return comm < cm->n && cm->comms[comm].size ? cm->comms[comm].issued[local] : 0;
}

coll_match_entry *coll_match_slot(coll_match *cm, uint32_t comm, uint64_t k)
{
    if (comm >= cm->n || !cm->comms[comm].size) {
        return NULL;
    }
    coll_match_comm *c = &cm->comms[comm];
    if (k < c->base || k - c->base >= c->n) {
        return NULL;
    }
    return slot_at(c, (size_t)(k - c->base));
}

coll_match_entry *coll_match_find(coll_match *cm, uint32_t comm, uint64_t k)
{
    coll_match_entry *s = coll_match_slot(cm, comm, k);
    if (s || comm >= cm->n || !cm->comms[comm].size) {
        return s;
    }
    coll_match_comm *c = &cm->comms[comm];
    return c->retired.arrived && k + 1 == c->base ? &c->retired : NULL;
}
