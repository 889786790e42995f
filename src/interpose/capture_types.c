/* The capture module's datatypes (capture_types.h): the predefined handles mapped to type_sig's
 * codes at MPI_Init, each derived type defined in the signature table when its constructor
 * returns (its signature does not depend on the commit), and the records' type fields. */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "capture_types.h"

#include "capture_call.h"
#include "capture_handles.h"
#include "capture_table.h"
#include "mg_error.h"
#include "type_match.h"
#include "type_sig.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Open MPI's predefined datatypes, weak for the reason mpi_handles_weak.h gives. */
#ifdef OPEN_MPI
#pragma weak ompi_mpi_2dblprec
#pragma weak ompi_mpi_2int
#pragma weak ompi_mpi_2integer
#pragma weak ompi_mpi_2real
#pragma weak ompi_mpi_aint
#pragma weak ompi_mpi_c_bool
#pragma weak ompi_mpi_c_double_complex
#pragma weak ompi_mpi_c_float_complex
#pragma weak ompi_mpi_c_long_double_complex
#pragma weak ompi_mpi_char
#pragma weak ompi_mpi_character
#pragma weak ompi_mpi_complex16
#pragma weak ompi_mpi_complex32
#pragma weak ompi_mpi_complex8
#pragma weak ompi_mpi_count
#pragma weak ompi_mpi_cplex
#pragma weak ompi_mpi_cxx_bool
#pragma weak ompi_mpi_cxx_cplex
#pragma weak ompi_mpi_cxx_dblcplex
#pragma weak ompi_mpi_cxx_ldblcplex
#pragma weak ompi_mpi_dblcplex
#pragma weak ompi_mpi_dblprec
#pragma weak ompi_mpi_double
#pragma weak ompi_mpi_double_int
#pragma weak ompi_mpi_float
#pragma weak ompi_mpi_float_int
#pragma weak ompi_mpi_int
#pragma weak ompi_mpi_int16_t
#pragma weak ompi_mpi_int32_t
#pragma weak ompi_mpi_int8_t
#pragma weak ompi_mpi_integer
#pragma weak ompi_mpi_integer1
#pragma weak ompi_mpi_integer2
#pragma weak ompi_mpi_integer4
#pragma weak ompi_mpi_integer8
#pragma weak ompi_mpi_logical
#pragma weak ompi_mpi_long
#pragma weak ompi_mpi_long_double
#pragma weak ompi_mpi_long_int
#pragma weak ompi_mpi_long_long_int
#pragma weak ompi_mpi_longdbl_int
#pragma weak ompi_mpi_offset
#pragma weak ompi_mpi_packed
#pragma weak ompi_mpi_real
#pragma weak ompi_mpi_real16
#pragma weak ompi_mpi_real4
#pragma weak ompi_mpi_real8
#pragma weak ompi_mpi_short
#pragma weak ompi_mpi_short_int
#pragma weak ompi_mpi_signed_char
#pragma weak ompi_mpi_uint16_t
#pragma weak ompi_mpi_uint64_t
#pragma weak ompi_mpi_uint8_t
#pragma weak ompi_mpi_unsigned
#pragma weak ompi_mpi_unsigned_char
#pragma weak ompi_mpi_unsigned_long
#pragma weak ompi_mpi_unsigned_long_long
#pragma weak ompi_mpi_unsigned_short
#pragma weak ompi_mpi_wchar
#endif

/* Handles a rank can map at once; past that a new type goes unknown (its messages uncompared). */
enum { MAX_TYPES = 1 << 16 };

static type_sig_table table;
/* MPI_Datatype bits -> table id | usage_args_type_state << 32 (TYPE_SIG_DESC_NONE: a type whose
 * signature is unknown, still tracked for the argument checks) */
static capture_table ids;
/* The handle Type_free is about to null. */
static MPI_Datatype freeing_type;

static uint64_t key_of(MPI_Datatype type)
{
    uint64_t k = 0;
    memcpy(&k, &type, sizeof type < sizeof k ? sizeof type : sizeof k);
    return k;
}

static void bind(MPI_Datatype type, uint32_t id, usage_args_type_state state)
{
    if (type != MPI_DATATYPE_NULL)
        capture_table_put(&ids, key_of(type), id | (uint64_t)state << 32);
}

