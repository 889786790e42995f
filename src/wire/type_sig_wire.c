/* The byte form of a datatype description: see type_sig_wire.h.
 *
 * Layout: u16 magic, u8 version, u8 constructor, u32 id, u32 oldtype, u32 payload length,
 * i64 count, i64 blocklength, i64 rank (40 bytes); then count entries of each array the
 * constructor has, the 64-bit ones first (blocklengths; sizes, dargs, psizes) and the 32-bit ones
 * after (types; distribs), so the arrays stay aligned when the payload is copied to one block. */
#include "type_sig_wire.h"

#include <stdlib.h>
#include <string.h>

#include "mg_error.h"

/* Fields are copied in the host's byte order: both ends of the stream are x86-64 or another
 * little-endian host, and a big-endian build fails here rather than misreading the stream. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the capture stream is little-endian");

enum {
    OFF_MAGIC = 0,
    OFF_VERSION = 2,
    OFF_CONSTRUCTOR = 3,
    OFF_ID = 4,
    OFF_OLDTYPE = 8,
    OFF_PAYLOAD = 12,
    OFF_COUNT = 16,
    OFF_BLOCKLENGTH = 24,
    OFF_RANK = 32
};

/* The arrays a constructor carries: how many of 64 and of 32 bits. */
static int arrays_of(int constructor, int *n64, int *n32)
{
    switch (constructor) {
    case TYPE_SIG_DESC_INDEXED:
    case TYPE_SIG_DESC_HINDEXED:
    case TYPE_SIG_DESC_SUBARRAY:
        *n64 = 1, *n32 = 0;
        return MG_ERROR_OK;
    case TYPE_SIG_DESC_STRUCT:
        *n64 = 1, *n32 = 1;
        return MG_ERROR_OK;
    case TYPE_SIG_DESC_DARRAY:
        *n64 = 3, *n32 = 1;
        return MG_ERROR_OK;
    default:
        *n64 = 0, *n32 = 0;
        return constructor >= TYPE_SIG_DESC_CONTIGUOUS &&
                       constructor < TYPE_SIG_DESC_CONSTRUCTOR_END
                   ? MG_ERROR_OK
                   : MG_ERROR_EINVAL;
    }
}

/* The arrays of a description in wire order, as byte pointers (NULL where absent). */
static void array_slots(const type_sig_desc *d, const void *slot64[3], const void **slot32)
{
    slot64[0] = d->constructor == TYPE_SIG_DESC_SUBARRAY || d->constructor == TYPE_SIG_DESC_DARRAY
                    ? (const void *)d->sizes
                    : (const void *)d->blocklengths;
    slot64[1] = d->dargs;
    slot64[2] = d->psizes;
    *slot32 = d->constructor == TYPE_SIG_DESC_STRUCT ? (const void *)d->types
                                                     : (const void *)d->distribs;
}

int type_sig_wire_encode(const type_sig_desc *d, uint32_t id, uint8_t *buf, size_t cap,
                         size_t *written)
{
    int n64, n32;
    if (!d || !buf || !written || d->count < 0 || arrays_of(d->constructor, &n64, &n32)) {
        return MG_ERROR_EINVAL;
    }
    if (d->count > (int64_t)TYPE_SIG_WIRE_MAX_COUNT) {
        return MG_ERROR_ERANGE;
    }
    size_t count = (size_t)d->count, payload = count * (8u * (size_t)n64 + 4u * (size_t)n32);
    const void *slot64[3], *slot32;
    array_slots(d, slot64, &slot32);
    for (int i = 0; i < n64; i++) {
        if (count && !slot64[i]) {
            return MG_ERROR_EINVAL;
        }
    }
    if (n32 && count && !slot32) {
        return MG_ERROR_EINVAL;
    }
    if (cap < TYPE_SIG_WIRE_HEADER_SIZE + payload) {
        return MG_ERROR_EFULL;
    }
    uint16_t magic = TYPE_SIG_WIRE_MAGIC;
    uint32_t payload32 = (uint32_t)payload;
    memcpy(buf + OFF_MAGIC, &magic, 2);
    buf[OFF_VERSION] = TYPE_SIG_WIRE_VERSION;
    buf[OFF_CONSTRUCTOR] = d->constructor;
    memcpy(buf + OFF_ID, &id, 4);
    memcpy(buf + OFF_OLDTYPE, &d->oldtype, 4);
    memcpy(buf + OFF_PAYLOAD, &payload32, 4);
    memcpy(buf + OFF_COUNT, &d->count, 8);
    memcpy(buf + OFF_BLOCKLENGTH, &d->blocklength, 8);
    memcpy(buf + OFF_RANK, &d->rank, 8);
    uint8_t *p = buf + TYPE_SIG_WIRE_HEADER_SIZE;
    for (int i = 0; i < n64; i++, p += count * 8) {
        memcpy(p, slot64[i], count * 8);
    }
    if (n32) {
        memcpy(p, slot32, count * 4);
    }
    *written = TYPE_SIG_WIRE_HEADER_SIZE + payload;
    return MG_ERROR_OK;
}

