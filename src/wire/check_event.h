/* The check event record: what the capture module writes per MPI call (entry and exit) into its
 * per-rank ring, what agents forward over TCP, and what the deadlock detector consumes.
 * Spec: docs/design/check.md "Events"; layout and rules: docs/design/check-detector.md §1. */
#ifndef CHECK_EVENT_H
#define CHECK_EVENT_H

#include <stddef.h>
#include <stdint.h>

/* Wire constants. The header is fixed-size and little-endian; a payload of
 * n_requests*8 + n_statuses*24 + n_ranks*4 bytes follows it, and 8 more under
 * CHECK_EVENT_FLAG_CALLER_SITE. */
#define CHECK_EVENT_MAGIC 0x474Du /* "MG" read as a little-endian u16 */
#define CHECK_EVENT_VERSION 1u
#define CHECK_EVENT_HEADER_SIZE 136u
#define CHECK_EVENT_REQUEST_SIZE 8u
#define CHECK_EVENT_STATUS_SIZE 24u
#define CHECK_EVENT_RANK_SIZE 4u
#define CHECK_EVENT_CALLER_SIZE 8u
/* Upper bound on each array so sizes never overflow 32 bits and a corrupted count is rejected. */
#define CHECK_EVENT_MAX_ITEMS (1u << 24)

/* Special values of peer, tag and root, mirroring MPI's (translated by the capture module). */
#define CHECK_EVENT_ANY_SOURCE (-1)
#define CHECK_EVENT_PROC_NULL (-2)
#define CHECK_EVENT_ANY_TAG (-1)
#define CHECK_EVENT_NO_ROOT (-1)
#define CHECK_EVENT_UNDEFINED_INDEX 0xFFFFFFFFu /* Waitany/Testany completed nothing */

/* Communicator ids are 64-bit and identical on every member. WORLD is fixed; COMM_SELF of rank r is
 * check_comm_self_id(r); every other id comes from the capture module
 * (docs/design/check-detector.md). */
#define CHECK_EVENT_COMM_WORLD 1u
#define CHECK_EVENT_COMM_NULL 0u
#define CHECK_EVENT_COMM_SELF_FLAG (1ull << 63)

static inline uint64_t check_comm_self_id(int32_t rank)
{
    return CHECK_EVENT_COMM_SELF_FLAG | (uint32_t)rank;
}

typedef enum check_event_kind {
    CHECK_EVENT_EV_ENTER = 1, /* the call starts: written before the rank can block */
    CHECK_EVENT_EV_EXIT = 2   /* the call returned: completion statuses, new communicators */
} check_event_kind;

/* Flags of a record. */
enum check_event_flags {
    CHECK_EVENT_FLAG_INTERCOMM = 1u << 0,    /* ranks[] = local group (n_local) then remote group */
    CHECK_EVENT_FLAG_CANCELLED = 1u << 1,    /* a completion reports a cancelled request */
    CHECK_EVENT_FLAG_TYPE_UNIFORM = 1u << 2, /* every element of the message has one basic type */
    /* the call's arguments are invalid (aux: its usage_args_problem, usage_args.h; peer, tag and
     * count as passed): the only record of the call, which the detector reports and does not model
     */
    CHECK_EVENT_FLAG_INVALID_ARGUMENTS = 1u << 3,
    /* an exit record: MPI returned an error from the call (under MPI_ERRORS_RETURN, or the
     * capture module's handler on a window or file), so the call blocks no longer whatever the
     * model says, and what it posted itself never completes */
    CHECK_EVENT_FLAG_REFUSED = 1u << 4,
    /* the payload ends with caller_site: only between a rank and its agent, which picks the site
     * to report and writes the record on without it (check_agent.c), so that a record without the
     * flag stays what every other reader knows */
    CHECK_EVENT_FLAG_CALLER_SITE = 1u << 5
};

/* MPI functions that matter for matching and resources. Values are part of the wire format:
 * append only. */
