/* The calls of a procedure's machine code that name their function (call_decode.h). */
#include "call_decode.h"

#include <elf.h>

/* The four bytes at code[at], least significant first: both machines' instructions are so
 * ordered, whatever this machine's order. */
static uint32_t le32(const unsigned char *code, size_t at)
{
    return (uint32_t)code[at] | (uint32_t)code[at + 1] << 8 | (uint32_t)code[at + 2] << 16 |
           (uint32_t)code[at + 3] << 24;
}

/* The two's complement value of v's low `bits` bits. */
static int64_t sign_extend(uint64_t v, int bits)
{
    uint64_t sign = (uint64_t)1 << (bits - 1);
    return (int64_t)((v & ((sign << 1) - 1)) ^ sign) - (int64_t)sign;
}

static uint64_t x86_64_target(const unsigned char *code, size_t end, uint64_t base)
{
    int call = end >= 5 && code[end - 5] == 0xe8;
    int slot = end >= 6 && code[end - 6] == 0xff && code[end - 5] == 0x15;
    return call || slot ? base + end + (uint64_t)sign_extend(le32(code, end - 4), 32) : 0;
}

/* Encodings (Arm A64): BL imm26; BLR Xn; LDR Xt, [Xn, #imm12 * 8]; ADRP Xd, immhi:immlo pages. */
enum {
    A64_BL_MASK = 0xfc000000u,
    A64_BL = 0x94000000u,
    A64_BLR_MASK = 0xfffffc1fu,
    A64_BLR = 0xd63f0000u,
    A64_LDR_MASK = 0xffc00000u,
    A64_LDR = 0xf9400000u,
    A64_ADRP_MASK = 0x9f000000u,
    A64_ADRP = 0x90000000u,
};

static unsigned a64_register(uint32_t insn, int at)
{
    return insn >> at & 31;
}

static uint64_t aarch64_target(const unsigned char *code, size_t end, uint64_t base)
{
    if (end < 4 || end % 4 != 0)
        return 0;
    uint32_t call = le32(code, end - 4);
    uint64_t at = base + end - 4;
    if ((call & A64_BL_MASK) == A64_BL)
        return at + (uint64_t)(sign_extend(call, 26) * 4);
    if ((call & A64_BLR_MASK) != A64_BLR || end < 12)
        return 0;
    uint32_t load = le32(code, end - 8), page = le32(code, end - 12);
    if ((load & A64_LDR_MASK) != A64_LDR || a64_register(load, 0) != a64_register(call, 5) ||
        (page & A64_ADRP_MASK) != A64_ADRP || a64_register(page, 0) != a64_register(load, 5))
        return 0;
    int64_t pages = sign_extend((page >> 29 & 3) | (page >> 3 & 0x1ffffc), 21);
    return ((at - 8) & ~(uint64_t)0xfff) + (uint64_t)(pages * 4096) + (load >> 10 & 0xfff) * 8;
}

uint64_t call_decode_target(int machine, const unsigned char *code, size_t len, size_t end,
                            uint64_t base)
{
    if (end > len)
        return 0;
    return machine == EM_X86_64    ? x86_64_target(code, end, base)
           : machine == EM_AARCH64 ? aarch64_target(code, end, base)
                                   : 0;
}

int call_decode_order(int machine, const unsigned char *code, size_t len, uint64_t base, size_t ret,
                      int *k, int *calls)
{
    uint64_t target = call_decode_target(machine, code, len, ret, base);
    if (!target)
        return 0;
    *calls = 0;
    for (size_t end = 1; end <= len; end++)
        if (call_decode_target(machine, code, len, end, base) == target) {
            *k = end == ret ? *calls : *k;
            ++*calls;
        }
    return 1;
}
