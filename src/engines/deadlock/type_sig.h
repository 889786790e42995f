/* Datatype signatures without expanding the type map: each type, described as data (its
 * constructor and arguments, earlier types by id), gets once (at commit or first use) its length in
 * basic elements and a composable hash of its basic-element sequence; messages (count x type),
 * prefixes and single elements are then derived in O(depth x log) time and no allocation.
 * Spec: issue 28 item 1, docs/design/check.md "Usage checks"; design: docs/design/check-detector.md
 * §13.
 */
#ifndef TYPE_SIG_H
#define TYPE_SIG_H

#include <stddef.h>
#include <stdint.h>

#include "type_sig_desc.h"

/* The signature of a message or of one instance of a type: its length in basic elements, its
 * hash (see docs/design/check-detector.md §13), its size in bytes (LP64 sizes), and the one basic
 * type all its elements have (`unit`, TYPE_SIG_DESC_NONE when it mixes several). */
typedef struct type_sig {
    uint64_t elems;
    uint64_t hash;
    uint64_t bytes;
    uint32_t unit;
} type_sig;

/* One run of the flattened description: `repeat` copies of type `type`, ending at element `end`
 * of the parent, with `prefix` the hash of the parent's elements [0, end) and prefix_pow the
 * hash base to the power `end`. */
typedef struct type_sig_part {
    uint32_t type;
    uint64_t repeat, end, prefix, prefix_pow;
} type_sig_part;

typedef struct type_sig_node {
    type_sig sig;
    uint64_t pow;                 /* the hash base to the power sig.elems */
    uint32_t first_part, n_parts; /* runs in the table's part array (none for a basic type) */
    uint32_t depth;               /* 0 for basic types */
} type_sig_node;

/* The types known to a detector: ids < TYPE_SIG_DESC_PREDEFINED_COUNT are the predefined codes, the
 * rest are returned by type_sig_define in order. Types are never removed: a freed MPI type may
 * still describe a pending request, and a new handle gets a new id. */
typedef struct type_sig_table {
    type_sig_node *nodes;
    size_t n_nodes, cap_nodes;
    type_sig_part *parts;
    size_t n_parts, cap_parts;
} type_sig_table;

/* Nesting deeper than this is refused (MG_ERROR_ERANGE), so every walk down a type is bounded. */
#define TYPE_SIG_MAX_DEPTH 1024u

/* Sets up the table with the predefined types. Errors: MG_ERROR_ENOMEM (the table is then empty and
 * may be freed). Not thread-safe on one table. */
int type_sig_table_init(type_sig_table *t);
void type_sig_table_free(type_sig_table *t);

/* Computes the signature of a derived type in O(its own blocks x log) time, whatever the depth of
 * the types it refers to, and stores it as a new id in *id. Memory: one part per run of blocks of
 * a different type (an INDEXED type of 10^6 blocks takes one). Errors: MG_ERROR_EINVAL (NULL
 * argument, unknown constructor, negative count or size, an array NULL with a positive count),
 * MG_ERROR_ENOENT (a referenced type is not in the table), MG_ERROR_ERANGE (elements past 2^64 - 1
 * or nesting past TYPE_SIG_MAX_DEPTH), MG_ERROR_ENOMEM; on failure the table is unchanged. */
int type_sig_define(type_sig_table *t, const type_sig_desc *desc, uint32_t *id);

/* The signature of count x type (count >= 0) in O(log count). Errors: MG_ERROR_ENOENT (unknown
 * type), MG_ERROR_EINVAL (negative count), MG_ERROR_ERANGE (elements past 2^64 - 1). */
int type_sig_message(const type_sig_table *t, uint32_t type, int64_t count, type_sig *out);

/* Hash of the first n elements of count x type (n <= the message's elements), in
 * O(depth x log) time. Errors as type_sig_message, and MG_ERROR_ERANGE when n is past the end. */
int type_sig_prefix_hash(const type_sig_table *t, uint32_t type, int64_t count, uint64_t n,
                         uint64_t *hash);

/* The basic type (a code < TYPE_SIG_DESC_FIRST_PAIR) of element `pos` of count x type, in
 * O(depth x log) time. Errors as type_sig_prefix_hash. */
int type_sig_element(const type_sig_table *t, uint32_t type, int64_t count, uint64_t pos,
                     uint32_t *basic);

/* Name of a predefined code ("MPI_INT", ...), or "derived" for other ids. */
const char *type_sig_name(uint32_t type);

#endif
