/* Module plumbing for mpiguard-cc (cc_module.h). */
#include "cc_module.h"

#include "mg_error.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdio.h>
#include <string.h>

int cc_module_is_bitcode(const char *path)
{
    unsigned char m[4] = {0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(m, 1, 4, f);
    fclose(f);
    return n == 4 && m[0] == 'B' && m[1] == 'C' && m[2] == 0xC0 && m[3] == 0xDE;
}

static int read_unit(LLVMContextRef c, const char *path, LLVMModuleRef *m, char *err,
                     size_t errlen)
{
    LLVMMemoryBufferRef buf;
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
        snprintf(err, errlen, "%s: %s", path, msg ? msg : "cannot read");
        LLVMDisposeMessage(msg);
        return MG_EFORMAT;
    }
    int bad = LLVMParseBitcodeInContext2(c, buf, m);
    LLVMDisposeMemoryBuffer(buf);
    if (bad) {
        snprintf(err, errlen, "%s: not a readable bitcode unit", path);
        return MG_EFORMAT;
    }
    return 0;
}

int cc_module_link(char *const *paths, size_t n, LLVMContextRef *ctx, LLVMModuleRef *out,
                   char *err, size_t errlen)
{
    LLVMContextRef c = LLVMContextCreate();
    LLVMModuleRef dst = NULL;
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        LLVMModuleRef m;
        if ((rc = read_unit(c, paths[i], &m, err, errlen)))
            break;
        if (!dst)
            dst = m;
        else if (LLVMLinkModules2(dst, m)) {
            snprintf(err, errlen, "%s: cannot be linked with the other units", paths[i]);
            rc = MG_EFORMAT;
        }
    }
    if (!rc && dst) {
        LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
        LLVMErrorRef e = LLVMRunPasses(dst, "mem2reg", NULL, o);
        LLVMDisposePassBuilderOptions(o);
        if (e) {
            char *msg = LLVMGetErrorMessage(e);
            snprintf(err, errlen, "mem2reg: %s", msg);
            LLVMDisposeErrorMessage(msg);
            rc = MG_EFORMAT;
        }
    }
    if (rc || !dst) {
        if (dst)
            LLVMDisposeModule(dst);
        LLVMContextDispose(c);
        if (!rc)
            snprintf(err, errlen, "no bitcode unit to link");
        return rc ? rc : MG_EINVAL;
    }
    *ctx = c;
    *out = dst;
    return 0;
}

uint64_t cc_module_build_id(LLVMModuleRef mod)
{
    LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(mod);
    const unsigned char *p = (const unsigned char *)LLVMGetBufferStart(buf);
    size_t n = LLVMGetBufferSize(buf);
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    LLVMDisposeMemoryBuffer(buf);
    return h ? h : 1;
}

int cc_module_write(LLVMModuleRef mod, const char *path, char *err, size_t errlen)
{
    char *msg = NULL;
    if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg)) {
        snprintf(err, errlen, "instrumented module does not verify: %.400s", msg ? msg : "");
        LLVMDisposeMessage(msg);
        return MG_EFORMAT;
    }
    LLVMDisposeMessage(msg);
    if (LLVMWriteBitcodeToFile(mod, path)) {
        snprintf(err, errlen, "cannot write %s", path);
        return MG_EIO;
    }
    return 0;
}
