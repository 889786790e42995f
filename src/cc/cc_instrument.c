/* The concolic instrumenter on the LLVM-C API (docs/design/concolic.md "Instrumentation"; spec:
 * docs/design/concolic.md; traps: docs/design/platform-notes.md "LLVM-C 14 and Z3").
 *
 * Every integer, float and double SSA value of a function (arguments first, then instructions in
 * order) owns a numbered shadow slot in the runtime's frame; the probes tell the runtime how each
 * slot is computed from other slots, constants and memory, so it can keep a linear expression (or a
 * comparison) per slot. Pointers stay concrete: a GEP needs no probe. Phis are resolved in two
 * phases (copies into pending slots at the end of each predecessor, a commit at the block's
 * start) so swaps between phis of one block read the old values. */
#include "cc_instrument.h"

#include "cc_mpi_write.h"
#include "cc_ptr_map.h"

#include "mg_error.h"
#include "rt_mpi_write.h"
#include "sym_expr.h"

#include <llvm-c/Target.h>
#include <stdlib.h>
#include <string.h>

/* Binary operator codes shared with the runtime (src/concolic_rt/rt_probes.h). */
enum { OP_ADD = 0, OP_SUB, OP_MUL, OP_SHL, OP_XOR, OP_DIV, OP_OTHER };

typedef struct ctx {
    LLVMModuleRef mod;
    LLVMContextRef c;
    LLVMBuilderRef b;
    LLVMTargetDataRef td;
    int mode;
    uint64_t build_id;
    uint32_t next_id;
    LLVMTypeRef i1, i32, i64, dbl, ptr, vd;
    cc_ptr_map sm; /* value -> shadow slot of the function being instrumented */
    int32_t nslots;
} ctx;

/* An integer type the runtime can shadow: i1..i64. */
static int int_type(LLVMTypeRef t)
{
    return LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) <= 64;
}

static int is_int(LLVMValueRef v)
{
    return int_type(LLVMTypeOf(v));
}

static int is_float(LLVMValueRef v)
{
    LLVMTypeKind k = LLVMGetTypeKind(LLVMTypeOf(v));
    return k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind;
}

/* A value the runtime shadows: an integer, a float or a double. */
static int shadowed(LLVMValueRef v)
{
    return is_int(v) || is_float(v);
}

static size_t count_values(LLVMValueRef fn)
{
    size_t n = LLVMCountParams(fn);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            n++;
    return n;
}

/* Numbers the shadowed arguments and instructions of fn. Exits on allocation failure (in
 * cc_ptr_map_reset): the compiler driver cannot continue without memory. */
static void number_slots(ctx *x, LLVMValueRef fn)
{
    cc_ptr_map_reset(&x->sm, count_values(fn));
    x->nslots = 0;
    for (LLVMValueRef a = LLVMGetFirstParam(fn); a; a = LLVMGetNextParam(a))
        if (shadowed(a))
            cc_ptr_map_put(&x->sm, a, x->nslots++);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (shadowed(i))
                cc_ptr_map_put(&x->sm, i, x->nslots++);
}

static LLVMValueRef c32(ctx *x, long long v)
{
    return LLVMConstInt(x->i32, (unsigned long long)v, 1);
}

static LLVMValueRef c64(ctx *x, long long v)
{
    return LLVMConstInt(x->i64, (unsigned long long)v, 1);
}

static LLVMValueRef slot_value(ctx *x, LLVMValueRef v)
{
    return c32(x, cc_ptr_map_get(&x->sm, v));
}

/* The concrete value of an integer operand as i64 (i1 zero-extended, others sign-extended). */
static LLVMValueRef as_i64(ctx *x, LLVMValueRef v)
{
    unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(v));
    if (w == 64)
        return v;
    return w == 1 ? LLVMBuildZExt(x->b, v, x->i64, "") : LLVMBuildSExt(x->b, v, x->i64, "");
}

