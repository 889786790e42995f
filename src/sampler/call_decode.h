/* The calls of a procedure's machine code that name their function, read from its bytes: which of
 * its calls of one function a return address belongs to, on x86-64 and aarch64 code whatever the
 * machine this runs on (fortran_source.c tells two calls on one line apart by it). No I/O. */
#ifndef CALL_DECODE_H
#define CALL_DECODE_H

#include <stddef.h>
#include <stdint.h>

/* Where the call instruction of `machine` code (ELF's EM_X86_64 or EM_AARCH64) that ends at
 * code[end] goes, code being len bytes at address base. Each answer names one function:
 * - x86-64: a direct call's target (e8 rel32, through the PLT), an indirect one's memory slot
 *   (ff 15 disp32, -fno-plt);
 * - aarch64: BL's target (through the PLT), or for BLR Xn right after `adrp Xm` and `ldr Xn, [Xm,
 *   #off]` (-fno-plt) the slot it loaded Xn from.
 * 0 when no such call ends there (another machine, a BLR through any other register). */
uint64_t call_decode_target(int machine, const unsigned char *code, size_t len, size_t end,
                            uint64_t base);

/* Which of the procedure's calls going where the call returning to code[ret] goes that call is,
 * by address: *k of *calls (from 0). Returns 0, leaving both, when no call call_decode_target
 * knows ends at ret. On x86-64 an e8 or ff 15 byte inside another instruction counts only if it
 * encodes the very target: then the calls outnumber the source's namings, and the caller's line
 * stays unknown, never a wrong one. */
int call_decode_order(int machine, const unsigned char *code, size_t len, uint64_t base, size_t ret,
                      int *k, int *calls);

#endif
