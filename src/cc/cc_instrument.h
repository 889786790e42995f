/* Internal to src/cc: no other folder includes it (docs/architecture.md). */
/* The concolic instrumenter: numbers every conditional branch and switch case of a linked module
 * (global, stable ids), writes the branch table, and inserts the runtime probes of one of the two
 * builds (docs/design/concolic.md "Instrumentation"; spec: docs/design/concolic.md, dissertation
 * §2.4.2). */
#ifndef CC_INSTRUMENT_H
#define CC_INSTRUMENT_H

#include <llvm-c/Core.h>
#include <stdint.h>
#include <stdio.h>

/* Light: branch coverage only. Heavy: coverage plus the full symbolic execution probes. */
enum cc_instrument_mode { CC_INSTRUMENT_LIGHT = 0, CC_INSTRUMENT_HEAVY = 1 };

/* 1 for the functions that get probes and branch ids: everything defined except the runtime's
 * own (mgrt_*, mpiguard_*). */
int cc_instrument_eligible(LLVMValueRef fn);
/* How many branch ids a block terminator owns: 1 for a conditional br (arm true: successor 0),
 * one per case for a switch (case k: arm true is successor k + 1), else 0 (NULL included). */
unsigned cc_instrument_branch_ids(LLVMValueRef terminator);

/* Writes the branch table of `mod` (one line per branch id: id, function, file:line, arm kind)
 * under a header naming the build id; *nbranches receives the count. Ids are assigned in module
 * order (functions, blocks, a br's condition or a switch's cases), the same order
 * cc_instrument uses, so the table and both executables agree. */
void cc_instrument_branch_table_write(LLVMModuleRef mod, uint64_t build_id, FILE *out,
                                      uint32_t *nbranches);

/* Inserts the probes of `mode` into every defined function of `mod` (heavy: also after the MPI
 * calls that write a user buffer, cc_mpi_write.h), redirects MPI_Comm_rank, MPI_Comm_size,
 * MPI_Abort and MPI_Finalize to the runtime, and makes main call mgrt_init(heavy, build_id)
 * first. The module must have been through mem2reg. Returns 0, or MG_ERROR_EINVAL when the module
 * has no main (nothing to run). */
int cc_instrument(LLVMModuleRef mod, int mode, uint64_t build_id);

#endif
