/* The symbolic state of the heavy executable: one frame of slots per active call, the symbolic
 * values of memory (by address), and the probes the instrumenter inserts (cc_instrument.c
 * documents what each one stands for). Expressions are linear over the marked variables: a
 * product of two symbolic values keeps the first and takes the second's concrete value, so a
 * check such as HPL's `P * Q > size` still binds P to the process count (with Q as it ran); any
 * other operation outside that (division, bit operations) or an int64 overflow concretises the
 * result, as COMPI does (docs/design/concolic.md "Runtime").
 * Float values have expressions with double coefficients, under the rules of docs/concolic.md
 * "Floating-point inputs" (dissertation §3.4). */
#include "rt_inputs.h"
#include "rt_internal.h"

#include "mg_array.h"
#include "mg_error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { OP_ADD = 0, OP_SUB, OP_MUL, OP_SHL, OP_XOR, OP_DIV, OP_OTHER };
#define MAX_ARGS 64
#define MEM_BUCKETS 65536u
/* Ranges wider than this are cleared by a scan of the whole table instead of per byte. */
#define MEM_BYTEWISE_LIMIT 4096u

typedef struct frame {
    int32_t n;
    rt_internal_val *slots; /* 2n: slots, then the pending values of phis */
} frame;

static frame *frames;
static size_t depth, frames_cap;
static rt_internal_val args[MAX_ARGS];
static int args_pending;
static size_t call_depth;
static rt_internal_val retval;
static int ret_ready;
static size_t ret_depth;

typedef struct mem_node {
    uintptr_t addr;
    unsigned size;
    rt_internal_val v;
    struct mem_node *next;
} mem_node;
static mem_node *mem[MEM_BUCKETS];
static size_t mem_count;

/* Frees v's contents and leaves RT_INTERNAL_NONE. */
static void rt_val_clear(rt_internal_val *v)
{
    if (v->kind == RT_INTERNAL_EXPR)
        sym_expr_free(&v->e);
    else if (v->kind == RT_INTERNAL_PRED)
        sym_expr_pred_free(&v->p);
    v->kind = RT_INTERNAL_NONE;
}

/* dst := deep copy of src (dst cleared first; a failed copy leaves RT_INTERNAL_NONE). */
static void rt_val_copy(rt_internal_val *dst, const rt_internal_val *src)
{
    if (dst == src)
        return;
    rt_val_clear(dst);
    if (src->kind == RT_INTERNAL_EXPR && sym_expr_copy(&dst->e, &src->e) == 0)
        dst->kind = RT_INTERNAL_EXPR;
    else if (src->kind == RT_INTERNAL_PRED && sym_expr_pred_copy(&dst->p, &src->p) == 0)
        dst->kind = RT_INTERNAL_PRED;
}

static rt_internal_val *slot(int32_t s)
{
    if (!depth || s < 0 || s >= 2 * frames[depth - 1].n)
        return NULL;
    return &frames[depth - 1].slots[s];
}

static void set_none(int32_t s)
{
    rt_internal_val *d = slot(s);
    if (d)
        rt_val_clear(d);
}

/* ---- memory ---- */

static size_t bucket(uintptr_t a)
{
    return (size_t)((a * 0x9E3779B97F4A7C15ull) >> 48) & (MEM_BUCKETS - 1);
}

static mem_node **find(uintptr_t a)
{
    mem_node **p = &mem[bucket(a)];
    while (*p && (*p)->addr != a)
        p = &(*p)->next;
    return p;
}

static void remove_node(mem_node **p)
{
    mem_node *n = *p;
    *p = n->next;
    rt_val_clear(&n->v);
    free(n);
    mem_count--;
}

/* Forgets every symbolic value overlapping [a, a + len). */
static void mem_clear(uintptr_t a, size_t len)
{
    if (!mem_count || !len)
        return;
    if (len > MEM_BYTEWISE_LIMIT) {
        for (size_t b = 0; b < MEM_BUCKETS; b++)
            for (mem_node **p = &mem[b]; *p;)
                if ((*p)->addr + (*p)->size > a && (*p)->addr < a + len)
                    remove_node(p);
                else
                    p = &(*p)->next;
        return;
    }
    for (uintptr_t x = a >= 7 ? a - 7 : 0; x < a + len; x++) {
        mem_node **p = find(x);
        if (*p && x + (*p)->size > a)
            remove_node(p);
    }
}

