/* mpiguard-cc: a compiler wrapper used like mpicc that builds the two concolic executables and
 * the branch table of a program (docs/design/concolic.md "mpiguard-cc"; spec:
 * docs/design/concolic.md).
 *
 *   compile (-c):  clang-14 -emit-llvm -O0 -Xclang -disable-O0-optnone -gline-tables-only
 *                  -ffp-contract=off -ftrivial-auto-var-init=zero: the ".o" is LLVM bitcode
 *   link:          every bitcode unit -> one module -> mem2reg -> build id, branch table,
 *                  control-flow graph -> light probes -> OUT, heavy probes -> OUT.mpiguard-heavy
 * The MPI (Open MPI or MPICH) comes from MPIGUARD_MPI=openmpi|mpich, else from the MPICC
 * environment variable or an mpicc named on the command line, else Open MPI; its flags come from
 * pkg-config. Exit status: the compiler's, 64 for a usage error, 65 for a unit that cannot be
 * linked or instrumented, 70 for an internal failure. */
#include "cc_archive.h"
#include "cc_args.h"
#include "cc_cfg.h"
#include "cfg_graph_text.h"
#include "cc_instrument.h"
#include "cc_module.h"
#include "job_run.h"
#include "mg_env.h"

#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef MPIGUARD_CC_INCLUDE_DIR
#error "MPIGUARD_CC_INCLUDE_DIR must name the directory holding mpiguard/concolic.h"
#endif

#define CLANG "clang-14"

typedef struct cc_job {
    const char *flavor;   /* "openmpi" or "mpich" */
    cc_args compile;      /* flags for compiling sources */
    cc_args link;         /* objects, libraries and flags for the final link, in order */
    cc_args sources;      /* .c files */
    cc_args units;        /* bitcode units to link */
    cc_archive *archives; /* static libraries holding bitcode units (cc_archive.h) */
    size_t narchives;
    const char *output;
    int compile_only, passthrough;
    char tmpdir[64];
} cc_job;

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

static const char *pick_flavor(int argc, char **argv)
{
    const char *e = getenv(MG_ENV_MPI);
    if (e && (!strcmp(e, "openmpi") || !strcmp(e, "mpich")))
        return e;
    const char *mpicc = getenv(MG_ENV_MPICC);
    for (int i = 1; i < argc && !mpicc; i++)
        if (strstr(argv[i], "mpicc"))
            mpicc = argv[i];
    return mpicc && strstr(mpicc, "mpich") ? "mpich" : "openmpi";
}

/* Runs argv to its end; returns its status (127 when it cannot start). */
static int run(char *const *argv, const char *capture)
{
    char err[512];
    int status, timed_out;
    if (job_run(argv, NULL, capture, 0, JOB_STOP_GRACE_SECONDS, &status, &timed_out, NULL, err,
                sizeof err)) {
        fprintf(stderr, "mpiguard-cc: %s\n", err);
        return 127;
    }
    return status;
}

/* Appends the output of `pkg-config WHAT PACKAGE` to a. */
static int pkg_config(cc_job *j, const char *what, cc_args *a)
{
    char out[PATH_MAX];
    snprintf(out, sizeof out, "%s/pkg-config.out", j->tmpdir);
    char *argv[] = {"pkg-config", (char *)what, !strcmp(j->flavor, "mpich") ? "mpich" : "ompi-c",
                    NULL};
    if (run(argv, out)) {
        fprintf(stderr, "mpiguard-cc: pkg-config cannot describe the %s installation\n", j->flavor);
        return 69;
    }
    FILE *f = fopen(out, "r");
    char line[8192] = "";
    if (f) {
        if (!fgets(line, sizeof line, f))
            line[0] = 0;
        fclose(f);
    }
    cc_args_push_words(a, line);
    return 0;
}