int type_sig_wire_decode(const uint8_t *buf, size_t len, type_sig_desc *d, uint32_t *id,
                         void **storage, size_t *consumed)
{
    if (!buf || !d || !id || !storage || !consumed) {
        return MG_ERROR_EINVAL;
    }
    if (len < TYPE_SIG_WIRE_HEADER_SIZE) {
        return MG_ERROR_EFORMAT;
    }
    uint16_t magic;
    uint32_t payload;
    memcpy(&magic, buf + OFF_MAGIC, 2);
    if (magic != TYPE_SIG_WIRE_MAGIC) {
        return MG_ERROR_EFORMAT;
    }
    if (buf[OFF_VERSION] != TYPE_SIG_WIRE_VERSION) {
        return MG_ERROR_EVERSION;
    }
    type_sig_desc out = {.constructor = buf[OFF_CONSTRUCTOR]};
    memcpy(id, buf + OFF_ID, 4);
    memcpy(&out.oldtype, buf + OFF_OLDTYPE, 4);
    memcpy(&payload, buf + OFF_PAYLOAD, 4);
    memcpy(&out.count, buf + OFF_COUNT, 8);
    memcpy(&out.blocklength, buf + OFF_BLOCKLENGTH, 8);
    memcpy(&out.rank, buf + OFF_RANK, 8);
    int n64, n32;
    if (arrays_of(out.constructor, &n64, &n32) || out.count < 0 ||
        out.count > (int64_t)TYPE_SIG_WIRE_MAX_COUNT ||
        payload != (uint64_t)out.count * (8u * (unsigned)n64 + 4u * (unsigned)n32) ||
        len - TYPE_SIG_WIRE_HEADER_SIZE < payload) {
        return MG_ERROR_EFORMAT;
    }
    uint8_t *block = NULL;
    if (payload) {
        block = malloc(payload);
        if (!block) {
            return MG_ERROR_ENOMEM;
        }
        memcpy(block, buf + TYPE_SIG_WIRE_HEADER_SIZE, payload);
    }
    size_t count = (size_t)out.count;
    const int64_t *first = (const int64_t *)block;
    const void *after64 = block ? block + count * 8 * (size_t)n64 : NULL;
    if (out.constructor == TYPE_SIG_DESC_SUBARRAY || out.constructor == TYPE_SIG_DESC_DARRAY) {
        out.sizes = first;
    } else {
        out.blocklengths = first;
    }
    if (out.constructor == TYPE_SIG_DESC_DARRAY && block) {
        out.dargs = first + count;
        out.psizes = first + 2 * count;
        out.distribs = after64;
    }
    if (out.constructor == TYPE_SIG_DESC_STRUCT) {
        out.types = after64;
    }
    *d = out;
    *storage = block;
    *consumed = TYPE_SIG_WIRE_HEADER_SIZE + payload;
    return MG_ERROR_OK;
}
