/* Text form of the static control-flow graph (cfg_graph_text.h):
 *
 *   mpiguard-cfg 1
 *   build_id <16 hex digits>
 *   nodes N branches B edges E targets T
 *   b BRANCH NODE        B lines, branch ids in order
 *   e FROM TO            E lines, sorted
 *   t ARM NODE           T lines, sorted (arm = 2 * branch + taken)
 *   end
 *
 * Plain decimal so a test or a person can read it; one item per line so a damaged file is
 * refused at the first line that does not fit. */
#include "cfg_graph_text.h"

#include <inttypes.h>
#include <string.h>

#include "mg_error.h"
#include "text_codec.h"

int cfg_graph_text_format(const cfg_graph *g, char **out, size_t *len)
{
    if (!g || !out || !len || !g->succ_at)
        return MG_ERROR_EINVAL;
    text_codec_buf t = {0};
    text_codec_buf_printf(&t, "mpiguard-cfg %d\nbuild_id %016" PRIx64 "\n", CFG_GRAPH_TEXT_VERSION,
                          g->build_id);
    text_codec_buf_printf(
        &t, "nodes %" PRIu32 " branches %" PRIu32 " edges %" PRIu32 " targets %" PRIu32 "\n",
        g->nnodes, g->nbranches, g->nedges, g->ntargets);
    for (uint32_t b = 0; b < g->nbranches; b++)
        text_codec_buf_printf(&t, "b %" PRIu32 " %" PRIu32 "\n", b, g->branch_node[b]);
    for (uint32_t i = 0; i < g->nedges; i++)
        text_codec_buf_printf(&t, "e %" PRIu32 " %" PRIu32 "\n", g->edges[i].a, g->edges[i].b);
    for (uint32_t i = 0; i < g->ntargets; i++)
        text_codec_buf_printf(&t, "t %" PRIu32 " %" PRIu32 "\n", g->targets[i].a, g->targets[i].b);
    text_codec_buf_printf(&t, "end\n");
    return text_codec_buf_finish(&t, out, len);
}

static int parse_counts(text_codec_cursor *c, cfg_graph *g, uint32_t *nedges, uint32_t *ntargets)
{
    int rc = text_codec_cursor_version(c, "mpiguard-cfg", CFG_GRAPH_TEXT_VERSION);
    if (rc)
        return rc;
    text_codec_cursor_word(c, "build_id");
    uint64_t id = text_codec_cursor_number(c, 16, UINT64_MAX);
    text_codec_cursor_word(c, "nodes");
    uint64_t nnodes = text_codec_cursor_number(c, 10, UINT32_MAX);
    text_codec_cursor_word(c, "branches");
    uint64_t nbranches = text_codec_cursor_number(c, 10, UINT32_MAX);
    text_codec_cursor_word(c, "edges");
    *nedges = (uint32_t)text_codec_cursor_number(c, 10, UINT32_MAX);
    text_codec_cursor_word(c, "targets");
    *ntargets = (uint32_t)text_codec_cursor_number(c, 10, UINT32_MAX);
    if (c->bad)
        return MG_ERROR_EFORMAT;
    if (nnodes > CFG_GRAPH_MAX_NODES || nbranches > CFG_GRAPH_MAX_BRANCHES)
        return MG_ERROR_ERANGE;
    return cfg_graph_create(g, id, (uint32_t)nnodes, (uint32_t)nbranches);
}

/* n lines "tag X Y", each added with add (whose MG_ERROR_EINVAL means an id out of range). */
static int parse_lines(text_codec_cursor *c, cfg_graph *g, const char *tag, uint32_t n,
                       int (*add)(cfg_graph *, uint32_t, uint32_t))
{
    for (uint32_t i = 0; i < n; i++) {
        text_codec_cursor_word(c, tag);
        uint32_t x = (uint32_t)text_codec_cursor_number(c, 10, UINT32_MAX - 1);
        uint32_t y = (uint32_t)text_codec_cursor_number(c, 10, UINT32_MAX - 1);
        if (c->bad)
            return MG_ERROR_EFORMAT;
        int rc = add(g, x, y);
        if (rc)
            return rc == MG_ERROR_EINVAL ? MG_ERROR_EFORMAT : rc;
    }
    return 0;
}

/* A branch line must name the branches in order: "b I NODE" with I the line's index. */
static int parse_branches(text_codec_cursor *c, cfg_graph *g)
{
    for (uint32_t b = 0; b < g->nbranches; b++) {
        text_codec_cursor_word(c, "b");
        uint64_t id = text_codec_cursor_number(c, 10, UINT32_MAX);
        uint64_t node = text_codec_cursor_number(c, 10, UINT32_MAX);
        if (c->bad || id != b || cfg_graph_set_branch(g, b, (uint32_t)node))
            return MG_ERROR_EFORMAT;
    }
    return 0;
}

int cfg_graph_text_parse(const char *text, size_t len, cfg_graph *out)
{
    if (!out)
        return MG_ERROR_EINVAL;
    memset(out, 0, sizeof *out);
    if (!text && len)
        return MG_ERROR_EINVAL;
    text_codec_cursor c = {text, text + len, 0};
    uint32_t nedges = 0, ntargets = 0;
    int rc = parse_counts(&c, out, &nedges, &ntargets);
    if (!rc)
        rc = parse_branches(&c, out);
    if (!rc)
        rc = parse_lines(&c, out, "e", nedges, cfg_graph_add_edge);
    if (!rc)
        rc = parse_lines(&c, out, "t", ntargets, cfg_graph_add_target);
    if (!rc) {
        text_codec_cursor_word(&c, "end");
        rc = text_codec_cursor_done(&c) ? 0 : MG_ERROR_EFORMAT;
    }
    if (!rc)
        rc = cfg_graph_index(out);
    if (!rc && (out->nedges != nedges || out->ntargets != ntargets))
        rc = MG_ERROR_EFORMAT; /* repeated lines: not a file cfg_graph_text_format wrote */
    if (rc)
        cfg_graph_free(out);
    return rc;
}
