/* MPI flavour of binaries and libraries, from ELF DT_NEEDED entries (mpi_flavor.h). */
#include "mpi_flavor.h"

#include "mg_error.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

mg_mpi_flavor mpi_flavor_of_library(const char *name)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    if (strncmp(base, "libmpich.so", 11) == 0 || strncmp(base, "libmpi.so.12", 12) == 0)
        return MG_MPI_FLAVOR_MPICH;
    if (strncmp(base, "libmpi.so", 9) == 0)
        return MG_MPI_FLAVOR_OPENMPI;
    return MG_MPI_FLAVOR_UNKNOWN;
}

static mg_mpi_flavor scan_dynamic(Elf *elf)
{
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_DYNAMIC)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        if (!data || shdr.sh_entsize == 0)
            continue;
        size_t count = shdr.sh_size / shdr.sh_entsize;
        for (size_t i = 0; i < count; i++) {
            GElf_Dyn dyn;
            if (!gelf_getdyn(data, (int)i, &dyn) || dyn.d_tag != DT_NEEDED)
                continue;
            const char *needed = elf_strptr(elf, shdr.sh_link, dyn.d_un.d_val);
            mg_mpi_flavor f = needed ? mpi_flavor_of_library(needed) : MG_MPI_FLAVOR_UNKNOWN;
            if (f != MG_MPI_FLAVOR_UNKNOWN)
                return f;
        }
    }
    return MG_MPI_FLAVOR_UNKNOWN;
}

int mpi_flavor_of_binary(const char *path, mg_mpi_flavor *out)
{
    *out = MG_MPI_FLAVOR_UNKNOWN;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return MG_ERROR_ENOENT;
    elf_version(EV_CURRENT);
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    if (elf && elf_kind(elf) == ELF_K_ELF)
        *out = scan_dynamic(elf);
    elf_end(elf);
    close(fd);
    return MG_ERROR_OK;
}

static int has_interpreter(Elf *elf)
{
    size_t count;
    if (elf_getphdrnum(elf, &count) != 0)
        return 0;
    for (size_t i = 0; i < count; i++) {
        GElf_Phdr phdr;
        if (gelf_getphdr(elf, (int)i, &phdr) && phdr.p_type == PT_INTERP)
            return 1;
    }
    return 0;
}

static int symbol_defines_mpi(Elf *elf, Elf_Data *data, const GElf_Shdr *shdr, size_t i)
{
    GElf_Sym sym;
    if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF)
        return 0;
    const char *name = elf_strptr(elf, shdr->sh_link, sym.st_name);
    return name && (strcmp(name, "MPI_Init") == 0 || strcmp(name, "PMPI_Init") == 0);
}

static int defines_mpi_symbols(Elf *elf)
{
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr) || (shdr.sh_type != SHT_SYMTAB && shdr.sh_type != SHT_DYNSYM))
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        size_t count = data && shdr.sh_entsize ? shdr.sh_size / shdr.sh_entsize : 0;
        for (size_t i = 0; i < count; i++)
            if (symbol_defines_mpi(elf, data, &shdr, i))
                return 1;
    }
    return 0;
}

int mpi_flavor_linkage(const char *path, int *is_static, int *defines_mpi)
{
    *is_static = *defines_mpi = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return MG_ERROR_ENOENT;
    elf_version(EV_CURRENT);
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    if (elf && elf_kind(elf) == ELF_K_ELF) {
        *is_static = !has_interpreter(elf);
        *defines_mpi = defines_mpi_symbols(elf);
    }
    elf_end(elf);
    close(fd);
    return MG_ERROR_OK;
}