static uint64_t entry_of(MPI_Datatype type)
{
    uint64_t entry = TYPE_SIG_DESC_NONE | (uint64_t)USAGE_ARGS_TYPE_UNKNOWN << 32;
    capture_table_get(&ids, key_of(type), &entry);
    return entry;
}

/* The table id of type, or TYPE_SIG_DESC_NONE when the module does not know its signature. */
static uint32_t id_of(MPI_Datatype type)
{
    return (uint32_t)entry_of(type);
}

usage_args_type_state capture_types_state(MPI_Datatype type)
{
    return type == MPI_DATATYPE_NULL ? USAGE_ARGS_TYPE_IS_NULL
                                     : (usage_args_type_state)(entry_of(type) >> 32);
}

int capture_types_op_allowed(uint32_t op, MPI_Datatype type)
{
    uint32_t id = id_of(type);
    return id == TYPE_SIG_DESC_NONE || type_match_op_allowed(&table, op, id);
}

int capture_types_predefined(MPI_Datatype type)
{
    uint32_t id = id_of(type);
    return id != TYPE_SIG_DESC_NONE && id < TYPE_SIG_DESC_PREDEFINED_COUNT;
}

int capture_types_init(void)
{
    if (type_sig_table_init(&table) || capture_table_init(&ids, MAX_TYPES))
        return MG_ERROR_ENOMEM;
    static const struct {
        MPI_Datatype handle;
        uint32_t code;
    } predefined[] = {
        {MPI_CHAR, TYPE_SIG_DESC_CHAR},
        {MPI_SIGNED_CHAR, TYPE_SIG_DESC_SIGNED_CHAR},
        {MPI_UNSIGNED_CHAR, TYPE_SIG_DESC_UNSIGNED_CHAR},
        {MPI_WCHAR, TYPE_SIG_DESC_WCHAR},
        {MPI_SHORT, TYPE_SIG_DESC_SHORT},
        {MPI_UNSIGNED_SHORT, TYPE_SIG_DESC_UNSIGNED_SHORT},
        {MPI_INT, TYPE_SIG_DESC_INT},
        {MPI_UNSIGNED, TYPE_SIG_DESC_UNSIGNED},
        {MPI_LONG, TYPE_SIG_DESC_LONG},
        {MPI_UNSIGNED_LONG, TYPE_SIG_DESC_UNSIGNED_LONG},
        {MPI_LONG_LONG, TYPE_SIG_DESC_LONG_LONG},
        {MPI_UNSIGNED_LONG_LONG, TYPE_SIG_DESC_UNSIGNED_LONG_LONG},
        {MPI_FLOAT, TYPE_SIG_DESC_FLOAT},
        {MPI_DOUBLE, TYPE_SIG_DESC_DOUBLE},
        {MPI_LONG_DOUBLE, TYPE_SIG_DESC_LONG_DOUBLE},
        {MPI_C_BOOL, TYPE_SIG_DESC_C_BOOL},
        {MPI_INT8_T, TYPE_SIG_DESC_INT8_T},
        {MPI_INT16_T, TYPE_SIG_DESC_INT16_T},
        {MPI_INT32_T, TYPE_SIG_DESC_INT32_T},
        {MPI_INT64_T, TYPE_SIG_DESC_INT64_T},
        {MPI_UINT8_T, TYPE_SIG_DESC_UINT8_T},
        {MPI_UINT16_T, TYPE_SIG_DESC_UINT16_T},
        {MPI_UINT32_T, TYPE_SIG_DESC_UINT32_T},
        {MPI_UINT64_T, TYPE_SIG_DESC_UINT64_T},
        {MPI_C_FLOAT_COMPLEX, TYPE_SIG_DESC_C_FLOAT_COMPLEX},
        {MPI_C_DOUBLE_COMPLEX, TYPE_SIG_DESC_C_DOUBLE_COMPLEX},
        {MPI_C_LONG_DOUBLE_COMPLEX, TYPE_SIG_DESC_C_LONG_DOUBLE_COMPLEX},
        {MPI_AINT, TYPE_SIG_DESC_AINT},
        {MPI_OFFSET, TYPE_SIG_DESC_OFFSET},
        {MPI_COUNT, TYPE_SIG_DESC_COUNT},
        {MPI_BYTE, TYPE_SIG_DESC_BYTE},
        {MPI_PACKED, TYPE_SIG_DESC_PACKED},
        {MPI_CHARACTER, TYPE_SIG_DESC_CHARACTER},
        {MPI_LOGICAL, TYPE_SIG_DESC_LOGICAL},
        {MPI_INTEGER, TYPE_SIG_DESC_INTEGER},
        {MPI_REAL, TYPE_SIG_DESC_REAL},
        {MPI_DOUBLE_PRECISION, TYPE_SIG_DESC_DOUBLE_PRECISION},
        {MPI_COMPLEX, TYPE_SIG_DESC_COMPLEX},
        {MPI_DOUBLE_COMPLEX, TYPE_SIG_DESC_DOUBLE_COMPLEX},
        {MPI_INTEGER1, TYPE_SIG_DESC_INTEGER1},
        {MPI_INTEGER2, TYPE_SIG_DESC_INTEGER2},
        {MPI_INTEGER4, TYPE_SIG_DESC_INTEGER4},
        {MPI_INTEGER8, TYPE_SIG_DESC_INTEGER8},
        {MPI_REAL4, TYPE_SIG_DESC_REAL4},
        {MPI_REAL8, TYPE_SIG_DESC_REAL8},
        {MPI_REAL16, TYPE_SIG_DESC_REAL16},
        {MPI_COMPLEX8, TYPE_SIG_DESC_COMPLEX8},
        {MPI_COMPLEX16, TYPE_SIG_DESC_COMPLEX16},
        {MPI_COMPLEX32, TYPE_SIG_DESC_COMPLEX32},
        {MPI_CXX_BOOL, TYPE_SIG_DESC_CXX_BOOL},
        {MPI_CXX_FLOAT_COMPLEX, TYPE_SIG_DESC_CXX_FLOAT_COMPLEX},
        {MPI_CXX_DOUBLE_COMPLEX, TYPE_SIG_DESC_CXX_DOUBLE_COMPLEX},
        {MPI_CXX_LONG_DOUBLE_COMPLEX, TYPE_SIG_DESC_CXX_LONG_DOUBLE_COMPLEX},
        {MPI_FLOAT_INT, TYPE_SIG_DESC_FLOAT_INT},
        {MPI_DOUBLE_INT, TYPE_SIG_DESC_DOUBLE_INT},
        {MPI_LONG_INT, TYPE_SIG_DESC_LONG_INT},
        {MPI_2INT, TYPE_SIG_DESC_2INT},
        {MPI_SHORT_INT, TYPE_SIG_DESC_SHORT_INT},
        {MPI_LONG_DOUBLE_INT, TYPE_SIG_DESC_LONG_DOUBLE_INT},
        {MPI_2REAL, TYPE_SIG_DESC_2REAL},
        {MPI_2DOUBLE_PRECISION, TYPE_SIG_DESC_2DOUBLE_PRECISION},
        {MPI_2INTEGER, TYPE_SIG_DESC_2INTEGER},
    };
    for (size_t i = 0; i < sizeof predefined / sizeof *predefined; i++)
        bind(predefined[i].handle, predefined[i].code, USAGE_ARGS_TYPE_COMMITTED);
    return MG_ERROR_OK;
}