/* The concrete value of a float or double operand as a double. */
static LLVMValueRef as_f64(ctx *x, LLVMValueRef v)
{
    return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMDoubleTypeKind
               ? v
               : LLVMBuildFPExt(x->b, v, x->dbl, "");
}

static LLVMValueRef as_ptr(ctx *x, LLVMValueRef p)
{
    return LLVMBuildPointerCast(x->b, p, x->ptr, "");
}

/* Calls the runtime probe `name` (declared on first use with the given parameter types, void
 * result). */
static void probe(ctx *x, const char *name, LLVMTypeRef *params, LLVMValueRef *args, unsigned n)
{
    LLVMTypeRef fty = LLVMFunctionType(x->vd, params, n, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(x->mod, name);
    if (!fn)
        fn = LLVMAddFunction(x->mod, name, fty);
    LLVMBuildCall2(x->b, fty, fn, args, n, "");
}

#define PROBE(x, name, ...)                                                                        \
    do {                                                                                           \
        LLVMValueRef args_[] = {__VA_ARGS__};                                                      \
        LLVMTypeRef types_[sizeof args_ / sizeof *args_];                                          \
        for (size_t k_ = 0; k_ < sizeof args_ / sizeof *args_; k_++)                               \
            types_[k_] = LLVMTypeOf(args_[k_]);                                                    \
        probe((x), (name), types_, args_, (unsigned)(sizeof args_ / sizeof *args_));               \
    } while (0)

static LLVMValueRef first_non_phi(LLVMBasicBlockRef bb)
{
    LLVMValueRef i = LLVMGetFirstInstruction(bb);
    while (i && LLVMGetInstructionOpcode(i) == LLVMPHI)
        i = LLVMGetNextInstruction(i);
    return i;
}

static void before(ctx *x, LLVMValueRef i)
{
    LLVMPositionBuilderBefore(x->b, i);
}

/* Positions after i (after the block's phis when i is a phi). */
static void after(ctx *x, LLVMValueRef i)
{
    if (LLVMGetInstructionOpcode(i) == LLVMPHI)
        LLVMPositionBuilderBefore(x->b, first_non_phi(LLVMGetInstructionParent(i)));
    else
        LLVMPositionBuilderBefore(x->b, LLVMGetNextInstruction(i));
}

static const char *callee_name(LLVMValueRef call)
{
    LLVMValueRef f = LLVMGetCalledValue(call);
    if (!f || LLVMGetValueKind(f) != LLVMFunctionValueKind)
        return "";
    size_t len;
    return LLVMGetValueName2(f, &len);
}

static int is_runtime_name(const char *n)
{
    return !strncmp(n, "mgrt_", 5) || !strncmp(n, "mpiguard_", 9);
}

int cc_instrument_eligible(LLVMValueRef fn)
{
    size_t len;
    return !LLVMIsDeclaration(fn) && !is_runtime_name(LLVMGetValueName2(fn, &len));
}

/* ---- branch numbering and the branch table ---- */

static unsigned switch_cases(LLVMValueRef sw)
{
    return ((unsigned)LLVMGetNumOperands(sw) - 2) / 2;
}

static int is_cond_br(LLVMValueRef t)
{
    return LLVMGetInstructionOpcode(t) == LLVMBr && LLVMIsConditional(t);
}

unsigned cc_instrument_branch_ids(LLVMValueRef t)
{
    if (!t)
        return 0;
    if (is_cond_br(t))
        return 1;
    return LLVMGetInstructionOpcode(t) == LLVMSwitch ? switch_cases(t) : 0;
}

/* The instruction's place as "file:line", the way the crash reports (addr2line) name it. */
static void source_site(LLVMValueRef at, char *out, size_t len)
{
    unsigned flen = 0, dlen = 0;
    const char *file = LLVMGetDebugLocFilename(at, &flen);
    /* Debug info may name the file relative to its directory ("/tmp" + "src/a.c"): join them. */
    const char *dir = file && flen && file[0] != '/' ? LLVMGetDebugLocDirectory(at, &dlen) : NULL;
    snprintf(out, len, "%.*s%s%.*s:%u", dir ? (int)dlen : 0, dir ? dir : "", dir && dlen ? "/" : "",
             file ? (int)flen : 1, file ? file : "?", LLVMGetDebugLocLine(at));
}

static void table_row(FILE *out, uint32_t id, LLVMValueRef fn, LLVMValueRef at, const char *kind,
                      long long value)
{
    size_t len;
    char site[4200];
    source_site(at, site, sizeof site);
    fprintf(out, "%u\t%s\t%s\t", id, LLVMGetValueName2(fn, &len), site);
    if (!strcmp(kind, "case"))
        fprintf(out, "case=%lld\n", value);
    else
        fprintf(out, "%s\n", kind);
}

void cc_instrument_branch_table_write(LLVMModuleRef mod, uint64_t build_id, FILE *out,
                                      uint32_t *nbranches)
{
    uint32_t id = 0;
    fprintf(out, "# mpiguard-branches 1 build_id=%016llx\n# id\tfunction\tfile:line\tarm\n",
            (unsigned long long)build_id);
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
        if (!cc_instrument_eligible(fn))
            continue;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
             bb = LLVMGetNextBasicBlock(bb)) {
            LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
            if (t && is_cond_br(t))
                table_row(out, id++, fn, t, "if", 0);
            else if (t && LLVMGetInstructionOpcode(t) == LLVMSwitch)
                for (unsigned k = 0; k < switch_cases(t); k++)
                    table_row(out, id++, fn, t, "case",
                              LLVMConstIntGetSExtValue(LLVMGetOperand(t, 2 + 2 * k)));
        }
    }
    *nbranches = id;
}