/* Sorts one argument into the job. Flags that matter to both steps go to both. */
static int classify(cc_job *j, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (!strcmp(a, "-o")) {
        if (++*i >= argc) {
            fprintf(stderr, "mpiguard-cc: -o needs a file name\n");
            return 64;
        }
        j->output = argv[*i];
    } else if (!strcmp(a, "-c"))
        j->compile_only = 1;
    else if (!strcmp(a, "-E") || !strcmp(a, "-S") || !strcmp(a, "-M") || !strcmp(a, "-MM") ||
             !strcmp(a, "--version"))
        j->passthrough = 1;
    else if (!strncmp(a, "-O", 2) || !strncmp(a, "-g", 2))
        ; /* the instrumenter needs -O0 and line tables: the user's choice is replaced */
    else if (ends_with(a, ".c"))
        cc_args_push(&j->sources, a);
    else if (a[0] != '-' && cc_module_is_bitcode(a))
        cc_args_push(&j->units, a);
    else if (!strcmp(a, "-rdynamic") || !strcmp(a, "-export-dynamic"))
        cc_args_push(&j->link, "-rdynamic"); /* to clang, -export-dynamic is -e xport-dynamic */
    else if (a[0] != '-' || !strncmp(a, "-l", 2) || !strncmp(a, "-L", 2) || !strncmp(a, "-Wl,", 4))
        cc_args_push(&j->link, a);
    else if (!strcmp(a, "-I") || !strcmp(a, "-D") || !strcmp(a, "-include")) {
        cc_args_push(&j->compile, a);
        if (++*i < argc)
            cc_args_push(&j->compile, argv[*i]);
    } else {
        cc_args_push(&j->compile, a);
        if (!strcmp(a, "-pthread") || !strncmp(a, "-fsanitize", 10))
            cc_args_push(&j->link, a);
    }
    return 0;
}

static void base_compile(cc_job *j, cc_args *c)
{
    /* Locals start at zero: a marked input the program never sets (mpiguard_int(&x) on an
     * uninitialised x) starts the campaign from 0, not from whatever the stack held. */
    cc_args_push_words(c, CLANG
                       " -emit-llvm -O0 -Xclang -disable-O0-optnone -gline-tables-only"
                       " -ffp-contract=off -ftrivial-auto-var-init=zero"
                       " -enable-trivial-auto-var-init-zero-knowing-it-will-be-removed-from-clang");
    cc_args_push(c, "-I" MPIGUARD_CC_INCLUDE_DIR);
    cc_args_append(c, &j->compile);
}

/* Compiles one source to a bitcode unit at out. */
static int compile_source(cc_job *j, const char *src, const char *out)
{
    cc_args c = {0};
    base_compile(j, &c);
    int rc = pkg_config(j, "--cflags", &c);
    if (!rc) {
        cc_args_push(&c, "-c");
        cc_args_push(&c, src);
        cc_args_push(&c, "-o");
        cc_args_push(&c, out);
        rc = run(c.v, NULL);
    }
    cc_args_free(&c);
    return rc;
}

static void object_name(const char *src, char *out, size_t len)
{
    const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
    snprintf(out, len, "%.*s.o", (int)(strlen(base) - 2), base);
}

static int compile_all(cc_job *j)
{
    if (j->sources.n > 1 && j->output) {
        fprintf(stderr, "mpiguard-cc: -o with -c and several sources\n");
        return 64;
    }
    for (size_t k = 0; k < j->sources.n; k++) {
        char obj[PATH_MAX];
        object_name(j->sources.v[k], obj, sizeof obj);
        int rc = compile_source(j, j->sources.v[k], j->output ? j->output : obj);
        if (rc)
            return rc;
    }
    return 0;
}

static int runtime_library(const cc_job *j, char *out, size_t len)
{
    char exe[PATH_MAX / 2];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = 0;
    *strrchr(exe, '/') = 0;
    snprintf(out, len, "%s/../lib/static/libmpiguard_concolic_rt_%s.a", exe, j->flavor);
    return access(out, R_OK);
}

/* Native link of one instrumented bitcode file. */
static int link_executable(cc_job *j, const char *bc, const char *exe)
{
    char rt[PATH_MAX];
    if (runtime_library(j, rt, sizeof rt)) {
        fprintf(stderr, "mpiguard-cc: the concolic runtime for %s is not built (%s)\n", j->flavor,
                rt);
        return 69;
    }
    cc_args c = {0};
    cc_args_push_words(&c, CLANG " -O0 -g");
    cc_args_push(&c, bc);
    cc_args_append(&c, &j->link);
    cc_args_push(&c, rt);
    int rc = pkg_config(j, "--libs", &c);
    if (!rc) {
        cc_args_push_words(&c, "-lm -o");
        cc_args_push(&c, exe);
        rc = run(c.v, NULL);
    }
    cc_args_free(&c);
    return rc;
}

static int write_table(LLVMModuleRef mod, uint64_t id, const char *out)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s.mpiguard-branches.tsv", out);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return 73;
    }
    uint32_t n;
    cc_instrument_branch_table_write(mod, id, f, &n);
    return fclose(f) ? 73 : 0;
}

