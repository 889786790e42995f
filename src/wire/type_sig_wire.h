/* Internal to src/wire: no other folder includes it (docs/architecture.md). */
/* The byte form of a datatype description (type_sig_desc plus the capture side's id for the new
 * type), for the capture stream: little-endian, a fixed header then the constructor's arrays, so a
 * description cut anywhere is refused with MG_ERROR_EFORMAT. Design: docs/design/check-detector.md
 * §13. */
#ifndef TYPE_SIG_WIRE_H
#define TYPE_SIG_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "type_sig_desc.h"

#define TYPE_SIG_WIRE_MAGIC 0x5354u /* "TS" read as a little-endian u16 */
#define TYPE_SIG_WIRE_VERSION 1u
#define TYPE_SIG_WIRE_HEADER_SIZE 40u
/* Upper bound on a constructor's count, so a corrupted count is refused before any allocation. */
#define TYPE_SIG_WIRE_MAX_COUNT (1u << 26)

/* Encodes the description of type `id` (ids of the capture side, in oldtype and types too) into
 * buf[0..cap); *written gets its size. Errors: MG_ERROR_EINVAL (NULL argument, bad constructor,
 * negative count, an array NULL that the constructor needs), MG_ERROR_ERANGE (count past
 * TYPE_SIG_WIRE_MAX_COUNT), MG_ERROR_EFULL (cap too small; buf untouched). Thread-safe,
 * allocation-free. */
int type_sig_wire_encode(const type_sig_desc *desc, uint32_t id, uint8_t *buf, size_t cap,
                         size_t *written);

/* Decodes the description at buf[0..len): *desc's arrays point into one block stored in *storage,
 * which the caller frees (NULL when the constructor has no arrays); *consumed gets the size, so a
 * stream can be walked. Never reads outside buf[0..len). Errors: MG_ERROR_EINVAL (NULL argument),
 * MG_ERROR_EFORMAT (short buffer: a description cut anywhere; bad magic, constructor, count or
 * length), MG_ERROR_EVERSION (another version), MG_ERROR_ENOMEM; on failure nothing is allocated.
 */
int type_sig_wire_decode(const uint8_t *buf, size_t len, type_sig_desc *desc, uint32_t *id,
                         void **storage, size_t *consumed);

#endif
