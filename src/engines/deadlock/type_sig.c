/* Datatype signatures as composable hashes: see type_sig.h and docs/design/check-detector.md §13.
 *
 * The hash of a basic-element sequence s_0..s_{L-1} is  H(s) = sum_i v(s_i) * B^(L-1-i)  modulo the
 * Mersenne prime 2^61 - 1, with v() a fixed pseudo-random nonzero value per basic type. So
 *   H(s || t) = H(s) * B^|t| + H(t)                     (concatenation)
 *   H(s^k)    = H(s) * (1 + B^L + B^2L + ... + B^(k-1)L)  (repetition, O(log k) by doubling)
 * and a type's hash follows from its runs' hashes without looking inside them. Adjacent equal
 * basic types need no merging: the hash is over elements, so (int x 2)(int x 3) and int x 5 agree.
 */
#include "type_sig.h"

#include <stdlib.h>

#include "mg_array.h"
#include "mg_error.h"

typedef unsigned __int128 u128;

#define MODULUS ((1ull << 61) - 1)
/* The base: any fixed value in [2, MODULUS) unrelated to the element values. */
#define BASE 0x1d6b7f2a93c4e55ull

static uint64_t mod_reduce(u128 x)
{
    uint64_t r = (uint64_t)(x & MODULUS) + (uint64_t)(x >> 61);
    r = (r & MODULUS) + (r >> 61);
    return r == MODULUS ? 0 : r;
}

static uint64_t mul(uint64_t a, uint64_t b)
{
    return mod_reduce((u128)a * b);
}

static uint64_t add(uint64_t a, uint64_t b)
{
    uint64_t r = a + b; /* both < 2^61: no overflow */
    return r >= MODULUS ? r - MODULUS : r;
}

/* A sequence as its hash and B^length, so concatenation needs no exponentiation. */
typedef struct seq {
    uint64_t hash, pow;
} seq;

static seq concat(seq head, seq tail)
{
    return (seq){add(mul(head.hash, tail.pow), tail.hash), mul(head.pow, tail.pow)};
}

/* s repeated k times: hash(s) x (1 + x + ... + x^(k-1)) with x = B^|s|, and x^k, by doubling over
 * the bits of k from the top: O(log k). */
static seq repeat(seq s, uint64_t k)
{
    uint64_t sum = 0, xm = 1; /* sum = 1 + x + ... + x^(m-1), xm = x^m for the bits of k so far */
    for (int bit = k ? 63 - __builtin_clzll(k) : -1; bit >= 0; bit--) {
        sum = mul(sum, add(1, xm));
        xm = mul(xm, xm);
        if ((k >> bit) & 1) {
            sum = add(sum, xm);
            xm = mul(xm, s.pow);
        }
    }
    return (seq){mul(s.hash, sum), xm};
}

static seq node_seq(const type_sig_node *n)
{
    return (seq){n->sig.hash, n->pow};
}

static uint64_t element_value(uint32_t code)
{
    uint64_t z = code + 0x9e3779b97f4a7c15ull; /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return z % (MODULUS - 1) + 1;
}

typedef struct predefined_info {
    const char *name;
    uint8_t bytes;          /* basic types: LP64 Linux sizes */
    uint32_t first, second; /* pair types: the two runs' basic types */
} predefined_info;

