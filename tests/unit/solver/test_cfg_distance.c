/* Unit tests of the static control-flow graph, its text form and the distances the CFG-directed
 * search reads (docs/design/concolic-solver.md §7), on a hand-made graph whose distances are worked
 * out by hand below. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cfg_distance.h"
#include "cfg_graph.h"
#include "cfg_graph_text.h"
#include "mg_error.h"
#include "mg_test.h"

#define NONE UINT32_MAX

/* main:  0 [b0] --T--> 1 --> 4 (calls f) ... 5 [b3] --T--> 9
 *         |                ^                  |
 *         F                |                  F--> 10, and 3 (two targets, like a switch case)
 *         v                |
 *         2 [b1] --F-------+
 *         |  ^
 *         T  |
 *         v  |
 *         3 -+
 * f:     6 [b2] --T--> 7 --ret--> 5,  --F--> 8 --ret--> 5      call edge 4 --> 6
 */
static void build(cfg_graph *g)
{
    static const uint32_t edges[][2] = {
        {0, 1}, {0, 2}, {1, 4}, {2, 3}, {2, 4}, {3, 2},  {4, 6},
        {6, 7}, {6, 8}, {7, 5}, {8, 5}, {5, 9}, {5, 10}, {2, 4}}; /* a repeated edge is merged */
    static const uint32_t targets[][2] = {{1, 1}, {0, 2}, {3, 3},  {2, 4}, {5, 7},
                                          {4, 8}, {7, 9}, {6, 10}, {6, 3}};
    MG_CHECK_INT(cfg_graph_create(g, 0xabcdef, 11, 4), 0);
    MG_CHECK_INT(cfg_graph_set_branch(g, 0, 0), 0);
    MG_CHECK_INT(cfg_graph_set_branch(g, 1, 2), 0);
    MG_CHECK_INT(cfg_graph_set_branch(g, 2, 6), 0);
    MG_CHECK_INT(cfg_graph_set_branch(g, 3, 5), 0);
    for (size_t i = 0; i < sizeof edges / sizeof *edges; i++)
        MG_CHECK_INT(cfg_graph_add_edge(g, edges[i][0], edges[i][1]), 0);
    for (size_t i = 0; i < sizeof targets / sizeof *targets; i++)
        MG_CHECK_INT(cfg_graph_add_target(g, targets[i][0], targets[i][1]), 0);
    MG_CHECK_INT(cfg_graph_index(g), 0);
}

/* Row per arm (0F 0T 1F 1T ...), column per branch: hops from the arm's target(s) to the
 * branch's node. 0T: 1-4-6 reaches b2 in 2, 1-4-6-7-5 b3 in 4; 0F: at b1 at once, 2-4-6 b2 in 2;
 * 1T: 3-2 b1 in 1; 1F: 4-6 b2 in 1; b2's arms lead to 5 (b3) in 1; 3F: from 3 (nearer than 10). */
static const uint32_t pairwise[8][4] = {
    {NONE, 0, 2, 4},          /* 0F: target 2 */
    {NONE, NONE, 2, 4},       /* 0T: target 1 */
    {NONE, NONE, 1, 3},       /* 1F: target 4 */
    {NONE, 1, 3, 5},          /* 1T: target 3 */
    {NONE, NONE, NONE, 1},    /* 2F: target 8 */
    {NONE, NONE, NONE, 1},    /* 2T: target 7 */
    {NONE, 1, 3, 5},          /* 3F: targets 10 and 3 */
    {NONE, NONE, NONE, NONE}, /* 3T: target 9, a dead end */
};

static void test_pairwise(void)
{
    cfg_graph g;
    build(&g);
    MG_CHECK_INT(g.nedges, 13);
    uint32_t hops[4];
    for (uint32_t arm = 0; arm < 8; arm++) {
        MG_CHECK_INT(cfg_distance_from_arm(&g, arm, hops), 0);
        for (int b = 0; b < 4; b++)
            if (hops[b] != pairwise[arm][b]) {
                fprintf(stderr, "arm %u branch %d: %u, expected %u\n", arm, b, hops[b],
                        pairwise[arm][b]);
                MG_CHECK(0);
            }
    }
    MG_CHECK_INT(cfg_distance_from_arm(&g, 8, hops), MG_ERROR_EINVAL);
    cfg_graph_free(&g);
    cfg_graph_free(&g);
}

