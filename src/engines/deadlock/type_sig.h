/* Datatype signatures without expanding the type map: each type, described as data (its
 * constructor and arguments, earlier types by id), gets once (at commit or first use) its length in
 * basic elements and a composable hash of its basic-element sequence; messages (count x type),
 * prefixes and single elements are then derived in O(depth x log) time and no allocation.
 * Spec: issue 28 item 1, docs/design/check.md "Usage checks"; design: docs/check-detector.md §13. */
#ifndef TYPE_SIG_H
#define TYPE_SIG_H

#include <stddef.h>
#include <stdint.h>

/* Predefined datatypes: our own stable codes, not MPI handles (the capture module translates).
 * Values are part of the capture stream: append only. Codes below TYPE_SIG_FLOAT_INT are basic
 * types (one element each); the pair types after it are their constituent runs. */
typedef enum type_sig_predefined {
    TYPE_SIG_NONE = 0,
    /* C */
    TYPE_SIG_CHAR,
    TYPE_SIG_SIGNED_CHAR,
    TYPE_SIG_UNSIGNED_CHAR,
    TYPE_SIG_WCHAR,
    TYPE_SIG_SHORT,
    TYPE_SIG_UNSIGNED_SHORT,
    TYPE_SIG_INT,
    TYPE_SIG_UNSIGNED,
    TYPE_SIG_LONG,
    TYPE_SIG_UNSIGNED_LONG,
    TYPE_SIG_LONG_LONG,
    TYPE_SIG_UNSIGNED_LONG_LONG,
    TYPE_SIG_FLOAT,
    TYPE_SIG_DOUBLE,
    TYPE_SIG_LONG_DOUBLE,
    TYPE_SIG_C_BOOL,
    TYPE_SIG_INT8_T,
    TYPE_SIG_INT16_T,
    TYPE_SIG_INT32_T,
    TYPE_SIG_INT64_T,
    TYPE_SIG_UINT8_T,
    TYPE_SIG_UINT16_T,
    TYPE_SIG_UINT32_T,
    TYPE_SIG_UINT64_T,
    TYPE_SIG_C_FLOAT_COMPLEX,
    TYPE_SIG_C_DOUBLE_COMPLEX,
    TYPE_SIG_C_LONG_DOUBLE_COMPLEX,
    TYPE_SIG_AINT,
    TYPE_SIG_OFFSET,
    TYPE_SIG_COUNT,
    /* language-neutral */
    TYPE_SIG_BYTE,
    TYPE_SIG_PACKED,
    /* Fortran */
    TYPE_SIG_CHARACTER,
    TYPE_SIG_LOGICAL,
    TYPE_SIG_INTEGER,
    TYPE_SIG_REAL,
    TYPE_SIG_DOUBLE_PRECISION,
    TYPE_SIG_COMPLEX,
    TYPE_SIG_DOUBLE_COMPLEX,
    TYPE_SIG_INTEGER1,
    TYPE_SIG_INTEGER2,
    TYPE_SIG_INTEGER4,
    TYPE_SIG_INTEGER8,
    TYPE_SIG_REAL4,
    TYPE_SIG_REAL8,
    TYPE_SIG_REAL16,
    TYPE_SIG_COMPLEX8,
    TYPE_SIG_COMPLEX16,
    TYPE_SIG_COMPLEX32,
    /* C++ */
    TYPE_SIG_CXX_BOOL,
    TYPE_SIG_CXX_FLOAT_COMPLEX,
    TYPE_SIG_CXX_DOUBLE_COMPLEX,
    TYPE_SIG_CXX_LONG_DOUBLE_COMPLEX,
    /* pair types (MAXLOC/MINLOC): not basic, each is its runs */
    TYPE_SIG_FLOAT_INT,
    TYPE_SIG_DOUBLE_INT,
    TYPE_SIG_LONG_INT,
    TYPE_SIG_2INT,
    TYPE_SIG_SHORT_INT,
    TYPE_SIG_LONG_DOUBLE_INT,
    TYPE_SIG_2REAL,
    TYPE_SIG_2DOUBLE_PRECISION,
    TYPE_SIG_2INTEGER,
    TYPE_SIG_PREDEFINED_COUNT /* derived types get ids from here on */
} type_sig_predefined;

#define TYPE_SIG_FIRST_PAIR TYPE_SIG_FLOAT_INT

/* Derived-type constructors. Values are part of the capture stream: append only. */
typedef enum type_sig_constructor {
    TYPE_SIG_CONTIGUOUS = 1,
    TYPE_SIG_VECTOR,
    TYPE_SIG_HVECTOR,
    TYPE_SIG_INDEXED,
    TYPE_SIG_HINDEXED,
    TYPE_SIG_INDEXED_BLOCK,
    TYPE_SIG_HINDEXED_BLOCK,
    TYPE_SIG_STRUCT,
    TYPE_SIG_SUBARRAY,
    TYPE_SIG_DARRAY,
    TYPE_SIG_RESIZED,
    TYPE_SIG_DUP,
    TYPE_SIG_CONSTRUCTOR_END
} type_sig_constructor;