typedef enum check_event_func {
    CHECK_EVENT_FN_NONE = 0,
    CHECK_EVENT_FN_INIT,
    CHECK_EVENT_FN_FINALIZE,
    CHECK_EVENT_FN_ABORT,
    CHECK_EVENT_FN_SEND,
    CHECK_EVENT_FN_BSEND,
    CHECK_EVENT_FN_SSEND,
    CHECK_EVENT_FN_RSEND,
    CHECK_EVENT_FN_ISEND,
    CHECK_EVENT_FN_IBSEND,
    CHECK_EVENT_FN_ISSEND,
    CHECK_EVENT_FN_IRSEND,
    CHECK_EVENT_FN_RECV,
    CHECK_EVENT_FN_IRECV,
    CHECK_EVENT_FN_SENDRECV,
    CHECK_EVENT_FN_SENDRECV_REPLACE,
    CHECK_EVENT_FN_PROBE,
    CHECK_EVENT_FN_IPROBE,
    CHECK_EVENT_FN_MPROBE,
    CHECK_EVENT_FN_IMPROBE,
    CHECK_EVENT_FN_MRECV,
    CHECK_EVENT_FN_IMRECV,
    CHECK_EVENT_FN_SEND_INIT,
    CHECK_EVENT_FN_BSEND_INIT,
    CHECK_EVENT_FN_SSEND_INIT,
    CHECK_EVENT_FN_RSEND_INIT,
    CHECK_EVENT_FN_RECV_INIT,
    CHECK_EVENT_FN_START,
    CHECK_EVENT_FN_STARTALL,
    CHECK_EVENT_FN_REQUEST_FREE,
    CHECK_EVENT_FN_CANCEL,
    CHECK_EVENT_FN_WAIT,
    CHECK_EVENT_FN_WAITALL,
    CHECK_EVENT_FN_WAITANY,
    CHECK_EVENT_FN_WAITSOME,
    CHECK_EVENT_FN_TEST,
    CHECK_EVENT_FN_TESTALL,
    CHECK_EVENT_FN_TESTANY,
    CHECK_EVENT_FN_TESTSOME,
    CHECK_EVENT_FN_BARRIER,
    CHECK_EVENT_FN_BCAST,
    CHECK_EVENT_FN_GATHER,
    CHECK_EVENT_FN_GATHERV,
    CHECK_EVENT_FN_SCATTER,
    CHECK_EVENT_FN_SCATTERV,
    CHECK_EVENT_FN_ALLGATHER,
    CHECK_EVENT_FN_ALLGATHERV,
    CHECK_EVENT_FN_ALLTOALL,
    CHECK_EVENT_FN_ALLTOALLV,
    CHECK_EVENT_FN_ALLTOALLW,
    CHECK_EVENT_FN_REDUCE,
    CHECK_EVENT_FN_ALLREDUCE,
    CHECK_EVENT_FN_REDUCE_SCATTER,
    CHECK_EVENT_FN_REDUCE_SCATTER_BLOCK,
    CHECK_EVENT_FN_SCAN,
    CHECK_EVENT_FN_EXSCAN,
    CHECK_EVENT_FN_IBARRIER,
    CHECK_EVENT_FN_IBCAST,
    CHECK_EVENT_FN_IGATHER,
    CHECK_EVENT_FN_IGATHERV,
    CHECK_EVENT_FN_ISCATTER,
    CHECK_EVENT_FN_ISCATTERV,
    CHECK_EVENT_FN_IALLGATHER,
    CHECK_EVENT_FN_IALLGATHERV,
    CHECK_EVENT_FN_IALLTOALL,
    CHECK_EVENT_FN_IALLTOALLV,
    CHECK_EVENT_FN_IALLTOALLW,
    CHECK_EVENT_FN_IREDUCE,
    CHECK_EVENT_FN_IALLREDUCE,
    CHECK_EVENT_FN_IREDUCE_SCATTER,
    CHECK_EVENT_FN_IREDUCE_SCATTER_BLOCK,
    CHECK_EVENT_FN_ISCAN,
    CHECK_EVENT_FN_IEXSCAN,
    CHECK_EVENT_FN_NEIGHBOR_ALLGATHER,
    CHECK_EVENT_FN_NEIGHBOR_ALLTOALL,
    CHECK_EVENT_FN_INEIGHBOR_ALLGATHER,
    CHECK_EVENT_FN_INEIGHBOR_ALLTOALL,
    CHECK_EVENT_FN_COMM_DUP,
    CHECK_EVENT_FN_COMM_SPLIT,
    CHECK_EVENT_FN_COMM_SPLIT_TYPE,
    CHECK_EVENT_FN_COMM_CREATE,
    CHECK_EVENT_FN_COMM_CREATE_GROUP,
    CHECK_EVENT_FN_INTERCOMM_CREATE,
    CHECK_EVENT_FN_INTERCOMM_MERGE,
    CHECK_EVENT_FN_CART_CREATE,
    CHECK_EVENT_FN_COMM_FREE,
    /* One-sided communication: window constructors are collectives on their communicator that
     * create a communicator of their own (the window's id, which its fence and free run on) */
    CHECK_EVENT_FN_WIN_CREATE,
    CHECK_EVENT_FN_WIN_ALLOCATE,
    CHECK_EVENT_FN_WIN_CREATE_DYNAMIC,
    CHECK_EVENT_FN_WIN_FREE,
    CHECK_EVENT_FN_WIN_FENCE,
    CHECK_EVENT_FN_WIN_POST,
    CHECK_EVENT_FN_WIN_START,
    CHECK_EVENT_FN_WIN_COMPLETE,
    CHECK_EVENT_FN_WIN_WAIT,
    CHECK_EVENT_FN_WIN_LOCK,
    CHECK_EVENT_FN_WIN_UNLOCK,
    CHECK_EVENT_FN_WIN_LOCK_ALL,
    CHECK_EVENT_FN_WIN_UNLOCK_ALL,
    CHECK_EVENT_FN_PUT,
    CHECK_EVENT_FN_GET,
    CHECK_EVENT_FN_ACCUMULATE,
    CHECK_EVENT_FN_GET_ACCUMULATE,
    CHECK_EVENT_FN_FETCH_AND_OP,
    CHECK_EVENT_FN_COMPARE_AND_SWAP,
    CHECK_EVENT_FN_RPUT,
    CHECK_EVENT_FN_RGET,
    /* the process exits without MPI_Finalize (an atexit handler of the capture module): the
     * rank's last record, alone (no exit record) */
    CHECK_EVENT_FN_EXIT,
    /* the MPI library raised an error on a communicator whose handler was MPI_ERRORS_ARE_FATAL
     * (the capture module's handler, capture_errors.c): aux its portable class
     * (check_event_mpi_error_name), result its error code; alone (no exit record), the callsite
     * that of the program's call; the rank then aborts */
    CHECK_EVENT_FN_MPI_ERROR,
    /* handles of one kind and creation site that the rank never freed, written at MPI_Finalize's
     * entry before the Finalize record, alone (no exit record): aux is the check_event_handle_kind,
     * count how many, callsite the creation's call site and result the mpi_function_ids_fn id
     * (mpi_function_ids.h) of the call that made them */
    CHECK_EVENT_FN_HANDLE_LEAK,
    /* an MPI call the rank made after its MPI_Finalize (which only MPI-4.0 Table 11.1's functions
     * may follow), written after the Finalize record, alone (no exit record): result the
     * mpi_function_ids_fn id of the call, MG_FN_NONE for one the library does not wrap (seen on the
     * stack when the MPI library ended the process in it), callsite the program's call */
    CHECK_EVENT_FN_AFTER_FINALIZE,
    /* Group calls, written only as a flagged record when a group they are given was freed
     * (group_freed); after the others so that no id moves */
    CHECK_EVENT_FN_GROUP_INCL,
    CHECK_EVENT_FN_GROUP_EXCL,
    CHECK_EVENT_FN_GROUP_RANGE_INCL,
    CHECK_EVENT_FN_GROUP_UNION,
    CHECK_EVENT_FN_GROUP_INTERSECTION,
    CHECK_EVENT_FN_GROUP_DIFFERENCE,
    CHECK_EVENT_FN_GROUP_FREE,
    /* the creation of a freed handle the rank's next record (flagged group_freed) passes, written
     * just before it, alone (no exit record): aux the check_event_handle_kind, callsite the
     * creation's call site and result the mpi_function_ids_fn id of the call that made it */
    CHECK_EVENT_FN_HANDLE_MADE,
    /* Calls whose request waits for no peer: nonblocking file I/O (MPI completes it on its own)
     * and generalized requests (complete once the rank calls MPI_Grequest_complete on them, which
     * has a record of its own, request its id); appended so that no id moves */
    CHECK_EVENT_FN_FILE_IREAD,
    CHECK_EVENT_FN_FILE_IWRITE,
    CHECK_EVENT_FN_FILE_IREAD_AT,
    CHECK_EVENT_FN_FILE_IWRITE_AT,
    CHECK_EVENT_FN_FILE_IREAD_SHARED,
    CHECK_EVENT_FN_FILE_IWRITE_SHARED,
    CHECK_EVENT_FN_FILE_IREAD_ALL,
    CHECK_EVENT_FN_FILE_IWRITE_ALL,
    CHECK_EVENT_FN_FILE_IREAD_AT_ALL,
    CHECK_EVENT_FN_FILE_IWRITE_AT_ALL,
    CHECK_EVENT_FN_GREQUEST_START,
    CHECK_EVENT_FN_GREQUEST_COMPLETE,
    /* the rank's first call of a function whose effect the detector does not model (the request
     * of MPI_Rput, MPI_Comm_idup), alone (no exit record): result its mpi_function_ids_fn id. Once
     * per function and rank, so that a clean report names what it did not check */
    CHECK_EVENT_FN_UNMODELLED,
    /* Passive-target completion and memory synchronization of one-sided communication: a flush
     * carries its target in peer (Win_flush, Win_flush_local); after the others so that no id
     * moves */
    CHECK_EVENT_FN_WIN_FLUSH,
    CHECK_EVENT_FN_WIN_FLUSH_ALL,
    CHECK_EVENT_FN_WIN_FLUSH_LOCAL,
    CHECK_EVENT_FN_WIN_FLUSH_LOCAL_ALL,
    CHECK_EVENT_FN_WIN_SYNC,
    /* The request-based accumulates, accesses as Accumulate and Get_accumulate are, with their
     * request in .request (as Rput's and Rget's), and the neighbourhood collectives' V and W
     * forms; after the others so that no id moves */
    CHECK_EVENT_FN_RACCUMULATE,
    CHECK_EVENT_FN_RGET_ACCUMULATE,
    CHECK_EVENT_FN_NEIGHBOR_ALLGATHERV,
    CHECK_EVENT_FN_NEIGHBOR_ALLTOALLV,
    CHECK_EVENT_FN_NEIGHBOR_ALLTOALLW,
    CHECK_EVENT_FN_INEIGHBOR_ALLGATHERV,
    CHECK_EVENT_FN_INEIGHBOR_ALLTOALLV,
    CHECK_EVENT_FN_INEIGHBOR_ALLTOALLW,
    CHECK_EVENT_FN_COUNT
} check_event_func;

