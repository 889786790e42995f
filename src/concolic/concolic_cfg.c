/* The CFG-directed search's graph and distances in `mpiguard concolic` (concolic_cfg.h). */
#include "concolic_cfg.h"

#include "cfg_distance.h"
#include "cfg_graph_text.h"
#include "concolic_file.h"
#include "mg_error.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int concolic_cfg_empty(concolic_cfg *cc, uint32_t nbranches)
{
    memset(cc, 0, sizeof *cc);
    cc->n = 2 * (size_t)nbranches;
    cc->seen = SIZE_MAX;
    cc->dist = malloc((cc->n + 1) * sizeof *cc->dist);
    if (!cc->dist)
        return MG_ERROR_ENOMEM;
    for (size_t i = 0; i < cc->n + 1; i++)
        cc->dist[i] = UINT32_MAX;
    return 0;
}

int concolic_cfg_load(concolic_cfg *cc, const char *app, uint64_t build_id, uint32_t nbranches,
                      char *err, size_t errlen)
{
    char path[4200];
    size_t len = 0;
    int rc = concolic_cfg_empty(cc, nbranches);
    if (rc)
        return rc;
    snprintf(path, sizeof path, "%s.mpiguard-cfg", app);
    char *text = (char *)concolic_file_read(path, &len);
    if (!text) {
        snprintf(err, errlen,
                 "%s: no control-flow graph (rebuild the program with this "
                 "mpiguard-cc)",
                 path);
        return MG_ERROR_ENOENT;
    }
    rc = cfg_graph_text_parse(text, len, &cc->g);
    free(text);
    if (!rc && (cc->g.build_id != build_id || cc->g.nbranches != nbranches)) {
        cfg_graph_free(&cc->g);
        rc = MG_ERROR_EVERSION;
    }
    if (rc) {
        snprintf(err, errlen, "%s: %s", path,
                 rc == MG_ERROR_EVERSION ? "written for another build or by another version"
                                         : mg_error_string(rc));
        return rc;
    }
    cc->loaded = 1;
    return 0;
}

search_cfg concolic_cfg_table(concolic_cfg *cc, const coverage_set *cov)
{
    if (cc->loaded && cov->n != cc->seen &&
        cfg_distance_to_uncovered(&cc->g, cov, cc->dist, cc->n) == 0)
        cc->seen = cov->n;
    return (search_cfg){cc->dist, cc->n};
}

void concolic_cfg_print(const concolic_cfg *cc, FILE *out)
{
    uint32_t nb = cc->g.nbranches;
    uint32_t *hops = malloc(((size_t)nb + 1) * sizeof *hops);
    if (!hops || !cc->loaded) {
        free(hops);
        return;
    }
    fprintf(out,
            "# edges from each branch arm (row) to each branch's block (column); - unreachable\n"
            "# arm");
    for (uint32_t b = 0; b < nb; b++)
        fprintf(out, " b%" PRIu32, b);
    fputc('\n', out);
    for (uint32_t arm = 0; arm < 2 * nb; arm++) {
        if (cfg_distance_from_arm(&cc->g, arm, hops))
            break;
        fprintf(out, "%" PRIu32 "%c", arm / 2, arm % 2 ? 'T' : 'F');
        for (uint32_t b = 0; b < nb; b++)
            if (hops[b] == UINT32_MAX)
                fprintf(out, " -");
            else
                fprintf(out, " %" PRIu32, hops[b]);
        fputc('\n', out);
    }
    free(hops);
}

void concolic_cfg_free(concolic_cfg *cc)
{
    cfg_graph_free(&cc->g);
    free(cc->dist);
    memset(cc, 0, sizeof *cc);
}
