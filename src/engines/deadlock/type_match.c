/* Type matching of matched sends and receives and of collective members: see type_match.h and
 * docs/design/check-detector.md §13. */
#include "type_match.h"

#include "check_event.h"
#include "mg_error.h"

/* MPI 3.1 §3.3.1: "the type MPI_PACKED can match any other type" (and §4.2: a message of any type
 * can be received as MPI_PACKED, packed data can be received as any type it holds), while every
 * other type, MPI_BYTE included, matches only the same name. So when exactly one side is packed
 * the two are compared by size in bytes; when both are, element by element as usual. */
static void compare_packed(const type_sig *s, const type_sig *r, type_match_result *out)
{
    out->send_elems = s->bytes;
    out->recv_elems = r->bytes;
    out->verdict = s->bytes == r->bytes  ? TYPE_MATCH_EQUAL
                   : s->bytes < r->bytes ? TYPE_MATCH_PREFIX
                                         : TYPE_MATCH_TRUNCATED;
}

static int prefixes_equal(const type_sig_table *t, type_match_buffer send, type_match_buffer recv,
                          uint64_t n, int *equal)
{
    uint64_t hs, hr;
    int rc = type_sig_prefix_hash(t, send.type, send.count, n, &hs);
    if (rc == MG_ERROR_OK) {
        rc = type_sig_prefix_hash(t, recv.type, recv.count, n, &hr);
    }
    *equal = rc == MG_ERROR_OK && hs == hr;
    return rc;
}

/* The first differing element, knowing the first n elements differ: binary search on the length
 * of the equal prefix (equal at lo, different at hi). */
static int locate_mismatch(const type_sig_table *t, type_match_buffer send, type_match_buffer recv,
                           uint64_t n, type_match_result *out)
{
    uint64_t lo = 0, hi = n;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        int equal, rc = prefixes_equal(t, send, recv, mid, &equal);
        if (rc) {
            return rc;
        }
        *(equal ? &lo : &hi) = mid;
    }
    out->position = lo;
    int rc = type_sig_element(t, send.type, send.count, lo, &out->send_basic);
    return rc ? rc : type_sig_element(t, recv.type, recv.count, lo, &out->recv_basic);
}

int type_match_p2p(const type_sig_table *t, type_match_buffer send, type_match_buffer recv,
                   type_match_result *out)
{
    if (!t || !out) {
        return MG_ERROR_EINVAL;
    }
    type_sig s, r;
    int rc = type_sig_message(t, send.type, send.count, &s);
    if (rc == MG_ERROR_OK) {
        rc = type_sig_message(t, recv.type, recv.count, &r);
    }
    if (rc) {
        return rc;
    }
    *out = (type_match_result){.send_elems = s.elems, .recv_elems = r.elems};
    if ((s.unit == TYPE_SIG_DESC_PACKED) != (r.unit == TYPE_SIG_DESC_PACKED)) {
        compare_packed(&s, &r, out);
        return MG_ERROR_OK;
    }
    if (s.elems == r.elems && s.hash == r.hash) {
        out->verdict = TYPE_MATCH_EQUAL;
        return MG_ERROR_OK;
    }
    uint64_t common = s.elems < r.elems ? s.elems : r.elems;
    int equal;
    rc = prefixes_equal(t, send, recv, common, &equal);
    if (rc) {
        return rc;
    }
    if (!equal) {
        out->verdict = TYPE_MATCH_MISMATCH;
        return locate_mismatch(t, send, recv, common, out);
    }
    out->verdict = s.elems < r.elems ? TYPE_MATCH_PREFIX : TYPE_MATCH_TRUNCATED;
    return MG_ERROR_OK;
}

/* The groups of MPI 3.1 §5.9.2 ("Predefined Reduction Operations"). */
enum op_group {
    C_INTEGER = 1u << 0,
    FORTRAN_INTEGER = 1u << 1,
    FLOATING_POINT = 1u << 2,
    LOGICAL = 1u << 3,
    COMPLEX = 1u << 4,
    BYTE = 1u << 5,
    PAIR = 1u << 6
};

