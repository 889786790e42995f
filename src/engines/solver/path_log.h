/* The path log codec: what the instrumented program writes as it runs (a header, variable and
 * communicator declarations, branch records with their constraints, coverage) and the driver
 * reads back. Byte buffers only; no files (docs/design/concolic-solver.md §2; spec:
 * docs/design/concolic.md "The path log is written as the program runs", dissertation §2.4.2). */
#ifndef PATH_LOG_H
#define PATH_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "coverage_set.h"
#include "sym_expr.h"
#include "sym_var.h"

/* Version 2 added the TIME record; version 1 logs (no timestamps) are still read. */
#define PATH_LOG_VERSION 2
#define PATH_LOG_OLDEST_VERSION 1
/* Fixed size of the header record; records follow it back to back. */
#define PATH_LOG_HEADER_BYTES 36

/* A heavy log (focus rank: declarations, branches, coverage) or a light one (coverage only). */
enum path_log_kind { PATH_LOG_HEAVY = 1, PATH_LOG_LIGHT = 2 };

typedef struct path_log_header {
    uint8_t kind;      /* enum path_log_kind */
    uint64_t build_id; /* of the instrumented module: a log from another build is rejected */
    uint64_t run_id;   /* chosen by the driver per launch: a stale log is rejected */
    uint32_t rank;     /* global rank of the writer */
    uint32_t world_size;
    uint16_t version; /* set by the decoder; the encoder always writes PATH_LOG_VERSION */
} path_log_header;

/* TIME records: when the writing rank began (main entered) and ended (MPI_Finalize entered, or
 * exit, or a fatal signal, whichever came first), read from a clock every process of a node
 * shares, so the driver can split an iteration's wall time (docs/design/concolic.md "Cost"). */
enum path_log_event { PATH_LOG_STARTED = 1, PATH_LOG_ENDED = 2 };
enum path_log_clock { PATH_LOG_CLOCK_MONOTONIC = 1 }; /* CLOCK_MONOTONIC, nanoseconds */

/* One symbolic branch of the path: which branch, which arm was taken, and the predicate that
 * held on that arm (already oriented: it is true in the run that logged it). */
typedef struct path_log_branch {
    uint32_t branch_id;
    uint8_t taken;
    sym_expr_pred pred;
} path_log_branch;

/* Encoders: each appends one record's bytes to out[0..cap) and sets *len to its size. If cap is
 * too small they return MG_ERROR_EFULL with *len set to the size needed (out's content
 * unspecified). MG_ERROR_EINVAL for a value the format cannot carry (bad kind, branch id past
 * COVERAGE_SET_MAX_BRANCH, arm > 1, bad op or width). Pure functions: safe from any thread; they
 * never allocate. */
int path_log_put_header(uint8_t *out, size_t cap, size_t *len, const path_log_header *h);
int path_log_put_var(uint8_t *out, size_t cap, size_t *len, const sym_var *v);
int path_log_put_comm(uint8_t *out, size_t cap, size_t *len, const sym_var_comm *c);
int path_log_put_branch(uint8_t *out, size_t cap, size_t *len, const path_log_branch *b);
int path_log_put_cover(uint8_t *out, size_t cap, size_t *len, const uint32_t *arms, uint32_t n);
/* event: enum path_log_event; ns: a CLOCK_MONOTONIC reading (never 0). Async-signal-safe. */
int path_log_put_time(uint8_t *out, size_t cap, size_t *len, uint8_t event, uint64_t ns);

/* Resource limits for decoding untrusted bytes. */
typedef struct path_log_limits {
    uint32_t max_record_bytes; /* payload of one record */
    uint32_t max_vars;
    uint32_t max_comm_size;
    uint32_t max_terms; /* per expression side */
    uint32_t max_branches;
} path_log_limits;

/* Defaults: 16 MiB records, 65536 variables and terms, 2^20 ranks per communicator,
 * 2^24 branch records. */
void path_log_limits_default(path_log_limits *lim);

typedef struct path_log_expect {
    uint64_t build_id;
    uint64_t run_id; /* 0: do not check */
} path_log_expect;

/* A decoded log. Owns every array (path_log_free releases them). */
typedef struct path_log {
    path_log_header header;
    sym_var *vars;
    uint32_t nvars;
    sym_var_comm *comms;
    uint32_t ncomms;
    path_log_branch *branches;
    uint32_t nbranches;
    coverage_set cover;
    uint64_t started_ns, ended_ns; /* TIME records (PATH_LOG_CLOCK_MONOTONIC); 0: none */
    int truncated; /* 1 when the bytes ended inside a record (a crash or a timeout mid-write) */
} path_log;

/* Decodes buf[0..len). A log cut at any byte after the header decodes to the prefix of its
 * complete records with truncated = 1. Returns MG_ERROR_EFORMAT for a short or corrupt header, a
 * bad record checksum, an unknown record type, a record inconsistent with what precedes it
 * (undeclared variable or communicator, out-of-order ids, unsorted terms, a branch in a light
 * log, a repeated or unknown TIME event, a TIME record in a version 1 log); MG_ERROR_EVERSION for a
 * format version outside PATH_LOG_OLDEST_VERSION..PATH_LOG_VERSION or another build id;
 * MG_ERROR_ESTATE for another run id; MG_ERROR_EFORMAT too for a float expression with a NaN or
 * infinite number, or a comparison of a float and an integer side; MG_ERROR_ERANGE past a limit
 * (lim NULL: defaults); MG_ERROR_ENOMEM. On failure *out is left empty. */
int path_log_decode(const uint8_t *buf, size_t len, const path_log_expect *expect,
                    const path_log_limits *lim, path_log *out);
/* Encodes a decoded log back into bytes that decode to the same log: the header, then the
 * communicators, the variables, the branches, the coverage and the times (the original interleaving
 * of records is not kept; nothing that depends on it is decoded). *out is malloc'd, owned by the
 * caller. MG_ERROR_EINVAL for a log the format cannot carry, MG_ERROR_ENOMEM. */
int path_log_encode(const path_log *log, uint8_t **out, size_t *len);
/* Frees what a decode produced and leaves an empty log. NULL is ignored. */
void path_log_free(path_log *log);

#endif
