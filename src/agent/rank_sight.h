/* What /proc shows of a rank's process that tells whether mpiguard can observe it: its LD_PRELOAD,
 * the libraries it maps, how its executable was linked (docs/architecture.md, "Never blind in
 * silence"). The reading only; rank_observe.h decides what it means. */
#ifndef MG_RANK_SIGHT_H
#define MG_RANK_SIGHT_H

#include "mpi_flavor.h"

typedef struct mg_rank_sight {
    int read;                  /* the process was read (the fields below are valid) */
    int preload_set;           /* LD_PRELOAD is in its environment */
    int preload_names_library; /* ... and names mpiguard's interposition library */
    int library_mapped;        /* mpiguard's interposition library is mapped */
    int static_binary;         /* its executable has no ELF interpreter */
    int binary_defines_mpi;    /* its executable defines MPI_Init or PMPI_Init itself */
    mg_mpi_flavor mapped_mpi;  /* the flavour of the libmpi it maps; UNKNOWN: none */
    char binding[64];          /* a mapped MPI language-binding library (libmpi_mpifh.so.40), or "" */
    char preload[256];         /* its LD_PRELOAD, cut to fit */
} mg_rank_sight;

/* Reads the process pid under proc_root ("/proc" except in tests); library is the interposition
 * library's path as mpiguard passed it. *out is zeroed first and its `read` set only when the
 * process's maps and executable could be read. Returns 0, or MG_ENOENT when the process is gone. */
int mg_rank_sight_read(const char *proc_root, int pid, const char *library, mg_rank_sight *out);

#endif