static unsigned group_of(uint32_t type)
{
    switch (type) {
    case TYPE_SIG_DESC_INT:
    case TYPE_SIG_DESC_LONG:
    case TYPE_SIG_DESC_SHORT:
    case TYPE_SIG_DESC_UNSIGNED_SHORT:
    case TYPE_SIG_DESC_UNSIGNED:
    case TYPE_SIG_DESC_UNSIGNED_LONG:
    case TYPE_SIG_DESC_LONG_LONG:
    case TYPE_SIG_DESC_UNSIGNED_LONG_LONG:
    case TYPE_SIG_DESC_SIGNED_CHAR:
    case TYPE_SIG_DESC_UNSIGNED_CHAR:
    case TYPE_SIG_DESC_INT8_T:
    case TYPE_SIG_DESC_INT16_T:
    case TYPE_SIG_DESC_INT32_T:
    case TYPE_SIG_DESC_INT64_T:
    case TYPE_SIG_DESC_UINT8_T:
    case TYPE_SIG_DESC_UINT16_T:
    case TYPE_SIG_DESC_UINT32_T:
    case TYPE_SIG_DESC_UINT64_T:
        return C_INTEGER;
    case TYPE_SIG_DESC_INTEGER:
    case TYPE_SIG_DESC_AINT:
    case TYPE_SIG_DESC_OFFSET:
    case TYPE_SIG_DESC_COUNT:
    case TYPE_SIG_DESC_INTEGER1:
    case TYPE_SIG_DESC_INTEGER2:
    case TYPE_SIG_DESC_INTEGER4:
    case TYPE_SIG_DESC_INTEGER8:
        return FORTRAN_INTEGER;
    case TYPE_SIG_DESC_FLOAT:
    case TYPE_SIG_DESC_DOUBLE:
    case TYPE_SIG_DESC_LONG_DOUBLE:
    case TYPE_SIG_DESC_REAL:
    case TYPE_SIG_DESC_DOUBLE_PRECISION:
    case TYPE_SIG_DESC_REAL4:
    case TYPE_SIG_DESC_REAL8:
    case TYPE_SIG_DESC_REAL16:
        return FLOATING_POINT;
    case TYPE_SIG_DESC_LOGICAL:
    case TYPE_SIG_DESC_C_BOOL:
    case TYPE_SIG_DESC_CXX_BOOL:
        return LOGICAL;
    case TYPE_SIG_DESC_COMPLEX:
    case TYPE_SIG_DESC_DOUBLE_COMPLEX:
    case TYPE_SIG_DESC_C_FLOAT_COMPLEX:
    case TYPE_SIG_DESC_C_DOUBLE_COMPLEX:
    case TYPE_SIG_DESC_C_LONG_DOUBLE_COMPLEX:
    case TYPE_SIG_DESC_COMPLEX8:
    case TYPE_SIG_DESC_COMPLEX16:
    case TYPE_SIG_DESC_COMPLEX32:
    case TYPE_SIG_DESC_CXX_FLOAT_COMPLEX:
    case TYPE_SIG_DESC_CXX_DOUBLE_COMPLEX:
    case TYPE_SIG_DESC_CXX_LONG_DOUBLE_COMPLEX:
        return COMPLEX;
    case TYPE_SIG_DESC_BYTE:
        return BYTE;
    default:
        return type >= TYPE_SIG_DESC_FIRST_PAIR && type < TYPE_SIG_DESC_PREDEFINED_COUNT ? PAIR : 0;
    }
}

static unsigned groups_allowed(uint32_t op)
{
    switch (op) {
    case CHECK_EVENT_OP_MAX:
    case CHECK_EVENT_OP_MIN:
        return C_INTEGER | FORTRAN_INTEGER | FLOATING_POINT;
    case CHECK_EVENT_OP_SUM:
    case CHECK_EVENT_OP_PROD:
        return C_INTEGER | FORTRAN_INTEGER | FLOATING_POINT | COMPLEX;
    case CHECK_EVENT_OP_LAND:
    case CHECK_EVENT_OP_LOR:
    case CHECK_EVENT_OP_LXOR:
        return C_INTEGER | LOGICAL;
    case CHECK_EVENT_OP_BAND:
    case CHECK_EVENT_OP_BOR:
    case CHECK_EVENT_OP_BXOR:
        return C_INTEGER | FORTRAN_INTEGER | BYTE;
    case CHECK_EVENT_OP_MAXLOC:
    case CHECK_EVENT_OP_MINLOC:
        return PAIR;
    default:
        return 0;
    }
}

