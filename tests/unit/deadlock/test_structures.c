/* The detector's building blocks alone: the hash map, the communicator table, point-to-point and
 * collective matching, the wait-for graph with pass-through removal, and the OR-knot search. */
#include <stdlib.h>

#include "check_event.h"
#include "coll_match.h"
#include "comm_table.h"
#include "key_map.h"
#include "mg_error.h"
#include "mg_test.h"
#include "or_knot.h"
#include "p2p_match.h"
#include "type_sig.h"
#include "wait_graph.h"

static void test_key_map(void)
{
    key_map m, c;
    key_map_init(&m);
    uint32_t v = 0;
    MG_CHECK(!key_map_get(&m, 1, 2, &v));
    MG_CHECK(!key_map_remove(&m, 1, 2));
    for (uint64_t i = 0; i < 5000; i++) {
        MG_CHECK_INT(key_map_put(&m, i, i * 7, (uint32_t)i + 1), MG_ERROR_OK);
    }
    MG_CHECK_INT(key_map_put(&m, 3, 21, 99), MG_ERROR_OK); /* replace */
    MG_CHECK_INT(m.count, 5000);
    for (uint64_t i = 0; i < 5000; i += 2) {
        MG_CHECK(key_map_remove(&m, i, i * 7));
    }
    MG_CHECK_INT(m.count, 2500);
    int ok = 1;
    for (uint64_t i = 0; i < 5000; i++) {
        int found = key_map_get(&m, i, i * 7, &v);
        ok &= (i % 2) ? found && v == (i == 3 ? 99 : (uint32_t)i + 1) : !found;
    }
    MG_CHECK(ok);
    MG_CHECK_INT(key_map_clone(&m, &c), MG_ERROR_OK);
    key_map_free(&m);
    MG_CHECK(key_map_get(&c, 4999, 4999 * 7, &v) && v == 5000);
    MG_CHECK(!key_map_get(&c, 4999, 0, &v));
    key_map_free(&c);
}

static void test_comm_table(void)
{
    comm_table ct;
    MG_CHECK_INT(comm_table_init(&ct, 0), MG_ERROR_EINVAL);
    MG_CHECK_INT(comm_table_init(&ct, 8), MG_ERROR_OK);
    uint32_t idx, local;
    MG_CHECK_INT(comm_table_lookup(&ct, CHECK_EVENT_COMM_WORLD, &idx), MG_ERROR_OK);
    MG_CHECK_INT(idx, COMM_TABLE_WORLD);
    MG_CHECK_INT(comm_table_lookup(&ct, 55, &idx), MG_ERROR_ENOENT);
    MG_CHECK_INT(comm_table_lookup(&ct, check_comm_self_id(8), &idx), MG_ERROR_ENOENT);
    MG_CHECK_INT(comm_table_lookup(&ct, check_comm_self_id(5), &idx), MG_ERROR_OK);
    MG_CHECK_INT(comm_table_size(&ct, idx), 1);
    MG_CHECK_INT(comm_table_member(&ct, idx, 0), 5);
    int32_t m[] = {6, 2, 4};
    MG_CHECK_INT(comm_table_add(&ct, 77, m, 3, 3, 0, &idx), MG_ERROR_OK);
    MG_CHECK(comm_table_local(&ct, idx, 4, &local) && local == 2);
    MG_CHECK(!comm_table_local(&ct, idx, 5, &local));
    MG_CHECK_INT(comm_table_id(&ct, idx), 77);
    uint32_t again;
    MG_CHECK_INT(comm_table_add(&ct, 77, m, 3, 3, 0, &again), MG_ERROR_OK);
    MG_CHECK_INT(again, idx);
    MG_CHECK_INT(comm_table_add(&ct, 77, m, 2, 2, 0, &again), MG_ERROR_EFORMAT);
    int32_t dup[] = {1, 1}, out[] = {1, 9};
    MG_CHECK_INT(comm_table_add(&ct, 78, dup, 2, 2, 0, &again), MG_ERROR_EINVAL);
    MG_CHECK_INT(comm_table_add(&ct, 78, out, 2, 2, 0, &again), MG_ERROR_EINVAL);
    MG_CHECK_INT(comm_table_lookup(&ct, 78, &again), MG_ERROR_ENOENT);
    int32_t ident[] = {0, 1, 2, 3, 4, 5, 6, 7};
    MG_CHECK_INT(comm_table_add(&ct, 79, ident, 8, 8, 0, &idx), MG_ERROR_OK);
    MG_CHECK(ct.comms[idx].identity && comm_table_local(&ct, idx, 7, &local) && local == 7);
    comm_table c;
    MG_CHECK_INT(comm_table_clone(&ct, &c), MG_ERROR_OK);
    comm_table_free(&ct);
    MG_CHECK_INT(comm_table_lookup(&c, 77, &idx), MG_ERROR_OK);
    MG_CHECK_INT(comm_table_member(&c, idx, 1), 2);
    comm_table_free(&c);
}