static void mem_put(uintptr_t a, unsigned size, const rt_internal_val *v)
{
    mem_clear(a, size);
    if (v->kind != RT_INTERNAL_EXPR)
        return;
    mem_node *n = calloc(1, sizeof *n);
    if (!n)
        return;
    n->addr = a;
    n->size = size;
    rt_val_copy(&n->v, v);
    mem_node **p = &mem[bucket(a)];
    n->next = *p;
    *p = n;
    mem_count++;
}

void rt_shadow_mark(const void *p, unsigned size, uint32_t var, int is_float)
{
    rt_internal_val v = {.kind = RT_INTERNAL_EXPR};
    if (is_float ? sym_expr_init_fvar(&v.e, var, 1) : sym_expr_init_var(&v.e, var, 1))
        return;
    mem_put((uintptr_t)p, size, &v);
    rt_val_clear(&v);
}

/* ---- probes: frames and calls ---- */

void mgrt_enter(int32_t n);
void mgrt_enter(int32_t n)
{
    /* Tested here first: the probe runs at every call, the stack seldom grows. */
    if (depth == frames_cap &&
        mg_array_reserve((void **)&frames, &frames_cap, depth + 1, sizeof *frames) != MG_ERROR_OK)
        abort(); /* the heavy run cannot go on without its shadow stack */
    frame *f = &frames[depth++];
    f->n = n;
    f->slots = calloc(2 * (size_t)n + 1, sizeof *f->slots);
    if (!f->slots)
        f->n = 0;
    if (args_pending && call_depth + 1 != depth)
        for (int k = 0; k < MAX_ARGS; k++)
            rt_val_clear(&args[k]);
    args_pending = args_pending && call_depth + 1 == depth;
}

void mgrt_param(int32_t index, int32_t s);
void mgrt_param(int32_t index, int32_t s)
{
    rt_internal_val *d = slot(s);
    if (!d || index < 0 || index >= MAX_ARGS)
        return;
    if (args_pending)
        rt_val_copy(d, &args[index]);
    else
        rt_val_clear(d);
}

void mgrt_call(int32_t unused);
void mgrt_call(int32_t unused)
{
    (void)unused;
    for (int k = 0; k < MAX_ARGS; k++)
        rt_val_clear(&args[k]);
    args_pending = 1;
    call_depth = depth;
}

void mgrt_arg(int32_t index, int32_t s);
void mgrt_arg(int32_t index, int32_t s)
{
    rt_internal_val *v = slot(s);
    if (v && index >= 0 && index < MAX_ARGS)
        rt_val_copy(&args[index], v);
}

void mgrt_ret(int32_t s);
void mgrt_ret(int32_t s)
{
    if (!depth)
        return;
    rt_internal_val *v = slot(s);
    rt_val_clear(&retval);
    if (v)
        rt_val_copy(&retval, v);
    frame *f = &frames[--depth];
    for (int32_t k = 0; k < 2 * f->n; k++)
        rt_val_clear(&f->slots[k]);
    free(f->slots);
    ret_ready = 1;
    ret_depth = depth;
}

void mgrt_result(int32_t s);
void mgrt_result(int32_t s)
{
    rt_internal_val *d = slot(s);
    if (d && ret_ready && ret_depth == depth)
        rt_val_copy(d, &retval);
    else if (d)
        rt_val_clear(d);
    ret_ready = 0;
    args_pending = 0;
}

/* ---- probes: values ---- */

void mgrt_clear(int32_t dst);
void mgrt_clear(int32_t dst)
{
    set_none(dst);
}

void mgrt_copy(int32_t dst, int32_t src);
void mgrt_copy(int32_t dst, int32_t src)
{
    rt_internal_val *d = slot(dst), *s = slot(src);
    if (!d)
        return;
    if (s)
        rt_val_copy(d, s);
    else
        rt_val_clear(d);
}

void mgrt_cast(int32_t dst, int32_t src);
void mgrt_cast(int32_t dst, int32_t src)
{
    mgrt_copy(dst, src);
}

void mgrt_phi_copy(int32_t dst, int32_t src);
void mgrt_phi_copy(int32_t dst, int32_t src)
{
    if (depth)
        mgrt_copy(dst + frames[depth - 1].n, src);
}

void mgrt_phi_commit(int32_t first, int32_t n);
void mgrt_phi_commit(int32_t first, int32_t n)
{
    for (int32_t k = 0; depth && k < n; k++) {
        rt_internal_val *d = slot(first + k), *p = slot(first + k + frames[depth - 1].n);
        if (!d || !p)
            continue;
        rt_val_clear(d);
        *d = *p; /* move */
        p->kind = RT_INTERNAL_NONE;
    }
}

