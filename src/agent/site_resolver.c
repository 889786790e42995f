/* Call-site resolution with libdwfl (site_resolver.h). */
#include "site_resolver.h"

#include "fortran_source.h"
#include "mg_array.h"
#include "mg_error.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>

typedef struct site_entry {
    int rank;
    uint64_t addr;
    char *function, *file;
    int line, in_mpi_binding, line_is_procedure;
} site_entry;

/* One libdwfl session per process, kept while the process is used. */
typedef struct proc_dwfl {
    int pid;
    Dwfl *dwfl;
} proc_dwfl;

/* One libdwfl session per ELF file read offline (site_resolver_lookup_object), with where its
 * lowest segment lies in that session, which is where dladdr's dli_fbase was in the process. */
typedef struct object_dwfl {
    char *path;
    Dwfl *dwfl; /* NULL when the file could not be read */
    Dwfl_Module *module;
    Dwarf_Addr low;
} object_dwfl;

struct site_resolver {
    site_entry *entries; /* open addressing on (rank, addr); addr 0 marks empty */
    size_t cap, used;
    proc_dwfl *procs;
    size_t nprocs, cap_procs;
    object_dwfl *objects;
    size_t nobjects, cap_objects;
};

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
};

static const Dwfl_Callbacks offline_callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
};

static size_t home(const site_resolver *r, int rank, uint64_t addr)
{
    uint64_t k = addr * 0x9e3779b97f4a7c15ULL ^ (uint64_t)(unsigned)rank * 0xff51afd7ed558ccdULL;
    return (size_t)(k >> 17) & (r->cap - 1);
}

int site_resolver_create(site_resolver **out)
{
    site_resolver *r = calloc(1, sizeof *r);
    if (r) {
        r->cap = 1024;
        r->entries = calloc(r->cap, sizeof *r->entries);
    }
    if (!r || !r->entries) {
        free(r);
        return MG_ERROR_ENOMEM;
    }
    *out = r;
    return MG_ERROR_OK;
}

void site_resolver_destroy(site_resolver *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->cap; i++) {
        free(r->entries[i].function);
        free(r->entries[i].file);
    }
    for (size_t i = 0; i < r->nprocs; i++)
        dwfl_end(r->procs[i].dwfl);
    free(r->procs);
    for (size_t i = 0; i < r->nobjects; i++) {
        dwfl_end(r->objects[i].dwfl);
        free(r->objects[i].path);
    }
    free(r->objects);
    free(r->entries);
    free(r);
}

static site_entry *slot(const site_resolver *r, int rank, uint64_t addr)
{
    size_t i = home(r, rank, addr);
    while (r->entries[i].addr && (r->entries[i].addr != addr || r->entries[i].rank != rank))
        i = (i + 1) & (r->cap - 1);
    return &r->entries[i];
}

static int grow(site_resolver *r)
{
    site_resolver bigger = *r;
    bigger.cap = r->cap * 2;
    bigger.entries = calloc(bigger.cap, sizeof *bigger.entries);
    if (!bigger.entries)
        return MG_ERROR_ENOMEM;
    for (size_t i = 0; i < r->cap; i++)
        if (r->entries[i].addr)
            *slot(&bigger, r->entries[i].rank, r->entries[i].addr) = r->entries[i];
    free(r->entries);
    r->entries = bigger.entries;
    r->cap = bigger.cap;
    return MG_ERROR_OK;
}

static void fill(const site_entry *e, site_resolver_info *out)
{
    out->function = e->function;
    out->file = e->file;
    out->line = e->line;
    out->in_mpi_binding = e->in_mpi_binding;
    out->line_is_procedure = e->line_is_procedure;
}