/* ---- probes ---- */

static void probe_terminator(ctx *x, LLVMValueRef t)
{
    if (is_cond_br(t)) {
        LLVMValueRef cond = LLVMGetCondition(t);
        before(x, t);
        PROBE(x, "mgrt_branch", c32(x, x->next_id++), slot_value(x, cond),
              LLVMBuildZExt(x->b, cond, x->i32, ""));
    } else if (LLVMGetInstructionOpcode(t) == LLVMSwitch) {
        LLVMValueRef cond = LLVMGetOperand(t, 0);
        before(x, t);
        if (!is_int(cond)) {
            x->next_id += switch_cases(t);
            return;
        }
        LLVMValueRef conc = as_i64(x, cond);
        for (unsigned k = 0; k < switch_cases(t); k++)
            PROBE(x, "mgrt_case", c32(x, x->next_id++), slot_value(x, cond), conc,
                  c64(x, LLVMConstIntGetSExtValue(LLVMGetOperand(t, 2 + 2 * k))),
                  c32(x, LLVMGetIntTypeWidth(LLVMTypeOf(cond))));
    }
}

static int binop_code(LLVMOpcode op)
{
    switch (op) {
    case LLVMAdd:
        return OP_ADD;
    case LLVMSub:
        return OP_SUB;
    case LLVMMul:
        return OP_MUL;
    case LLVMShl:
        return OP_SHL;
    case LLVMXor:
        return OP_XOR;
    default:
        return OP_OTHER;
    }
}

static int is_binop(LLVMOpcode op)
{
    return op >= LLVMAdd && op <= LLVMXor;
}

/* fcmp predicate -> sym_expr_op for mgrt_fcmp, ordered and unordered alike; -1 for ord, uno, true
 * and false, which compare nothing a linear constraint can say. */
static int fcmp_code(LLVMRealPredicate p)
{
    switch (p) {
    case LLVMRealOEQ:
    case LLVMRealUEQ:
        return SYM_EXPR_EQ;
    case LLVMRealONE:
    case LLVMRealUNE:
        return SYM_EXPR_NE;
    case LLVMRealOLT:
    case LLVMRealULT:
        return SYM_EXPR_LT;
    case LLVMRealOLE:
    case LLVMRealULE:
        return SYM_EXPR_LE;
    case LLVMRealOGT:
    case LLVMRealUGT:
        return SYM_EXPR_GT;
    case LLVMRealOGE:
    case LLVMRealUGE:
        return SYM_EXPR_GE;
    default:
        return -1;
    }
}