/* The operand as an expression of kind num: its slot's expression of that kind, else the
 * concrete value (made by the caller). A comparison used as a number is concrete. */
static const sym_expr *operand_of(int32_t s, uint8_t num, const sym_expr *concrete, int *symbolic)
{
    rt_internal_val *v = slot(s);
    *symbolic = v && v->kind == RT_INTERNAL_EXPR && v->e.num == num;
    return *symbolic ? &v->e : concrete;
}

static const sym_expr *operand(int32_t s, int64_t c, sym_expr *tmp, int *symbolic)
{
    sym_expr_init_const(tmp, c);
    return operand_of(s, SYM_EXPR_NUM_I64, tmp, symbolic);
}

void mgrt_binop(int32_t dst, int32_t op, int32_t sa, int64_t ca, int32_t sb, int64_t cb);
void mgrt_binop(int32_t dst, int32_t op, int32_t sa, int64_t ca, int32_t sb, int64_t cb)
{
    rt_internal_val *d = slot(dst), *pa = slot(sa);
    if (!d)
        return;
    rt_val_clear(d);
    if (op == OP_XOR && pa && pa->kind == RT_INTERNAL_PRED && !slot(sb) && cb == 1) {
        if (sym_expr_pred_negate(&d->p, &pa->p) == 0)
            d->kind = RT_INTERNAL_PRED; /* `xor i1 %c, true`: the negated comparison */
        return;
    }
    sym_expr ta, tb;
    int syma, symb, rc = MG_ERROR_EINVAL;
    const sym_expr *a = operand(sa, ca, &ta, &syma), *b = operand(sb, cb, &tb, &symb);
    if (!syma && !symb)
        return;
    if (op == OP_ADD)
        rc = sym_expr_add(&d->e, a, b);
    else if (op == OP_SUB)
        rc = sym_expr_sub(&d->e, a, b);
    else if (op == OP_MUL)
        rc = syma ? sym_expr_scale(&d->e, a, cb) : sym_expr_scale(&d->e, b, ca);
    else if (op == OP_SHL && !symb && cb >= 0 && cb < 62)
        rc = sym_expr_scale(&d->e, a, (int64_t)1 << cb);
    if (rc == 0)
        d->kind = RT_INTERNAL_EXPR;
}

/* 1 when the signed operation wraps in `width` bits: its operands (sign-extended) give a result
 * outside [-2^(width-1), 2^(width-1)). A shift by width or more is an overflow too (C: undefined).
 */
static int signed_op_wraps(int32_t op, int64_t a, int64_t b, int32_t width)
{
    int64_t r = 0;
    int over;
    if (op == OP_ADD)
        over = __builtin_add_overflow(a, b, &r);
    else if (op == OP_SUB)
        over = __builtin_sub_overflow(a, b, &r);
    else if (op == OP_MUL)
        over = __builtin_mul_overflow(a, b, &r);
    else if (b < 0 || b >= width)
        return 1;
    else if (b == 63)
        return a != 0 && a != -1;
    else
        over = __builtin_mul_overflow(a, (int64_t)1 << b, &r);
    int64_t hi = width >= 64 ? INT64_MAX : (INT64_C(1) << (width - 1)) - 1;
    return over || r > hi || r < -hi - 1;
}

void mgrt_signed_op(int32_t op, int64_t a, int64_t b, int32_t width, const char *site);
void mgrt_signed_op(int32_t op, int64_t a, int64_t b, int32_t width, const char *site)
{
    if (signed_op_wraps(op, a, b, width))
        rt_log_outcome_overflow(site);
}

static unsigned pred_width(int32_t w)
{
    return w <= 8 ? 8 : w <= 16 ? 16 : w <= 32 ? 32 : 64;
}

void mgrt_cmp(int32_t dst, int32_t code, int32_t sa, int64_t ca, int32_t sb, int64_t cb,
              int32_t width);