/* What a function does, for the matcher. */
enum check_event_func_class {
    CHECK_EVENT_CLASS_OTHER = 0,
    CHECK_EVENT_CLASS_SEND,     /* blocking send (mode in check_event_func_info.mode) */
    CHECK_EVENT_CLASS_ISEND,    /* nonblocking send, request in .request */
    CHECK_EVENT_CLASS_RECV,     /* blocking receive (Recv, Mprobe) */
    CHECK_EVENT_CLASS_IRECV,    /* nonblocking receive */
    CHECK_EVENT_CLASS_SENDRECV, /* send to peer/tag, receive from peer2/tag2 */
    CHECK_EVENT_CLASS_PROBE,    /* blocking probe: waits, consumes nothing */
    CHECK_EVENT_CLASS_IPROBE,   /* Iprobe (no effect) and Improbe (consumes when result != 0) */
    CHECK_EVENT_CLASS_PINIT,    /* persistent request creation */
    CHECK_EVENT_CLASS_START,    /* Start/Startall */
    CHECK_EVENT_CLASS_FREE,     /* Request_free */
    CHECK_EVENT_CLASS_CANCEL,
    CHECK_EVENT_CLASS_WAIT,  /* Wait family: blocks */
    CHECK_EVENT_CLASS_TEST,  /* Test family: never blocks */
    CHECK_EVENT_CLASS_COLL,  /* blocking collective, including communicator constructors */
    CHECK_EVENT_CLASS_ICOLL, /* nonblocking collective, request in .request */
    CHECK_EVENT_CLASS_MRECV, /* Mrecv/Imrecv: the message was matched by the probe */
    CHECK_EVENT_CLASS_FINALIZE,
    CHECK_EVENT_CLASS_ABORT,
    /* a request no peer completes (file I/O, generalized) in .request, or (Grequest_complete)
     * the generalized request it completes */
    CHECK_EVENT_CLASS_LOCAL
};