static p2p_match_post post(int32_t rank, int32_t peer, int32_t tag, uint64_t seq)
{
    return (p2p_match_post){.rank = rank, .peer = peer, .tag = tag, .comm = 0, .seq = seq};
}

/* Non-overtaking, any-tag receives, and a wildcard that defers later receives until decided. */
static void test_p2p_match(void)
{
    p2p_match pm;
    p2p_match_init(&pm);
    uint32_t s1, s2, s3, r1, r2, r3;
    p2p_match_post p = post(0, 1, 5, 1);
    MG_CHECK_INT(p2p_match_post_send(&pm, &p, &s1), MG_ERROR_OK);
    p = post(0, 1, 5, 2);
    MG_CHECK_INT(p2p_match_post_send(&pm, &p, &s2), MG_ERROR_OK);
    p = post(1, 0, CHECK_EVENT_ANY_TAG, 1);
    MG_CHECK_INT(p2p_match_post_recv(&pm, &p, &r1), MG_ERROR_OK);
    MG_CHECK_INT(pm.ops[r1].partner, s1); /* the first send, not the second */
    p = post(1, 0, 5, 2);
    MG_CHECK_INT(p2p_match_post_recv(&pm, &p, &r2), MG_ERROR_OK);
    MG_CHECK_INT(pm.ops[r2].partner, s2);
    const uint32_t *done;
    size_t n;
    p2p_match_drain(&pm, &done, &n);
    MG_CHECK_INT(n, 4);
    p2p_match_drain(&pm, &done, &n);
    MG_CHECK_INT(n, 0);
    /* Wildcard at rank 1 with two candidates: undecided; a later specific receive is deferred. */
    p = post(0, 1, 6, 3);
    MG_CHECK_INT(p2p_match_post_send(&pm, &p, &s1), MG_ERROR_OK);
    p = post(2, 1, 6, 1);
    MG_CHECK_INT(p2p_match_post_send(&pm, &p, &s2), MG_ERROR_OK);
    p = post(1, CHECK_EVENT_ANY_SOURCE, 6, 3);
    MG_CHECK_INT(p2p_match_post_recv(&pm, &p, &r1), MG_ERROR_OK);
    MG_CHECK_INT(pm.ops[r1].state, P2P_MATCH_UNDECIDED);
    MG_CHECK_INT(pm.undecided, 1);
    int32_t src[4], tags[4];
    MG_CHECK_INT(p2p_match_candidates(&pm, r1, src, tags, 4), 2);
    MG_CHECK(src[0] == 0 && src[1] == 2 && tags[1] == 6);
    p = post(1, 2, 6, 4);
    MG_CHECK_INT(p2p_match_post_recv(&pm, &p, &r2), MG_ERROR_OK);
    MG_CHECK_INT(pm.ops[r2].state, P2P_MATCH_DEFERRED);
    MG_CHECK(p2p_match_may_complete(&pm, r2));
    MG_CHECK(p2p_match_may_complete(&pm, s1));
    MG_CHECK_INT(p2p_match_decide(&pm, r1, 2, 6, 0), MG_ERROR_OK);
    MG_CHECK_INT(pm.ops[r1].partner, s2);
    MG_CHECK_INT(pm.ops[r2].state, P2P_MATCH_WAITING); /* rank 2 sent only once */
    MG_CHECK(!p2p_match_may_complete(&pm, r2));
    MG_CHECK_INT(pm.undecided, 0);
    MG_CHECK_INT(p2p_match_decide(&pm, r1, 2, 6, 0), MG_ERROR_OK);     /* the same decision again */
    MG_CHECK_INT(p2p_match_decide(&pm, r1, 0, 6, 0), MG_ERROR_ESTATE); /* another one */
    MG_CHECK_INT(p2p_match_decide(&pm, r2, 2, 6, 0), MG_ERROR_OK);     /* specific: agrees */
    MG_CHECK_INT(p2p_match_decide(&pm, r2, 0, 6, 0), MG_ERROR_ESTATE);
    MG_CHECK_INT(p2p_match_decide(&pm, s1, 0, 6, 0), MG_ERROR_EINVAL);
    MG_CHECK(p2p_match_has_send(&pm, 0, CHECK_EVENT_ANY_SOURCE, 1, 6));
    MG_CHECK(!p2p_match_has_send(&pm, 0, 2, 1, 6));
    /* A wildcard decided before its send arrives waits for that source only. */
    p = post(1, CHECK_EVENT_ANY_SOURCE, 8, 5);
    MG_CHECK_INT(p2p_match_post_recv(&pm, &p, &r3), MG_ERROR_OK);
    MG_CHECK_INT(p2p_match_decide(&pm, r3, 2, 8, 0), MG_ERROR_OK);
    MG_CHECK_INT(p2p_match_decide(&pm, r3, 0, 8, 0), MG_ERROR_ESTATE);
    p = post(0, 1, 8, 4);
    MG_CHECK_INT(p2p_match_post_send(&pm, &p, &s3), MG_ERROR_OK);
    MG_CHECK_INT(pm.ops[r3].state, P2P_MATCH_WAITING);
    p = post(2, 1, 8, 2);
    MG_CHECK_INT(p2p_match_post_send(&pm, &p, &s3), MG_ERROR_OK);
    MG_CHECK_INT(pm.ops[r3].partner, s3);
    p2p_match_cancel(&pm, r2);
    MG_CHECK_INT(pm.ops[r2].state, P2P_MATCH_CANCELLED);
    MG_CHECK_INT(pm.pending_recvs, 0);
    p = post(1, CHECK_EVENT_ANY_SOURCE, 0, 1);
    p.peer = -5;
    MG_CHECK_INT(p2p_match_post_recv(&pm, &p, &r3), MG_ERROR_EINVAL);
    p = post(1, CHECK_EVENT_ANY_SOURCE, 0, 1);
    MG_CHECK_INT(p2p_match_post_send(&pm, &p, &r3), MG_ERROR_EINVAL);
    p2p_match copy;
    MG_CHECK_INT(p2p_match_clone(&pm, &copy), MG_ERROR_OK);
    MG_CHECK_INT(copy.queued_sends, pm.queued_sends);
    p2p_match_free(&copy);
    p2p_match_free(&pm);
}