void mgrt_cmp(int32_t dst, int32_t code, int32_t sa, int64_t ca, int32_t sb, int64_t cb,
              int32_t width)
{
    rt_internal_val *d = slot(dst), *pa = slot(sa);
    int op = code & 0xff, is_unsigned = code >> 8;
    if (!d)
        return;
    rt_val_clear(d);
    if (pa && pa->kind == RT_INTERNAL_PRED && !slot(sb) && cb == 0 &&
        (op == SYM_EXPR_EQ || op == SYM_EXPR_NE)) {
        /* (zext c) != 0 is c; (zext c) == 0 is !c: C's comparisons used as values. */
        int rc = op == SYM_EXPR_NE ? sym_expr_pred_copy(&d->p, &pa->p)
                                   : sym_expr_pred_negate(&d->p, &pa->p);
        if (rc == 0)
            d->kind = RT_INTERNAL_PRED;
        return;
    }
    if (is_unsigned && width < 64) {
        /* The probe sign-extends concrete operands; an unsigned comparison reads them as
         * width-bit unsigned values. */
        ca &= (int64_t)((1ull << width) - 1);
        cb &= (int64_t)((1ull << width) - 1);
    }
    sym_expr ta, tb;
    int syma, symb;
    const sym_expr *a = operand(sa, ca, &ta, &syma), *b = operand(sb, cb, &tb, &symb);
    if ((syma || symb) && sym_expr_pred_make(&d->p, a, op, b, pred_width(width), is_unsigned) == 0)
        d->kind = RT_INTERNAL_PRED;
}

/* is_float: the load reads a float or double; memory stored as the other kind (type punning)
 * reads as concrete. */
void mgrt_load(int32_t dst, const void *p, int32_t size, int32_t is_float);
void mgrt_load(int32_t dst, const void *p, int32_t size, int32_t is_float)
{
    rt_internal_val *d = slot(dst);
    if (!d)
        return;
    rt_val_clear(d);
    mem_node *n = mem_count ? *find((uintptr_t)p) : NULL;
    if (n && n->size == (unsigned)size && (n->v.e.num == SYM_EXPR_NUM_F64) == (is_float != 0))
        rt_val_copy(d, &n->v);
}

void mgrt_store(void *p, int32_t size, int32_t src);
void mgrt_store(void *p, int32_t size, int32_t src)
{
    rt_internal_val none = {0}, *v = slot(src);
    mem_put((uintptr_t)p, (unsigned)size, v ? v : &none);
}

void rt_shadow_forget(uintptr_t a, size_t len)
{
    mem_clear(a, len);
}

void mgrt_memset(void *p, int64_t n);
void mgrt_memset(void *p, int64_t n)
{
    mem_clear((uintptr_t)p, (size_t)n);
}

void mgrt_memcpy(void *dst, const void *src, int64_t n);
void mgrt_memcpy(void *dst, const void *src, int64_t n)
{
    uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    size_t len = (size_t)n;
    if (!mem_count || len > MEM_BYTEWISE_LIMIT) {
        mem_clear(d, len);
        return;
    }
    /* Collect first: source and destination may overlap (memmove). */
    mem_node *copies = NULL;
    for (size_t k = 0; k < len; k++) {
        mem_node *m = *find(s + k);
        mem_node *c = m && k + m->size <= len ? calloc(1, sizeof *c) : NULL;
        if (!c)
            continue;
        *c = (mem_node){.addr = d + k, .size = m->size, .next = copies};
        rt_val_copy(&c->v, &m->v);
        copies = c;
    }
    mem_clear(d, len);
    while (copies) {
        mem_node *c = copies;
        copies = c->next;
        mem_put(c->addr, c->size, &c->v);
        rt_val_clear(&c->v);
        free(c);
    }
}

/* ---- probes: branches ---- */

void mgrt_branch(int32_t id, int32_t s, int32_t taken);
void mgrt_branch(int32_t id, int32_t s, int32_t taken)
{
    rt_log_cover((uint32_t)id, taken);
    rt_internal_val *v = rt_log_heavy ? slot(s) : NULL;
    if (!v || v->kind == RT_INTERNAL_NONE)
        return;
    sym_expr_pred p;
    int rc;
    if (v->kind == RT_INTERNAL_PRED)
        rc = taken ? sym_expr_pred_copy(&p, &v->p) : sym_expr_pred_negate(&p, &v->p);
    else {
        sym_expr zero;
        sym_expr_init_const(&zero, 0);
        rc = sym_expr_pred_make(&p, &v->e, taken ? SYM_EXPR_NE : SYM_EXPR_EQ, &zero, 64, 0);
    }
    if (rc)
        return;
    rt_log_branch((uint32_t)id, taken, &p);
    sym_expr_pred_free(&p);
}

void mgrt_case(int32_t id, int32_t s, int64_t concrete, int64_t value, int32_t width);
void mgrt_case(int32_t id, int32_t s, int64_t concrete, int64_t value, int32_t width)
{
    int taken = concrete == value;
    rt_log_cover((uint32_t)id, taken);
    rt_internal_val *v = rt_log_heavy ? slot(s) : NULL;
    if (!v || v->kind != RT_INTERNAL_EXPR)
        return;
    sym_expr k;
    sym_expr_pred p;
    sym_expr_init_const(&k, value);
    if (sym_expr_pred_make(&p, &v->e, taken ? SYM_EXPR_EQ : SYM_EXPR_NE, &k, pred_width(width), 0))
        return;
    rt_log_branch((uint32_t)id, taken, &p);
    sym_expr_pred_free(&p);
}

