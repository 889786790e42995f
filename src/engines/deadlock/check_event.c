/* Encoding and decoding of the check event record (docs/check-detector.md §1). */
#include "check_event.h"

#include <string.h>

#include "mg_error.h"

#define S(n, k, m)                                                                                 \
    [CHECK_FN_##n] = {"MPI_" #n, CHECK_CLASS_##k, CHECK_MODE_##m, 0, 0, 0, 0, CHECK_FN_##n}
#define W(n, k, c)                                                                                 \
    [CHECK_FN_##n] = {"MPI_" #n, CHECK_CLASS_##k, 0, CHECK_COMPLETE_##c, 0, 0, 0, CHECK_FN_##n}
#define C(n, r, o) [CHECK_FN_##n] = {"MPI_" #n, CHECK_CLASS_COLL, 0, 0, r, o, 0, CHECK_FN_##n}
#define I(n, b, r, o) [CHECK_FN_##n] = {"MPI_" #n, CHECK_CLASS_ICOLL, 0, 0, r, o, 0, CHECK_FN_##b}
#define K(n, mk) [CHECK_FN_##n] = {"MPI_" #n, CHECK_CLASS_COLL, 0, 0, 0, 0, mk, CHECK_FN_##n}

static const check_func_info func_table[CHECK_FN_COUNT] = {
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
};


const check_func_info *check_func_describe(uint16_t fn) {
    if (fn == CHECK_FN_NONE || fn >= CHECK_FN_COUNT) {
        return NULL;
    }
    return &func_table[fn];
}

/* CRC-32C (Castagnoli, reflected polynomial 0x82F63B78): detects every single-bit flip and every
 * burst up to 32 bits, which a torn or corrupted ring slot produces. Byte-wise table lookup: about
 * 1 ns per byte, within the detector's budget (docs/check-detector.md §11). */
static const uint32_t crc_table[256] = {
    0x00000000u, 0xF26B8303u, 0xE13B70F7u, 0x1350F3F4u, 0xC79A971Fu, 0x35F1141Cu, 0x26A1E7E8u,
    0xD4CA64EBu, 0x8AD958CFu, 0x78B2DBCCu, 0x6BE22838u, 0x9989AB3Bu, 0x4D43CFD0u, 0xBF284CD3u,
    0xAC78BF27u, 0x5E133C24u, 0x105EC76Fu, 0xE235446Cu, 0xF165B798u, 0x030E349Bu, 0xD7C45070u,
    0x25AFD373u, 0x36FF2087u, 0xC494A384u, 0x9A879FA0u, 0x68EC1CA3u, 0x7BBCEF57u, 0x89D76C54u,
    0x5D1D08BFu, 0xAF768BBCu, 0xBC267848u, 0x4E4DFB4Bu, 0x20BD8EDEu, 0xD2D60DDDu, 0xC186FE29u,
    0x33ED7D2Au, 0xE72719C1u, 0x154C9AC2u, 0x061C6936u, 0xF477EA35u, 0xAA64D611u, 0x580F5512u,
    0x4B5FA6E6u, 0xB93425E5u, 0x6DFE410Eu, 0x9F95C20Du, 0x8CC531F9u, 0x7EAEB2FAu, 0x30E349B1u,
    0xC288CAB2u, 0xD1D83946u, 0x23B3BA45u, 0xF779DEAEu, 0x05125DADu, 0x1642AE59u, 0xE4292D5Au,
    0xBA3A117Eu, 0x4851927Du, 0x5B016189u, 0xA96AE28Au, 0x7DA08661u, 0x8FCB0562u, 0x9C9BF696u,
    0x6EF07595u, 0x417B1DBCu, 0xB3109EBFu, 0xA0406D4Bu, 0x522BEE48u, 0x86E18AA3u, 0x748A09A0u,
    0x67DAFA54u, 0x95B17957u, 0xCBA24573u, 0x39C9C670u, 0x2A993584u, 0xD8F2B687u, 0x0C38D26Cu,
    0xFE53516Fu, 0xED03A29Bu, 0x1F682198u, 0x5125DAD3u, 0xA34E59D0u, 0xB01EAA24u, 0x42752927u,
    0x96BF4DCCu, 0x64D4CECFu, 0x77843D3Bu, 0x85EFBE38u, 0xDBFC821Cu, 0x2997011Fu, 0x3AC7F2EBu,
    0xC8AC71E8u, 0x1C661503u, 0xEE0D9600u, 0xFD5D65F4u, 0x0F36E6F7u, 0x61C69362u, 0x93AD1061u,
    0x80FDE395u, 0x72966096u, 0xA65C047Du, 0x5437877Eu, 0x4767748Au, 0xB50CF789u, 0xEB1FCBADu,
    0x197448AEu, 0x0A24BB5Au, 0xF84F3859u, 0x2C855CB2u, 0xDEEEDFB1u, 0xCDBE2C45u, 0x3FD5AF46u,
    0x7198540Du, 0x83F3D70Eu, 0x90A324FAu, 0x62C8A7F9u, 0xB602C312u, 0x44694011u, 0x5739B3E5u,
    0xA55230E6u, 0xFB410CC2u, 0x092A8FC1u, 0x1A7A7C35u, 0xE811FF36u, 0x3CDB9BDDu, 0xCEB018DEu,
    0xDDE0EB2Au, 0x2F8B6829u, 0x82F63B78u, 0x709DB87Bu, 0x63CD4B8Fu, 0x91A6C88Cu, 0x456CAC67u,
    0xB7072F64u, 0xA457DC90u, 0x563C5F93u, 0x082F63B7u, 0xFA44E0B4u, 0xE9141340u, 0x1B7F9043u,
    0xCFB5F4A8u, 0x3DDE77ABu, 0x2E8E845Fu, 0xDCE5075Cu, 0x92A8FC17u, 0x60C37F14u, 0x73938CE0u,
    0x81F80FE3u, 0x55326B08u, 0xA759E80Bu, 0xB4091BFFu, 0x466298FCu, 0x1871A4D8u, 0xEA1A27DBu,
    0xF94AD42Fu, 0x0B21572Cu, 0xDFEB33C7u, 0x2D80B0C4u, 0x3ED04330u, 0xCCBBC033u, 0xA24BB5A6u,
    0x502036A5u, 0x4370C551u, 0xB11B4652u, 0x65D122B9u, 0x97BAA1BAu, 0x84EA524Eu, 0x7681D14Du,
    0x2892ED69u, 0xDAF96E6Au, 0xC9A99D9Eu, 0x3BC21E9Du, 0xEF087A76u, 0x1D63F975u, 0x0E330A81u,
    0xFC588982u, 0xB21572C9u, 0x407EF1CAu, 0x532E023Eu, 0xA145813Du, 0x758FE5D6u, 0x87E466D5u,
    0x94B49521u, 0x66DF1622u, 0x38CC2A06u, 0xCAA7A905u, 0xD9F75AF1u, 0x2B9CD9F2u, 0xFF56BD19u,
    0x0D3D3E1Au, 0x1E6DCDEEu, 0xEC064EEDu, 0xC38D26C4u, 0x31E6A5C7u, 0x22B65633u, 0xD0DDD530u,
    0x0417B1DBu, 0xF67C32D8u, 0xE52CC12Cu, 0x1747422Fu, 0x49547E0Bu, 0xBB3FFD08u, 0xA86F0EFCu,
    0x5A048DFFu, 0x8ECEE914u, 0x7CA56A17u, 0x6FF599E3u, 0x9D9E1AE0u, 0xD3D3E1ABu, 0x21B862A8u,
    0x32E8915Cu, 0xC083125Fu, 0x144976B4u, 0xE622F5B7u, 0xF5720643u, 0x07198540u, 0x590AB964u,
    0xAB613A67u, 0xB831C993u, 0x4A5A4A90u, 0x9E902E7Bu, 0x6CFBAD78u, 0x7FAB5E8Cu, 0x8DC0DD8Fu,
    0xE330A81Au, 0x115B2B19u, 0x020BD8EDu, 0xF0605BEEu, 0x24AA3F05u, 0xD6C1BC06u, 0xC5914FF2u,
    0x37FACCF1u, 0x69E9F0D5u, 0x9B8273D6u, 0x88D28022u, 0x7AB90321u, 0xAE7367CAu, 0x5C18E4C9u,
    0x4F48173Du, 0xBD23943Eu, 0xF36E6F75u, 0x0105EC76u, 0x12551F82u, 0xE03E9C81u, 0x34F4F86Au,
    0xC69F7B69u, 0xD5CF889Du, 0x27A40B9Eu, 0x79B737BAu, 0x8BDCB4B9u, 0x988C474Du, 0x6AE7C44Eu,
    0xBE2DA0A5u, 0x4C4623A6u, 0x5F16D052u, 0xAD7D5351u};

static uint32_t crc32c(uint32_t crc, const uint8_t *p, size_t n) {
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc = (crc >> 8) ^ crc_table[(crc ^ p[i]) & 0xFFu];
    }
    return ~crc;
}

static void put16(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint16_t get16(const uint8_t *p) {
    return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t get32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p) {
    return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
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
    OFF_RESERVED = 128
};

static uint64_t payload_size(uint32_t nreq, uint32_t nstat, uint32_t nrank) {
    return (uint64_t)nreq * CHECK_EVENT_REQUEST_SIZE + (uint64_t)nstat * CHECK_EVENT_STATUS_SIZE +
           (uint64_t)nrank * CHECK_EVENT_RANK_SIZE;
}

size_t check_event_encoded_size(const check_event *ev) {
    if (!ev || ev->n_requests > CHECK_EVENT_MAX_ITEMS || ev->n_statuses > CHECK_EVENT_MAX_ITEMS ||
        ev->n_ranks > CHECK_EVENT_MAX_ITEMS) {
        return 0;
    }
    return CHECK_EVENT_HEADER_SIZE +
           (size_t)payload_size(ev->n_requests, ev->n_statuses, ev->n_ranks);
}

int check_event_encode(const check_event *ev, uint8_t *buf, size_t cap, size_t *written) {
    if (!ev || !buf || !written || (ev->n_requests && !ev->requests) ||
        (ev->n_statuses && !ev->statuses) || (ev->n_ranks && !ev->ranks) ||
        ev->n_local > ev->n_ranks) {
        return MG_EINVAL;
    }
    size_t size = check_event_encoded_size(ev);
    if (size == 0) {
        return MG_ERANGE;
    }
    if (cap < size) {
        return MG_EFULL;
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
    memset(h + OFF_RESERVED, 0, CHECK_EVENT_HEADER_SIZE - OFF_RESERVED);
    uint8_t *p = buf + CHECK_EVENT_HEADER_SIZE;
    for (uint32_t i = 0; i < ev->n_requests; i++, p += CHECK_EVENT_REQUEST_SIZE) {
        put64(p, ev->requests[i]);
    }
    for (uint32_t i = 0; i < ev->n_statuses; i++, p += CHECK_EVENT_STATUS_SIZE) {
        const check_status *s = &ev->statuses[i];
        put32(p, s->index);
        put32(p + 4, (uint32_t)s->source);
        put32(p + 8, (uint32_t)s->tag);
        put32(p + 12, (uint32_t)s->error);
        put64(p + 16, (uint64_t)s->count);
    }
    for (uint32_t i = 0; i < ev->n_ranks; i++, p += CHECK_EVENT_RANK_SIZE) {
        put32(p, (uint32_t)ev->ranks[i]);
    }
    put32(h + OFF_CRC, crc32c(0, buf, size));
    *written = size;
    return MG_OK;
}

static int header_is_valid(const uint8_t *h) {
    if (h[OFF_KIND] != CHECK_EV_ENTER && h[OFF_KIND] != CHECK_EV_EXIT) {
        return 0;
    }
    if (!check_func_describe(get16(h + OFF_FUNC))) {
        return 0;
    }
    for (unsigned i = OFF_RESERVED; i < CHECK_EVENT_HEADER_SIZE; i++) {
        if (h[i] != 0) {
            return 0;
        }
    }
    return 1;
}

int check_event_decode(const uint8_t *buf, size_t len, check_event *ev, size_t *consumed) {
    if (!buf || !ev || !consumed) {
        return MG_EINVAL;
    }
    if (len < 4 || get16(buf + OFF_MAGIC) != CHECK_EVENT_MAGIC) {
        return MG_EFORMAT;
    }
    if (buf[OFF_VERSION] != CHECK_EVENT_VERSION) {
        return MG_EVERSION;
    }
    if (len < CHECK_EVENT_HEADER_SIZE || !header_is_valid(buf)) {
        return MG_EFORMAT;
    }
    uint32_t nreq = get32(buf + OFF_NREQ), nstat = get32(buf + OFF_NSTAT);
    uint32_t nrank = get32(buf + OFF_NRANK), nlocal = get32(buf + OFF_NLOCAL);
    uint32_t plen = get32(buf + OFF_PAYLOAD);
    if (nreq > CHECK_EVENT_MAX_ITEMS || nstat > CHECK_EVENT_MAX_ITEMS ||
        nrank > CHECK_EVENT_MAX_ITEMS || nlocal > nrank ||
        payload_size(nreq, nstat, nrank) != plen || len - CHECK_EVENT_HEADER_SIZE < plen) {
        return MG_EFORMAT;
    }
    size_t size = CHECK_EVENT_HEADER_SIZE + (size_t)plen;
    uint32_t stored = get32(buf + OFF_CRC);
    uint8_t zero[4] = {0, 0, 0, 0};
    uint32_t crc = crc32c(0, buf, OFF_CRC);
    crc = crc32c(crc, zero, sizeof zero);
    crc = crc32c(crc, buf + OFF_CRC + 4, size - OFF_CRC - 4);
    if (crc != stored) {
        return MG_EFORMAT;
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
    *consumed = size;
    return MG_OK;
}

int check_event_decode_arrays(const uint8_t *buf, check_event *ev, uint64_t *requests,
                              check_status *statuses, int32_t *ranks) {
    if (!buf || !ev || (ev->n_requests && !requests) || (ev->n_statuses && !statuses) ||
        (ev->n_ranks && !ranks)) {
        return MG_EINVAL;
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
    return MG_OK;
}