static int fbinop_code(LLVMOpcode op)
{
    switch (op) {
    case LLVMFAdd:
        return OP_ADD;
    case LLVMFSub:
        return OP_SUB;
    case LLVMFMul:
        return OP_MUL;
    case LLVMFDiv:
        return OP_DIV;
    default:
        return OP_OTHER;
    }
}

/* icmp predicate -> (sym_expr_op, unsigned) packed as op | unsigned << 8 for mgrt_cmp. */
static int cmp_code(LLVMIntPredicate p)
{
    switch (p) {
    case LLVMIntEQ:
        return 0;
    case LLVMIntNE:
        return 1;
    case LLVMIntSLT:
        return 2;
    case LLVMIntSLE:
        return 3;
    case LLVMIntSGT:
        return 4;
    case LLVMIntSGE:
        return 5;
    case LLVMIntULT:
        return 2 | 256;
    case LLVMIntULE:
        return 3 | 256;
    case LLVMIntUGT:
        return 4 | 256;
    default:
        return 5 | 256; /* LLVMIntUGE */
    }
}

static LLVMValueRef runtime_fn(ctx *x, const char *name, LLVMTypeRef fty)
{
    LLVMValueRef fn = LLVMGetNamedFunction(x->mod, name);
    return fn ? fn : LLVMAddFunction(x->mod, name, fty);
}

/* MPI_Comm_rank/size, MPI_Abort and MPI_Finalize go to the runtime, which calls the real
 * function (so the interposition library and the MPI see the same call) and marks or records
 * around it. */
static void redirect_mpi(ctx *x, LLVMValueRef call)
{
    static const char *const names[][2] = {{"MPI_Comm_rank", "mgrt_MPI_Comm_rank"},
                                           {"MPI_Comm_size", "mgrt_MPI_Comm_size"},
                                           {"MPI_Abort", "mgrt_MPI_Abort"},
                                           {"MPI_Finalize", "mgrt_MPI_Finalize"}};
    const char *n = callee_name(call);
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (!strcmp(n, names[k][0])) {
            LLVMValueRef orig = LLVMGetCalledValue(call);
            LLVMValueRef repl = runtime_fn(x, names[k][1], LLVMGlobalGetValueType(orig));
            LLVMSetOperand(call, (unsigned)LLVMGetNumOperands(call) - 1, repl);
        }
}

static void probe_memintrinsic(ctx *x, LLVMValueRef call, const char *n)
{
    before(x, call);
    LLVMValueRef len = LLVMGetOperand(call, 2);
    LLVMValueRef len64 = LLVMGetIntTypeWidth(LLVMTypeOf(len)) == 64
                             ? len
                             : LLVMBuildZExt(x->b, len, x->i64, "");
    if (!strncmp(n, "llvm.memset", 11))
        PROBE(x, "mgrt_memset", as_ptr(x, LLVMGetOperand(call, 0)), len64);
    else
        PROBE(x, "mgrt_memcpy", as_ptr(x, LLVMGetOperand(call, 0)),
              as_ptr(x, LLVMGetOperand(call, 1)), len64);
}

/* Argument k of call as the i8* (NULL when k < 0) or the i64 (0 when k < 0) mgrt_mpi_wrote
 * takes. A handle is a pointer in Open MPI and an int in MPICH: either becomes an i64. */
static LLVMValueRef mpi_arg_ptr(ctx *x, LLVMValueRef call, int k)
{
    return k < 0 ? LLVMConstNull(x->ptr) : as_ptr(x, LLVMGetOperand(call, (unsigned)k));
}

