/* The calls a procedure's bytes make, read whatever this machine is (call_decode.h): x86-64's
 * direct (e8) and slot (ff 15) calls, aarch64's BL and -fno-plt's ADRP, LDR, BLR; each call's
 * place among the procedure's calls going where it goes, counted from its return address. */
#include "call_decode.h"
#include "mg_test.h"

#include <elf.h>

enum { X86_BASE = 0x1000, A64_BASE = 0x400ff8 };

/* Two calls of 0x1100 with a mov between them, a call of 0x1012, one through the slot at 0x2010
 * (ff 15), a ret, and a call backwards to 0xffe. */
static const unsigned char x86[] = {
    0xe8, 0xfb, 0x00, 0x00, 0x00,       /* 0: call 0x1100 */
    0x48, 0x89, 0xc7,                   /* 5: mov %rax, %rdi */
    0xe8, 0xf3, 0x00, 0x00, 0x00,       /* 8: call 0x1100 */
    0xe8, 0x00, 0x00, 0x00, 0x00,       /* 13: call 0x1012 */
    0xff, 0x15, 0xf8, 0x0f, 0x00, 0x00, /* 18: call *0xff8(%rip), the slot 0x2010 */
    0xc3,                               /* 24: ret */
    0xe8, 0xe0, 0xff, 0xff, 0xff,       /* 25: call 0xffe */
};

/* Little-endian words: BL base + 0x100, mov x0, x19, BL base + 0x100, BL base - 4, then adrp
 * x16 (the next page), ldr x17, [x16, #0x18], blr x17 (-fno-plt: the slot 0x402018), blr x17
 * alone, blr x18 after a load of x17, and ret. */
static const unsigned char a64[] = {
    0x40, 0x00, 0x00, 0x94, /* 0: bl base + 0x100 */
    0xe0, 0x03, 0x13, 0xaa, /* 4: mov x0, x19 */
    0x3e, 0x00, 0x00, 0x94, /* 8: bl base + 0x100 */
    0xfc, 0xff, 0xff, 0x97, /* 12: bl base - 4 */
    0x10, 0x00, 0x00, 0xb0, /* 16: adrp x16, page + 0x1000 */
    0x11, 0x0e, 0x40, 0xf9, /* 20: ldr x17, [x16, #0x18] */
    0x20, 0x02, 0x3f, 0xd6, /* 24: blr x17 */
    0x20, 0x02, 0x3f, 0xd6, /* 28: blr x17 */
    0x10, 0x00, 0x00, 0xb0, /* 32: adrp x16, page + 0x1000 */
    0x11, 0x0e, 0x40, 0xf9, /* 36: ldr x17, [x16, #0x18] */
    0x40, 0x02, 0x3f, 0xd6, /* 40: blr x18 */
    0xc0, 0x03, 0x5f, 0xd6, /* 44: ret */
};

static const struct {
    int machine;
    const unsigned char *code;
    size_t len, ret;
    uint64_t base, target;
    int known, k, calls;
} calls[] = {
    {EM_X86_64, x86, sizeof x86, 5, X86_BASE, 0x1100, 1, 0, 2},
    {EM_X86_64, x86, sizeof x86, 13, X86_BASE, 0x1100, 1, 1, 2},
    {EM_X86_64, x86, sizeof x86, 18, X86_BASE, 0x1012, 1, 0, 1},
    {EM_X86_64, x86, sizeof x86, 24, X86_BASE, 0x2010, 1, 0, 1},
    {EM_X86_64, x86, sizeof x86, 30, X86_BASE, 0xffe, 1, 0, 1},
    /* no call ends after the mov, nor past the code */
    {EM_X86_64, x86, sizeof x86, 8, X86_BASE, 0, 0, 0, 0},
    {EM_X86_64, x86, sizeof x86, 31, X86_BASE, 0, 0, 0, 0},
    {EM_AARCH64, a64, sizeof a64, 4, A64_BASE, A64_BASE + 0x100, 1, 0, 2},
    {EM_AARCH64, a64, sizeof a64, 12, A64_BASE, A64_BASE + 0x100, 1, 1, 2},
    {EM_AARCH64, a64, sizeof a64, 16, A64_BASE, A64_BASE - 4, 1, 0, 1},
    /* the adrp's page is its own address's (0x401008), not the procedure's */
    {EM_AARCH64, a64, sizeof a64, 28, A64_BASE, 0x402018, 1, 0, 1},
    /* a blr whose register no adrp and ldr just before set names no function */
    {EM_AARCH64, a64, sizeof a64, 32, A64_BASE, 0, 0, 0, 0},
    {EM_AARCH64, a64, sizeof a64, 44, A64_BASE, 0, 0, 0, 0},
    {EM_AARCH64, a64, sizeof a64, 8, A64_BASE, 0, 0, 0, 0},
    /* instructions are 4-byte words */
    {EM_AARCH64, a64, sizeof a64, 6, A64_BASE, 0, 0, 0, 0},
    /* each machine's bytes read as the other's make none of these calls */
    {EM_AARCH64, x86, 28, 5, X86_BASE, 0, 0, 0, 0},
    {EM_X86_64, a64, sizeof a64, 4, A64_BASE, 0, 0, 0, 0},
    {EM_386, x86, sizeof x86, 5, X86_BASE, 0, 0, 0, 0},
};

static void test_calls(void)
{
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        MG_CHECK_INT((long long)call_decode_target(calls[i].machine, calls[i].code, calls[i].len,
                                                   calls[i].ret, calls[i].base),
                     (long long)calls[i].target);
        int k = -1, n = -1;
        MG_CHECK_INT(call_decode_order(calls[i].machine, calls[i].code, calls[i].len, calls[i].base,
                                       calls[i].ret, &k, &n),
                     calls[i].known);
        MG_CHECK_INT(k, calls[i].known ? calls[i].k : -1);
        MG_CHECK_INT(n, calls[i].known ? calls[i].calls : -1);
    }
}

int main(void)
{
    MG_RUN(test_calls);
    MG_TEST_END();
}