/* ---- probes: floats (docs/concolic.md "Floating-point inputs") ---- */

static const sym_expr *foperand(int32_t s, double c, sym_expr *tmp, int *symbolic)
{
    sym_expr_init_fconst(tmp, c);
    return operand_of(s, SYM_EXPR_NUM_F64, tmp, symbolic);
}

/* fadd, fsub, fmul, fdiv with the operands' concrete values. A product of two symbolic values
 * keeps the first and takes the second's concrete value (§3.4); a quotient is linear only with
 * a concrete divisor, and is the dividend scaled by the divisor's reciprocal. */
void mgrt_fbinop(int32_t dst, int32_t op, int32_t sa, double ca, int32_t sb, double cb);
void mgrt_fbinop(int32_t dst, int32_t op, int32_t sa, double ca, int32_t sb, double cb)
{
    rt_internal_val *d = slot(dst);
    if (!d)
        return;
    rt_val_clear(d);
    sym_expr ta, tb;
    int syma, symb, rc = MG_ERROR_EINVAL;
    const sym_expr *a = foperand(sa, ca, &ta, &syma), *b = foperand(sb, cb, &tb, &symb);
    if (!syma && !symb)
        return;
    if (op == OP_ADD)
        rc = sym_expr_add(&d->e, a, b);
    else if (op == OP_SUB)
        rc = sym_expr_sub(&d->e, a, b);
    else if (op == OP_MUL)
        rc = syma ? sym_expr_fscale(&d->e, a, cb) : sym_expr_fscale(&d->e, b, ca);
    else if (op == OP_DIV && !symb && cb != 0)
        rc = sym_expr_fscale(&d->e, a, 1.0 / cb);
    if (rc == 0)
        d->kind = RT_INTERNAL_EXPR;
}

void mgrt_fneg(int32_t dst, int32_t src);
void mgrt_fneg(int32_t dst, int32_t src)
{
    rt_internal_val *d = slot(dst), *s = slot(src);
    if (!d)
        return;
    rt_val_clear(d);
    if (s && s->kind == RT_INTERNAL_EXPR && s->e.num == SYM_EXPR_NUM_F64 &&
        sym_expr_negate(&d->e, &s->e) == 0)
        d->kind = RT_INTERNAL_EXPR;
}

/* fcmp: code is the sym_expr_op of the predicate, ordered or not (they agree when no operand is
 * NaN), or -1 for ord, uno, true and false. A comparison with a NaN operand is concrete: no
 * real or finite double satisfies or refutes it. */
void mgrt_fcmp(int32_t dst, int32_t code, int32_t sa, double ca, int32_t sb, double cb);
void mgrt_fcmp(int32_t dst, int32_t code, int32_t sa, double ca, int32_t sb, double cb)
{
    rt_internal_val *d = slot(dst);
    if (!d)
        return;
    rt_val_clear(d);
    if (code < 0 || isnan(ca) || isnan(cb))
        return;
    sym_expr ta, tb;
    int syma, symb;
    const sym_expr *a = foperand(sa, ca, &ta, &syma), *b = foperand(sb, cb, &tb, &symb);
    if ((syma || symb) && sym_expr_pred_make(&d->p, a, code, b, 0, 0) == 0)
        d->kind = RT_INTERNAL_PRED;
}

/* sitofp, uitofp: the integer expression with its coefficients converted (§3.4). An unsigned
 * source whose concrete value has its top bit set is concrete: the expression reads it signed. */
void mgrt_itof(int32_t dst, int32_t src, int32_t is_unsigned, int64_t concrete, int32_t width);
void mgrt_itof(int32_t dst, int32_t src, int32_t is_unsigned, int64_t concrete, int32_t width)
{
    rt_internal_val *d = slot(dst), *s = slot(src);
    if (!d)
        return;
    rt_val_clear(d);
    int top_bit = width >= 64 ? concrete < 0 : (concrete >> (width - 1)) & 1;
    if (s && s->kind == RT_INTERNAL_EXPR && s->e.num == SYM_EXPR_NUM_I64 &&
        !(is_unsigned && top_bit) && rt_inputs_floats_tracked() &&
        sym_expr_to_f64(&d->e, &s->e) == 0)
        d->kind = RT_INTERNAL_EXPR;
}