enum check_event_send_mode {
    CHECK_EVENT_MODE_NONE = 0,
    CHECK_EVENT_MODE_STANDARD,
    CHECK_EVENT_MODE_BUFFERED,
    CHECK_EVENT_MODE_SYNC,
    CHECK_EVENT_MODE_READY
};

enum check_event_completion {
    CHECK_EVENT_COMPLETE_ONE = 0,
    CHECK_EVENT_COMPLETE_ALL,
    CHECK_EVENT_COMPLETE_ANY,
    CHECK_EVENT_COMPLETE_SOME
};

typedef struct check_event_func_info {
    const char *name;     /* "MPI_Send" */
    uint8_t klass;        /* enum check_event_func_class */
    uint8_t mode;         /* enum check_event_send_mode, for sends and persistent send inits */
    uint8_t completion;   /* enum check_event_completion, for the Wait and Test families */
    uint8_t rooted;       /* the collective has a root */
    uint8_t has_op;       /* the collective carries a reduction op */
    uint8_t creates_comm; /* the exit record carries a new communicator */
    uint16_t base;        /* for a nonblocking collective: its blocking twin; else itself */
} check_event_func_info;

/* "MPI_ERR_TRUNCATE" for a portable error class of a CHECK_EVENT_FN_MPI_ERROR record
 * (mpi_error_classes.def), "MPI_ERR_?" for another value. */
