/* Module plumbing for mpiguard-cc (cc_module.h). */
#include "cc_module.h"

#include "mg_error.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdio.h>
#include <stdlib.h>
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

static int read_unit(LLVMContextRef c, const char *path, LLVMModuleRef *m, char *err, size_t errlen)
{
    LLVMMemoryBufferRef buf;
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
        snprintf(err, errlen, "%s: %s", path, msg ? msg : "cannot read");
        LLVMDisposeMessage(msg);
        return MG_ERROR_EFORMAT;
    }
    int bad = LLVMParseBitcodeInContext2(c, buf, m);
    LLVMDisposeMemoryBuffer(buf);
    if (bad) {
        snprintf(err, errlen, "%s: not a readable bitcode unit", path);
        return MG_ERROR_EFORMAT;
    }
    return 0;
}

/* 1 when v, a definition of another module, is what dst uses without defining (lookup finds the
 * function or variable of that name in dst). */
static int fills_a_need(LLVMModuleRef dst, LLVMValueRef v,
                        LLVMValueRef (*lookup)(LLVMModuleRef, const char *))
{
    if (LLVMIsDeclaration(v) || LLVMGetLinkage(v) == LLVMInternalLinkage ||
        LLVMGetLinkage(v) == LLVMPrivateLinkage)
        return 0;
    size_t len;
    LLVMValueRef used = lookup(dst, LLVMGetValueName2(v, &len));
    return used && LLVMIsDeclaration(used);
}

/* 1 when m defines a function or variable that dst uses without defining. */
static int defines_needed(LLVMModuleRef dst, LLVMModuleRef m)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (fills_a_need(dst, f, LLVMGetNamedFunction))
            return 1;
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        if (fills_a_need(dst, g, LLVMGetNamedGlobal))
            return 1;
    return 0;
}

/* Parses every bitcode member of the archives into c; members[k] stays NULL for native ones. */
static int read_members(LLVMContextRef c, const cc_archive *a, LLVMModuleRef *members, char *err,
                        size_t errlen)
{
    for (size_t k = 0; k < a->nmembers; k++) {
        const cc_archive_member *m = &a->members[k];
        if (!m->bitcode)
            continue;
        LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(
            (const char *)a->data + m->offset, m->size, m->name, 0);
        int bad = LLVMParseBitcodeInContext2(c, buf, &members[k]);
        LLVMDisposeMemoryBuffer(buf);
        if (bad) {
            members[k] = NULL;
            snprintf(err, errlen, "%s(%s): not a readable bitcode unit", a->path, m->name);
            return MG_ERROR_EFORMAT;
        }
    }
    return 0;
}

/* Links the archives' bitcode members the way a linker takes archive members: a member joins
 * when it defines something still undefined, until no member does. The others are dropped (a
 * member nothing needs may reference libraries the program does not link). */
static int pull_members(LLVMContextRef c, LLVMModuleRef dst, const cc_archive *archives,
                        size_t narchives, char *err, size_t errlen)
{
    size_t total = 0;
    for (size_t i = 0; i < narchives; i++)
        total += archives[i].nmembers;
    LLVMModuleRef *members = calloc(total + 1, sizeof *members);
    if (!members) {
        snprintf(err, errlen, "out of memory");
        return MG_ERROR_ENOMEM;
    }
    int rc = 0;
    for (size_t i = 0, base = 0; i < narchives && !rc; base += archives[i++].nmembers)
        rc = read_members(c, &archives[i], members + base, err, errlen);
    for (int pulled = !rc; pulled;) {
        pulled = 0;
        for (size_t i = 0, base = 0; i < narchives && !rc; base += archives[i++].nmembers)
            for (size_t k = 0; k < archives[i].nmembers && !rc; k++) {
                LLVMModuleRef m = members[base + k];
                if (!m || !defines_needed(dst, m))
                    continue;
                members[base + k] = NULL;
                pulled = 1;
                if (LLVMLinkModules2(dst, m)) {
                    snprintf(err, errlen, "%s(%s): cannot be linked with the other units",
                             archives[i].path, archives[i].members[k].name);
                    rc = MG_ERROR_EFORMAT;
                }
            }
    }
    for (size_t k = 0; k < total; k++)
        if (members[k])
            LLVMDisposeModule(members[k]);
    free(members);
    return rc;
}

int cc_module_link(char *const *paths, size_t n, const cc_archive *archives, size_t narchives,
                   LLVMContextRef *ctx, LLVMModuleRef *out, char *err, size_t errlen)
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
            rc = MG_ERROR_EFORMAT;
        }
    }
    if (!rc && !dst && narchives) {
        /* Archives alone: the C runtime's reference to main is what makes a linker take the
         * member that defines it (HPL's makefile links its program from libhpl.a only). */
        dst = LLVMModuleCreateWithNameInContext("archives", c);
        LLVMAddFunction(dst, "main", LLVMFunctionType(LLVMInt32TypeInContext(c), NULL, 0, 0));
    }
    if (!rc && dst)
        rc = pull_members(c, dst, archives, narchives, err, errlen);
    if (!rc && dst) {
        LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
        LLVMErrorRef e = LLVMRunPasses(dst, "mem2reg", NULL, o);
        LLVMDisposePassBuilderOptions(o);
        if (e) {
            char *msg = LLVMGetErrorMessage(e);
            snprintf(err, errlen, "mem2reg: %s", msg);
            LLVMDisposeErrorMessage(msg);
            rc = MG_ERROR_EFORMAT;
        }
    }
    if (rc || !dst) {
        if (dst)
            LLVMDisposeModule(dst);
        LLVMContextDispose(c);
        if (!rc)
            snprintf(err, errlen, "no bitcode unit to link");
        return rc ? rc : MG_ERROR_EINVAL;
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
        return MG_ERROR_EFORMAT;
    }
    LLVMDisposeMessage(msg);
    if (LLVMWriteBitcodeToFile(mod, path)) {
        snprintf(err, errlen, "cannot write %s", path);
        return MG_ERROR_EIO;
    }
    return 0;
}