static LLVMValueRef mpi_arg_i64(ctx *x, LLVMValueRef call, int k)
{
    if (k < 0)
        return c64(x, 0);
    LLVMValueRef v = LLVMGetOperand(call, (unsigned)k);
    return is_int(v) ? as_i64(x, v) : LLVMBuildPtrToInt(x->b, v, x->i64, "");
}

/* 1 when argument k is absent (k < 0) or of the kind the probe converts: a pointer, or (when
 * int_ok) an integer of at most 64 bits. A call through a mismatched declaration gets no probe. */
static int mpi_arg_fits(LLVMValueRef call, int k, int int_ok)
{
    if (k < 0)
        return 1;
    if ((unsigned)k >= LLVMGetNumArgOperands(call))
        return 0;
    LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(call, (unsigned)k));
    return LLVMGetTypeKind(t) == LLVMPointerTypeKind || (int_ok && int_type(t));
}

/* After an MPI call that writes a user buffer (cc_mpi_write.c's table), tells the runtime where,
 * with the call's own arguments, so the bytes written lose the symbolic values the program
 * stored there before (docs/design/concolic.md "Memory MPI writes"). */
static void probe_mpi_write(ctx *x, LLVMValueRef call, const char *n)
{
    const cc_mpi_write *w = cc_mpi_write_find(n);
    int count_is_array = w && (w->shape == RT_MPI_WRITE_MY_COUNT || w->shape == RT_MPI_WRITE_V);
    if (!w || !mpi_arg_fits(call, w->buf, 0) || !mpi_arg_fits(call, w->sendbuf, 0) ||
        !mpi_arg_fits(call, w->count, !count_is_array) || !mpi_arg_fits(call, w->displs, 0) ||
        !mpi_arg_fits(call, w->type, 1) || !mpi_arg_fits(call, w->comm, 1) ||
        !mpi_arg_fits(call, w->root, 1))
        return;
    after(x, call);
    PROBE(x, "mgrt_mpi_wrote", c32(x, w->who), c32(x, w->shape), mpi_arg_ptr(x, call, w->buf),
          mpi_arg_ptr(x, call, w->sendbuf), mpi_arg_i64(x, call, count_is_array ? -1 : w->count),
          mpi_arg_ptr(x, call, count_is_array ? w->count : -1), mpi_arg_ptr(x, call, w->displs),
          mpi_arg_i64(x, call, w->type), mpi_arg_i64(x, call, w->comm),
          mpi_arg_i64(x, call, w->root));
}

static void probe_call(ctx *x, LLVMValueRef call)
{
    const char *n = callee_name(call);
    if (!strncmp(n, "llvm.memcpy", 11) || !strncmp(n, "llvm.memmove", 12) ||
        !strncmp(n, "llvm.memset", 11)) {
        probe_memintrinsic(x, call, n);
        return;
    }
    if (!strncmp(n, "llvm.", 5) || is_runtime_name(n)) {
        if (shadowed(call)) {
            after(x, call);
            PROBE(x, "mgrt_clear", slot_value(x, call));
        }
        return;
    }
    before(x, call);
    PROBE(x, "mgrt_call", c32(x, 0));
    unsigned nargs = (unsigned)LLVMGetNumArgOperands(call);
    for (unsigned k = 0; k < nargs; k++) {
        LLVMValueRef a = LLVMGetOperand(call, k);
        if (shadowed(a) && cc_ptr_map_get(&x->sm, a) >= 0)
            PROBE(x, "mgrt_arg", c32(x, k), slot_value(x, a));
    }
    if (shadowed(call)) {
        after(x, call);
        PROBE(x, "mgrt_result", slot_value(x, call));
    }
    probe_mpi_write(x, call, n);
}