static const predefined_info predefined[TYPE_SIG_DESC_PREDEFINED_COUNT] = {
    [TYPE_SIG_DESC_CHAR] = {"MPI_CHAR", 1, 0, 0},
    [TYPE_SIG_DESC_SIGNED_CHAR] = {"MPI_SIGNED_CHAR", 1, 0, 0},
    [TYPE_SIG_DESC_UNSIGNED_CHAR] = {"MPI_UNSIGNED_CHAR", 1, 0, 0},
    [TYPE_SIG_DESC_WCHAR] = {"MPI_WCHAR", 4, 0, 0},
    [TYPE_SIG_DESC_SHORT] = {"MPI_SHORT", 2, 0, 0},
    [TYPE_SIG_DESC_UNSIGNED_SHORT] = {"MPI_UNSIGNED_SHORT", 2, 0, 0},
    [TYPE_SIG_DESC_INT] = {"MPI_INT", 4, 0, 0},
    [TYPE_SIG_DESC_UNSIGNED] = {"MPI_UNSIGNED", 4, 0, 0},
    [TYPE_SIG_DESC_LONG] = {"MPI_LONG", 8, 0, 0},
    [TYPE_SIG_DESC_UNSIGNED_LONG] = {"MPI_UNSIGNED_LONG", 8, 0, 0},
    [TYPE_SIG_DESC_LONG_LONG] = {"MPI_LONG_LONG", 8, 0, 0},
    [TYPE_SIG_DESC_UNSIGNED_LONG_LONG] = {"MPI_UNSIGNED_LONG_LONG", 8, 0, 0},
    [TYPE_SIG_DESC_FLOAT] = {"MPI_FLOAT", 4, 0, 0},
    [TYPE_SIG_DESC_DOUBLE] = {"MPI_DOUBLE", 8, 0, 0},
    [TYPE_SIG_DESC_LONG_DOUBLE] = {"MPI_LONG_DOUBLE", 16, 0, 0},
    [TYPE_SIG_DESC_C_BOOL] = {"MPI_C_BOOL", 1, 0, 0},
    [TYPE_SIG_DESC_INT8_T] = {"MPI_INT8_T", 1, 0, 0},
    [TYPE_SIG_DESC_INT16_T] = {"MPI_INT16_T", 2, 0, 0},
    [TYPE_SIG_DESC_INT32_T] = {"MPI_INT32_T", 4, 0, 0},
    [TYPE_SIG_DESC_INT64_T] = {"MPI_INT64_T", 8, 0, 0},
    [TYPE_SIG_DESC_UINT8_T] = {"MPI_UINT8_T", 1, 0, 0},
    [TYPE_SIG_DESC_UINT16_T] = {"MPI_UINT16_T", 2, 0, 0},
    [TYPE_SIG_DESC_UINT32_T] = {"MPI_UINT32_T", 4, 0, 0},
    [TYPE_SIG_DESC_UINT64_T] = {"MPI_UINT64_T", 8, 0, 0},
    [TYPE_SIG_DESC_C_FLOAT_COMPLEX] = {"MPI_C_FLOAT_COMPLEX", 8, 0, 0},
    [TYPE_SIG_DESC_C_DOUBLE_COMPLEX] = {"MPI_C_DOUBLE_COMPLEX", 16, 0, 0},
    [TYPE_SIG_DESC_C_LONG_DOUBLE_COMPLEX] = {"MPI_C_LONG_DOUBLE_COMPLEX", 32, 0, 0},
    [TYPE_SIG_DESC_AINT] = {"MPI_AINT", 8, 0, 0},
    [TYPE_SIG_DESC_OFFSET] = {"MPI_OFFSET", 8, 0, 0},
    [TYPE_SIG_DESC_COUNT] = {"MPI_COUNT", 8, 0, 0},
    [TYPE_SIG_DESC_BYTE] = {"MPI_BYTE", 1, 0, 0},
    [TYPE_SIG_DESC_PACKED] = {"MPI_PACKED", 1, 0, 0},
    [TYPE_SIG_DESC_CHARACTER] = {"MPI_CHARACTER", 1, 0, 0},
    [TYPE_SIG_DESC_LOGICAL] = {"MPI_LOGICAL", 4, 0, 0},
    [TYPE_SIG_DESC_INTEGER] = {"MPI_INTEGER", 4, 0, 0},
    [TYPE_SIG_DESC_REAL] = {"MPI_REAL", 4, 0, 0},
    [TYPE_SIG_DESC_DOUBLE_PRECISION] = {"MPI_DOUBLE_PRECISION", 8, 0, 0},
    [TYPE_SIG_DESC_COMPLEX] = {"MPI_COMPLEX", 8, 0, 0},
    [TYPE_SIG_DESC_DOUBLE_COMPLEX] = {"MPI_DOUBLE_COMPLEX", 16, 0, 0},
    [TYPE_SIG_DESC_INTEGER1] = {"MPI_INTEGER1", 1, 0, 0},
    [TYPE_SIG_DESC_INTEGER2] = {"MPI_INTEGER2", 2, 0, 0},
    [TYPE_SIG_DESC_INTEGER4] = {"MPI_INTEGER4", 4, 0, 0},
    [TYPE_SIG_DESC_INTEGER8] = {"MPI_INTEGER8", 8, 0, 0},
    [TYPE_SIG_DESC_REAL4] = {"MPI_REAL4", 4, 0, 0},
    [TYPE_SIG_DESC_REAL8] = {"MPI_REAL8", 8, 0, 0},
    [TYPE_SIG_DESC_REAL16] = {"MPI_REAL16", 16, 0, 0},
    [TYPE_SIG_DESC_COMPLEX8] = {"MPI_COMPLEX8", 8, 0, 0},
    [TYPE_SIG_DESC_COMPLEX16] = {"MPI_COMPLEX16", 16, 0, 0},
    [TYPE_SIG_DESC_COMPLEX32] = {"MPI_COMPLEX32", 32, 0, 0},
    [TYPE_SIG_DESC_CXX_BOOL] = {"MPI_CXX_BOOL", 1, 0, 0},
    [TYPE_SIG_DESC_CXX_FLOAT_COMPLEX] = {"MPI_CXX_FLOAT_COMPLEX", 8, 0, 0},
    [TYPE_SIG_DESC_CXX_DOUBLE_COMPLEX] = {"MPI_CXX_DOUBLE_COMPLEX", 16, 0, 0},
    [TYPE_SIG_DESC_CXX_LONG_DOUBLE_COMPLEX] = {"MPI_CXX_LONG_DOUBLE_COMPLEX", 32, 0, 0},
    [TYPE_SIG_DESC_FLOAT_INT] = {"MPI_FLOAT_INT", 0, TYPE_SIG_DESC_FLOAT, TYPE_SIG_DESC_INT},
    [TYPE_SIG_DESC_DOUBLE_INT] = {"MPI_DOUBLE_INT", 0, TYPE_SIG_DESC_DOUBLE, TYPE_SIG_DESC_INT},
    [TYPE_SIG_DESC_LONG_INT] = {"MPI_LONG_INT", 0, TYPE_SIG_DESC_LONG, TYPE_SIG_DESC_INT},
    [TYPE_SIG_DESC_2INT] = {"MPI_2INT", 0, TYPE_SIG_DESC_INT, TYPE_SIG_DESC_INT},
    [TYPE_SIG_DESC_SHORT_INT] = {"MPI_SHORT_INT", 0, TYPE_SIG_DESC_SHORT, TYPE_SIG_DESC_INT},
    [TYPE_SIG_DESC_LONG_DOUBLE_INT] = {"MPI_LONG_DOUBLE_INT", 0, TYPE_SIG_DESC_LONG_DOUBLE,
                                       TYPE_SIG_DESC_INT},
    [TYPE_SIG_DESC_2REAL] = {"MPI_2REAL", 0, TYPE_SIG_DESC_REAL, TYPE_SIG_DESC_REAL},
    [TYPE_SIG_DESC_2DOUBLE_PRECISION] = {"MPI_2DOUBLE_PRECISION", 0, TYPE_SIG_DESC_DOUBLE_PRECISION,
                                         TYPE_SIG_DESC_DOUBLE_PRECISION},
    [TYPE_SIG_DESC_2INTEGER] = {"MPI_2INTEGER", 0, TYPE_SIG_DESC_INTEGER, TYPE_SIG_DESC_INTEGER},
};