int site_resolver_store(site_resolver *r, int rank, uint64_t addr, const site_resolver_info *site)
{
    if (2 * (r->used + 1) > r->cap && grow(r) != MG_ERROR_OK)
        return MG_ERROR_ENOMEM;
    site_entry *e = slot(r, rank, addr);
    if (e->addr)
        return MG_ERROR_OK;
    *e = (site_entry){.rank = rank,
                      .addr = addr,
                      .line = site->line,
                      .in_mpi_binding = site->in_mpi_binding,
                      .line_is_procedure = site->line_is_procedure,
                      .function = site->function ? strdup(site->function) : NULL,
                      .file = site->file ? strdup(site->file) : NULL};
    r->used++;
    return MG_ERROR_OK;
}

int site_resolver_cached(const site_resolver *r, int rank, uint64_t addr, site_resolver_info *out)
{
    memset(out, 0, sizeof *out);
    const site_entry *e = addr ? slot(r, rank, addr) : NULL;
    if (!e || !e->addr)
        return 0;
    fill(e, out);
    return 1;
}

static Dwfl *dwfl_of(site_resolver *r, int pid)
{
    for (size_t i = 0; i < r->nprocs; i++)
        if (r->procs[i].pid == pid)
            return r->procs[i].dwfl;
    if (mg_array_reserve((void **)&r->procs, &r->cap_procs, r->nprocs + 1, sizeof *r->procs))
        return NULL;
    Dwfl *d = dwfl_begin(&callbacks);
    if (!d)
        return NULL;
    if (dwfl_linux_proc_report(d, pid) != 0 || dwfl_report_end(d, NULL, NULL) != 0) {
        dwfl_end(d);
        return NULL;
    }
    r->procs[r->nprocs++] = (proc_dwfl){pid, d};
    return d;
}

void site_resolver_prepare(site_resolver *r, int pid)
{
    if (pid > 0)
        dwfl_of(r, pid);
}

/* The MPI's C++ bindings, wherever the MPI is installed: Open MPI's inline functions under
 * ompi/mpi/cxx/, MPICH's in mpicxx.h. Matched by name, not by an installation's include directory,
 * so that an MPI built under any prefix is recognised. */
static int in_mpi_cxx_bindings(const char *file)
{
    const char *slash = strrchr(file, '/');
    return strstr(file, "/ompi/mpi/cxx/") || strcmp(slash ? slash + 1 : file, "mpicxx.h") == 0;
}

/* The library of the MPI's C++ bindings: MPICH's libmpicxx (libmpichcxx as Debian ships it),
 * Open MPI's libmpi_cxx. */
static int is_mpi_cxx_library(Dwfl_Module *m)
{
    const char *name = dwfl_module_info(m, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
    const char *slash = name ? strrchr(name, '/') : NULL;
    const char *base = slash ? slash + 1 : name;
    return base &&
           (strncmp(base, "libmpicxx.", 10) == 0 || strncmp(base, "libmpichcxx.", 12) == 0 ||
            strncmp(base, "libmpi_cxx.", 11) == 0);
}

/* A call through the C++ bindings inlined into the user's function has the binding's header line
 * as its innermost line: *file and *line become the call site of the innermost inlined scope that
 * was called from outside the bindings (the user's line). Not inlined (-O0), pc is in the
 * binding's own function and its header line stays: the site is marked in_mpi_binding, and the
 * agent takes the caller's site the rank recorded (check_agent.c). */
static void leave_mpi_cxx_bindings(Dwfl_Module *m, Dwarf_Addr pc, const char **file, int *line)
{
    Dwarf_Addr bias;
    Dwarf_Die *cu = dwfl_module_addrdie(m, pc, &bias);
    Dwarf_Files *files;
    size_t nfiles;
    if (!cu || dwarf_getsrcfiles(cu, &files, &nfiles) != 0)
        return;
    Dwarf_Die *scopes;
    int nscopes = dwarf_getscopes(cu, pc - bias, &scopes);
    for (int i = 0; i < nscopes && in_mpi_cxx_bindings(*file); i++) {
        if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
            continue;
        Dwarf_Attribute attr;
        Dwarf_Word call_file, call_line;
        const char *caller;
        if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &attr), &call_file) != 0 ||
            dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &attr), &call_line) != 0 ||
            !(caller = dwarf_filesrc(files, call_file, NULL, NULL)))
            break;
        *file = caller;
        *line = (int)call_line;
    }
    if (nscopes > 0)
        free(scopes);
}