/* C's signed arithmetic: an add, sub, mul or shl with the nsw flag, whose wrapping is an overflow
 * (undefined behaviour). LLVM-C 14 cannot read the flag (LLVMGetNSW came in LLVM 17), so it is
 * read from the instruction's text: "%r = add nuw nsw i32 ...". The text is a detached copy's:
 * printing an instruction in a module, or one whose operands or debug location are in one,
 * numbers the whole module first (minutes for 18,000 additions); a copy outside any function,
 * with undef operands and no location, prints at once. The C API erases only an instruction in a
 * block, so the copy goes in at the builder's position to be erased. */
static int signed_wrap_op(ctx *x, LLVMValueRef i, LLVMOpcode op)
{
    if (op != LLVMAdd && op != LLVMSub && op != LLVMMul && op != LLVMShl)
        return 0;
    LLVMValueRef copy = LLVMInstructionClone(i);
    for (unsigned k = 0; k < 2; k++)
        LLVMSetOperand(copy, k, LLVMGetUndef(LLVMTypeOf(LLVMGetOperand(i, k))));
    LLVMSetMetadata(copy, LLVMGetMDKindIDInContext(x->c, "dbg", 3), NULL);
    char *text = LLVMPrintValueToString(copy);
    LLVMInsertIntoBuilder(x->b, copy);
    LLVMInstructionEraseFromParent(copy);
    const char *p = strstr(text, " = ");
    int nsw = 0;
    if (p) {
        p += 3;
        p += strcspn(p, " "); /* the opcode */
        while (!nsw && (!strncmp(p, " nuw ", 5) || !strncmp(p, " nsw ", 5))) {
            nsw = !strncmp(p, " nsw ", 5);
            p += 4;
        }
    }
    LLVMDisposeMessage(text);
    return nsw;
}

/* After a signed operation, the runtime checks its concrete operands for an overflow and names
 * the operation's file:line when there is one (the `overflow` outcome). */
static void probe_signed_op(ctx *x, LLVMValueRef i, LLVMOpcode op, LLVMValueRef a, LLVMValueRef b)
{
    char site[4200];
    source_site(i, site, sizeof site);
    PROBE(x, "mgrt_signed_op", c32(x, binop_code(op)), as_i64(x, a), as_i64(x, b),
          c32(x, LLVMGetIntTypeWidth(LLVMTypeOf(i))), LLVMBuildGlobalStringPtr(x->b, site, ""));
}

/* The float instructions (docs/concolic.md "Floating-point inputs"); 0 when i is none of them.
 * fptosi and fptoui are not here: their integer results are concrete (§3.4). */
static int probe_float(ctx *x, LLVMValueRef i, LLVMOpcode op, LLVMValueRef dst)
{
    LLVMValueRef a = LLVMGetNumOperands(i) ? LLVMGetOperand(i, 0) : NULL;
    if (fbinop_code(op) != OP_OTHER && is_float(i)) {
        LLVMValueRef b = LLVMGetOperand(i, 1);
        after(x, i);
        PROBE(x, "mgrt_fbinop", dst, c32(x, fbinop_code(op)), slot_value(x, a), as_f64(x, a),
              slot_value(x, b), as_f64(x, b));
    } else if (op == LLVMFNeg && is_float(i)) {
        after(x, i);
        PROBE(x, "mgrt_fneg", dst, slot_value(x, a));
    } else if (op == LLVMFCmp && is_float(a)) {
        LLVMValueRef b = LLVMGetOperand(i, 1);
        after(x, i);
        PROBE(x, "mgrt_fcmp", dst, c32(x, fcmp_code(LLVMGetFCmpPredicate(i))), slot_value(x, a),
              as_f64(x, a), slot_value(x, b), as_f64(x, b));
    } else if ((op == LLVMSIToFP || op == LLVMUIToFP) && is_int(a) && is_float(i)) {
        after(x, i);
        PROBE(x, "mgrt_itof", dst, slot_value(x, a), c32(x, op == LLVMUIToFP), as_i64(x, a),
              c32(x, LLVMGetIntTypeWidth(LLVMTypeOf(a))));
    } else if ((op == LLVMFPExt || op == LLVMFPTrunc) && is_float(a) && is_float(i)) {
        after(x, i);
        PROBE(x, "mgrt_cast", dst, slot_value(x, a));
    } else
        return 0;
    return 1;
}