static void cover(coverage_set *cov, const uint32_t *arms, size_t n)
{
    coverage_set_free(cov);
    coverage_set_init(cov);
    MG_CHECK_INT(coverage_set_add(cov, arms, n), 0);
}

/* dist[arm] = 0 uncovered, else 1 + hops from its target to the nearest branch that still has
 * an uncovered arm (backward from those branches' nodes). */
static void test_to_uncovered(void)
{
    cfg_graph g;
    build(&g);
    coverage_set cov;
    coverage_set_init(&cov);
    uint32_t dist[10];

    /* 2F and 3T uncovered: b2 (node 6) and b3 (node 5) attract. Node distances: 4 and 7, 8: 1;
     * 1, 2: 2; 0, 3: 3. */
    static const uint32_t a[] = {0, 1, 2, 3, 5, 6};
    cover(&cov, a, 6);
    MG_CHECK_INT(cfg_distance_to_uncovered(&g, &cov, dist, 10), 0);
    static const uint32_t want_a[10] = {3, 3, 2, 4, 0, 2, 4, 0, NONE, NONE};
    for (int i = 0; i < 10; i++)
        MG_CHECK_INT(dist[i], want_a[i]);

    /* Only 3T left: node 5 at 0; 7, 8: 1; 6: 2; 4: 3; 1, 2: 4; 0, 3: 5. */
    static const uint32_t b[] = {0, 1, 2, 3, 4, 5, 6};
    cover(&cov, b, 7);
    MG_CHECK_INT(cfg_distance_to_uncovered(&g, &cov, dist, 8), 0);
    static const uint32_t want_b[8] = {5, 5, 4, 6, 2, 2, 6, 0};
    for (int i = 0; i < 8; i++)
        MG_CHECK_INT(dist[i], want_b[i]);

    /* Everything covered: nothing attracts. */
    static const uint32_t c[] = {0, 1, 2, 3, 4, 5, 6, 7};
    cover(&cov, c, 8);
    MG_CHECK_INT(cfg_distance_to_uncovered(&g, &cov, dist, 8), 0);
    for (int i = 0; i < 8; i++)
        MG_CHECK_INT(dist[i], NONE);

    MG_CHECK_INT(cfg_distance_to_uncovered(&g, &cov, dist, 7), MG_ERROR_EINVAL);
    MG_CHECK_INT(cfg_distance_to_uncovered(NULL, &cov, dist, 8), MG_ERROR_EINVAL);
    coverage_set_free(&cov);
    cfg_graph_free(&g);
}

static void test_build_errors(void)
{
    cfg_graph g;
    MG_CHECK_INT(cfg_graph_create(&g, 1, CFG_GRAPH_MAX_NODES + 1, 1), MG_ERROR_EINVAL);
    cfg_graph_free(&g);
    MG_CHECK_INT(cfg_graph_create(&g, 1, 3, 1), 0);
    MG_CHECK_INT(cfg_graph_add_edge(&g, 0, 3), MG_ERROR_EINVAL);
    MG_CHECK_INT(cfg_graph_add_target(&g, 2, 0), MG_ERROR_EINVAL); /* branch 1 does not exist */
    MG_CHECK_INT(cfg_graph_set_branch(&g, 1, 0), MG_ERROR_EINVAL);
    MG_CHECK_INT(cfg_graph_index(&g), MG_ERROR_EFORMAT); /* branch 0 placed nowhere */
    MG_CHECK_INT(cfg_graph_set_branch(&g, 0, 0), 0);
    MG_CHECK_INT(cfg_graph_add_target(&g, 1, 1), 0);
    MG_CHECK_INT(cfg_graph_index(&g), MG_ERROR_EFORMAT); /* arm 0 leads nowhere */
    MG_CHECK_INT(cfg_graph_add_target(&g, 0, 2), 0);
    MG_CHECK_INT(cfg_graph_index(&g), 0);
    char *text;
    size_t len;
    MG_CHECK_INT(cfg_graph_text_format(&g, &text, &len), 0);
    MG_CHECK(strstr(text, "nodes 3 branches 1 edges 0 targets 2\n") != NULL);
    free(text);
    cfg_graph_free(&g);
}

