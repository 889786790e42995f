/* Internal to src/cc: no other folder includes it (docs/architecture.md). */
/* The static control-flow graph of the linked module for the CFG-directed search
 * (docs/design/concolic.md "mpiguard-cc"; the graph and its file form:
 * src/engines/solver/cfg_graph.h, cfg_graph_text.h). Built from the module the branch table is
 * numbered from, with the same branch ids. */
#ifndef CC_CFG_H
#define CC_CFG_H

#include <llvm-c/Core.h>
#include <stdint.h>

#include "cfg_graph.h"

/* Builds and indexes the interprocedural graph of every function cc_instrument_eligible() accepts:
 *  - a node per basic block, split after each direct call to such a function (so the call's
 *    continuation is a node of its own);
 *  - the block's own successor edges from its last node;
 *  - a call edge from the node ending at the call to the callee's entry, and a return edge from
 *    every `ret` node of the callee to the call's continuation. Returns are context-insensitive
 *    (a path may enter from one call site and return to another), so distances are lower bounds
 *    of the feasible ones; indirect calls and calls to external functions add no edge.
 *  - branch ids in cc_instrument_branch_table_write's order, each placed at its block's last node;
 * a br's arm true leads to successor 0, false to successor 1; a switch case's true arm to its
 *    destination, its false arm to every other destination (the default and the other cases).
 * MG_ERROR_ENOMEM or MG_ERROR_EFORMAT (an inconsistency: a bug of this builder) leave *out empty.
 */
int cc_cfg_build(LLVMModuleRef mod, uint64_t build_id, cfg_graph *out);

#endif