/* OUT.mpiguard-cfg: the graph the CFG-directed search measures distances on. */
static int write_cfg(LLVMModuleRef mod, uint64_t id, const char *out)
{
    cfg_graph g;
    char path[PATH_MAX], *text = NULL;
    size_t len = 0;
    if (cc_cfg_build(mod, id, &g) || cfg_graph_text_format(&g, &text, &len)) {
        cfg_graph_free(&g);
        fprintf(stderr, "mpiguard-cc: cannot build the control-flow graph\n");
        return 70;
    }
    cfg_graph_free(&g);
    snprintf(path, sizeof path, "%s.mpiguard-cfg", out);
    FILE *f = fopen(path, "w");
    int rc = !f || fwrite(text, 1, len, f) != len;
    rc |= f && fclose(f);
    free(text);
    if (rc)
        perror(path);
    return rc ? 73 : 0;
}

/* Instruments a clone of mod in `mode`, verifies, writes bitcode and links it to exe. */
static int build_variant(cc_job *j, LLVMModuleRef mod, int mode, uint64_t id, const char *exe)
{
    char bc[PATH_MAX], err[1024];
    snprintf(bc, sizeof bc, "%s/%s.bc", j->tmpdir, mode == CC_INSTRUMENT_HEAVY ? "heavy" : "light");
    LLVMModuleRef m = LLVMCloneModule(mod);
    int rc = cc_instrument(m, mode, id);
    if (rc) {
        fprintf(stderr, "mpiguard-cc: the program has no main function\n");
        LLVMDisposeModule(m);
        return 65;
    }
    rc = cc_module_write(m, bc, err, sizeof err);
    LLVMDisposeModule(m);
    if (rc) {
        fprintf(stderr, "mpiguard-cc: %s\n", err);
        return 65;
    }
    return link_executable(j, bc, exe);
}

/* The file -lNAME (or -l:FILE) names, searched in the -L directories of the command line the
 * way the linker does (a shared library first); "" when none holds it: the native link then
 * looks in the system's directories, where no bitcode library lives. */
static void find_library(const cc_job *j, const char *flag, char *out, size_t len)
{
    static const char *const suffixes[] = {".so", ".a"};
    out[0] = 0;
    for (size_t k = 0; k < j->link.n; k++) {
        const char *dir = j->link.v[k];
        if (strncmp(dir, "-L", 2) || !dir[2])
            continue;
        for (size_t s = 0; s < (flag[2] == ':' ? 1 : 2); s++) {
            if (flag[2] == ':')
                snprintf(out, len, "%s/%s", dir + 2, flag + 3);
            else
                snprintf(out, len, "%s/lib%s%s", dir + 2, flag + 2, suffixes[s]);
            if (!access(out, R_OK))
                return;
        }
    }
    out[0] = 0;
}