void capture_types_describe(check_event *ev, MPI_Datatype type, int64_t count)
{
    uint32_t id = id_of(type);
    type_sig m;
    if (id == TYPE_SIG_DESC_NONE || capture_types_state(type) == USAGE_ARGS_TYPE_RELEASED ||
        type_sig_message(&table, id, count, &m) != MG_ERROR_OK || m.unit == TYPE_SIG_DESC_PACKED)
        return;
    const type_sig *own = &table.nodes[id].sig;
    ev->type_hash = m.hash;
    ev->type_elems = m.elems;
    if (m.unit != TYPE_SIG_DESC_NONE) {
        ev->flags |= CHECK_EVENT_FLAG_TYPE_UNIFORM;
        ev->type_period = table.nodes[m.unit].sig.hash;
    } else {
        /* A type without elements has hash 0, which means "unknown" in the record: any nonzero
         * unit will do, as an empty message is a prefix of every other. */
        ev->type_period = own->elems ? own->hash : 1;
    }
}

/* Defines the type the constructor `maker` returned, from its description; a constructor that
 * failed, or refers to a type the module does not know (`known` 0), leaves the new handle
 * unknown. Either way the new handle is live until its MPI_Type_free. */
static void define(int phase, int rc, int known, type_sig_desc *desc, const MPI_Datatype *newtype,
                   mpi_function_ids_fn maker)
{
    uint32_t id;
    if (phase != INTERPOSE_HOOKS_CALL_EXIT || rc != MPI_SUCCESS)
        return;
    if (!known || type_sig_define(&table, desc, &id) != MG_ERROR_OK)
        id = TYPE_SIG_DESC_NONE;
    bind(*newtype, id, USAGE_ARGS_TYPE_MADE);
    capture_handles_made(CHECK_EVENT_HANDLE_DATATYPE, newtype, sizeof *newtype, maker);
}