/* Builtin ops take predefined types only: both MPIs refuse MPI_SUM even on a dup or a contiguous
 * of MPI_DOUBLE (Open MPI 4.1.4: MPI_ERR_OP; MPICH 4.0.2: an error too). */
int type_match_op_allowed(const type_sig_table *t, uint32_t op, uint32_t type)
{
    if (!t || type == TYPE_SIG_DESC_NONE || type >= t->n_nodes || op == CHECK_EVENT_OP_NULL) {
        return 0;
    }
    if (op >= CHECK_EVENT_OP_USER || op == CHECK_EVENT_OP_REPLACE || op == CHECK_EVENT_OP_NO_OP) {
        return 1;
    }
    return type < TYPE_SIG_DESC_PREDEFINED_COUNT && (group_of(type) & groups_allowed(op)) != 0;
}

/* How a collective moves data, and where MPI_IN_PLACE is allowed (MPI 3.1 §5.2.3 and each
 * collective's section): blocking and nonblocking forms alike. */
typedef enum coll_form {
    FORM_NOTHING = 1, /* Barrier, neighbourhood collectives: no signature to compare */
    FORM_BCAST,
    FORM_GATHER,
    FORM_SCATTER,
    FORM_ALL_TO_ALL, /* Allgather(v), Alltoall(v,w): every member's block to every member */
    FORM_REDUCE,
    FORM_REDUCE_ALL /* Allreduce, Reduce_scatter(_block), Scan, Exscan */
} coll_form;

typedef struct coll_shape {
    uint8_t form;
    uint8_t per_peer; /* V/W form */
    uint8_t gathers;  /* FORM_ALL_TO_ALL: every member sends one block to all (Allgather) */
} coll_shape;

static coll_shape shape_of(uint16_t func)
{
    switch (func) {
    case CHECK_EVENT_FN_BARRIER:
    case CHECK_EVENT_FN_IBARRIER:
    case CHECK_EVENT_FN_NEIGHBOR_ALLGATHER:
    case CHECK_EVENT_FN_NEIGHBOR_ALLTOALL:
    case CHECK_EVENT_FN_INEIGHBOR_ALLGATHER:
    case CHECK_EVENT_FN_INEIGHBOR_ALLTOALL:
    case CHECK_EVENT_FN_NEIGHBOR_ALLGATHERV:
    case CHECK_EVENT_FN_NEIGHBOR_ALLTOALLV:
    case CHECK_EVENT_FN_NEIGHBOR_ALLTOALLW:
    case CHECK_EVENT_FN_INEIGHBOR_ALLGATHERV:
    case CHECK_EVENT_FN_INEIGHBOR_ALLTOALLV:
    case CHECK_EVENT_FN_INEIGHBOR_ALLTOALLW:
        return (coll_shape){FORM_NOTHING, 0, 0};
    case CHECK_EVENT_FN_BCAST:
    case CHECK_EVENT_FN_IBCAST:
        return (coll_shape){FORM_BCAST, 0, 0};
    case CHECK_EVENT_FN_GATHER:
    case CHECK_EVENT_FN_IGATHER:
        return (coll_shape){FORM_GATHER, 0, 0};
    case CHECK_EVENT_FN_GATHERV:
    case CHECK_EVENT_FN_IGATHERV:
        return (coll_shape){FORM_GATHER, 1, 0};
    case CHECK_EVENT_FN_SCATTER:
    case CHECK_EVENT_FN_ISCATTER:
        return (coll_shape){FORM_SCATTER, 0, 0};
    case CHECK_EVENT_FN_SCATTERV:
    case CHECK_EVENT_FN_ISCATTERV:
        return (coll_shape){FORM_SCATTER, 1, 0};
    case CHECK_EVENT_FN_ALLGATHER:
    case CHECK_EVENT_FN_IALLGATHER:
        return (coll_shape){FORM_ALL_TO_ALL, 0, 1};
    case CHECK_EVENT_FN_ALLGATHERV:
    case CHECK_EVENT_FN_IALLGATHERV:
        return (coll_shape){FORM_ALL_TO_ALL, 1, 1};
    case CHECK_EVENT_FN_ALLTOALL:
    case CHECK_EVENT_FN_IALLTOALL:
        return (coll_shape){FORM_ALL_TO_ALL, 0, 0};
    case CHECK_EVENT_FN_ALLTOALLV:
    case CHECK_EVENT_FN_IALLTOALLV:
    case CHECK_EVENT_FN_ALLTOALLW:
    case CHECK_EVENT_FN_IALLTOALLW:
        return (coll_shape){FORM_ALL_TO_ALL, 1, 0};
    case CHECK_EVENT_FN_REDUCE:
    case CHECK_EVENT_FN_IREDUCE:
        return (coll_shape){FORM_REDUCE, 0, 0};
    case CHECK_EVENT_FN_ALLREDUCE:
    case CHECK_EVENT_FN_IALLREDUCE:
    case CHECK_EVENT_FN_REDUCE_SCATTER:
    case CHECK_EVENT_FN_IREDUCE_SCATTER:
    case CHECK_EVENT_FN_REDUCE_SCATTER_BLOCK:
    case CHECK_EVENT_FN_IREDUCE_SCATTER_BLOCK:
    case CHECK_EVENT_FN_SCAN:
    case CHECK_EVENT_FN_ISCAN:
    case CHECK_EVENT_FN_EXSCAN:
    case CHECK_EVENT_FN_IEXSCAN:
        return (coll_shape){FORM_REDUCE_ALL, 0, 0};
    default:
        return (coll_shape){0, 0, 0};
    }
}