static void probe_value(ctx *x, LLVMValueRef i)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    LLVMValueRef dst = slot_value(x, i);
    if (probe_float(x, i, op, dst))
        return;
    if (is_binop(op) && is_int(i)) {
        LLVMValueRef a = LLVMGetOperand(i, 0), b = LLVMGetOperand(i, 1);
        after(x, i);
        PROBE(x, "mgrt_binop", dst, c32(x, binop_code(op)), slot_value(x, a), as_i64(x, a),
              slot_value(x, b), as_i64(x, b));
        if (signed_wrap_op(x, i, op))
            probe_signed_op(x, i, op, a, b);
    } else if (op == LLVMICmp && is_int(LLVMGetOperand(i, 0))) {
        LLVMValueRef a = LLVMGetOperand(i, 0), b = LLVMGetOperand(i, 1);
        after(x, i);
        PROBE(x, "mgrt_cmp", dst, c32(x, cmp_code(LLVMGetICmpPredicate(i))), slot_value(x, a),
              as_i64(x, a), slot_value(x, b), as_i64(x, b),
              c32(x, LLVMGetIntTypeWidth(LLVMTypeOf(a))));
    } else if ((op == LLVMSExt || op == LLVMZExt || op == LLVMTrunc) &&
               is_int(LLVMGetOperand(i, 0))) {
        after(x, i);
        PROBE(x, "mgrt_cast", dst, slot_value(x, LLVMGetOperand(i, 0)));
    } else if (op == LLVMLoad) {
        after(x, i);
        PROBE(x, "mgrt_load", dst, as_ptr(x, LLVMGetOperand(i, 0)),
              c32(x, (long long)LLVMStoreSizeOfType(x->td, LLVMTypeOf(i))), c32(x, is_float(i)));
    } else if (op == LLVMSelect) {
        LLVMValueRef t = LLVMGetOperand(i, 1), f = LLVMGetOperand(i, 2);
        after(x, i);
        PROBE(x, "mgrt_copy", dst,
              LLVMBuildSelect(x->b, LLVMGetOperand(i, 0), slot_value(x, t), slot_value(x, f), ""));
    } else if (op != LLVMCall && op != LLVMPHI) {
        after(x, i);
        PROBE(x, "mgrt_clear", dst);
    }
}

static void probe_store(ctx *x, LLVMValueRef i)
{
    LLVMValueRef v = LLVMGetOperand(i, 0);
    before(x, i);
    PROBE(x, "mgrt_store", as_ptr(x, LLVMGetOperand(i, 1)),
          c32(x, (long long)LLVMStoreSizeOfType(x->td, LLVMTypeOf(v))),
          c32(x, shadowed(v) ? cc_ptr_map_get(&x->sm, v) : -1));
}

/* Phase one of phis: at the end of each predecessor, copy the incoming slot to the phi's
 * pending slot (slot + nslots). Phase two: mgrt_phi_commit at the phi block's start. */
static void probe_phis(ctx *x, LLVMBasicBlockRef bb)
{
    int first = -1, n = 0;
    for (LLVMValueRef p = LLVMGetFirstInstruction(bb); p && LLVMGetInstructionOpcode(p) == LLVMPHI;
         p = LLVMGetNextInstruction(p)) {
        if (!shadowed(p))
            continue;
        int s = cc_ptr_map_get(&x->sm, p);
        if (first < 0)
            first = s;
        n = s - first + 1;
        for (unsigned k = 0; k < LLVMCountIncoming(p); k++) {
            before(x, LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(p, k)));
            PROBE(x, "mgrt_phi_copy", c32(x, s), slot_value(x, LLVMGetIncomingValue(p, k)));
        }
    }
    if (first < 0)
        return;
    LLVMPositionBuilderBefore(x->b, first_non_phi(bb));
    PROBE(x, "mgrt_phi_commit", c32(x, first), c32(x, n));
}

