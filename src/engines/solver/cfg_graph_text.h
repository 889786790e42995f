/* The file form of a cfg_graph: APP.mpiguard-cfg, written by mpiguard-cc next to the branch
 * table and read by `mpiguard concolic` (docs/design/concolic.md "mpiguard-cc", byte layout in
 * docs/design/concolic-solver.md §7). Text in memory: the caller does the I/O. */
#ifndef CFG_GRAPH_TEXT_H
#define CFG_GRAPH_TEXT_H

#include <stddef.h>

#include "cfg_graph.h"

#define CFG_GRAPH_TEXT_VERSION 1

/* Formats an indexed graph; *out is malloc'd and NUL-terminated (*len excludes the NUL), owned
 * by the caller. MG_ERROR_EINVAL for a graph that is not indexed, MG_ERROR_ENOMEM. */
int cfg_graph_text_format(const cfg_graph *g, char **out, size_t *len);

/* Parses text[0..len) into *out and indexes it. MG_ERROR_EVERSION for another format version,
 * MG_ERROR_EFORMAT for anything malformed (a count that does not match, an id out of range, a
 * branch without a node, an arm without a target, trailing bytes), MG_ERROR_ERANGE past the limits
 * of cfg_graph.h, MG_ERROR_ENOMEM. On failure *out is empty. */
int cfg_graph_text_parse(const char *text, size_t len, cfg_graph *out);

#endif