typedef struct issue_list {
    type_match_issue *issues;
    size_t cap, n;
} issue_list;

static void add_issue(issue_list *l, uint8_t problem, int32_t sender, int32_t receiver,
                      const type_match_result *result)
{
    if (l->n < l->cap) {
        l->issues[l->n] = (type_match_issue){problem, sender, receiver, *result};
    }
    l->n++;
}

/* Collectives need equal signatures (MPI 3.1 §5.1): anything but TYPE_MATCH_EQUAL is an issue. */
static int compare(const type_sig_table *t, issue_list *l, type_match_buffer send,
                   type_match_buffer recv, int32_t sender, int32_t receiver)
{
    type_match_result r;
    int rc = type_match_p2p(t, send, recv, &r);
    if (rc == MG_ERROR_OK && r.verdict != TYPE_MATCH_EQUAL) {
        add_issue(l, TYPE_MATCH_SIGNATURE, sender, receiver, &r);
    }
    return rc;
}

/* Member i's block for member j in an all-to-all form; in place, the data comes from the
 * receive side (MPI 3.1 §5.7, §5.8). */
static type_match_buffer block_sent(const type_match_member *m, coll_shape s, uint32_t i,
                                    uint32_t j)
{
    const type_match_member *mi = &m[i];
    uint32_t k = s.gathers ? i : j;
    if (mi->in_place) {
        return s.per_peer ? mi->recvv[k] : mi->recv;
    }
    return s.per_peer && !s.gathers ? mi->sendv[j] : mi->send;
}

static int all_to_all(const type_sig_table *t, const type_match_member *m, uint32_t size,
                      coll_shape s, issue_list *l)
{
    for (uint32_t i = 0; i < size; i++) {
        if (s.per_peer && (!m[i].recvv || (!s.gathers && !m[i].in_place && !m[i].sendv))) {
            return MG_ERROR_EINVAL;
        }
    }
    if (!s.per_peer) { /* equality is transitive: everyone against member 0's receive block */
        for (uint32_t i = 0; i < size; i++) {
            int rc = compare(t, l, block_sent(m, s, i, 0), m[0].recv, (int32_t)i, 0);
            if (rc == MG_ERROR_OK && i > 0) {
                rc = compare(t, l, block_sent(m, s, 0, i), m[i].recv, 0, (int32_t)i);
            }
            if (rc) {
                return rc;
            }
        }
        return MG_ERROR_OK;
    }
    for (uint32_t i = 0; i < size; i++) {
        for (uint32_t j = 0; j < size; j++) {
            int rc = compare(t, l, block_sent(m, s, i, j), m[j].recvv[i], (int32_t)i, (int32_t)j);
            if (rc) {
                return rc;
            }
        }
    }
    return MG_ERROR_OK;
}