const char *check_event_mpi_error_name(uint64_t portable_class);

/* Static description of fn; NULL when fn is not a known function. Thread-safe. */
const check_event_func_info *check_event_func_describe(uint16_t fn);

/* One completed request of a Wait/Test family call, or the status of a blocking receive. */
typedef struct check_event_status {
    uint32_t index; /* position in requests[] (0 for single-request calls) */
    int32_t source; /* world rank the message came from */
    int32_t tag;
    int32_t error; /* MPI error class of the request, 0 when fine */
    int64_t count; /* elements received */
} check_event_status;

/* A decoded or to-be-encoded record. Array pointers are borrowed: the record never owns them. */
/* Reduction op ids (check_event.op): the builtin ops in this order, the user-defined ones numbered
 * by the capture module from CHECK_EVENT_OP_USER on as they are created. Part of the record format:
 * append only. */
typedef enum check_event_op {
    CHECK_EVENT_OP_NULL = 0,
    CHECK_EVENT_OP_MAX,
    CHECK_EVENT_OP_MIN,
    CHECK_EVENT_OP_SUM,
    CHECK_EVENT_OP_PROD,
    CHECK_EVENT_OP_LAND,
    CHECK_EVENT_OP_BAND,
    CHECK_EVENT_OP_LOR,
    CHECK_EVENT_OP_BOR,
    CHECK_EVENT_OP_LXOR,
    CHECK_EVENT_OP_BXOR,
    CHECK_EVENT_OP_MAXLOC,
    CHECK_EVENT_OP_MINLOC,
    CHECK_EVENT_OP_REPLACE,
    CHECK_EVENT_OP_NO_OP,
    CHECK_EVENT_OP_USER = 64
} check_event_op;

/* The kinds of handle a CHECK_EVENT_FN_HANDLE_LEAK record counts (communicators, windows and
 * requests have records of their own). Part of the record format: append only. */
typedef enum check_event_handle_kind {
    CHECK_EVENT_HANDLE_GROUP = 1,
    CHECK_EVENT_HANDLE_DATATYPE,
    CHECK_EVENT_HANDLE_OP,
    CHECK_EVENT_HANDLE_INFO,
    CHECK_EVENT_HANDLE_ERRHANDLER,
    CHECK_EVENT_HANDLE_KIND_END
} check_event_handle_kind;