/* A bitcode archive's place in the native link: an archive of its native members, or nothing. */
static int native_part(cc_job *j, const cc_archive *a, cc_args *link)
{
    if (a->nbitcode == a->nmembers)
        return 0;
    char dir[PATH_MAX], lib[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/ar%zu", j->tmpdir, j->narchives);
    snprintf(lib, sizeof lib, "%s/ar%zu.a", j->tmpdir, j->narchives);
    char **names;
    size_t n;
    int rc = cc_archive_extract_native(a, dir, &names, &n);
    cc_args c = {0};
    cc_args_push_words(&c, "ar rcs");
    cc_args_push(&c, lib);
    for (size_t k = 0; k < n; k++)
        cc_args_push(&c, names[k]);
    cc_archive_free_names(names, n);
    if (rc) {
        fprintf(stderr, "mpiguard-cc: %s: cannot extract its native members into %s\n", a->path,
                dir);
        rc = 73;
    } else if ((rc = run(c.v, NULL)))
        fprintf(stderr, "mpiguard-cc: ar cannot pack the native members of %s\n", a->path);
    cc_args_free(&c);
    if (!rc)
        cc_args_push(link, lib);
    return rc;
}

/* Takes the static libraries of the link apart: those holding bitcode units join the module
 * (their native members stay in the native link, where the library stood); the rest, shared
 * libraries and native objects pass through unchanged. */
static int sort_libraries(cc_job *j)
{
    cc_args link = {0};
    int rc = 0;
    for (size_t k = 0; k < j->link.n && !rc; k++) {
        const char *arg = j->link.v[k];
        char path[PATH_MAX];
        if (!strncmp(arg, "-l", 2))
            find_library(j, arg, path, sizeof path);
        else
            snprintf(path, sizeof path, "%s", arg[0] == '-' ? "" : arg);
        cc_archive a;
        char err[PATH_MAX + 128];
        if (!path[0] || !ends_with(path, ".a") || !cc_archive_is_archive(path)) {
            cc_args_push(&link, arg);
            continue;
        }
        if (cc_archive_read(path, &a, err, sizeof err)) {
            fprintf(stderr, "mpiguard-cc: %s\n", err);
            rc = 65;
            break;
        }
        if (!a.nbitcode) {
            cc_archive_free(&a);
            cc_args_push(&link, arg);
            continue;
        }
        rc = native_part(j, &a, &link);
        cc_archive *grown = realloc(j->archives, (j->narchives + 1) * sizeof *grown);
        if (!grown) {
            cc_archive_free(&a);
            rc = 70;
            break;
        }
        j->archives = grown;
        j->archives[j->narchives++] = a;
    }
    cc_args_free(&j->link);
    j->link = link;
    return rc;
}

static int link_all(cc_job *j)
{
    const char *out = j->output ? j->output : "a.out";
    int rc = 0;
    for (size_t k = 0; k < j->sources.n; k++) {
        char bc[PATH_MAX];
        snprintf(bc, sizeof bc, "%s/unit%zu.bc", j->tmpdir, k);
        rc = compile_source(j, j->sources.v[k], bc);
        if (rc)
            return rc;
        cc_args_push(&j->units, bc);
    }
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    char err[1024];
    if (cc_module_link(j->units.v, j->units.n, j->archives, j->narchives, &ctx, &mod, err,
                       sizeof err)) {
        fprintf(stderr, "mpiguard-cc: %s\n", err);
        return 65;
    }
    uint64_t id = cc_module_build_id(mod);
    char heavy[PATH_MAX];
    snprintf(heavy, sizeof heavy, "%s.mpiguard-heavy", out);
    rc = write_table(mod, id, out);
    if (!rc)
        rc = write_cfg(mod, id, out);
    if (!rc)
        rc = build_variant(j, mod, CC_INSTRUMENT_LIGHT, id, out);
    if (!rc)
        rc = build_variant(j, mod, CC_INSTRUMENT_HEAVY, id, heavy);
    LLVMDisposeModule(mod);
    LLVMContextDispose(ctx);
    return rc;
}

/* -E, -S, --version and the like go to clang unchanged (with the MPI's include flags). */
static int pass_through(cc_job *j, int argc, char **argv)
{
    cc_args c = {0};
    cc_args_push(&c, CLANG);
    cc_args_push(&c, "-I" MPIGUARD_CC_INCLUDE_DIR);
    int rc = pkg_config(j, "--cflags", &c);
    for (int i = 1; i < argc && !rc; i++)
        cc_args_push(&c, argv[i]);
    if (!rc)
        rc = run(c.v, NULL);
    cc_args_free(&c);
    return rc;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

static void remove_tmpdir(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* A failed link leaves none of its outputs, as a linker does: a branch table or graph without
 * its executables would be taken for a build. */
static void remove_outputs(const cc_job *j)
{
    static const char *const suffixes[] = {"", ".mpiguard-heavy", ".mpiguard-branches.tsv",
                                           ".mpiguard-cfg"};
    const char *out = j->output ? j->output : "a.out";
    for (size_t k = 0; k < sizeof suffixes / sizeof *suffixes; k++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s%s", out, suffixes[k]);
        unlink(path);
    }
}

int main(int argc, char **argv)
{
    cc_job j = {.flavor = pick_flavor(argc, argv)};
    if (argc < 2) {
        fprintf(stderr, "usage: mpiguard-cc [mpicc options] files... (docs/concolic.md)\n");
        return 64;
    }
    for (int i = 1; i < argc; i++) {
        int rc = classify(&j, argc, argv, &i);
        if (rc)
            return rc;
    }
    snprintf(j.tmpdir, sizeof j.tmpdir, "%s/mpiguard-cc-XXXXXX",
             getenv(MG_ENV_TMPDIR) ? getenv(MG_ENV_TMPDIR) : "/tmp");
    if (!mkdtemp(j.tmpdir)) {
        perror("mpiguard-cc: mkdtemp");
        return 70;
    }
    int rc;
    if (j.passthrough)
        rc = pass_through(&j, argc, argv);
    else if (j.compile_only)
        rc = compile_all(&j);
    else if ((rc = sort_libraries(&j)))
        remove_outputs(&j);
    else if (!j.sources.n && !j.units.n && !j.narchives) {
        fprintf(stderr, "mpiguard-cc: no input files\n");
        rc = 64;
    } else if ((rc = link_all(&j)))
        remove_outputs(&j);
    remove_tmpdir(j.tmpdir);
    for (size_t k = 0; k < j.narchives; k++)
        cc_archive_free(&j.archives[k]);
    free(j.archives);
    cc_args_free(&j.compile);
    cc_args_free(&j.link);
    cc_args_free(&j.sources);
    cc_args_free(&j.units);
    return rc;
}