const char *type_sig_name(uint32_t type)
{
    if (type > TYPE_SIG_DESC_NONE && type < TYPE_SIG_DESC_PREDEFINED_COUNT) {
        return predefined[type].name;
    }
    return "derived";
}

static int mul_checked(uint64_t a, uint64_t b, uint64_t *out)
{
    return __builtin_mul_overflow(a, b, out) ? MG_ERROR_ERANGE : MG_ERROR_OK;
}

/* Appends a run of `times` copies of `type` to the parts of the node being built (parts from
 * `first`), merged with the previous run of the same type; empty runs are dropped. */
static int append_run(type_sig_table *t, type_sig_node *node, uint32_t type, uint64_t times)
{
    const type_sig_node *child = &t->nodes[type];
    uint64_t elems, bytes, end;
    if (mul_checked(child->sig.elems, times, &elems) ||
        mul_checked(child->sig.bytes, times, &bytes) ||
        __builtin_add_overflow(node->sig.elems, elems, &end) ||
        __builtin_add_overflow(node->sig.bytes, bytes, &node->sig.bytes)) {
        return MG_ERROR_ERANGE;
    }
    if (elems == 0) {
        return MG_ERROR_OK;
    }
    seq run = concat(node_seq(node), repeat(node_seq(child), times));
    type_sig_part *last = node->n_parts ? &t->parts[t->n_parts - 1] : NULL;
    if (last && last->type == type) {
        last->repeat += times; /* cannot overflow: repeat x elems <= end */
    } else {
        int rc = mg_array_reserve((void **)&t->parts, &t->cap_parts, t->n_parts + 1,
                                  sizeof *t->parts);
        if (rc) {
            return rc;
        }
        last = &t->parts[t->n_parts++];
        last->type = type;
        last->repeat = times;
        node->n_parts++;
    }
    last->end = end;
    last->prefix = run.hash;
    last->prefix_pow = run.pow;
    node->sig.unit = (node->sig.elems == 0 || node->sig.unit == child->sig.unit)
                         ? child->sig.unit
                         : TYPE_SIG_DESC_NONE;
    node->sig.elems = end;
    node->sig.hash = run.hash;
    node->pow = run.pow;
    if (child->depth + 1 > node->depth) {
        node->depth = child->depth + 1;
    }
    return MG_ERROR_OK;
}