/* The int block lengths of a constructor as type_sig's 64-bit ones (NULL when count <= 0 or out
 * of memory: the type is then left unknown). */
static int64_t *widen(int count, const int blocklengths[])
{
    int64_t *out = count > 0 ? malloc((size_t)count * sizeof *out) : NULL;
    for (int i = 0; out && i < count; i++)
        out[i] = blocklengths[i];
    return out;
}

static void single(int phase, int rc, uint8_t constructor, int count, int blocklength,
                   MPI_Datatype oldtype, const MPI_Datatype *newtype, mpi_function_ids_fn maker)
{
    type_sig_desc d = {.constructor = constructor,
                       .oldtype = id_of(oldtype),
                       .count = count,
                       .blocklength = blocklength};
    define(phase, rc, d.oldtype != TYPE_SIG_DESC_NONE, &d, newtype, maker);
}

static void blocks(int phase, int rc, uint8_t constructor, int count, const int blocklengths[],
                   const MPI_Datatype types[], MPI_Datatype oldtype, const MPI_Datatype *newtype,
                   mpi_function_ids_fn maker)
{
    if (phase != INTERPOSE_HOOKS_CALL_EXIT)
        return;
    int64_t *lengths = widen(count, blocklengths);
    uint32_t *members = types && count > 0 ? malloc((size_t)count * sizeof *members) : NULL;
    int known = count <= 0 || (lengths && (!types || members));
    for (int i = 0; members && i < count; i++) {
        members[i] = id_of(types[i]);
        known = known && members[i] != TYPE_SIG_DESC_NONE;
    }
    type_sig_desc d = {.constructor = constructor,
                       .oldtype = id_of(oldtype),
                       .count = count,
                       .blocklengths = lengths,
                       .types = members};
    define(phase, rc, known && (types || d.oldtype != TYPE_SIG_DESC_NONE), &d, newtype, maker);
    free(lengths);
    free(members);
}

static void obs_Type_contiguous(int ph, int rc, int count, MPI_Datatype old, MPI_Datatype *out)
{
    single(ph, rc, TYPE_SIG_DESC_CONTIGUOUS, count, 0, old, out, MG_FN_Type_contiguous);
}
static void obs_Type_vector(int ph, int rc, int count, int blocklength, int stride,
                            MPI_Datatype old, MPI_Datatype *out)
{
    (void)stride;
    single(ph, rc, TYPE_SIG_DESC_VECTOR, count, blocklength, old, out, MG_FN_Type_vector);
}
static void obs_Type_create_hvector(int ph, int rc, int count, int blocklength, MPI_Aint stride,
                                    MPI_Datatype old, MPI_Datatype *out)
{
    (void)stride;
    single(ph, rc, TYPE_SIG_DESC_HVECTOR, count, blocklength, old, out, MG_FN_Type_create_hvector);
}
static void obs_Type_indexed(int ph, int rc, int count, const int lengths[], const int displs[],
                             MPI_Datatype old, MPI_Datatype *out)
{
    (void)displs;
    blocks(ph, rc, TYPE_SIG_DESC_INDEXED, count, lengths, NULL, old, out, MG_FN_Type_indexed);
}
static void obs_Type_create_hindexed(int ph, int rc, int count, const int lengths[],
                                     const MPI_Aint displs[], MPI_Datatype old, MPI_Datatype *out)
{
    (void)displs;
    blocks(ph, rc, TYPE_SIG_DESC_HINDEXED, count, lengths, NULL, old, out,
           MG_FN_Type_create_hindexed);
}
/* Signature-wise an indexed block is a vector (count blocks of blocklength), a subarray a
 * contiguous type of its subsizes' product; their displacements and starts only place them. */
