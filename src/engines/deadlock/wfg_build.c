/* Delayed construction of the AND⊕OR wait-for graph from the detector's wait states (paper §5.2):
 * each blocked call's AND-OR dependency translated with n-ary AND/OR nodes (§4.1), shared
 * any-source and collective nodes, pass-through nodes removed. docs/design/check-detector.md §7. */
#include "wfg_build.h"

#include "mg_error.h"
#include "wait_state.h"

/* Key of the shared any-source node of a communicator (collective nodes use the slot number). */
#define ANY_NODE_KEY UINT64_MAX

typedef struct builder {
    deadlock_detector *det;
    wait_graph *g;
    key_map shared; /* (comm index, slot or ANY_NODE_KEY) -> node */
} builder;

static int arcs_to_members(builder *b, uint32_t from, uint32_t comm)
{
    uint32_t size = comm_table_size(&b->det->comms, comm);
    int rc = MG_ERROR_OK;
    for (uint32_t j = 0; j < size && !rc; j++) {
        rc = wait_graph_add_arc(b->g, from, (uint32_t)comm_table_member(&b->det->comms, comm, j));
    }
    return rc;
}

/* The shared "any member of comm" (OR) node. */
static int any_node(builder *b, uint32_t comm, uint32_t *node)
{
    if (key_map_get(&b->shared, comm, ANY_NODE_KEY, node)) {
        return MG_ERROR_OK;
    }
    wait_graph_node n = {.type = WAIT_GRAPH_ANY_SOURCE,
                         .sem = WAIT_GRAPH_OR,
                         .state = WAIT_GRAPH_BLOCKED,
                         .rank = -1,
                         .comm = comm_table_id(&b->det->comms, comm)};
    int rc = wait_graph_add_node(b->g, &n, node);
    rc = rc ? rc : key_map_put(&b->shared, comm, ANY_NODE_KEY, *node);
    return rc ? rc : arcs_to_members(b, *node, comm);
}

/* The shared "every member missing from slot k of comm" (AND) node. */
static int coll_node(builder *b, uint32_t comm, uint64_t slot, uint16_t func, uint32_t *node)
{
    if (key_map_get(&b->shared, comm, slot, node)) {
        return MG_ERROR_OK;
    }
    coll_match_entry *s = coll_match_slot(&b->det->coll, comm, slot);
    wait_graph_node n = {.type = WAIT_GRAPH_COLLECTIVE,
                         .sem = WAIT_GRAPH_AND,
                         .state = WAIT_GRAPH_BLOCKED,
                         .rank = -1,
                         .func = s ? s->first.func : func,
                         .comm = comm_table_id(&b->det->comms, comm),
                         .aux = slot};
    int rc = wait_graph_add_node(b->g, &n, node);
    rc = rc ? rc : key_map_put(&b->shared, comm, slot, *node);
    uint32_t size = comm_table_size(&b->det->comms, comm);
    for (uint32_t j = 0; j < size && !rc; j++) {
        if (coll_match_issued(&b->det->coll, comm, j) <= slot) {
            rc = wait_graph_add_arc(b->g, *node,
                                    (uint32_t)comm_table_member(&b->det->comms, comm, j));
        }
    }
    return rc;
}

/* Arcs for waiting on "a message from any member of comm": directly from the process when it is
 * its only pending item, else through a request node (paper Fig. 7, labelled by `request`: the
 * Irecv's function, request id, tag and call site), or to the shared node of a large
 * communicator. */
static int wildcard(builder *b, uint32_t from, int only, uint32_t comm,
                    const wait_graph_node *request)
{
    uint32_t target;
    if (comm_table_size(&b->det->comms, comm) > b->det->prm.inline_or_max) {
        int rc = any_node(b, comm, &target);
        return rc ? rc : wait_graph_add_arc(b->g, from, target);
    }
    if (only) {
        b->g->nodes[from].sem = WAIT_GRAPH_OR;
        return arcs_to_members(b, from, comm);
    }
    int rc = wait_graph_add_node(b->g, request, &target);
    rc = rc ? rc : wait_graph_add_arc(b->g, from, target);
    return rc ? rc : arcs_to_members(b, target, comm);
}

static rma_locks_request lock_request(const detector_state_item *it, int32_t waiter)
{
    return (rma_locks_request){it->ref, it->peer, waiter, (uint8_t)it->tag};
}

/* 1 when the item of rank's wait may still complete without anyone else acting (see
 * p2p_match_may_complete; a lock no one holds in conflict). */
static int item_free(const deadlock_detector *det, int32_t rank, const detector_state_item *it)
{
    if (it->type == DETECTOR_STATE_ITEM_LOCK) {
        size_t from = 0;
        int32_t holder;
        rma_locks_request req = lock_request(it, rank);
        return !rma_locks_next_blocker(&det->locks, &req, &from, &holder);
    }
    return it->done ||
           (it->type == DETECTOR_STATE_ITEM_P2P && p2p_match_may_complete(&det->p2p, it->ref));
}

/* Arcs to every holder of a lock that conflicts with the request (AND: all must unlock). */
static int lock_arcs(builder *b, uint32_t from, const detector_state_item *it)
{
    size_t next = 0;
    int32_t holder;
    rma_locks_request req = lock_request(it, (int32_t)from);
    int rc = MG_ERROR_OK;
    while (!rc && rma_locks_next_blocker(&b->det->locks, &req, &next, &holder)) {
        rc = wait_graph_add_arc(b->g, from, (uint32_t)holder);
    }
    return rc;
}