/* Elements of one darray dimension held by process coordinate `coord` (MPI 3.1 §4.1.4). */
static int darray_local(int64_t gsize, int32_t distrib, int64_t darg, int64_t psize, int64_t coord,
                        uint64_t *out)
{
    if (gsize < 0 || psize <= 0 || (darg <= 0 && darg != TYPE_SIG_DESC_DARG_DEFAULT)) {
        return MG_ERROR_EINVAL;
    }
    if (distrib == TYPE_SIG_DESC_DIST_NONE) {
        *out = (uint64_t)gsize;
        return MG_ERROR_OK;
    }
    if (distrib != TYPE_SIG_DESC_DIST_BLOCK && distrib != TYPE_SIG_DESC_DIST_CYCLIC) {
        return MG_ERROR_EINVAL;
    }
    int64_t block = darg;
    if (block == TYPE_SIG_DESC_DARG_DEFAULT) {
        block = distrib == TYPE_SIG_DESC_DIST_BLOCK ? (gsize + psize - 1) / psize : 1;
    }
    int64_t start = coord * block, held;
    if (distrib == TYPE_SIG_DESC_DIST_BLOCK) {
        held = gsize - start < block ? gsize - start : block;
    } else {
        int64_t cycle = block * psize, rest = gsize % cycle - start;
        held = gsize / cycle * block + (rest < 0 ? 0 : rest < block ? rest : block);
    }
    *out = held < 0 ? 0 : (uint64_t)held;
    return MG_ERROR_OK;
}

