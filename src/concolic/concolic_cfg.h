/* The CFG-directed search in `mpiguard concolic`: the program's static control-flow graph
 * (APP.mpiguard-cfg, written by mpiguard-cc), the distance table the strategy reads, kept up to
 * date as coverage grows, and the static table `--distances` prints (docs/design/concolic.md
 * "CFG-directed search"). */
#ifndef CONCOLIC_CFG_H
#define CONCOLIC_CFG_H

#include "cfg_graph.h"
#include "coverage_set.h"
#include "search.h"

#include <stdint.h>
#include <stdio.h>

typedef struct concolic_cfg {
    cfg_graph g;
    int loaded;     /* 0: no graph; only uncovered arms attract the search */
    uint32_t *dist; /* [n]: cfg_distance_to_uncovered() for the coverage last seen */
    size_t n;
    size_t seen; /* arms covered when dist was computed; SIZE_MAX: never */
} concolic_cfg;

/* Reads app's graph and checks it against the branch table (build id, branch count).
 * MG_ERROR_ENOENT: no file (a program built before mpiguard-cc wrote one; the caller may go on
 * without: cc is then still usable, with no graph); MG_ERROR_EVERSION: another build or format
 * version; MG_ERROR_EFORMAT: damaged; MG_ERROR_ENOMEM. err receives the reason. */
int concolic_cfg_load(concolic_cfg *cc, const char *app, uint64_t build_id, uint32_t nbranches,
                      char *err, size_t errlen);
/* Sizes the table for nbranches without a graph (every covered arm scores UINT32_MAX). */
int concolic_cfg_empty(concolic_cfg *cc, uint32_t nbranches);
/* The strategy's view, recomputed first when coverage has grown since the last call. */
search_cfg concolic_cfg_table(concolic_cfg *cc, const coverage_set *cov);
/* The static table: one line per arm ("3T" is branch 3's true arm), one column per branch: the
 * edges from the arm to the branch's block, "-" when unreachable. */
void concolic_cfg_print(const concolic_cfg *cc, FILE *out);
void concolic_cfg_free(concolic_cfg *cc);

#endif
