/* A datatype as the capture stream describes it: the predefined codes and a constructor call as
 * data, which the capture module writes (type_sig_wire.h) and the type-signature engine
 * (src/engines/deadlock/type_sig.h) reads. Design: docs/design/check-detector.md §13. */
#ifndef TYPE_SIG_DESC_H
#define TYPE_SIG_DESC_H

#include <stdint.h>

/* Predefined datatypes: our own stable codes, not MPI handles (the capture module translates).
 * Values are part of the capture stream: append only. Codes below TYPE_SIG_DESC_FLOAT_INT are basic
 * types (one element each); the pair types after it are their constituent runs. */
typedef enum type_sig_desc_predefined {
    TYPE_SIG_DESC_NONE = 0,
    /* C */
    TYPE_SIG_DESC_CHAR,
    TYPE_SIG_DESC_SIGNED_CHAR,
    TYPE_SIG_DESC_UNSIGNED_CHAR,
    TYPE_SIG_DESC_WCHAR,
    TYPE_SIG_DESC_SHORT,
    TYPE_SIG_DESC_UNSIGNED_SHORT,
    TYPE_SIG_DESC_INT,
    TYPE_SIG_DESC_UNSIGNED,
    TYPE_SIG_DESC_LONG,
    TYPE_SIG_DESC_UNSIGNED_LONG,
    TYPE_SIG_DESC_LONG_LONG,
    TYPE_SIG_DESC_UNSIGNED_LONG_LONG,
    TYPE_SIG_DESC_FLOAT,
    TYPE_SIG_DESC_DOUBLE,
    TYPE_SIG_DESC_LONG_DOUBLE,
    TYPE_SIG_DESC_C_BOOL,
    TYPE_SIG_DESC_INT8_T,
    TYPE_SIG_DESC_INT16_T,
    TYPE_SIG_DESC_INT32_T,
    TYPE_SIG_DESC_INT64_T,
    TYPE_SIG_DESC_UINT8_T,
    TYPE_SIG_DESC_UINT16_T,
    TYPE_SIG_DESC_UINT32_T,
    TYPE_SIG_DESC_UINT64_T,
    TYPE_SIG_DESC_C_FLOAT_COMPLEX,
    TYPE_SIG_DESC_C_DOUBLE_COMPLEX,
    TYPE_SIG_DESC_C_LONG_DOUBLE_COMPLEX,
    TYPE_SIG_DESC_AINT,
    TYPE_SIG_DESC_OFFSET,
    TYPE_SIG_DESC_COUNT,
    /* language-neutral */
    TYPE_SIG_DESC_BYTE,
    TYPE_SIG_DESC_PACKED,
    /* Fortran */
    TYPE_SIG_DESC_CHARACTER,
    TYPE_SIG_DESC_LOGICAL,
    TYPE_SIG_DESC_INTEGER,
    TYPE_SIG_DESC_REAL,
    TYPE_SIG_DESC_DOUBLE_PRECISION,
    TYPE_SIG_DESC_COMPLEX,
    TYPE_SIG_DESC_DOUBLE_COMPLEX,
    TYPE_SIG_DESC_INTEGER1,
    TYPE_SIG_DESC_INTEGER2,
    TYPE_SIG_DESC_INTEGER4,
    TYPE_SIG_DESC_INTEGER8,
    TYPE_SIG_DESC_REAL4,
    TYPE_SIG_DESC_REAL8,
    TYPE_SIG_DESC_REAL16,
    TYPE_SIG_DESC_COMPLEX8,
    TYPE_SIG_DESC_COMPLEX16,
    TYPE_SIG_DESC_COMPLEX32,
    /* C++ */
    TYPE_SIG_DESC_CXX_BOOL,
    TYPE_SIG_DESC_CXX_FLOAT_COMPLEX,
    TYPE_SIG_DESC_CXX_DOUBLE_COMPLEX,
    TYPE_SIG_DESC_CXX_LONG_DOUBLE_COMPLEX,
    /* pair types (MAXLOC/MINLOC): not basic, each is its runs */
    TYPE_SIG_DESC_FLOAT_INT,
    TYPE_SIG_DESC_DOUBLE_INT,
    TYPE_SIG_DESC_LONG_INT,
    TYPE_SIG_DESC_2INT,
    TYPE_SIG_DESC_SHORT_INT,
    TYPE_SIG_DESC_LONG_DOUBLE_INT,
    TYPE_SIG_DESC_2REAL,
    TYPE_SIG_DESC_2DOUBLE_PRECISION,
    TYPE_SIG_DESC_2INTEGER,
    TYPE_SIG_DESC_PREDEFINED_COUNT /* derived types get ids from here on */
} type_sig_desc_predefined;

#define TYPE_SIG_DESC_FIRST_PAIR TYPE_SIG_DESC_FLOAT_INT

/* Derived-type constructors. Values are part of the capture stream: append only. */
typedef enum type_sig_desc_constructor {
    TYPE_SIG_DESC_CONTIGUOUS = 1,
    TYPE_SIG_DESC_VECTOR,
    TYPE_SIG_DESC_HVECTOR,
    TYPE_SIG_DESC_INDEXED,
    TYPE_SIG_DESC_HINDEXED,
    TYPE_SIG_DESC_INDEXED_BLOCK,
    TYPE_SIG_DESC_HINDEXED_BLOCK,
    TYPE_SIG_DESC_STRUCT,
    TYPE_SIG_DESC_SUBARRAY,
    TYPE_SIG_DESC_DARRAY,
    TYPE_SIG_DESC_RESIZED,
    TYPE_SIG_DESC_DUP,
    TYPE_SIG_DESC_CONSTRUCTOR_END
} type_sig_desc_constructor;

/* darray distributions (MPI_DISTRIBUTE_*) and the default block argument. */
enum type_sig_desc_distribution {
    TYPE_SIG_DESC_DIST_NONE = 0,
    TYPE_SIG_DESC_DIST_BLOCK,
    TYPE_SIG_DESC_DIST_CYCLIC
};
#define TYPE_SIG_DESC_DARG_DEFAULT (-1)

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
    uint8_t constructor; /* type_sig_desc_constructor */
    uint32_t oldtype;    /* every constructor but STRUCT */
    int64_t count;
    int64_t blocklength;
    const int64_t *blocklengths; /* INDEXED, HINDEXED, STRUCT */
    const uint32_t *types;       /* STRUCT */
    const int64_t *sizes;        /* SUBARRAY: subsizes; DARRAY: gsizes */
    const int32_t *distribs;     /* DARRAY: type_sig_desc_distribution per dimension */
    const int64_t *dargs;        /* DARRAY: block argument or TYPE_SIG_DESC_DARG_DEFAULT */
    const int64_t *psizes;       /* DARRAY: processes per dimension */
    int64_t rank;                /* DARRAY */
} type_sig_desc;

#endif
