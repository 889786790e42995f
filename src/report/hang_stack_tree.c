/* The merged stack prefix tree of a hang (hang_stack_tree.h). */
#include "hang_stack_tree.h"

#include "mg_error.h"
#include "mg_ranks.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { TREE_MAX_NODES = 512, LABEL_MAX = RANK_STACK_NAME + RANK_STACK_FILE + 32 };

typedef struct tree_node {
    rank_stack_frame frame;
    bool mpi_call; /* the leaf: the MPI call as the application made it */
    char label[LABEL_MAX];
    int parent;
    int *ranks; /* in the order added, which is increasing */
    size_t nranks, cap;
} tree_node;

struct hang_stack_tree {
    tree_node *nodes;
    int nnodes;
    bool truncated;
};

int hang_stack_tree_create(hang_stack_tree **out)
{
    hang_stack_tree *t = calloc(1, sizeof *t);
    if (t)
        t->nodes = calloc(TREE_MAX_NODES, sizeof *t->nodes);
    if (!t || !t->nodes) {
        free(t);
        return MG_ERROR_ENOMEM;
    }
    *out = t;
    return MG_ERROR_OK;
}

void hang_stack_tree_destroy(hang_stack_tree *t)
{
    if (!t)
        return;
    for (int k = 0; k < t->nnodes; k++)
        free(t->nodes[k].ranks);
    free(t->nodes);
    free(t);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The MPI call as C programs write it: MPI_X for the PMPI_X alias a symbolizer may name. */
static const char *call_name(const char *function)
{
    bool profiling = tolower((unsigned char)function[0]) == 'p' &&
                     strncasecmp(function + 1, "mpi_", 4) == 0;
    return profiling ? function + 1 : function;
}

static void frame_label(const rank_stack_frame *f, bool mpi_call, char *label, size_t len)
{
    if (mpi_call)
        snprintf(label, len, "%s", call_name(f->function));
    else if (f->function[0] && f->file[0])
        snprintf(label, len, "%s (%s:%d)", f->function, base_name(f->file), f->line);
    else if (f->function[0])
        snprintf(label, len, "%s", f->function);
    else if (f->module[0])
        snprintf(label, len, "%s+0x%llx", f->module, (unsigned long long)f->offset);
    else
        snprintf(label, len, "??");
}

static int child_of(hang_stack_tree *t, int parent, const char *label)
{
    for (int k = 0; k < t->nnodes; k++)
        if (t->nodes[k].parent == parent && strcmp(t->nodes[k].label, label) == 0)
            return k;
    if (t->nnodes == TREE_MAX_NODES) {
        t->truncated = true;
        return -1;
    }
    tree_node *n = &t->nodes[t->nnodes];
    *n = (tree_node){.parent = parent};
    snprintf(n->label, sizeof n->label, "%s", label);
    return t->nnodes++;
}

static bool add_rank(tree_node *n, int rank)
{
    if (n->nranks == n->cap) {
        size_t cap = n->cap ? 2 * n->cap : 8;
        int *ranks = realloc(n->ranks, cap * sizeof *ranks);
        if (!ranks)
            return false;
        n->ranks = ranks;
        n->cap = cap;
    }
    n->ranks[n->nranks++] = rank;
    return true;
}

void hang_stack_tree_add(hang_stack_tree *t, int rank, const rank_stack *st)
{
    size_t entry = rank_stack_mpi_entry(st), leaf = entry < st->nframes ? entry : 0;
    int parent = -1;
    for (size_t i = st->nframes; i-- > leaf;) {
        char label[LABEL_MAX];
        bool mpi_call = i == entry;
        frame_label(&st->frames[i], mpi_call, label, sizeof label);
        int k = child_of(t, parent, label);
        if (k < 0 || !add_rank(&t->nodes[k], rank))
            return;
        t->nodes[k].frame = st->frames[i];
        t->nodes[k].mpi_call = mpi_call;
        parent = k;
    }
}

static json_object *optional_string(const char *s)
{
    return s[0] ? json_object_new_string(s) : NULL;
}

static json_object *node_json(const tree_node *n, const char *id, const char *parent,
                              const char *rank_list)
{
    json_object *o = json_object_new_object(), *ranks = json_object_new_array();
    for (size_t i = 0; i < n->nranks; i++)
        json_object_array_add(ranks, json_object_new_int(n->ranks[i]));
    json_object_object_add(o, "id", json_object_new_string(id));
    json_object_object_add(o, "parent", parent ? json_object_new_string(parent) : NULL);
    json_object_object_add(o, "label", json_object_new_string(n->label));
    json_object_object_add(o, "function", optional_string(n->frame.function));
    json_object_object_add(o, "mpi_call", json_object_new_boolean(n->mpi_call));
    json_object_object_add(o, "file", optional_string(n->frame.file));
    json_object_object_add(o, "line", n->frame.file[0] ? json_object_new_int(n->frame.line) : NULL);
    json_object_object_add(o, "module", optional_string(n->frame.module));
    json_object_object_add(o, "offset", json_object_new_int64((int64_t)n->frame.offset));
    json_object_object_add(o, "ranks", ranks);
    json_object_object_add(o, "rank_list", json_object_new_string(rank_list));
    return o;
}

void hang_stack_tree_to_finding(const hang_stack_tree *t, report_entry *f)
{
    json_object *nodes = json_object_new_array();
    for (int k = 0; k < t->nnodes; k++) {
        const tree_node *n = &t->nodes[k];
        char id[16], parent[16], ranks[256], label[LABEL_MAX + 300];
        snprintf(id, sizeof id, "n%d", k);
        snprintf(parent, sizeof parent, "n%d", n->parent);
        mg_ranks_format(n->ranks, n->nranks, ranks, sizeof ranks);
        snprintf(label, sizeof label, "%s | rank%s %s", n->label, n->nranks == 1 ? "" : "s", ranks);
        report_finding_add_graph_node(f, id, label, "box");
        if (n->parent >= 0)
            report_finding_add_graph_edge(f, parent, id, "solid");
        json_object_array_add(nodes, node_json(n, id, n->parent >= 0 ? parent : NULL, ranks));
    }
    json_object *ev = report_finding_evidence(f);
    json_object_object_add(ev, "stack_tree", nodes);
    json_object_object_add(ev, "stack_tree_truncated", json_object_new_boolean(t->truncated));
}

static void print_subtree(const hang_stack_tree *t, int parent, int depth, FILE *out)
{
    for (int k = 0; k < t->nnodes; k++) {
        const tree_node *n = &t->nodes[k];
        if (n->parent != parent)
            continue;
        char ranks[256];
        mg_ranks_format(n->ranks, n->nranks, ranks, sizeof ranks);
        fprintf(out, "mpiguard: hang:   %*s%s  rank%s %s\n", 2 * depth, "", n->label,
                n->nranks == 1 ? "" : "s", ranks);
        print_subtree(t, k, depth + 1, out);
    }
}

void hang_stack_tree_print(const hang_stack_tree *t, FILE *out)
{
    if (t->nnodes == 0)
        return;
    fprintf(out, "mpiguard: hang: stacks, outermost frame first:\n");
    print_subtree(t, -1, 0, out);
    if (t->truncated)
        fprintf(out, "mpiguard: hang:   (more frames than the tree's %d nodes: cut)\n",
                TREE_MAX_NODES);
}
