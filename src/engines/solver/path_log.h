/* The path log codec: what the instrumented program writes as it runs (a header, variable and
 * communicator declarations, branch records with their constraints, coverage) and the driver
 * reads back. Byte buffers only; no files (docs/concolic-solver.md §2; spec: design/concolic.md
 * "The path log is written as the program runs", dissertation §2.4.2). */
#ifndef PATH_LOG_H
#define PATH_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "coverage_set.h"
#include "sym_expr.h"
#include "sym_var.h"

#define PATH_LOG_VERSION 1
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
} path_log_header;

/* One symbolic branch of the path: which branch, which arm was taken, and the predicate that
 * held on that arm (already oriented: it is true in the run that logged it). */
typedef struct path_branch {
    uint32_t branch_id;
    uint8_t taken;
    sym_pred pred;
} path_branch;

/* Encoders: each appends one record's bytes to out[0..cap) and sets *len to its size. If cap is
 * too small they return MG_EFULL with *len set to the size needed (out's content unspecified).
 * MG_EINVAL for a value the format cannot carry (bad kind, branch id past COVERAGE_MAX_BRANCH,
 * arm > 1, bad op or width). Pure functions: safe from any thread; they never allocate. */
int path_log_put_header(uint8_t *out, size_t cap, size_t *len, const path_log_header *h);
int path_log_put_var(uint8_t *out, size_t cap, size_t *len, const sym_var *v);
int path_log_put_comm(uint8_t *out, size_t cap, size_t *len, const sym_comm *c);
int path_log_put_branch(uint8_t *out, size_t cap, size_t *len, const path_branch *b);
int path_log_put_cover(uint8_t *out, size_t cap, size_t *len, const uint32_t *arms, uint32_t n);

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
    sym_comm *comms;
    uint32_t ncomms;
    path_branch *branches;
    uint32_t nbranches;
    coverage_set cover;
    int truncated; /* 1 when the bytes ended inside a record (a crash or a timeout mid-write) */
} path_log;

/* Decodes buf[0..len). A log cut at any byte after the header decodes to the prefix of its
 * complete records with truncated = 1. Returns MG_EFORMAT for a short or corrupt header, a bad
 * record checksum, an unknown record type, a record inconsistent with what precedes it
 * (undeclared variable or communicator, out-of-order ids, unsorted terms, a branch in a light
 * log); MG_EVERSION for another format version or build id; MG_ESTATE for another run id;
 * MG_EUNSUPPORTED for a Real variable or float coefficients (reserved, not yet solved);
 * MG_ERANGE past a limit (lim NULL: defaults); MG_ENOMEM. On failure *out is left empty. */
int path_log_decode(const uint8_t *buf, size_t len, const path_log_expect *expect,
                    const path_log_limits *lim, path_log *out);
/* Frees what a decode produced and leaves an empty log. NULL is ignored. */
void path_log_free(path_log *log);

#endif