typedef struct check_event {
    uint8_t kind;   /* check_event_kind */
    uint16_t func;  /* check_event_func */
    uint16_t flags; /* check_event_flags */
    int32_t rank;   /* world rank of the caller */
    uint64_t seq;   /* per-rank sequence number, strictly increasing from 1 */
    uint64_t comm;  /* communicator id */
    int32_t peer;   /* destination or source (world rank), ANY_SOURCE or PROC_NULL */
    int32_t tag;
    int32_t peer2;  /* Sendrecv: the receive side's source */
    int32_t tag2;   /* Sendrecv: the receive side's tag */
    int32_t root;   /* world rank of a collective's root, or CHECK_EVENT_NO_ROOT */
    int32_t result; /* flag of Test*, Iprobe, Improbe */
    uint32_t op;    /* reduction op id: check_event_op */
    int64_t count;
    uint64_t type_hash;  /* hash of the datatype signature */
    uint64_t type_elems; /* primitive elements in the whole message */
    /* Hash of the message's repeating unit: its one basic type (CHECK_EVENT_FLAG_TYPE_UNIFORM),
     * else one instance of its datatype; two messages with the same unit are prefixes of one
     * another. 0: the capture module does not know the datatype, and the message is not compared.
     */
    uint64_t type_period;
    uint64_t request;  /* request id of single-request calls */
    uint64_t aux;      /* new communicator id, message id of Mprobe/Mrecv */
    uint64_t callsite; /* opaque, resolved to file:line by the reporter */
    /* CHECK_EVENT_FLAG_CALLER_SITE: the return address one frame above callsite's, where the call
     * was made through a function of the MPI's C++ bindings that was not inlined (-O0) */
    uint64_t caller_site;
    uint32_t n_requests, n_statuses, n_ranks, n_local;
    const uint64_t *requests;           /* n_requests ids (Waitall, Startall, ...) */
    const check_event_status *statuses; /* n_statuses completions */
    const int32_t *ranks;               /* n_ranks members of a new communicator (world ranks) */
} check_event;

/* Whether the exit ev of a Wait/Test family call (info: its description) completed only the
 * requests its statuses[] name, rather than every request it lists: a call on any or some of
 * them, or a Waitall/Testall that returned an error (MPI_ERR_IN_STATUS: the requests MPI left
 * pending have no status there). */
int check_event_completes_listed(const check_event *ev, const check_event_func_info *info);

/* Bytes the encoded record takes; 0 when a count exceeds CHECK_EVENT_MAX_ITEMS. */
size_t check_event_encoded_size(const check_event *ev);

/* Encodes ev into buf[0..cap). On success *written holds the size. Errors: MG_ERROR_EINVAL (NULL
 * argument, or an array pointer NULL with a non-zero count), MG_ERROR_ERANGE (a count past the
 * limit), MG_ERROR_EFULL (cap too small; buf is then untouched). Thread-safe, allocation-free. */
int check_event_encode(const check_event *ev, uint8_t *buf, size_t cap, size_t *written);

/* CRC-32C (Castagnoli) of p[0..n) continued from crc (0 to start): the record's checksum, over the
 * record with its crc field zero. Thread-safe, allocation-free. */
uint32_t check_event_crc32c(uint32_t crc, const uint8_t *p, size_t n);
/* The two ways check_event_crc32c computes it, each callable so that a test compares them on any
 * CPU: by the tables (every CPU; the one used where SSE 4.2 is missing), and by SSE 4.2's crc32
 * instruction, which returns MG_ERROR_EUNSUPPORTED (*out untouched) on a CPU or build without it.
 * Thread-safe, allocation-free. */
uint32_t check_event_crc32c_tables(uint32_t crc, const uint8_t *p, size_t n);
int check_event_crc32c_instruction(uint32_t crc, const uint8_t *p, size_t n, uint32_t *out);

/* Validates and decodes the record at buf[0..len): scalar fields and counts into *ev; the array
 * pointers are set to NULL (use check_event_decode_arrays). *consumed gets the record's size, so
 * a stream of records can be walked. Never reads outside buf[0..len). Errors: MG_ERROR_EINVAL (NULL
 * argument), MG_ERROR_EFORMAT (short buffer, bad magic, bad kind/function, lengths that disagree,
 * bad checksum), MG_ERROR_EVERSION (another version). On failure *ev and *consumed are unspecified.
 */
int check_event_decode(const uint8_t *buf, size_t len, check_event *ev, size_t *consumed);

/* Copies the arrays of a record that check_event_decode accepted into caller storage sized from
 * ev's counts (an array may be NULL when its count is 0) and points ev's arrays at it.
 * Errors: MG_ERROR_EINVAL (NULL argument where a count is non-zero). */
int check_event_decode_arrays(const uint8_t *buf, check_event *ev, uint64_t *requests,
                              check_event_status *statuses, int32_t *ranks);

#endif