/* Gather and scatter: the root's per-member block against each member's own buffer. */
static int rooted(const type_sig_table *t, const type_match_member *m, uint32_t size, uint32_t root,
                  coll_shape s, issue_list *l)
{
    const type_match_member *r = &m[root];
    int gather = s.form == FORM_GATHER;
    const type_match_buffer *blocks = gather ? r->recvv : r->sendv;
    if (s.per_peer && !blocks) {
        return MG_ERROR_EINVAL;
    }
    for (uint32_t i = 0; i < size; i++) {
        if (i == root && r->in_place) {
            continue;
        }
        type_match_buffer root_block = s.per_peer ? blocks[i] : gather ? r->recv : r->send;
        int rc = gather ? compare(t, l, m[i].send, root_block, (int32_t)i, (int32_t)root)
                        : compare(t, l, root_block, m[i].recv, (int32_t)root, (int32_t)i);
        if (rc) {
            return rc;
        }
    }
    return MG_ERROR_OK;
}

/* Reductions: one (count, datatype) per member, the same signature everywhere and an op that
 * applies to it (MPI 3.1 §5.9.1). Bcast has the same shape without the op. */
static int same_everywhere(const type_sig_table *t, const type_match_member *m, uint32_t size,
                           uint32_t reference, int reduces, uint32_t op, issue_list *l)
{
    for (uint32_t i = 0; i < size; i++) {
        if (reduces && !type_match_op_allowed(t, op, m[i].send.type)) {
            type_match_result none = {0};
            add_issue(l, TYPE_MATCH_OP_TYPE, (int32_t)i, -1, &none);
        }
        if (i != reference) {
            int rc = compare(t, l, m[reference].send, m[i].send, (int32_t)reference, (int32_t)i);
            if (rc) {
                return rc;
            }
        }
    }
    return MG_ERROR_OK;
}

static int in_place_allowed(coll_form form, int is_root)
{
    switch (form) {
    case FORM_GATHER:
    case FORM_SCATTER:
    case FORM_REDUCE:
        return is_root;
    case FORM_ALL_TO_ALL:
    case FORM_REDUCE_ALL:
        return 1;
    default:
        return 0;
    }
}

int type_match_collective(const type_sig_table *t, uint16_t func, const type_match_member *members,
                          uint32_t size, int32_t root, uint32_t op, type_match_issue *issues,
                          size_t cap, size_t *n_issues)
{
    if (!t || !members || size == 0 || !n_issues || (cap && !issues)) {
        return MG_ERROR_EINVAL;
    }
    coll_shape s = shape_of(func);
    if (!s.form) {
        return MG_ERROR_EUNSUPPORTED;
    }
    *n_issues = 0;
    if (s.form == FORM_NOTHING) {
        return MG_ERROR_OK;
    }
    int has_root = s.form == FORM_BCAST || s.form == FORM_GATHER || s.form == FORM_SCATTER ||
                   s.form == FORM_REDUCE;
    if (has_root && (root < 0 || (uint32_t)root >= size)) {
        return MG_ERROR_EINVAL;
    }
    issue_list l = {issues, cap, 0};
    type_match_result none = {0};
    for (uint32_t i = 0; i < size; i++) {
        if (members[i].in_place && !in_place_allowed(s.form, has_root && (int32_t)i == root)) {
            add_issue(&l, TYPE_MATCH_IN_PLACE, (int32_t)i, -1, &none);
        }
    }
    int rc = MG_ERROR_OK;
    switch (s.form) {
    case FORM_BCAST:
        rc = same_everywhere(t, members, size, (uint32_t)root, 0, op, &l);
        break;
    case FORM_GATHER:
    case FORM_SCATTER:
        rc = rooted(t, members, size, (uint32_t)root, s, &l);
        break;
    case FORM_ALL_TO_ALL:
        rc = all_to_all(t, members, size, s, &l);
        break;
    case FORM_REDUCE:
        rc = same_everywhere(t, members, size, (uint32_t)root, 1, op, &l);
        break;
    default: /* FORM_REDUCE_ALL */
        rc = same_everywhere(t, members, size, 0, 1, op, &l);
        break;
    }
    *n_issues = l.n;
    return rc;
}
