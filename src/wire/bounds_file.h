/* The safe-bounds file `mpiguard collectives` writes and `mpiguard protect` reads: the one codec
 * that writes and reads its JSON schema (docs/design/collectives.md, "The files"):
 *   {"schema": "mpiguard-bounds/1", "mpi": {"flavor": "openmpi", "version": "4.1.4"},
 *    "entries": [{"collective": "Igather", "type_size": 1, "np": 4, "safe_count": 1048576,
 *                 "class": "G", "form": "nP", "status": "bounded"}]}
 * status: "bounded" (a failure was found past safe_count; class G with a form, or X), "unbounded"
 * (no failure up to safe_count, the largest size tried: not a bound), "skipped" (the memory or time
 * budget did not allow a test). Schema version 2 is version 1 plus entries for the MPI-4
 * large-count forms: "collective": "Gatherv_c" (or "Igatherv_c") is a point of the `_c` collective,
 * which bounds workaround W3 for that collective, never the int form. Version 3 adds the calls with
 * MPI_IN_PLACE ("Alltoall_inplace", "Igatherv_c_inplace"), which libraries run by other code.
 * Version 4 adds the Class G forms "sn(P-1)" and "n(P-1)" (scaling_bounds.h). A file is written in
 * the oldest version that holds its entries, so that older builds keep reading it. It also writes
 * the small text file the protection module reads (bounds_text.h). Plain types only: collective
 * and form stay names, which the scaling engine checks (scaling_coll_from_name,
 * scaling_bounds_form_parse); this codec checks the schema and which version each name needs.
 * "costs" (optional, any version; older builds ignore it): the cost model measured at each process
 * count by `mpiguard collectives` (src/tester/coll_costs.c), which the module uses in place of the
 * scaling engine's defaults (scaling_params) to choose a workaround:
 *   "costs": [{"np": 4, "call_ns": 9500.0, "byte_ns": 0.41, "copy_byte_ns": 0.08,
 *              "type_ns": 1800.0, "comm_ns": 61000.0, "allgather_block_stride": false}] */
#ifndef MG_BOUNDS_FILE_H
#define MG_BOUNDS_FILE_H

#include <stddef.h>
#include <stdint.h>

#define BOUNDS_FILE_SCHEMA_PREFIX "mpiguard-bounds/"
enum { BOUNDS_FILE_SCHEMA_NEWEST = 4 };

typedef struct bounds_file_entry {
    char collective[32]; /* MPI name without "MPI_": "Gatherv", "Igatherv_c", "Alltoall_inplace" */
    uint64_t type_size, np, safe_count;
    char cls;        /* 'G', 'X', or 0 when not bounded */
    char form[16];   /* for class G: a scaling_bounds_form_name ("nP", "n(P-1)") */
    char status[12]; /* "bounded", "unbounded", "skipped" */
} bounds_file_entry;

/* The cost model measured at np processes: the measured fields of scaling_params, by their names.
 */
typedef struct bounds_file_cost {
    uint64_t np;
    double call_ns, byte_ns, copy_byte_ns, type_ns, comm_ns;
    int allgather_block_stride;
} bounds_file_cost;

enum { BOUNDS_FILE_COSTS_MAX = 32 };

typedef struct bounds_file_doc {
    char flavor[16];  /* "openmpi", "mpich" */
    char version[32]; /* "4.1.4" */
    bounds_file_entry *entries;
    size_t n, cap;
    bounds_file_cost costs[BOUNDS_FILE_COSTS_MAX];
    size_t ncosts;
} bounds_file_doc;

/* Appends a copy of e. Returns 0 or MG_ERROR_ENOMEM. */
int bounds_file_add(bounds_file_doc *d, const bounds_file_entry *e);
void bounds_file_free(bounds_file_doc *d);

/* Records c, in place of d's costs at the same np. Returns 0 or MG_ERROR_ERANGE
 * (BOUNDS_FILE_COSTS_MAX process counts already). */
int bounds_file_set_costs(bounds_file_doc *d, const bounds_file_cost *c);

/* d's costs at np, or NULL. */
const bounds_file_cost *bounds_file_costs(const bounds_file_doc *d, uint64_t np);

/* Parses the line the cost measurement prints ("coll_costs: np 4 call_ns ..."). Returns 0, or -1
 * when line is not such a line or holds a value that is negative or not a number. */
int bounds_file_costs_parse(const char *line, bounds_file_cost *out);

/* Reads and validates a bounds file (schema version 1 to 4) into *d (caller frees with
 * bounds_file_free). Returns 0, MG_ERROR_ENOENT (missing or unreadable), MG_ERROR_EFORMAT (not
 * JSON, not the schema, a bad entry, an entry that needs a newer version than the file's: a `_c`
 * one in version 1, an in-place one before 3, a (P - 1) form before 4) or MG_ERROR_EVERSION
 * (another schema version), with the reason in err. */
int bounds_file_read(const char *path, bounds_file_doc *d, char *err, size_t errlen);

/* Writes d as JSON, atomically (temporary file renamed), in the oldest schema version that holds
 * its entries. Returns 0 or MG_ERROR_EIO with err. */
int bounds_file_write(const char *path, const bounds_file_doc *d, char *err, size_t errlen);

/* Writes the "bounded" entries of d in the module's text format (src/wire/bounds_text.h),
 * each int form's also as its `_c` form's where d has no tested point of the `_c` form at that
 * (s, P): an untested `_c` form is taken to fail where its int form does; then d's costs. Returns
 * 0 or MG_ERROR_EIO with err. */
int bounds_file_write_module(const char *path, const bounds_file_doc *d, char *err, size_t errlen);

#endif