static int darray_elements(const type_sig_desc *d, uint64_t *out)
{
    if (!d->sizes || !d->distribs || !d->dargs || !d->psizes) {
        return MG_ERROR_EINVAL;
    }
    uint64_t procs = 1, total = 1;
    for (int64_t i = 0; i < d->count; i++) {
        if (d->psizes[i] <= 0 || mul_checked(procs, (uint64_t)d->psizes[i], &procs)) {
            return MG_ERROR_EINVAL;
        }
    }
    if (d->rank < 0 || (uint64_t)d->rank >= procs) {
        return MG_ERROR_EINVAL;
    }
    int64_t rest = d->rank; /* row-major coordinates: the last dimension varies fastest */
    for (int64_t i = d->count - 1; i >= 0; i--) {
        uint64_t held;
        int rc = darray_local(d->sizes[i], d->distribs[i], d->dargs[i], d->psizes[i],
                              rest % d->psizes[i], &held);
        if (rc) {
            return rc;
        }
        rest /= d->psizes[i];
        if (mul_checked(total, held, &total)) {
            return MG_ERROR_ERANGE;
        }
    }
    *out = total;
    return MG_ERROR_OK;
}

/* Sum (INDEXED, HINDEXED) or product (SUBARRAY) of n non-negative values. */
static int fold(const int64_t *v, int64_t n, int product, uint64_t *out)
{
    if (n > 0 && !v) {
        return MG_ERROR_EINVAL;
    }
    uint64_t acc = product ? 1 : 0;
    for (int64_t i = 0; i < n; i++) {
        if (v[i] < 0) {
            return MG_ERROR_EINVAL;
        }
        if (product ? mul_checked(acc, (uint64_t)v[i], &acc)
                    : __builtin_add_overflow(acc, (uint64_t)v[i], &acc)) {
            return MG_ERROR_ERANGE;
        }
    }
    *out = acc;
    return MG_ERROR_OK;
}

/* The number of oldtype copies of a single-oldtype constructor. */
static int oldtype_copies(const type_sig_desc *d, uint64_t *out)
{
    switch (d->constructor) {
    case TYPE_SIG_DESC_CONTIGUOUS:
        *out = (uint64_t)d->count;
        return MG_ERROR_OK;
    case TYPE_SIG_DESC_VECTOR:
    case TYPE_SIG_DESC_HVECTOR:
    case TYPE_SIG_DESC_INDEXED_BLOCK:
    case TYPE_SIG_DESC_HINDEXED_BLOCK:
        if (d->blocklength < 0) {
            return MG_ERROR_EINVAL;
        }
        return mul_checked((uint64_t)d->count, (uint64_t)d->blocklength, out);
    case TYPE_SIG_DESC_INDEXED:
    case TYPE_SIG_DESC_HINDEXED:
        return fold(d->blocklengths, d->count, 0, out);
    case TYPE_SIG_DESC_SUBARRAY:
        return fold(d->sizes, d->count, 1, out);
    case TYPE_SIG_DESC_DARRAY:
        return darray_elements(d, out);
    case TYPE_SIG_DESC_RESIZED:
    case TYPE_SIG_DESC_DUP:
        *out = 1;
        return MG_ERROR_OK;
    default:
        return MG_ERROR_EINVAL;
    }
}

static int known(const type_sig_table *t, uint32_t type)
{
    return type > TYPE_SIG_DESC_NONE && type < t->n_nodes;
}

