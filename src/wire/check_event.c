/* Encoding and decoding of the check event record (docs/design/check-detector.md §1). */
#include "check_event.h"
#include "wire_bytes_internal.h"

#include <stdatomic.h>
#include <string.h>

#include "check_event_crc.h"
#include "mg_error.h"

#define S(n, k, m)                                                                                 \
    [CHECK_EVENT_FN_##n] = {"MPI_" #n, CHECK_EVENT_CLASS_##k, CHECK_EVENT_MODE_##m, 0, 0, 0,       \
                            0,         CHECK_EVENT_FN_##n}
#define W(n, k, c)                                                                                 \
    [CHECK_EVENT_FN_##n] = {"MPI_" #n, CHECK_EVENT_CLASS_##k, 0, CHECK_EVENT_COMPLETE_##c, 0, 0,   \
                            0,         CHECK_EVENT_FN_##n}
#define C(n, r, o)                                                                                 \
    [CHECK_EVENT_FN_##n] = {"MPI_" #n, CHECK_EVENT_CLASS_COLL, 0, 0, r, o, 0, CHECK_EVENT_FN_##n}
#define I(n, b, r, o)                                                                              \
    [CHECK_EVENT_FN_##n] = {"MPI_" #n, CHECK_EVENT_CLASS_ICOLL, 0, 0, r, o, 0, CHECK_EVENT_FN_##b}
#define K(n, mk)                                                                                   \
    [CHECK_EVENT_FN_##n] = {"MPI_" #n, CHECK_EVENT_CLASS_COLL, 0, 0, 0, 0, mk, CHECK_EVENT_FN_##n}

static const check_event_func_info func_table[CHECK_EVENT_FN_COUNT] = {
    S(INIT, OTHER, NONE),
    S(FINALIZE, FINALIZE, NONE),
    S(ABORT, ABORT, NONE),
    S(SEND, SEND, STANDARD),
    S(BSEND, SEND, BUFFERED),
    S(SSEND, SEND, SYNC),
    S(RSEND, SEND, READY),
    S(ISEND, ISEND, STANDARD),
    S(IBSEND, ISEND, BUFFERED),
    S(ISSEND, ISEND, SYNC),
    S(IRSEND, ISEND, READY),
    S(RECV, RECV, NONE),
    S(IRECV, IRECV, NONE),
    S(SENDRECV, SENDRECV, STANDARD),
    S(SENDRECV_REPLACE, SENDRECV, STANDARD),
    S(PROBE, PROBE, NONE),
    S(IPROBE, IPROBE, NONE),
    S(MPROBE, RECV, NONE),
    S(IMPROBE, IPROBE, NONE),
    S(MRECV, MRECV, NONE),
    S(IMRECV, MRECV, NONE),
    S(SEND_INIT, PINIT, STANDARD),
    S(BSEND_INIT, PINIT, BUFFERED),
    S(SSEND_INIT, PINIT, SYNC),
    S(RSEND_INIT, PINIT, READY),
    S(RECV_INIT, PINIT, NONE),
    S(START, START, NONE),
    S(STARTALL, START, NONE),
    S(REQUEST_FREE, FREE, NONE),
    S(CANCEL, CANCEL, NONE),
    W(WAIT, WAIT, ONE),
    W(WAITALL, WAIT, ALL),
    W(WAITANY, WAIT, ANY),
    W(WAITSOME, WAIT, SOME),
    W(TEST, TEST, ONE),
    W(TESTALL, TEST, ALL),
    W(TESTANY, TEST, ANY),
    W(TESTSOME, TEST, SOME),
    C(BARRIER, 0, 0),
    C(BCAST, 1, 0),
    C(GATHER, 1, 0),
    C(GATHERV, 1, 0),
    C(SCATTER, 1, 0),
    C(SCATTERV, 1, 0),
    C(ALLGATHER, 0, 0),
    C(ALLGATHERV, 0, 0),
    C(ALLTOALL, 0, 0),
    C(ALLTOALLV, 0, 0),
    C(ALLTOALLW, 0, 0),
    C(REDUCE, 1, 1),
    C(ALLREDUCE, 0, 1),
    C(REDUCE_SCATTER, 0, 1),
    C(REDUCE_SCATTER_BLOCK, 0, 1),
    C(SCAN, 0, 1),
    C(EXSCAN, 0, 1),
    I(IBARRIER, BARRIER, 0, 0),
    I(IBCAST, BCAST, 1, 0),
    I(IGATHER, GATHER, 1, 0),
    I(IGATHERV, GATHERV, 1, 0),
    I(ISCATTER, SCATTER, 1, 0),
    I(ISCATTERV, SCATTERV, 1, 0),
    I(IALLGATHER, ALLGATHER, 0, 0),
    I(IALLGATHERV, ALLGATHERV, 0, 0),
    I(IALLTOALL, ALLTOALL, 0, 0),
    I(IALLTOALLV, ALLTOALLV, 0, 0),
    I(IALLTOALLW, ALLTOALLW, 0, 0),
    I(IREDUCE, REDUCE, 1, 1),
    I(IALLREDUCE, ALLREDUCE, 0, 1),
    I(IREDUCE_SCATTER, REDUCE_SCATTER, 0, 1),
    I(IREDUCE_SCATTER_BLOCK, REDUCE_SCATTER_BLOCK, 0, 1),
    I(ISCAN, SCAN, 0, 1),
    I(IEXSCAN, EXSCAN, 0, 1),
    C(NEIGHBOR_ALLGATHER, 0, 0),
    C(NEIGHBOR_ALLTOALL, 0, 0),
    I(INEIGHBOR_ALLGATHER, NEIGHBOR_ALLGATHER, 0, 0),
    I(INEIGHBOR_ALLTOALL, NEIGHBOR_ALLTOALL, 0, 0),
    K(COMM_DUP, 1),
    K(COMM_SPLIT, 1),
    K(COMM_SPLIT_TYPE, 1),
    K(COMM_CREATE, 1),
    K(COMM_CREATE_GROUP, 1),
    K(INTERCOMM_CREATE, 1),
    K(INTERCOMM_MERGE, 1),
    K(CART_CREATE, 1),
    K(COMM_FREE, 0),
    K(WIN_CREATE, 1),
    K(WIN_ALLOCATE, 1),
    K(WIN_CREATE_DYNAMIC, 1),
    K(WIN_FREE, 0),
    C(WIN_FENCE, 0, 0),
    S(WIN_POST, OTHER, NONE),
    S(WIN_START, OTHER, NONE),
    S(WIN_COMPLETE, OTHER, NONE),
    S(WIN_WAIT, OTHER, NONE),
    S(WIN_LOCK, OTHER, NONE),
    S(WIN_UNLOCK, OTHER, NONE),
    S(WIN_LOCK_ALL, OTHER, NONE),
    S(WIN_UNLOCK_ALL, OTHER, NONE),
    S(PUT, OTHER, NONE),
    S(GET, OTHER, NONE),
    S(ACCUMULATE, OTHER, NONE),
    S(GET_ACCUMULATE, OTHER, NONE),
    S(FETCH_AND_OP, OTHER, NONE),
    S(COMPARE_AND_SWAP, OTHER, NONE),
    S(RPUT, OTHER, NONE),
    S(RGET, OTHER, NONE),
    [CHECK_EVENT_FN_EXIT] = {"exit", CHECK_EVENT_CLASS_OTHER, 0, 0, 0, 0, 0, CHECK_EVENT_FN_EXIT},
    [CHECK_EVENT_FN_MPI_ERROR] = {"MPI_ERROR", CHECK_EVENT_CLASS_OTHER, 0, 0, 0, 0, 0,
                                  CHECK_EVENT_FN_MPI_ERROR},
    [CHECK_EVENT_FN_HANDLE_LEAK] = {"handle_leak", CHECK_EVENT_CLASS_OTHER, 0, 0, 0, 0, 0,
                                    CHECK_EVENT_FN_HANDLE_LEAK},
    [CHECK_EVENT_FN_AFTER_FINALIZE] = {"after_finalize", CHECK_EVENT_CLASS_OTHER, 0, 0, 0, 0, 0,
                                       CHECK_EVENT_FN_AFTER_FINALIZE},
    S(GROUP_INCL, OTHER, NONE),
    S(GROUP_EXCL, OTHER, NONE),
    S(GROUP_RANGE_INCL, OTHER, NONE),
    S(GROUP_UNION, OTHER, NONE),
    S(GROUP_INTERSECTION, OTHER, NONE),
    S(GROUP_DIFFERENCE, OTHER, NONE),
    S(GROUP_FREE, OTHER, NONE),
    [CHECK_EVENT_FN_HANDLE_MADE] = {"handle_made", CHECK_EVENT_CLASS_OTHER, 0, 0, 0, 0, 0,
                                    CHECK_EVENT_FN_HANDLE_MADE},
    S(FILE_IREAD, LOCAL, NONE),
    S(FILE_IWRITE, LOCAL, NONE),
    S(FILE_IREAD_AT, LOCAL, NONE),
    S(FILE_IWRITE_AT, LOCAL, NONE),
    S(FILE_IREAD_SHARED, LOCAL, NONE),
    S(FILE_IWRITE_SHARED, LOCAL, NONE),
    S(FILE_IREAD_ALL, LOCAL, NONE),
    S(FILE_IWRITE_ALL, LOCAL, NONE),
    S(FILE_IREAD_AT_ALL, LOCAL, NONE),
    S(FILE_IWRITE_AT_ALL, LOCAL, NONE),
    S(GREQUEST_START, LOCAL, NONE),
    S(GREQUEST_COMPLETE, LOCAL, NONE),
    [CHECK_EVENT_FN_UNMODELLED] = {"unmodelled", CHECK_EVENT_CLASS_OTHER, 0, 0, 0, 0, 0,
                                   CHECK_EVENT_FN_UNMODELLED},
    S(WIN_FLUSH, OTHER, NONE),
    S(WIN_FLUSH_ALL, OTHER, NONE),
    S(WIN_FLUSH_LOCAL, OTHER, NONE),
    S(WIN_FLUSH_LOCAL_ALL, OTHER, NONE),
    S(WIN_SYNC, OTHER, NONE),
    S(RACCUMULATE, OTHER, NONE),
    S(RGET_ACCUMULATE, OTHER, NONE),
    C(NEIGHBOR_ALLGATHERV, 0, 0),
    C(NEIGHBOR_ALLTOALLV, 0, 0),
    C(NEIGHBOR_ALLTOALLW, 0, 0),
    I(INEIGHBOR_ALLGATHERV, NEIGHBOR_ALLGATHERV, 0, 0),
    I(INEIGHBOR_ALLTOALLV, NEIGHBOR_ALLTOALLV, 0, 0),
    I(INEIGHBOR_ALLTOALLW, NEIGHBOR_ALLTOALLW, 0, 0),
};

const char *check_event_mpi_error_name(uint64_t portable_class)
{
#define X(name) "MPI_ERR_" #name,
    static const char *const names[] = {
#include "mpi_error_classes.def"
    };
#undef X
    return portable_class >= 1 && portable_class <= sizeof names / sizeof *names
               ? names[portable_class - 1]
               : "MPI_ERR_?";
}

const check_event_func_info *check_event_func_describe(uint16_t fn)
{
    if (fn == CHECK_EVENT_FN_NONE || fn >= CHECK_EVENT_FN_COUNT) {
        return NULL;
    }
    return &func_table[fn];
}

int check_event_completes_listed(const check_event *ev, const check_event_func_info *info)
{
    return info->completion == CHECK_EVENT_COMPLETE_ANY ||
           info->completion == CHECK_EVENT_COMPLETE_SOME ||
           (info->completion == CHECK_EVENT_COMPLETE_ALL && (ev->flags & CHECK_EVENT_FLAG_REFUSED));
}

/* Little-endian stores and loads, one statement per byte rather than a loop: the compiler then
 * merges them into a single store or load on a little-endian host (a loop stayed byte by byte). */
/* CRC-32C (Castagnoli, reflected polynomial 0x82F63B78): detects every single-bit flip and every
 * burst up to 32 bits, which a torn or corrupted ring slot produces. Every record is checksummed
 * twice (encoded on the rank, decoded by the detector), and a byte-wise table lookup made the
 * checksum most of both (docs/design/check-detector.md §11): each step waits for the previous one's
 * lookup. Eight bytes per step with eight tables (check_event_crc.h) makes the eight lookups
 * independent of each other: about 5x faster on a 136-byte record (encode 0.44 -> 0.09 us,
 * decode 0.37 -> 0.07 us on the shared test machine); the tail goes byte by byte. get32 keeps it
 * independent of the host's byte order. */
static uint32_t crc_by_tables(uint32_t crc, const uint8_t *p, size_t n)
{
    for (; n >= 8; n -= 8, p += 8) {
        uint32_t lo = get32(p) ^ crc, hi = get32(p + 4);
        crc = crc_table[7][lo & 0xFFu] ^ crc_table[6][(lo >> 8) & 0xFFu] ^
              crc_table[5][(lo >> 16) & 0xFFu] ^ crc_table[4][lo >> 24] ^ crc_table[3][hi & 0xFFu] ^
              crc_table[2][(hi >> 8) & 0xFFu] ^ crc_table[1][(hi >> 16) & 0xFFu] ^
              crc_table[0][hi >> 24];
    }
    for (; n > 0; n--, p++) {
        crc = (crc >> 8) ^ crc_table[0][(crc ^ *p) & 0xFFu];
    }
    return crc;
}

#if defined(__x86_64__) && defined(__GNUC__)
/* SSE 4.2's crc32 instruction is this very CRC, 8 bytes a step: the tables' steps were still a
 * quarter of a tree leaf's CPU time (perf, issue 31). Chosen at run time, as the build targets the
 * x86-64 baseline, which lacks it. */
__attribute__((target("sse4.2"))) static uint32_t crc_by_instruction(uint32_t crc, const uint8_t *p,
                                                                     size_t n)
{
    uint64_t wide = crc;
    for (; n >= 8; n -= 8, p += 8)
        wide = __builtin_ia32_crc32di(wide, get64(p));
    crc = (uint32_t)wide;
    for (; n > 0; n--, p++)
        crc = __builtin_ia32_crc32qi(crc, *p);
    return crc;
}

/* Whether this CPU has the instruction. */
static int have_instruction(void)
{
    /* -1 until the first call asks the CPU; threads that ask at once store the same answer */
    static _Atomic int instruction = -1;
    int use = atomic_load_explicit(&instruction, memory_order_relaxed);
    if (use < 0) {
        __builtin_cpu_init(); /* a preloaded library's constructor may come before libgcc's */
        use = __builtin_cpu_supports("sse4.2") != 0;
        atomic_store_explicit(&instruction, use, memory_order_relaxed);
    }
    return use;
}
#endif

uint32_t check_event_crc32c_tables(uint32_t crc, const uint8_t *p, size_t n)
{
    return ~crc_by_tables(~crc, p, n);
}

int check_event_crc32c_instruction(uint32_t crc, const uint8_t *p, size_t n, uint32_t *out)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (have_instruction()) {
        *out = ~crc_by_instruction(~crc, p, n);
        return MG_ERROR_OK;
    }
#else
    (void)crc, (void)p, (void)n, (void)out;
#endif
    return MG_ERROR_EUNSUPPORTED;
}

uint32_t check_event_crc32c(uint32_t crc, const uint8_t *p, size_t n)
{
    uint32_t by_instruction;
    return check_event_crc32c_instruction(crc, p, n, &by_instruction) == MG_ERROR_OK
               ? by_instruction
               : check_event_crc32c_tables(crc, p, n);
}

/* Header offsets. */
enum {
    OFF_MAGIC = 0,
    OFF_VERSION = 2,
    OFF_KIND = 3,
    OFF_FUNC = 4,
    OFF_FLAGS = 6,
    OFF_PAYLOAD = 8,
    OFF_CRC = 12,
    OFF_RANK = 16,
    OFF_PEER = 20,
    OFF_SEQ = 24,
    OFF_COMM = 32,
    OFF_TAG = 40,
    OFF_ROOT = 44,
    OFF_COUNT = 48,
    OFF_THASH = 56,
    OFF_TELEMS = 64,
    OFF_OP = 72,
    OFF_RESULT = 76,
    OFF_REQUEST = 80,
    OFF_AUX = 88,
    OFF_CALLSITE = 96,
    OFF_NREQ = 104,
    OFF_NSTAT = 108,
    OFF_NRANK = 112,
    OFF_NLOCAL = 116,
    OFF_PEER2 = 120,
    OFF_TAG2 = 124,
    OFF_TPERIOD = 128
};

static uint64_t payload_size(uint32_t nreq, uint32_t nstat, uint32_t nrank, uint16_t flags)
{
    return (uint64_t)nreq * CHECK_EVENT_REQUEST_SIZE + (uint64_t)nstat * CHECK_EVENT_STATUS_SIZE +
           (uint64_t)nrank * CHECK_EVENT_RANK_SIZE +
           (flags & CHECK_EVENT_FLAG_CALLER_SITE ? CHECK_EVENT_CALLER_SIZE : 0);
}

size_t check_event_encoded_size(const check_event *ev)
{
    if (!ev || ev->n_requests > CHECK_EVENT_MAX_ITEMS || ev->n_statuses > CHECK_EVENT_MAX_ITEMS ||
        ev->n_ranks > CHECK_EVENT_MAX_ITEMS) {
        return 0;
    }
    return CHECK_EVENT_HEADER_SIZE +
           (size_t)payload_size(ev->n_requests, ev->n_statuses, ev->n_ranks, ev->flags);
}

int check_event_encode(const check_event *ev, uint8_t *buf, size_t cap, size_t *written)
{
    if (!ev || !buf || !written || (ev->n_requests && !ev->requests) ||
        (ev->n_statuses && !ev->statuses) || (ev->n_ranks && !ev->ranks) ||
        ev->n_local > ev->n_ranks) {
        return MG_ERROR_EINVAL;
    }
    size_t size = check_event_encoded_size(ev);
    if (size == 0) {
        return MG_ERROR_ERANGE;
    }
    if (cap < size) {
        return MG_ERROR_EFULL;
    }
    uint8_t *h = buf;
    put16(h + OFF_MAGIC, CHECK_EVENT_MAGIC);
    h[OFF_VERSION] = CHECK_EVENT_VERSION;
    h[OFF_KIND] = ev->kind;
    put16(h + OFF_FUNC, ev->func);
    put16(h + OFF_FLAGS, ev->flags);
    put32(h + OFF_PAYLOAD, (uint32_t)(size - CHECK_EVENT_HEADER_SIZE));
    put32(h + OFF_CRC, 0);
    put32(h + OFF_RANK, (uint32_t)ev->rank);
    put32(h + OFF_PEER, (uint32_t)ev->peer);
    put64(h + OFF_SEQ, ev->seq);
    put64(h + OFF_COMM, ev->comm);
    put32(h + OFF_TAG, (uint32_t)ev->tag);
    put32(h + OFF_ROOT, (uint32_t)ev->root);
    put64(h + OFF_COUNT, (uint64_t)ev->count);
    put64(h + OFF_THASH, ev->type_hash);
    put64(h + OFF_TELEMS, ev->type_elems);
    put32(h + OFF_OP, ev->op);
    put32(h + OFF_RESULT, (uint32_t)ev->result);
    put64(h + OFF_REQUEST, ev->request);
    put64(h + OFF_AUX, ev->aux);
    put64(h + OFF_CALLSITE, ev->callsite);
    put32(h + OFF_NREQ, ev->n_requests);
    put32(h + OFF_NSTAT, ev->n_statuses);
    put32(h + OFF_NRANK, ev->n_ranks);
    put32(h + OFF_NLOCAL, ev->n_local);
    put32(h + OFF_PEER2, (uint32_t)ev->peer2);
    put32(h + OFF_TAG2, (uint32_t)ev->tag2);
    put64(h + OFF_TPERIOD, ev->type_period);
    uint8_t *p = buf + CHECK_EVENT_HEADER_SIZE;
    for (uint32_t i = 0; i < ev->n_requests; i++, p += CHECK_EVENT_REQUEST_SIZE) {
        put64(p, ev->requests[i]);
    }
    for (uint32_t i = 0; i < ev->n_statuses; i++, p += CHECK_EVENT_STATUS_SIZE) {
        const check_event_status *s = &ev->statuses[i];
        put32(p, s->index);
        put32(p + 4, (uint32_t)s->source);
        put32(p + 8, (uint32_t)s->tag);
        put32(p + 12, (uint32_t)s->error);
        put64(p + 16, (uint64_t)s->count);
    }
    for (uint32_t i = 0; i < ev->n_ranks; i++, p += CHECK_EVENT_RANK_SIZE) {
        put32(p, (uint32_t)ev->ranks[i]);
    }
    if (ev->flags & CHECK_EVENT_FLAG_CALLER_SITE) {
        put64(p, ev->caller_site);
    }
    put32(h + OFF_CRC, check_event_crc32c(0, buf, size));
    *written = size;
    return MG_ERROR_OK;
}

static int header_is_valid(const uint8_t *h)
{
    if (h[OFF_KIND] != CHECK_EVENT_EV_ENTER && h[OFF_KIND] != CHECK_EVENT_EV_EXIT) {
        return 0;
    }
    if (!check_event_func_describe(get16(h + OFF_FUNC))) {
        return 0;
    }
    return 1;
}

int check_event_decode(const uint8_t *buf, size_t len, check_event *ev, size_t *consumed)
{
    if (!buf || !ev || !consumed) {
        return MG_ERROR_EINVAL;
    }
    if (len < 4 || get16(buf + OFF_MAGIC) != CHECK_EVENT_MAGIC) {
        return MG_ERROR_EFORMAT;
    }
    if (buf[OFF_VERSION] != CHECK_EVENT_VERSION) {
        return MG_ERROR_EVERSION;
    }
    if (len < CHECK_EVENT_HEADER_SIZE || !header_is_valid(buf)) {
        return MG_ERROR_EFORMAT;
    }
    uint32_t nreq = get32(buf + OFF_NREQ), nstat = get32(buf + OFF_NSTAT);
    uint32_t nrank = get32(buf + OFF_NRANK), nlocal = get32(buf + OFF_NLOCAL);
    uint32_t plen = get32(buf + OFF_PAYLOAD);
    if (nreq > CHECK_EVENT_MAX_ITEMS || nstat > CHECK_EVENT_MAX_ITEMS ||
        nrank > CHECK_EVENT_MAX_ITEMS || nlocal > nrank ||
        payload_size(nreq, nstat, nrank, get16(buf + OFF_FLAGS)) != plen ||
        len - CHECK_EVENT_HEADER_SIZE < plen) {
        return MG_ERROR_EFORMAT;
    }
    size_t size = CHECK_EVENT_HEADER_SIZE + (size_t)plen;
    uint32_t stored = get32(buf + OFF_CRC);
    /* The CRC covers the record with its own field zero: the first 16 bytes (which hold the
     * field) go through a copy, so that both pieces are whole 8-byte steps. */
    uint8_t head[OFF_RANK];
    memcpy(head, buf, sizeof head);
    memset(head + OFF_CRC, 0, 4);
    uint32_t crc = check_event_crc32c(0, head, sizeof head);
    crc = check_event_crc32c(crc, buf + OFF_RANK, size - OFF_RANK);
    if (crc != stored) {
        return MG_ERROR_EFORMAT;
    }
    memset(ev, 0, sizeof *ev);
    ev->kind = buf[OFF_KIND];
    ev->func = get16(buf + OFF_FUNC);
    ev->flags = get16(buf + OFF_FLAGS);
    ev->rank = (int32_t)get32(buf + OFF_RANK);
    ev->peer = (int32_t)get32(buf + OFF_PEER);
    ev->seq = get64(buf + OFF_SEQ);
    ev->comm = get64(buf + OFF_COMM);
    ev->tag = (int32_t)get32(buf + OFF_TAG);
    ev->root = (int32_t)get32(buf + OFF_ROOT);
    ev->count = (int64_t)get64(buf + OFF_COUNT);
    ev->type_hash = get64(buf + OFF_THASH);
    ev->type_elems = get64(buf + OFF_TELEMS);
    ev->type_period = get64(buf + OFF_TPERIOD);
    ev->op = get32(buf + OFF_OP);
    ev->result = (int32_t)get32(buf + OFF_RESULT);
    ev->request = get64(buf + OFF_REQUEST);
    ev->aux = get64(buf + OFF_AUX);
    ev->callsite = get64(buf + OFF_CALLSITE);
    ev->n_requests = nreq;
    ev->n_statuses = nstat;
    ev->n_ranks = nrank;
    ev->n_local = nlocal;
    ev->peer2 = (int32_t)get32(buf + OFF_PEER2);
    ev->tag2 = (int32_t)get32(buf + OFF_TAG2);
    if (ev->flags & CHECK_EVENT_FLAG_CALLER_SITE) {
        ev->caller_site = get64(buf + size - CHECK_EVENT_CALLER_SIZE);
    }
    *consumed = size;
    return MG_ERROR_OK;
}

int check_event_decode_arrays(const uint8_t *buf, check_event *ev, uint64_t *requests,
                              check_event_status *statuses, int32_t *ranks)
{
    if (!buf || !ev || (ev->n_requests && !requests) || (ev->n_statuses && !statuses) ||
        (ev->n_ranks && !ranks)) {
        return MG_ERROR_EINVAL;
    }
    const uint8_t *p = buf + CHECK_EVENT_HEADER_SIZE;
    for (uint32_t i = 0; i < ev->n_requests; i++, p += CHECK_EVENT_REQUEST_SIZE) {
        requests[i] = get64(p);
    }
    for (uint32_t i = 0; i < ev->n_statuses; i++, p += CHECK_EVENT_STATUS_SIZE) {
        statuses[i].index = get32(p);
        statuses[i].source = (int32_t)get32(p + 4);
        statuses[i].tag = (int32_t)get32(p + 8);
        statuses[i].error = (int32_t)get32(p + 12);
        statuses[i].count = (int64_t)get64(p + 16);
    }
    for (uint32_t i = 0; i < ev->n_ranks; i++, p += CHECK_EVENT_RANK_SIZE) {
        ranks[i] = (int32_t)get32(p);
    }
    ev->requests = ev->n_requests ? requests : NULL;
    ev->statuses = ev->n_statuses ? statuses : NULL;
    ev->ranks = ev->n_ranks ? ranks : NULL;
    return MG_ERROR_OK;
}