static int emit_item(builder *b, uint32_t from, int only, const detector_state_item *it)
{
    const p2p_match *pm = &b->det->p2p;
    if (it->type == DETECTOR_STATE_ITEM_COLL) {
        uint32_t node;
        int rc = coll_node(b, it->ref, it->slot, b->det->waits[b->det->ranks[from].wait].func,
                           &node);
        return rc ? rc : wait_graph_add_arc(b->g, from, node);
    }
    if (it->type == DETECTOR_STATE_ITEM_LOCK) {
        return lock_arcs(b, from, it);
    }
    if (it->type == DETECTOR_STATE_ITEM_SELF) {
        return wait_graph_add_arc(b->g, from, from);
    }
    const detector_state_wait *w = &b->det->waits[b->det->ranks[from].wait];
    wait_graph_node request = {.type = WAIT_GRAPH_REQUEST,
                               .sem = WAIT_GRAPH_OR,
                               .state = WAIT_GRAPH_BLOCKED,
                               .rank = (int32_t)from,
                               .peer = CHECK_EVENT_ANY_SOURCE,
                               .aux = it->request};
    int32_t peer;
    uint32_t comm;
    if (it->type == DETECTOR_STATE_ITEM_PROBE) {
        peer = it->peer;
        comm = it->ref;
        request.func = w->func;
        request.tag = it->tag;
        request.callsite = w->callsite;
    } else {
        const p2p_match_op *o = &pm->ops[it->ref];
        peer = o->kind == P2P_MATCH_RECV && (o->flags & P2P_MATCH_F_DECIDED) ? o->dec_source
                                                                             : o->p.peer;
        comm = o->p.comm;
        request.func = o->p.func;
        request.tag = o->p.tag;
        request.callsite = o->p.callsite;
    }
    if (peer >= 0) {
        return wait_graph_add_arc(b->g, from, (uint32_t)peer);
    }
    request.comm = comm_table_id(&b->det->comms, comm);
    return wildcard(b, from, only, comm, &request);
}

static int emit_wait(builder *b, int32_t r)
{
    deadlock_detector *det = b->det;
    const detector_state_wait *w = &det->waits[det->ranks[r].wait];
    uint32_t pending = 0;
    for (uint32_t i = 0; i < w->n_items; i++) {
        if (!item_free(det, r, &w->items[i])) {
            pending++;
        } else if (w->any) {
            pending = 0;
            break;
        }
    }
    if (pending == 0) {
        b->g->nodes[r].state = WAIT_GRAPH_RUNNING;
        return MG_ERROR_OK;
    }
    int rc = MG_ERROR_OK;
    for (uint32_t i = 0; i < w->n_items && !rc; i++) {
        if (!item_free(det, r, &w->items[i])) {
            rc = emit_item(b, (uint32_t)r, pending == 1, &w->items[i]);
        }
    }
    return rc;
}

static void process_node(const deadlock_detector *det, int32_t r, wait_graph_node *n)
{
    const detector_state_rank *rs = &det->ranks[r];
    *n = (wait_graph_node){.type = WAIT_GRAPH_PROCESS,
                           .sem = WAIT_GRAPH_AND,
                           .state = WAIT_GRAPH_RUNNING,
                           .rank = r,
                           .func = rs->func,
                           .peer = CHECK_EVENT_PROC_NULL,
                           .tag = CHECK_EVENT_ANY_TAG,
                           .callsite = rs->callsite};
    if (rs->wait != DETECTOR_STATE_DL_NONE) {
        const detector_state_wait *w = &det->waits[rs->wait];
        n->func = w->func;
        n->peer = w->peer;
        n->tag = w->tag;
        n->comm = w->comm_id;
        n->callsite = w->callsite;
        n->sem = w->any ? WAIT_GRAPH_OR : WAIT_GRAPH_AND;
    }
    if (rs->life != DETECTOR_STATE_LIFE_LIVE) {
        n->state = WAIT_GRAPH_TERMINATED;
        if (rs->life != DETECTOR_STATE_LIFE_LOST) {
            n->func = rs->func;
            n->callsite = rs->callsite;
        }
    } else if (wait_state_blocked(det, r)) {
        n->state = WAIT_GRAPH_BLOCKED;
    }
}

int wfg_build(deadlock_detector *det, wait_graph *g)
{
    builder b = {det, g, {0}};
    wait_graph_init(g);
    key_map_init(&b.shared);
    int rc = MG_ERROR_OK;
    for (int32_t r = 0; r < det->world && !rc; r++) {
        wait_graph_node n;
        uint32_t id;
        process_node(det, r, &n);
        rc = wait_graph_add_node(g, &n, &id);
    }
    for (int32_t r = 0; r < det->world && !rc; r++) {
        if (g->nodes[r].state == WAIT_GRAPH_BLOCKED) {
            rc = emit_wait(&b, r);
        }
    }
    key_map_free(&b.shared);
    rc = rc ? rc : wait_graph_finish(g);
    if (rc) {
        wait_graph_free(g);
    }
    return rc;
}