static int build_runs(type_sig_table *t, const type_sig_desc *d, type_sig_node *node)
{
    if (d->constructor != TYPE_SIG_DESC_STRUCT) {
        uint64_t copies;
        if (!known(t, d->oldtype)) {
            return MG_ERROR_ENOENT;
        }
        int rc = oldtype_copies(d, &copies);
        node->sig.unit = t->nodes[d->oldtype].sig.unit;
        return rc ? rc : append_run(t, node, d->oldtype, copies);
    }
    if (d->count > 0 && (!d->blocklengths || !d->types)) {
        return MG_ERROR_EINVAL;
    }
    for (int64_t i = 0; i < d->count; i++) {
        if (d->blocklengths[i] < 0) {
            return MG_ERROR_EINVAL;
        }
        if (!known(t, d->types[i])) {
            return MG_ERROR_ENOENT;
        }
        int rc = append_run(t, node, d->types[i], (uint64_t)d->blocklengths[i]);
        if (rc) {
            return rc;
        }
    }
    return MG_ERROR_OK;
}

int type_sig_define(type_sig_table *t, const type_sig_desc *d, uint32_t *id)
{
    if (!t || !d || !id) {
        return MG_ERROR_EINVAL;
    }
    if (d->constructor < TYPE_SIG_DESC_CONTIGUOUS ||
        d->constructor >= TYPE_SIG_DESC_CONSTRUCTOR_END || d->count < 0) {
        return MG_ERROR_EINVAL;
    }
    if (t->n_nodes >= UINT32_MAX) {
        return MG_ERROR_ERANGE;
    }
    int rc = mg_array_reserve((void **)&t->nodes, &t->cap_nodes, t->n_nodes + 1, sizeof *t->nodes);
    if (rc) {
        return rc;
    }
    size_t parts_before = t->n_parts;
    type_sig_node node = {.pow = 1, .first_part = (uint32_t)t->n_parts};
    rc = t->n_parts >= UINT32_MAX ? MG_ERROR_ERANGE : build_runs(t, d, &node);
    if (rc == MG_ERROR_OK && node.depth > TYPE_SIG_MAX_DEPTH) {
        rc = MG_ERROR_ERANGE;
    }
    if (rc) {
        t->n_parts = parts_before;
        return rc;
    }
    *id = (uint32_t)t->n_nodes;
    t->nodes[t->n_nodes++] = node;
    return MG_ERROR_OK;
}

int type_sig_table_init(type_sig_table *t)
{
    if (!t) {
        return MG_ERROR_EINVAL;
    }
    *t = (type_sig_table){0};
    int rc = mg_array_reserve((void **)&t->nodes, &t->cap_nodes, TYPE_SIG_DESC_PREDEFINED_COUNT,
                              sizeof *t->nodes);
    if (rc) {
        return rc;
    }
    t->nodes[TYPE_SIG_DESC_NONE] = (type_sig_node){0};
    t->n_nodes = 1;
    for (uint32_t c = 1; c < TYPE_SIG_DESC_FIRST_PAIR; c++) {
        t->nodes[t->n_nodes++] = (type_sig_node){
            .sig = {.elems = 1, .hash = element_value(c), .bytes = predefined[c].bytes, .unit = c},
            .pow = BASE};
    }
    for (uint32_t c = TYPE_SIG_DESC_FIRST_PAIR; c < TYPE_SIG_DESC_PREDEFINED_COUNT; c++) {
        uint32_t types[2] = {predefined[c].first, predefined[c].second};
        int64_t ones[2] = {1, 1};
        type_sig_desc pair = {
            .constructor = TYPE_SIG_DESC_STRUCT, .count = 2, .blocklengths = ones, .types = types};
        uint32_t id;
        rc = type_sig_define(t, &pair, &id);
        if (rc) {
            type_sig_table_free(t);
            return rc;
        }
    }
    return MG_ERROR_OK;
}

void type_sig_table_free(type_sig_table *t)
{
    if (t) {
        free(t->nodes);
        free(t->parts);
        *t = (type_sig_table){0};
    }
}