/* Resolves pc in m (NULL: unknown), a call of `called` (NULL: unknown), and caches the answer
 * under (key, addr). */
static int resolve_and_store(site_resolver *r, int key, uint64_t addr, Dwfl_Module *m,
                             Dwarf_Addr pc, const char *called, site_resolver_info *out)
{
    site_resolver_info site = {0};
    if (m) {
        site.function = dwfl_module_addrname(m, pc);
        Dwfl_Line *l = dwfl_module_getsrc(m, pc);
        int column = 0;
        if (l)
            site.file = dwfl_lineinfo(l, NULL, &site.line, &column, NULL, NULL);
        if (site.file && in_mpi_cxx_bindings(site.file))
            leave_mpi_cxx_bindings(m, pc, &site.file, &site.line);
        else if (site.file && site.line > 0)
            site.line_is_procedure = fortran_source_site_line(m, pc, called, site.file, &site.line,
                                                              column);
        site.in_mpi_binding = (site.file && in_mpi_cxx_bindings(site.file)) ||
                              is_mpi_cxx_library(m);
    }
    if (site_resolver_store(r, key, addr, &site) != MG_ERROR_OK)
        return 0;
    site_resolver_cached(r, key, addr, out);
    return 1;
}

int site_resolver_lookup(site_resolver *r, int rank, int pid, uint64_t addr, const char *called,
                         site_resolver_info *out)
{
    if (!addr || site_resolver_cached(r, rank, addr, out))
        return 0;
    Dwfl *d = pid > 0 ? dwfl_of(r, pid) : NULL;
    /* A return address: the call instruction is just before it. */
    Dwarf_Addr pc = addr - 1;
    return resolve_and_store(r, rank, addr, d ? dwfl_addrmodule(d, pc) : NULL, pc, called, out);
}

/* The offline session of path, opened on first use; its index in r->objects, or -1 when out of
 * memory. A file that cannot be read keeps a session without a module: asked once. */
static long object_of(site_resolver *r, const char *path)
{
    for (size_t i = 0; i < r->nobjects; i++)
        if (strcmp(r->objects[i].path, path) == 0)
            return (long)i;
    if (mg_array_reserve((void **)&r->objects, &r->cap_objects, r->nobjects + 1,
                         sizeof *r->objects))
        return -1;
    object_dwfl o = {.path = strdup(path), .dwfl = dwfl_begin(&offline_callbacks)};
    if (!o.path) {
        dwfl_end(o.dwfl);
        return -1;
    }
    if (o.dwfl) {
        o.module = dwfl_report_offline(o.dwfl, path, path, -1);
        if (dwfl_report_end(o.dwfl, NULL, NULL) != 0)
            o.module = NULL;
        if (o.module)
            dwfl_module_info(o.module, NULL, &o.low, NULL, NULL, NULL, NULL, NULL);
    }
    r->objects[r->nobjects] = o;
    return (long)r->nobjects++;
}

int site_resolver_lookup_object(site_resolver *r, const char *object, uint64_t offset,
                                const char *called, site_resolver_info *out)
{
    memset(out, 0, sizeof *out);
    long i = offset ? object_of(r, object) : -1;
    if (i < 0)
        return 0;
    /* Cached apart from every rank's addresses: under a key no rank has. */
    int key = -1 - (int)i;
    if (site_resolver_cached(r, key, offset, out))
        return 0;
    const object_dwfl *o = &r->objects[i];
    return resolve_and_store(r, key, offset, o->module, o->low + offset - 1, called, out);
}
