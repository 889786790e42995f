/* The merged stack tree of a hang (src/report/hang_stack_tree.c), from stacks made by hand: rank
 * lists on every node in text, graph and JSON; the MPI call at the leaf as the program made it
 * (PMPI_Recv reads MPI_Recv, mpi_recv_ stays); frames as function (file:line), symbol,
 * object+offset; a tree past its bound says it was cut. Spec: docs/hang.md "The stack tree". */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hang_stack_tree.h"
#include "mg_error.h"
#include "mg_test.h"

/* frames[0] innermost, as rank_stack holds them */
static void push(rank_stack *st, const char *function, const char *module, uint64_t offset,
                 const char *file, int line)
{
    rank_stack_frame *f = &st->frames[st->nframes++];
    memset(f, 0, sizeof *f);
    snprintf(f->function, sizeof f->function, "%s", function);
    snprintf(f->module, sizeof f->module, "%s", module);
    snprintf(f->file, sizeof f->file, "%s", file);
    f->offset = offset;
    f->line = line;
}

/* A stack app: main (app.c:line) -> call, or main -> app+0x150f (stripped) -> call. */
static void stack_of(rank_stack *st, const char *call, int line, bool stripped)
{
    memset(st, 0, sizeof *st);
    snprintf(st->mpi_function, sizeof st->mpi_function, "MPI_Recv");
    push(st, "", "libmpich.so.12", 0x2934ff, "", 0);
    push(st, call, "libmpich.so.12", 0x5a3, "", 0);
    if (stripped)
        push(st, "", "app", 0x150f, "", 0);
    else
        push(st, "main", "app", 0x13f, "/src/app.c", line);
    push(st, "_start", "app", 0x20, "", 0);
}

static json_object *node_labelled(json_object *tree, const char *label)
{
    for (size_t i = 0; i < json_object_array_length(tree); i++) {
        json_object *n = json_object_array_get_idx(tree, i), *v;
        if (json_object_object_get_ex(n, "label", &v) &&
            strcmp(json_object_get_string(v), label) == 0)
            return n;
    }
    return NULL;
}

static const char *field(json_object *n, const char *key)
{
    json_object *v;
    return n && json_object_object_get_ex(n, key, &v) ? json_object_get_string(v) : "";
}

static void test_rank_lists_and_labels(void)
{
    hang_stack_tree *t = NULL;
    MG_CHECK_INT(hang_stack_tree_create(&t), MG_ERROR_OK);
    report_doc *r = report_create("hang", "test", NULL, 0);
    MG_CHECK(t && r);
    if (!t || !r)
        return;
    rank_stack *st = malloc(sizeof *st);
    for (int rank = 0; st && rank < 8; rank++) {
        if (rank == 6)
            stack_of(st, "mpi_recv_", 12, true);
        else
            stack_of(st, "PMPI_Recv", 10, false);
        hang_stack_tree_add(t, rank, st);
    }
    memset(st, 0, sizeof *st);
    hang_stack_tree_add(t, 8, st); /* no stack: no node */
    free(st);
    report_entry *f = report_add_finding(r, "hang", "test");
    hang_stack_tree_to_finding(t, f);
    json_object *ev = report_finding_evidence(f), *tree = NULL, *v;
    MG_CHECK(json_object_object_get_ex(ev, "stack_tree", &tree));
    MG_CHECK_INT(json_object_array_length(tree), 5); /* frames inside MPI are cut */
    MG_CHECK_STR(field(node_labelled(tree, "_start"), "rank_list"), "0-7");
    MG_CHECK_STR(field(node_labelled(tree, "main (app.c:10)"), "rank_list"), "0-5,7");
    MG_CHECK_STR(field(node_labelled(tree, "main (app.c:10)"), "file"), "/src/app.c");
    json_object *leaf = node_labelled(tree, "MPI_Recv");
    MG_CHECK_STR(field(leaf, "rank_list"), "0-5,7");
    MG_CHECK_STR(field(leaf, "function"), "PMPI_Recv");
    MG_CHECK(json_object_object_get_ex(leaf, "mpi_call", &v) && json_object_get_boolean(v));
    MG_CHECK_STR(field(node_labelled(tree, "app+0x150f"), "rank_list"), "6");
    MG_CHECK_STR(field(node_labelled(tree, "mpi_recv_"), "parent"),
                 field(node_labelled(tree, "app+0x150f"), "id"));
    MG_CHECK(json_object_object_get_ex(ev, "stack_tree_truncated", &v) &&
             !json_object_get_boolean(v));
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    hang_stack_tree_print(t, out);
    fclose(out);
    MG_CHECK(strstr(text, "mpiguard: hang:   _start  ranks 0-7\n") != NULL);
    MG_CHECK(strstr(text, "mpiguard: hang:     main (app.c:10)  ranks 0-5,7\n") != NULL);
    MG_CHECK(strstr(text, "mpiguard: hang:       MPI_Recv  ranks 0-5,7\n") != NULL);
    MG_CHECK(strstr(text, "mpiguard: hang:       mpi_recv_  rank 6\n") != NULL);
    free(text);
    report_render_dot(r, (out = open_memstream(&text, &len)));
    fclose(out);
    MG_CHECK(strstr(text, "label=\"main (app.c:10) | ranks 0-5,7\"") != NULL);
    free(text);
    report_destroy(r);
    hang_stack_tree_destroy(t);
}

/* 600 ranks each on its own line of main: 1 + 2 * 600 nodes would be needed. */
static void test_bound(void)
{
    hang_stack_tree *t = NULL;
    MG_CHECK_INT(hang_stack_tree_create(&t), MG_ERROR_OK);
    report_doc *r = report_create("hang", "test", NULL, 0);
    rank_stack *st = malloc(sizeof *st);
    MG_CHECK(t && r && st);
    if (!t || !r || !st)
        return;
    for (int rank = 0; rank < 600; rank++) {
        stack_of(st, "PMPI_Recv", rank + 1, false);
        hang_stack_tree_add(t, rank, st);
    }
    free(st);
    report_entry *f = report_add_finding(r, "hang", "test");
    hang_stack_tree_to_finding(t, f);
    json_object *ev = report_finding_evidence(f), *tree = NULL, *v;
    MG_CHECK(json_object_object_get_ex(ev, "stack_tree", &tree));
    MG_CHECK_INT(json_object_array_length(tree), 512);
    MG_CHECK(json_object_object_get_ex(ev, "stack_tree_truncated", &v) &&
             json_object_get_boolean(v));
    report_destroy(r);
    hang_stack_tree_destroy(t);
}

int main(void)
{
    MG_RUN(test_rank_lists_and_labels);
    MG_RUN(test_bound);
    MG_TEST_END();
}