int type_sig_message(const type_sig_table *t, uint32_t type, int64_t count, type_sig *out)
{
    if (!t || !out || count < 0) {
        return MG_ERROR_EINVAL;
    }
    if (!known(t, type)) {
        return MG_ERROR_ENOENT;
    }
    const type_sig *s = &t->nodes[type].sig;
    type_sig m = {.unit = s->unit};
    if (mul_checked(s->elems, (uint64_t)count, &m.elems) ||
        mul_checked(s->bytes, (uint64_t)count, &m.bytes)) {
        return MG_ERROR_ERANGE;
    }
    m.hash = repeat(node_seq(&t->nodes[type]), (uint64_t)count).hash;
    *out = m;
    return MG_ERROR_OK;
}

/* The part of a node holding element `pos` (pos < the node's elements): binary search on ends. */
static const type_sig_part *part_at(const type_sig_table *t, const type_sig_node *node,
                                    uint64_t pos)
{
    const type_sig_part *p = &t->parts[node->first_part];
    uint32_t lo = 0, hi = node->n_parts - 1;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (p[mid].end > pos) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return &p[lo];
}

/* The first m elements of one instance of `type`: at each level, the whole runs before the run
 * holding element m, the whole copies inside it, then down into the copy that is cut. */
static seq type_prefix(const type_sig_table *t, uint32_t type, uint64_t m)
{
    seq acc = {0, 1};
    while (m > 0) {
        const type_sig_node *node = &t->nodes[type];
        if (m == node->sig.elems) {
            return concat(acc, node_seq(node));
        }
        const type_sig_part *part = part_at(t, node, m);
        int first = part == &t->parts[node->first_part];
        uint64_t before = first ? 0 : part[-1].end;
        seq runs_before = first ? (seq){0, 1} : (seq){part[-1].prefix, part[-1].prefix_pow};
        const type_sig_node *child = &t->nodes[part->type];
        uint64_t copies = (m - before) / child->sig.elems;
        acc = concat(acc, concat(runs_before, repeat(node_seq(child), copies)));
        m -= before + copies * child->sig.elems;
        type = part->type;
    }
    return acc;
}

/* Validates a position query: `n` within count x type (up to its end when inclusive), `out` set. */
static int check_position(const type_sig_table *t, uint32_t type, int64_t count, uint64_t n,
                          int inclusive, const void *out)
{
    type_sig msg;
    int rc = type_sig_message(t, type, count, &msg);
    if (rc == MG_ERROR_OK && (inclusive ? n > msg.elems : n >= msg.elems)) {
        rc = MG_ERROR_ERANGE;
    }
    return rc == MG_ERROR_OK && !out ? MG_ERROR_EINVAL : rc;
}

int type_sig_prefix_hash(const type_sig_table *t, uint32_t type, int64_t count, uint64_t n,
                         uint64_t *hash)
{
    int rc = check_position(t, type, count, n, 1, hash);
    if (rc) {
        return rc;
    }
    if (n == 0) {
        *hash = 0;
        return MG_ERROR_OK;
    }
    const type_sig_node *node = &t->nodes[type];
    uint64_t copies = n / node->sig.elems, rest = n % node->sig.elems;
    *hash = concat(repeat(node_seq(node), copies), type_prefix(t, type, rest)).hash;
    return MG_ERROR_OK;
}

int type_sig_element(const type_sig_table *t, uint32_t type, int64_t count, uint64_t pos,
                     uint32_t *basic)
{
    int rc = check_position(t, type, count, pos, 0, basic);
    if (rc) {
        return rc;
    }
    pos %= t->nodes[type].sig.elems;
    for (;;) {
        const type_sig_node *node = &t->nodes[type];
        if (node->n_parts == 0) {
            *basic = type;
            return MG_ERROR_OK;
        }
        const type_sig_part *part = part_at(t, node, pos);
        uint64_t before = part == &t->parts[node->first_part] ? 0 : part[-1].end;
        pos = (pos - before) % t->nodes[part->type].sig.elems;
        type = part->type;
    }
}