/* Collects fn's instructions first: probing inserts new ones. */
static LLVMValueRef *collect(LLVMValueRef fn, size_t *n)
{
    size_t cap = count_values(fn) + 1, k = 0;
    LLVMValueRef *v = malloc(cap * sizeof *v);
    if (!v)
        abort();
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            v[k++] = i;
    *n = k;
    return v;
}

static void probe_entry(ctx *x, LLVMValueRef fn)
{
    size_t len;
    LLVMPositionBuilderBefore(x->b, first_non_phi(LLVMGetEntryBasicBlock(fn)));
    if (!strcmp(LLVMGetValueName2(fn, &len), "main"))
        PROBE(x, "mgrt_init", c32(x, x->mode == CC_INSTRUMENT_HEAVY),
              c64(x, (long long)x->build_id));
    if (x->mode != CC_INSTRUMENT_HEAVY)
        return;
    PROBE(x, "mgrt_enter", c32(x, x->nslots));
    unsigned k = 0;
    for (LLVMValueRef a = LLVMGetFirstParam(fn); a; a = LLVMGetNextParam(a), k++)
        if (shadowed(a))
            PROBE(x, "mgrt_param", c32(x, k), slot_value(x, a));
}

static void probe_heavy(ctx *x, LLVMValueRef i)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    if (op == LLVMCall)
        probe_call(x, i);
    else if (op == LLVMStore)
        probe_store(x, i);
    else if (op == LLVMRet) {
        LLVMValueRef v = LLVMGetNumOperands(i) ? LLVMGetOperand(i, 0) : NULL;
        before(x, i);
        PROBE(x, "mgrt_ret", c32(x, v && shadowed(v) ? cc_ptr_map_get(&x->sm, v) : -1));
    }
    if (shadowed(i) && op != LLVMCall)
        probe_value(x, i);
}

static void instrument_function(ctx *x, LLVMValueRef fn)
{
    number_slots(x, fn);
    size_t n;
    LLVMValueRef *ins = collect(fn, &n);
    if (x->mode == CC_INSTRUMENT_HEAVY) {
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            probe_phis(x, bb);
        for (size_t k = 0; k < n; k++)
            probe_heavy(x, ins[k]);
    }
    for (size_t k = 0; k < n; k++) {
        if (LLVMGetInstructionOpcode(ins[k]) == LLVMCall)
            redirect_mpi(x, ins[k]);
        if (LLVMIsATerminatorInst(ins[k]))
            probe_terminator(x, ins[k]);
    }
    probe_entry(x, fn);
    free(ins);
}

int cc_instrument(LLVMModuleRef mod, int mode, uint64_t build_id)
{
    if (!LLVMGetNamedFunction(mod, "main") || LLVMIsDeclaration(LLVMGetNamedFunction(mod, "main")))
        return MG_ERROR_EINVAL;
    ctx x = {.mod = mod, .c = LLVMGetModuleContext(mod), .mode = mode, .build_id = build_id};
    x.b = LLVMCreateBuilderInContext(x.c);
    x.td = LLVMGetModuleDataLayout(mod);
    x.i1 = LLVMInt1TypeInContext(x.c);
    x.i32 = LLVMInt32TypeInContext(x.c);
    x.i64 = LLVMInt64TypeInContext(x.c);
    x.dbl = LLVMDoubleTypeInContext(x.c);
    x.ptr = LLVMPointerType(LLVMInt8TypeInContext(x.c), 0);
    x.vd = LLVMVoidTypeInContext(x.c);
    /* Functions added while instrumenting (the probes) are declarations and are skipped. */
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
        if (cc_instrument_eligible(fn))
            instrument_function(&x, fn);
    cc_ptr_map_free(&x.sm);
    LLVMDisposeBuilder(x.b);
    return 0;
}
