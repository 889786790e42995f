/* Internal to src/cc: no other folder includes it (docs/architecture.md). */
/* Module plumbing for mpiguard-cc: reading bitcode units, linking them into one module, mem2reg,
 * the build id, verifying and writing (docs/design/concolic.md "mpiguard-cc"). */
#ifndef CC_MODULE_H
#define CC_MODULE_H

#include "cc_archive.h"

#include <llvm-c/Core.h>
#include <stddef.h>
#include <stdint.h>

/* 1 when the file starts with the LLVM bitcode magic ("BC\xC0\xDE"), else 0. */
int cc_module_is_bitcode(const char *path);

/* Reads and links paths[0..n) into one module of a new context (*ctx, owned by the caller, which
 * disposes of the module then the context), adds the archives' bitcode members it needs
 * (cc_archive.h; with no unit, the member defining main and what it needs, as a linker does),
 * then runs mem2reg on it. Returns 0, or MG_ERROR_EFORMAT with a message in err when a
 * unit or member cannot be read, linked, or promoted; MG_ERROR_ENOMEM. */
int cc_module_link(char *const *paths, size_t n, const cc_archive *archives, size_t narchives,
                   LLVMContextRef *ctx, LLVMModuleRef *out, char *err, size_t errlen);

/* The build id: FNV-1a 64 of the linked module's bitcode, never 0. */
uint64_t cc_module_build_id(LLVMModuleRef mod);

/* Verifies mod and writes it as bitcode to path. MG_ERROR_EFORMAT (verifier message in err: the
 * instrumenter broke the module) or MG_ERROR_EIO. */
int cc_module_write(LLVMModuleRef mod, const char *path, char *err, size_t errlen);

#endif