/* Parses text after replacing the first occurrence of from with to. */
static int parse_edited(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    MG_CHECK(at != NULL);
    if (!at)
        return 0;
    size_t n = strlen(text) + strlen(to) + 1;
    char *copy = malloc(n);
    snprintf(copy, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    cfg_graph g;
    int rc = cfg_graph_text_parse(copy, strlen(copy), &g);
    cfg_graph_free(&g);
    free(copy);
    return rc;
}

static void test_text(void)
{
    cfg_graph g, back;
    build(&g);
    char *text, *again;
    size_t len, len2;
    MG_CHECK_INT(cfg_graph_text_format(&g, &text, &len), 0);
    static const char head[] = "mpiguard-cfg 1\nbuild_id 0000000000abcdef\n"
                               "nodes 11 branches 4 edges 13 targets 9\nb 0 0\n";
    MG_CHECK(!strncmp(text, head, strlen(head)));
    MG_CHECK_INT(cfg_graph_text_parse(text, len, &back), 0);
    MG_CHECK_INT(back.build_id, 0xabcdef);
    MG_CHECK_INT(cfg_graph_text_format(&back, &again, &len2), 0);
    MG_CHECK_INT(len2, len);
    MG_CHECK(!strcmp(text, again));
    uint32_t hops[4];
    MG_CHECK_INT(cfg_distance_from_arm(&back, 6, hops), 0);
    MG_CHECK_INT(hops[1], 1);
    free(again);
    cfg_graph_free(&back);

    MG_CHECK_INT(parse_edited(text, "mpiguard-cfg 1", "mpiguard-cfg 2"), MG_ERROR_EVERSION);
    MG_CHECK_INT(parse_edited(text, "mpiguard-cfg", "mpiguard-cgf"), MG_ERROR_EFORMAT);
    MG_CHECK_INT(parse_edited(text, "b 1 2", "b 2 2"), MG_ERROR_EFORMAT);      /* out of order */
    MG_CHECK_INT(parse_edited(text, "e 0 1\n", "e 0 11\n"), MG_ERROR_EFORMAT); /* no node 11 */
    MG_CHECK_INT(parse_edited(text, "e 0 1\n", "e 0 x\n"), MG_ERROR_EFORMAT);
    MG_CHECK_INT(parse_edited(text, "edges 13", "edges 14"), MG_ERROR_EFORMAT); /* count off */
    MG_CHECK_INT(parse_edited(text, "e 0 2\n", "e 0 1\n"), MG_ERROR_EFORMAT);   /* a repeated line */
    MG_CHECK_INT(parse_edited(text, "t 7 9\n", "t 6 9\n"), MG_ERROR_EFORMAT);   /* arm 7 leads nowhere */
    MG_CHECK_INT(parse_edited(text, "end\n", "end\nmore\n"), MG_ERROR_EFORMAT);
    MG_CHECK_INT(parse_edited(text, "end\n", ""), MG_ERROR_EFORMAT);
    MG_CHECK_INT(parse_edited(text, "nodes 11", "nodes 99999999999"), MG_ERROR_EFORMAT);
    MG_CHECK_INT(parse_edited(text, "nodes 11", "nodes 4000000000"), MG_ERROR_ERANGE);
    for (size_t cut = 0; cut + 1 < len; cut += 7) /* a cut before the final newline: refused */
        MG_CHECK(cfg_graph_text_parse(text, cut, &back) != 0);
    MG_CHECK_INT(cfg_graph_text_parse(NULL, 1, &back), MG_ERROR_EINVAL);
    free(text);
    cfg_graph_free(&g);
}

int main(void)
{
    MG_RUN(test_pairwise);
    MG_RUN(test_to_uncovered);
    MG_RUN(test_build_errors);
    MG_RUN(test_text);
    MG_TEST_END();
}
