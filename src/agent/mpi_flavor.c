/* MPI flavour of binaries and libraries, from ELF DT_NEEDED entries (mpi_flavor.h). */
#include "mpi_flavor.h"

#include "mg_error.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

const char *mg_mpi_flavor_name(mg_mpi_flavor f)
{
    switch (f) {
    case MG_FLAVOR_OPENMPI:
        return "openmpi";
    case MG_FLAVOR_MPICH:
        return "mpich";
    default:
        return "unknown";
    }
}

mg_mpi_flavor mg_mpi_flavor_of_library(const char *name)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    if (strncmp(base, "libmpich.so", 11) == 0 || strncmp(base, "libmpi.so.12", 12) == 0)
        return MG_FLAVOR_MPICH;
    if (strncmp(base, "libmpi.so", 9) == 0)
        return MG_FLAVOR_OPENMPI;
    return MG_FLAVOR_UNKNOWN;
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
            mg_mpi_flavor f = needed ? mg_mpi_flavor_of_library(needed) : MG_FLAVOR_UNKNOWN;
            if (f != MG_FLAVOR_UNKNOWN)
                return f;
        }
    }
    return MG_FLAVOR_UNKNOWN;
}

int mg_mpi_flavor_of_binary(const char *path, mg_mpi_flavor *out)
{
    *out = MG_FLAVOR_UNKNOWN;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return MG_ENOENT;
    elf_version(EV_CURRENT);
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    if (elf && elf_kind(elf) == ELF_K_ELF)
        *out = scan_dynamic(elf);
    elf_end(elf);
    close(fd);
    return MG_OK;
}
