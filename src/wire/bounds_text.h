/* The safe-bounds text the CLI writes for the protection module and the module reads at MPI_Init
 * (docs/design/collectives.md, "The files"): one codec for both sides, no
 * json-c and no allocation, so the interposition library stays light. One record per line,
 * fields separated by one space:
 *   mpiguard-protect-bounds/4
 *   mpi <flavor> <version>
 *   entry <Collective> <type_size> <nprocs> <n_safe> <G|X> <form>
 *   costs <nprocs> <call> <byte> <copy> <type> <comm> <0|1>
 * <Collective> is "Gatherv", "Igatherv", a large-count form "Gatherv_c", "Igatherv_c", and either
 * with "_inplace" for the call with MPI_IN_PLACE (version 3). A "costs" line (version 4) is the
 * cost model measured at nprocs processes, its five costs in whole picoseconds (no strtod: the
 * application may have set a locale), then allgather_block_stride. <form> is a name of
 * scaling_bounds_form_name: snP, nP, sn, n, and sn(P-1), n(P-1), which a library older than these
 * forms refuses as a malformed entry line (the module then stays off). Names are checked by the
 * reader of the entries (the scaling engine knows them), not here. */
#ifndef MG_BOUNDS_TEXT_H
#define MG_BOUNDS_TEXT_H

#include <stddef.h>
#include <stdint.h>

#define BOUNDS_TEXT_MAGIC "mpiguard-protect-bounds/4"

typedef struct bounds_text_entry {
    char collective[40]; /* "Gatherv", "Igatherv_c_inplace" */
    uint64_t type_size, nprocs, n_safe;
    char cls;      /* 'G' or 'X' */
    char form[16]; /* a scaling_bounds_form_name; "n" for class X */
} bounds_text_entry;

/* The cost model measured at nprocs processes: call, byte, copy, type and comm costs in
 * picoseconds, and whether Allgather's blocks are strided. */
enum { BOUNDS_TEXT_COSTS = 5 };
typedef struct bounds_text_costs {
    uint64_t nprocs, ps[BOUNDS_TEXT_COSTS];
    int allgather_block_stride;
} bounds_text_costs;

/* Writing, like snprintf: each appends one line to out[0..cap) and returns the length it needed
 * (the line is cut, NUL-terminated, when cap is too small). */
size_t bounds_text_put_header(char *out, size_t cap, const char *flavor, const char *version);
size_t bounds_text_put_entry(char *out, size_t cap, const bounds_text_entry *e);
size_t bounds_text_put_costs(char *out, size_t cap, const bounds_text_costs *c);

/* One line after the magic line, as read. */
typedef enum bounds_text_kind {
    BOUNDS_TEXT_MPI,
    BOUNDS_TEXT_ENTRY,
    BOUNDS_TEXT_COSTS_LINE
} bounds_text_kind;
typedef struct bounds_text_line {
    bounds_text_kind kind;
    char flavor[32], version[32]; /* BOUNDS_TEXT_MPI */
    bounds_text_entry entry;      /* BOUNDS_TEXT_ENTRY */
    bounds_text_costs costs;      /* BOUNDS_TEXT_COSTS_LINE */
} bounds_text_line;

/* Parses one line (without its newline; the line is cut into words in place). Returns 0, or
 * MG_ERROR_EFORMAT with *word0 the line's first word ("(blank)" for none) for a message.
 * Thread-safe, allocation-free. */
int bounds_text_parse(char *line, bounds_text_line *out, const char **word0);

/* The artificial bound of `mpiguard protect --bound` (MG_ENV_PROTECT_ARTIFICIAL):
 * "<form> <limit> [int|large|all]", the calls it bounds: the int-count collectives (the default),
 * the large-count `_c` ones, or both. */
typedef struct bounds_text_artificial {
    char form[16];
    uint64_t limit;
    int on_int, on_large;
} bounds_text_artificial;

size_t bounds_text_put_artificial(char *out, size_t cap, const bounds_text_artificial *a);
/* Parses text (cut into words in place). Returns 0 or MG_ERROR_EFORMAT. */
int bounds_text_parse_artificial(char *text, bounds_text_artificial *out);

#endif
