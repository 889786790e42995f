/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The protection module's PMPI references, weak: the interposition library does not link libmpi
 * (interpose.c), so a process that is not a rank loads it without one. Include in every protect_*.c
 * that calls PMPI. */
#ifndef MG_PROTECT_PMPI_H
#define MG_PROTECT_PMPI_H

#include <mpi.h>
#include "mpi_handles_weak.h"

#pragma weak PMPI_Allgather
#pragma weak PMPI_Allgatherv
#pragma weak PMPI_Allreduce
#pragma weak PMPI_Alltoall
#pragma weak PMPI_Alltoallv
#pragma weak PMPI_Bcast
#pragma weak PMPI_Comm_create_group
#pragma weak PMPI_Comm_create_keyval
#pragma weak PMPI_Comm_dup
#pragma weak PMPI_Comm_free
#pragma weak PMPI_Comm_get_attr
#pragma weak PMPI_Comm_group
#pragma weak PMPI_Comm_rank
#pragma weak PMPI_Comm_set_attr
#pragma weak PMPI_Comm_size
#pragma weak PMPI_Comm_test_inter
#pragma weak PMPI_Gather
#pragma weak PMPI_Gatherv
#pragma weak PMPI_Get_library_version
#pragma weak PMPI_Grequest_complete
#pragma weak PMPI_Grequest_start
#pragma weak PMPI_Group_free
#pragma weak PMPI_Group_incl
#pragma weak PMPI_Iallgather
#pragma weak PMPI_Iallgatherv
#pragma weak PMPI_Iallreduce
#pragma weak PMPI_Ialltoall
#pragma weak PMPI_Ialltoallv
#pragma weak PMPI_Ibcast
#pragma weak PMPI_Igather
#pragma weak PMPI_Igatherv
#pragma weak PMPI_Ireduce
#pragma weak PMPI_Ireduce_scatter
#pragma weak PMPI_Iscatter
#pragma weak PMPI_Iscatterv
#pragma weak PMPI_Reduce
#pragma weak PMPI_Reduce_scatter
#pragma weak PMPI_Scatter
#pragma weak PMPI_Scatterv
#pragma weak PMPI_Status_set_cancelled
#pragma weak PMPI_Status_set_elements
#pragma weak PMPI_Type_commit
#pragma weak PMPI_Type_contiguous
#pragma weak PMPI_Type_create_resized
#pragma weak PMPI_Type_free
#pragma weak PMPI_Type_get_extent
#pragma weak PMPI_Type_get_true_extent
#pragma weak PMPI_Type_size

#endif