/* darray distributions (MPI_DISTRIBUTE_*) and the default block argument. */
enum type_sig_distribution { TYPE_SIG_DIST_NONE = 0, TYPE_SIG_DIST_BLOCK, TYPE_SIG_DIST_CYCLIC };
#define TYPE_SIG_DARG_DEFAULT (-1)

/* A constructor call as data. Displacements, strides, starts, extents and the array order do not
 * change a signature and are not part of it. Arrays are borrowed.
 *   CONTIGUOUS        count x oldtype
 *   VECTOR, HVECTOR, INDEXED_BLOCK, HINDEXED_BLOCK
 *                     count blocks of blocklength x oldtype
 *   INDEXED, HINDEXED count blocks of blocklengths[i] x oldtype
 *   STRUCT            count blocks of blocklengths[i] x types[i]
 *   SUBARRAY          ndims = count, subsizes[] of oldtype
 *   DARRAY            ndims = count, gsizes[], distribs[], dargs[], psizes[]; the process `rank`
 *                     (row-major in the process grid, whatever the array order)
 *   RESIZED, DUP      oldtype (the signature is oldtype's) */
typedef struct type_sig_desc {
    uint8_t constructor; /* type_sig_constructor */
    uint32_t oldtype;    /* every constructor but STRUCT */
    int64_t count;
    int64_t blocklength;
    const int64_t *blocklengths; /* INDEXED, HINDEXED, STRUCT */
    const uint32_t *types;       /* STRUCT */
    const int64_t *sizes;        /* SUBARRAY: subsizes; DARRAY: gsizes */
    const int32_t *distribs;     /* DARRAY: type_sig_distribution per dimension */
    const int64_t *dargs;        /* DARRAY: block argument or TYPE_SIG_DARG_DEFAULT */
    const int64_t *psizes;       /* DARRAY: processes per dimension */
    int64_t rank;                /* DARRAY */
} type_sig_desc;

/* The signature of a message or of one instance of a type: its length in basic elements, its
 * hash (see docs/check-detector.md §13), its size in bytes (LP64 sizes), and the one basic type
 * all its elements have (`unit`, TYPE_SIG_NONE when it mixes several). */
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

/* The types known to a detector: ids < TYPE_SIG_PREDEFINED_COUNT are the predefined codes, the
 * rest are returned by type_sig_define in order. Types are never removed: a freed MPI type may
 * still describe a pending request, and a new handle gets a new id. */
typedef struct type_sig_table {
    type_sig_node *nodes;
    size_t n_nodes, cap_nodes;
    type_sig_part *parts;
    size_t n_parts, cap_parts;
} type_sig_table;

/* Nesting deeper than this is refused (MG_ERANGE), so every walk down a type is bounded. */
#define TYPE_SIG_MAX_DEPTH 1024u

/* Sets up the table with the predefined types. Errors: MG_ENOMEM (the table is then empty and
 * may be freed). Not thread-safe on one table. */
int type_sig_table_init(type_sig_table *t);
void type_sig_table_free(type_sig_table *t);

/* Computes the signature of a derived type in O(its own blocks x log) time, whatever the depth of
 * the types it refers to, and stores it as a new id in *id. Memory: one part per run of blocks of
 * a different type (an INDEXED type of 10^6 blocks takes one). Errors: MG_EINVAL (NULL argument,
 * unknown constructor, negative count or size, an array NULL with a positive count), MG_ENOENT
 * (a referenced type is not in the table), MG_ERANGE (elements past 2^64 - 1 or nesting past
 * TYPE_SIG_MAX_DEPTH), MG_ENOMEM; on failure the table is unchanged. */
int type_sig_define(type_sig_table *t, const type_sig_desc *desc, uint32_t *id);

/* The signature of count x type (count >= 0) in O(log count). Errors: MG_ENOENT (unknown type),
 * MG_EINVAL (negative count), MG_ERANGE (elements past 2^64 - 1). */
int type_sig_message(const type_sig_table *t, uint32_t type, int64_t count, type_sig *out);

/* Hash of the first n elements of count x type (n <= the message's elements), in
 * O(depth x log) time. Errors as type_sig_message, and MG_ERANGE when n is past the end. */
int type_sig_prefix_hash(const type_sig_table *t, uint32_t type, int64_t count, uint64_t n,
                         uint64_t *hash);

/* The basic type (a code < TYPE_SIG_FIRST_PAIR) of element `pos` of count x type, in
 * O(depth x log) time. Errors as type_sig_prefix_hash. */
int type_sig_element(const type_sig_table *t, uint32_t type, int64_t count, uint64_t pos,
                     uint32_t *basic);

/* Name of a predefined code ("MPI_INT", ...), or "derived" for other ids. */
const char *type_sig_name(uint32_t type);

#endif
