/* The merged stack prefix tree of a hang (docs/hang.md "The stack tree"): every rank's stack,
 * outermost frame first, down to the MPI call as the application made it, with the ranks on each
 * node ("0-5,7"). Frames read as people want them: function (file:line) with debug information,
 * the symbol otherwise, object+offset at worst; mpiguard's own frames never show. */
#ifndef MG_HANG_STACK_TREE_H
#define MG_HANG_STACK_TREE_H

#include "rank_stack.h"
#include "report.h"

#include <stdio.h>

typedef struct hang_stack_tree hang_stack_tree;

/* An empty tree. Errors: MG_ERROR_ENOMEM. */
int hang_stack_tree_create(hang_stack_tree **out);
void hang_stack_tree_destroy(hang_stack_tree *t);

/* Adds rank's stack; an empty stack adds nothing. Ranks are added once each. Nodes past the
 * tree's bound (512) are left out, and the tree says so wherever it is shown. */
void hang_stack_tree_add(hang_stack_tree *t, int rank, const rank_stack *st);

/* Gives finding f the tree: its graph (one box per node labelled with the frame and its ranks,
 * for DOT and SVG) and evidence "stack_tree" (docs/report-schema.md). */
void hang_stack_tree_to_finding(const hang_stack_tree *t, report_entry *f);

/* Prints the tree as indented lines "mpiguard: hang:   frame  ranks 0-3" on out. */
void hang_stack_tree_print(const hang_stack_tree *t, FILE *out);

#endif