static void obs_Type_create_indexed_block(int ph, int rc, int count, int blocklength,
                                          const int displs[], MPI_Datatype old, MPI_Datatype *out)
{
    (void)displs;
    single(ph, rc, TYPE_SIG_DESC_VECTOR, count, blocklength, old, out,
           MG_FN_Type_create_indexed_block);
}
static void obs_Type_create_subarray(int ph, int rc, int ndims, const int sizes[],
                                     const int subsizes[], const int starts[], int order,
                                     MPI_Datatype old, MPI_Datatype *out)
{
    (void)sizes, (void)starts, (void)order;
    int64_t elements = 1;
    for (int i = 0; i < ndims && elements <= INT_MAX; i++)
        elements *= subsizes[i];
    /* past int's range, the count -1 that type_sig refuses leaves the new handle unknown */
    single(ph, rc, TYPE_SIG_DESC_CONTIGUOUS, elements <= INT_MAX ? (int)elements : -1, 0, old, out,
           MG_FN_Type_create_subarray);
}
static void obs_Type_create_struct(int ph, int rc, int count, const int lengths[],
                                   const MPI_Aint displs[], const MPI_Datatype types[],
                                   MPI_Datatype *out)
{
    (void)displs;
    blocks(ph, rc, TYPE_SIG_DESC_STRUCT, count, lengths, types, MPI_DATATYPE_NULL, out,
           MG_FN_Type_create_struct);
}
static void obs_Type_create_resized(int ph, int rc, MPI_Datatype old, MPI_Aint lb, MPI_Aint extent,
                                    MPI_Datatype *out)
{
    (void)lb, (void)extent;
    single(ph, rc, TYPE_SIG_DESC_RESIZED, 0, 0, old, out, MG_FN_Type_create_resized);
}

static void obs_Type_commit(int phase, int rc, MPI_Datatype *type)
{
    if (phase == INTERPOSE_HOOKS_CALL_EXIT && rc == MPI_SUCCESS &&
        capture_types_state(*type) == USAGE_ARGS_TYPE_MADE)
        bind(*type, id_of(*type), USAGE_ARGS_TYPE_COMMITTED);
}

/* A dup has its original's committed state (MPI 3.1 §4.1.10): the dup of a committed type needs
 * no commit of its own. */
static void obs_Type_dup(int ph, int rc, MPI_Datatype old, MPI_Datatype *out)
{
    single(ph, rc, TYPE_SIG_DESC_DUP, 0, 0, old, out, MG_FN_Type_dup);
    if (capture_types_state(old) == USAGE_ARGS_TYPE_COMMITTED)
        obs_Type_commit(ph, rc, out);
}

/* A freed handle stays known as freed (until MPI hands it out again for a new type), so that a
 * copy of it passed later is reported. */
static void obs_Type_free(int phase, int rc, MPI_Datatype *type)
{
    if (phase == INTERPOSE_HOOKS_CALL_ENTER)
        freeing_type = *type;
    else if (rc == MPI_SUCCESS && capture_types_state(freeing_type) != USAGE_ARGS_TYPE_UNKNOWN) {
        bind(freeing_type, id_of(freeing_type), USAGE_ARGS_TYPE_RELEASED);
        capture_handles_freed(CHECK_EVENT_HANDLE_DATATYPE, &freeing_type, sizeof freeing_type);
    }
}

void capture_types_install(void)
{
    CAPTURE_CALL_OBSERVE(Type_contiguous)
    CAPTURE_CALL_OBSERVE(Type_vector)
    CAPTURE_CALL_OBSERVE(Type_create_hvector)
    CAPTURE_CALL_OBSERVE(Type_indexed)
    CAPTURE_CALL_OBSERVE(Type_create_hindexed)
    CAPTURE_CALL_OBSERVE(Type_create_indexed_block)
    CAPTURE_CALL_OBSERVE(Type_create_subarray)
    CAPTURE_CALL_OBSERVE(Type_create_struct)
    CAPTURE_CALL_OBSERVE(Type_create_resized)
    CAPTURE_CALL_OBSERVE(Type_dup)
    CAPTURE_CALL_OBSERVE(Type_commit)
    CAPTURE_CALL_OBSERVE(Type_free)
}
