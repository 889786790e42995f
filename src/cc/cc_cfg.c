/* The interprocedural control-flow graph of the linked module (cc_cfg.h). Three passes: number
 * the nodes (blocks split at direct calls), add block, call and arm edges, then the return
 * edges, which need every function's `ret` nodes. */
#include "cc_cfg.h"

#include "cc_instrument.h"
#include "cc_ptr_map.h"
#include "coverage_set.h"
#include "mg_array.h"
#include "mg_error.h"

#include <stdlib.h>
#include <string.h>

typedef struct call_site {
    uint32_t callee; /* function index */
    uint32_t cont;   /* the node after the call */
} call_site;

typedef struct builder {
    cc_ptr_map map;     /* block (as a value) -> its first node; function -> function index */
    uint32_t *fn_first; /* function index -> first node (the entry block's), and one past the
                           last node at index + 1 */
    uint32_t nfns;
    uint8_t *is_ret; /* node ends with a ret */
    call_site *calls;
    size_t ncalls, calls_cap;
    cfg_graph *g;
} builder;

/* The function index of a direct call's callee when it is one of the program's own, else -1. */
static int32_t internal_callee(const builder *b, LLVMValueRef i)
{
    if (LLVMGetInstructionOpcode(i) != LLVMCall)
        return -1;
    LLVMValueRef f = LLVMGetCalledValue(i);
    if (!f || LLVMGetValueKind(f) != LLVMFunctionValueKind || !cc_instrument_eligible(f))
        return -1;
    return cc_ptr_map_get(&b->map, f);
}

static size_t count_keys(LLVMModuleRef mod, uint32_t *nfns)
{
    size_t n = 0;
    *nfns = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
        if (cc_instrument_eligible(fn)) {
            n += 1 + LLVMCountBasicBlocks(fn);
            ++*nfns;
        }
    return n;
}

/* Pass one: function indexes first (calls may go forward), then node numbers. */
static void number(builder *b, LLVMModuleRef mod, uint32_t *nnodes, uint32_t *nbranches)
{
    uint32_t k = 0, node = 0, ids = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
        if (cc_instrument_eligible(fn))
            cc_ptr_map_put(&b->map, fn, (int32_t)k++);
    k = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
        if (!cc_instrument_eligible(fn))
            continue;
        b->fn_first[k++] = node;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
             bb = LLVMGetNextBasicBlock(bb)) {
            cc_ptr_map_put(&b->map, LLVMBasicBlockAsValue(bb), (int32_t)node++);
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
                node += internal_callee(b, i) >= 0;
            ids += cc_instrument_branch_ids(LLVMGetBasicBlockTerminator(bb));
        }
    }
    b->fn_first[k] = node;
    *nnodes = node;
    *nbranches = ids;
}

static int32_t block_node(const builder *b, LLVMBasicBlockRef bb)
{
    return cc_ptr_map_get(&b->map, LLVMBasicBlockAsValue(bb));
}

static int add_call(builder *b, uint32_t callee, uint32_t cont)
{
    int rc = mg_array_reserve((void **)&b->calls, &b->calls_cap, b->ncalls + 1, sizeof *b->calls);
    if (rc != 0)
        return rc;
    b->calls[b->ncalls++] = (call_site){callee, cont};
    return 0;
}

/* The arms of the branch ids at terminator t, which ends node `at`; *id is the next id. */
static int add_arms(builder *b, LLVMValueRef t, uint32_t at, uint32_t *id)
{
    unsigned n = cc_instrument_branch_ids(t), nsucc = LLVMGetNumSuccessors(t);
    int rc = 0;
    for (unsigned k = 0; k < n && !rc; k++, ++*id) {
        /* a br: true is successor 0; a switch: case k is successor k + 1, 0 the default */
        unsigned taken = LLVMGetInstructionOpcode(t) == LLVMBr ? 0 : k + 1;
        rc = cfg_graph_set_branch(b->g, *id, at);
        for (unsigned s = 0; s < nsucc && !rc; s++) {
            rc = cfg_graph_add_target(b->g, coverage_arm(*id, s == taken),
                                      (uint32_t)block_node(b, LLVMGetSuccessor(t, s)));
        }
    }
    return rc;
}

/* Pass two: call edges inside each block, successor edges and arms at its end. */
static int block_edges(builder *b, LLVMBasicBlockRef bb, uint32_t *id)
{
    uint32_t cur = (uint32_t)block_node(b, bb);
    int rc = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !rc; i = LLVMGetNextInstruction(i)) {
        int32_t callee = internal_callee(b, i);
        if (callee < 0)
            continue;
        rc = cfg_graph_add_edge(b->g, cur, b->fn_first[callee]);
        if (!rc)
            rc = add_call(b, (uint32_t)callee, ++cur);
    }
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (!t || rc)
        return rc;
    b->is_ret[cur] = LLVMGetInstructionOpcode(t) == LLVMRet;
    for (unsigned s = 0; s < LLVMGetNumSuccessors(t) && !rc; s++)
        rc = cfg_graph_add_edge(b->g, cur, (uint32_t)block_node(b, LLVMGetSuccessor(t, s)));
    return rc ? rc : add_arms(b, t, cur, id);
}

/* Pass three: each call's continuation is reached from every ret of its callee. */
static int return_edges(builder *b)
{
    int rc = 0;
    for (size_t c = 0; c < b->ncalls && !rc; c++) {
        const call_site *cs = &b->calls[c];
        for (uint32_t n = b->fn_first[cs->callee]; n < b->fn_first[cs->callee + 1] && !rc; n++)
            if (b->is_ret[n])
                rc = cfg_graph_add_edge(b->g, n, cs->cont);
    }
    return rc;
}

static int build(builder *b, LLVMModuleRef mod)
{
    uint32_t id = 0;
    int rc = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn && !rc; fn = LLVMGetNextFunction(fn)) {
        if (!cc_instrument_eligible(fn))
            continue;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && !rc;
             bb = LLVMGetNextBasicBlock(bb))
            rc = block_edges(b, bb, &id);
    }
    if (!rc)
        rc = return_edges(b);
    return rc ? rc : cfg_graph_index(b->g);
}

int cc_cfg_build(LLVMModuleRef mod, uint64_t build_id, cfg_graph *out)
{
    builder b = {.g = out};
    memset(out, 0, sizeof *out);
    cc_ptr_map_reset(&b.map, count_keys(mod, &b.nfns));
    b.fn_first = malloc(((size_t)b.nfns + 1) * sizeof *b.fn_first);
    uint32_t nnodes = 0, nbranches = 0;
    int rc = b.fn_first ? 0 : MG_ERROR_ENOMEM;
    if (!rc) {
        number(&b, mod, &nnodes, &nbranches);
        b.is_ret = calloc((size_t)nnodes + 1, 1);
        rc = b.is_ret ? cfg_graph_create(out, build_id, nnodes, nbranches) : MG_ERROR_ENOMEM;
    }
    if (!rc)
        rc = build(&b, mod);
    if (rc)
        cfg_graph_free(out);
    cc_ptr_map_free(&b.map);
    free(b.fn_first);
    free(b.is_ret);
    free(b.calls);
    return rc;
}