/* The post of count x type as the capture module describes it (capture_types.c). */
static p2p_match_post typed(const type_sig_table *t, uint32_t type, int64_t count)
{
    type_sig m;
    p2p_match_post p = {0};
    MG_CHECK_INT(type_sig_message(t, type, count, &m), MG_ERROR_OK);
    p.type_hash = m.hash;
    p.type_elems = m.elems;
    p.type_uniform = m.unit != TYPE_SIG_DESC_NONE;
    p.type_period = p.type_uniform ? t->nodes[m.unit].sig.hash : t->nodes[type].sig.hash;
    return p;
}

static void test_p2p_type_compare(void)
{
    type_sig_table t;
    MG_CHECK_INT(type_sig_table_init(&t), MG_ERROR_OK);
    uint32_t triple, strided, pair, two_pairs, mixed;
    type_sig_desc d = {.constructor = TYPE_SIG_DESC_CONTIGUOUS, .oldtype = TYPE_SIG_DESC_INT, .count = 3};
    MG_CHECK_INT(type_sig_define(&t, &d, &triple), MG_ERROR_OK);
    d = (type_sig_desc){
        .constructor = TYPE_SIG_DESC_VECTOR, .oldtype = TYPE_SIG_DESC_INT, .count = 2, .blocklength = 2};
    MG_CHECK_INT(type_sig_define(&t, &d, &strided), MG_ERROR_OK);
    int64_t ones[2] = {1, 1};
    uint32_t members[2] = {TYPE_SIG_DESC_INT, TYPE_SIG_DESC_DOUBLE};
    d = (type_sig_desc){
        .constructor = TYPE_SIG_DESC_STRUCT, .count = 2, .blocklengths = ones, .types = members};
    MG_CHECK_INT(type_sig_define(&t, &d, &pair), MG_ERROR_OK);
    d = (type_sig_desc){.constructor = TYPE_SIG_DESC_CONTIGUOUS, .oldtype = pair, .count = 2};
    MG_CHECK_INT(type_sig_define(&t, &d, &two_pairs), MG_ERROR_OK);
    members[1] = TYPE_SIG_DESC_FLOAT;
    d = (type_sig_desc){
        .constructor = TYPE_SIG_DESC_STRUCT, .count = 2, .blocklengths = ones, .types = members};
    MG_CHECK_INT(type_sig_define(&t, &d, &mixed), MG_ERROR_OK);
    struct {
        uint32_t send_type;
        int64_t send_count;
        uint32_t recv_type;
        int64_t recv_count;
        uint8_t verdict;
    } cases[] = {
        {TYPE_SIG_DESC_INT, 4, TYPE_SIG_DESC_INT, 4, TYPE_MATCH_EQUAL},
        {TYPE_SIG_DESC_INT, 4, TYPE_SIG_DESC_DOUBLE, 4, TYPE_MATCH_MISMATCH},
        {TYPE_SIG_DESC_INT, 3, TYPE_SIG_DESC_INT, 10, TYPE_MATCH_PREFIX},
        {triple, 2, TYPE_SIG_DESC_INT, 10, TYPE_MATCH_PREFIX},
        {TYPE_SIG_DESC_INT, 8, TYPE_SIG_DESC_INT, 4, TYPE_MATCH_TRUNCATED},
        {strided, 1, TYPE_SIG_DESC_INT, 4, TYPE_MATCH_EQUAL},
        {strided, 1, TYPE_SIG_DESC_FLOAT, 4, TYPE_MATCH_MISMATCH},
        {TYPE_SIG_DESC_INT, 1, TYPE_SIG_DESC_FLOAT, 2, TYPE_MATCH_MISMATCH},
        {pair, 1, pair, 3, TYPE_MATCH_PREFIX},
        {pair, 3, pair, 1, TYPE_MATCH_TRUNCATED},
        {pair, 2, two_pairs, 1, TYPE_MATCH_EQUAL},
        {pair, 2, mixed, 2, TYPE_MATCH_MISMATCH},
        {TYPE_SIG_DESC_INT, 0, TYPE_SIG_DESC_DOUBLE, 5, TYPE_MATCH_EQUAL},
        /* different units, not both basic, different lengths: undecided from the records */
        {pair, 1, two_pairs, 1, TYPE_MATCH_EQUAL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        p2p_match_post send = typed(&t, cases[i].send_type, cases[i].send_count);
        p2p_match_post recv = typed(&t, cases[i].recv_type, cases[i].recv_count);
        MG_CHECK_INT(p2p_match_compare_types(&send, &recv), cases[i].verdict);
    }
    p2p_match_post known = typed(&t, TYPE_SIG_DESC_INT, 4), unknown = typed(&t, TYPE_SIG_DESC_DOUBLE, 4);
    unknown.type_period = 0;
    MG_CHECK_INT(p2p_match_compare_types(&known, &unknown), TYPE_MATCH_EQUAL);

    /* The matcher keeps the disagreeing pair with both posts, and a copy starts without it. */
    p2p_match pm;
    p2p_match_init(&pm);
    p2p_match_post s = post(0, 1, 5, 1), r = post(1, 0, 5, 2);
    p2p_match_post ints = typed(&t, TYPE_SIG_DESC_INT, 4), doubles = typed(&t, TYPE_SIG_DESC_DOUBLE, 4);
    s.type_hash = ints.type_hash, s.type_elems = ints.type_elems, s.type_period = ints.type_period;
    r.type_hash = doubles.type_hash, r.type_elems = doubles.type_elems;
    r.type_period = doubles.type_period;
    uint32_t so, ro;
    MG_CHECK_INT(p2p_match_post_send(&pm, &s, &so), MG_ERROR_OK);
    MG_CHECK_INT(p2p_match_post_recv(&pm, &r, &ro), MG_ERROR_OK);
    p2p_match copy;
    MG_CHECK_INT(p2p_match_clone(&pm, &copy), MG_ERROR_OK);
    const p2p_match_type_issue *issues;
    size_t n;
    p2p_match_drain_type_issues(&copy, &issues, &n);
    MG_CHECK_INT(n, 0);
    p2p_match_drain_type_issues(&pm, &issues, &n);
    MG_CHECK_INT(n, 1);
    MG_CHECK_INT(issues[0].verdict, TYPE_MATCH_MISMATCH);
    MG_CHECK_INT(issues[0].send.rank, 0);
    MG_CHECK_INT(issues[0].recv.rank, 1);
    p2p_match_drain_type_issues(&pm, &issues, &n);
    MG_CHECK_INT(n, 0);
    p2p_match_free(&copy);
    p2p_match_free(&pm);
    type_sig_table_free(&t);
}

static void test_coll_match(void)
{
    coll_match cm;
    coll_match_init(&cm, 4);
    coll_match_call a = {.rank = 0, .func = CHECK_EVENT_FN_BCAST, .root = 0};
    coll_match_call b = {.rank = 1, .func = CHECK_EVENT_FN_BCAST, .root = 0};
    coll_match_arrival arr;
    MG_CHECK_INT(coll_match_arrive(&cm, 3, 2, 2, &a, &arr), MG_ERROR_EINVAL);
    for (int k = 0; k < 10; k++) { /* rank 0 runs ten collectives ahead */
        MG_CHECK_INT(coll_match_arrive(&cm, 3, 2, 0, &a, &arr), MG_ERROR_OK);
        MG_CHECK_INT(arr.slot, k);
        MG_CHECK(!arr.complete);
    }
    MG_CHECK_INT(coll_match_issued(&cm, 3, 0), 10);
    MG_CHECK_INT(coll_match_issued(&cm, 3, 1), 0);
    MG_CHECK(coll_match_slot(&cm, 3, 9) != NULL);
    MG_CHECK_INT(coll_match_arrive(&cm, 3, 2, 1, &b, &arr), MG_ERROR_OK);
    MG_CHECK(arr.complete && arr.mismatch == 0);
    MG_CHECK(coll_match_complete(&cm, 3, 0) && !coll_match_complete(&cm, 3, 1));
    MG_CHECK(coll_match_slot(&cm, 3, 0) == NULL);
    b.root = 1;
    MG_CHECK_INT(coll_match_arrive(&cm, 3, 2, 1, &b, &arr), MG_ERROR_OK);
    MG_CHECK_INT(arr.mismatch, DL_FINDING_MISMATCH_ROOT);
    MG_CHECK_INT(coll_match_arrive(&cm, 3, 5, 1, &b, &arr), MG_ERROR_EINVAL); /* size changed */
    /* Three members: the call that agreed with the first is kept (in a copy too) and is still
     * there when the disagreeing call completes the slot. */
    coll_match_call c = {.rank = 2, .func = CHECK_EVENT_FN_BCAST, .root = 0};
    MG_CHECK_INT(coll_match_arrive(&cm, 4, 3, 0, &a, &arr), MG_ERROR_OK);
    MG_CHECK_INT(coll_match_arrive(&cm, 4, 3, 2, &c, &arr), MG_ERROR_OK);
    MG_CHECK(arr.mismatch == 0 && arr.ref->n_agreed == 1 && arr.ref->agreed[0].rank == 2);
    coll_match copy;
    MG_CHECK_INT(coll_match_clone(&cm, &copy), MG_ERROR_OK);
    MG_CHECK_INT(coll_match_issued(&copy, 3, 0), 10);
    const coll_match_entry *kept = coll_match_slot(&copy, 4, 0);
    MG_CHECK(kept && kept->n_agreed == 1 && kept->agreed != arr.ref->agreed &&
             kept->agreed[0].rank == 2);
    coll_match_free(&copy);
    MG_CHECK_INT(coll_match_arrive(&cm, 4, 3, 1, &b, &arr), MG_ERROR_OK); /* root 1 */
    MG_CHECK(arr.complete && arr.mismatch == DL_FINDING_MISMATCH_ROOT);
    MG_CHECK(arr.ref->n_agreed == 1 && arr.ref->agreed[0].rank == 2);
    coll_match_free(&cm);
}

static uint32_t node(wait_graph *g, uint8_t type, uint8_t sem, uint8_t state)
{
    wait_graph_node n = {.type = type, .sem = sem, .state = state, .rank = -1};
    uint32_t id = 0;
    MG_CHECK_INT(wait_graph_add_node(g, &n, &id), MG_ERROR_OK);
    return id;
}

/* Fig. 6b to 6c: intermediate nodes with one arc in and one out disappear. */
static void test_pass_through(void)
{
    wait_graph g;
    wait_graph_init(&g);
    uint32_t p0 = node(&g, WAIT_GRAPH_PROCESS, WAIT_GRAPH_AND, WAIT_GRAPH_BLOCKED),
             p1 = node(&g, WAIT_GRAPH_PROCESS, WAIT_GRAPH_AND, WAIT_GRAPH_BLOCKED);
    uint32_t x = node(&g, WAIT_GRAPH_REQUEST, WAIT_GRAPH_AND, WAIT_GRAPH_BLOCKED),
             y = node(&g, WAIT_GRAPH_REQUEST, WAIT_GRAPH_OR, WAIT_GRAPH_BLOCKED);
    uint32_t z = node(&g, WAIT_GRAPH_REQUEST, WAIT_GRAPH_OR, WAIT_GRAPH_BLOCKED);
    MG_CHECK_INT(wait_graph_add_arc(&g, p0, x), MG_ERROR_OK);
    MG_CHECK_INT(wait_graph_add_arc(&g, x, y), MG_ERROR_OK); /* chain of two pass-through nodes */
    MG_CHECK_INT(wait_graph_add_arc(&g, y, p1), MG_ERROR_OK);
    MG_CHECK_INT(wait_graph_add_arc(&g, p1, z), MG_ERROR_OK); /* z has two successors: kept */
    MG_CHECK_INT(wait_graph_add_arc(&g, z, p0), MG_ERROR_OK);
    MG_CHECK_INT(wait_graph_add_arc(&g, z, p1), MG_ERROR_OK);
    MG_CHECK_INT(wait_graph_add_arc(&g, p0, 99), MG_ERROR_EINVAL);
    MG_CHECK_INT(wait_graph_finish(&g), MG_ERROR_OK);
    MG_CHECK_INT(g.n_nodes, 3);
    MG_CHECK_INT(g.n_arcs, 4);
    MG_CHECK(g.arcs[0].from == 0 && g.arcs[0].to == 1 && !wait_graph_arc_is_or(&g, 0));
    MG_CHECK_INT(g.nodes[2].type, WAIT_GRAPH_REQUEST);
    MG_CHECK(wait_graph_arc_is_or(&g, 2));
    uint8_t keep[3] = {1, 1, 0};
    wait_graph sub;
    MG_CHECK_INT(wait_graph_subgraph(&g, keep, &sub), MG_ERROR_OK);
    MG_CHECK_INT(sub.n_nodes, 2);
    MG_CHECK_INT(sub.n_arcs, 1);
    wait_graph_free(&sub);
    wait_graph_free(&g);
}

/* OR-knots: an OR arc to a running process escapes; an AND arc to one does not release. */
static void test_or_knot(void)
{
    wait_graph g;
    wait_graph_init(&g);
    uint32_t a = node(&g, WAIT_GRAPH_PROCESS, WAIT_GRAPH_OR, WAIT_GRAPH_BLOCKED),
             b = node(&g, WAIT_GRAPH_PROCESS, WAIT_GRAPH_AND, WAIT_GRAPH_BLOCKED);
    uint32_t c = node(&g, WAIT_GRAPH_PROCESS, WAIT_GRAPH_AND, WAIT_GRAPH_RUNNING),
             d = node(&g, WAIT_GRAPH_PROCESS, WAIT_GRAPH_AND, WAIT_GRAPH_BLOCKED);
    uint32_t e = node(&g, WAIT_GRAPH_PROCESS, WAIT_GRAPH_AND, WAIT_GRAPH_BLOCKED),
             t = node(&g, WAIT_GRAPH_PROCESS, WAIT_GRAPH_AND, WAIT_GRAPH_TERMINATED);
    wait_graph_add_arc(&g, a, b); /* a waits for b or c: c runs, so a is released ... */
    wait_graph_add_arc(&g, a, c);
    wait_graph_add_arc(&g, b, a); /* ... and so b */
    wait_graph_add_arc(&g, d, e); /* d and e wait for each other, d also for c: AND, stuck */
    wait_graph_add_arc(&g, d, c);
    wait_graph_add_arc(&g, e, d);
    uint32_t f = node(&g, WAIT_GRAPH_PROCESS, WAIT_GRAPH_AND, WAIT_GRAPH_BLOCKED);
    wait_graph_add_arc(&g, f, t); /* waits for a terminated process */
    MG_CHECK_INT(wait_graph_finish(&g), MG_ERROR_OK);
    or_knot_result res;
    MG_CHECK_INT(or_knot_analyze(&g, &res), MG_ERROR_OK);
    MG_CHECK_INT(res.status[a], OR_KNOT_RELEASED);
    MG_CHECK_INT(res.status[b], OR_KNOT_RELEASED);
    MG_CHECK_INT(res.status[c], OR_KNOT_RELEASED);
    MG_CHECK_INT(res.status[d], OR_KNOT_IN_KNOT);
    MG_CHECK_INT(res.status[e], OR_KNOT_IN_KNOT);
    MG_CHECK_INT(res.status[t], OR_KNOT_IN_KNOT);
    MG_CHECK_INT(res.status[f], OR_KNOT_WAITING);
    MG_CHECK_INT(res.n_deadlocked, 4);
    MG_CHECK_INT(res.n_knots, 2);
    MG_CHECK(g.nodes[d].in_knot && !g.nodes[f].in_knot);
    or_knot_result_free(&res);
    wait_graph unfinished;
    wait_graph_init(&unfinished);
    MG_CHECK_INT(or_knot_analyze(&unfinished, &res), MG_ERROR_EINVAL);
    wait_graph_free(&g);
}

int main(void)
{
    MG_RUN(test_key_map);
    MG_RUN(test_comm_table);
    MG_RUN(test_p2p_match);
    MG_RUN(test_p2p_type_compare);
    MG_RUN(test_coll_match);
    MG_RUN(test_pass_through);
    MG_RUN(test_or_knot);
    MG_TEST_END();
}
