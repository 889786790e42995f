/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* Open MPI's predefined handles are addresses of data symbols in libmpi. The interposition library
 * refers to them, and it is also loaded into processes without libmpi (an application that never
 * calls MPI_Init and was linked --as-needed, a launcher given LD_PRELOAD): weak references keep
 * such a process loading (docs/design/platform-notes.md). Every file of the library that includes
 * mpi.h includes this right after it; `nm -D lib/libmpiguard-openmpi.so | grep " U " | grep -v
 * GLIBC` must print nothing. */
#ifndef MG_MPI_HANDLES_WEAK_H
#define MG_MPI_HANDLES_WEAK_H

#ifdef OPEN_MPI
#pragma weak ompi_mpi_comm_world
#pragma weak ompi_mpi_comm_self
#pragma weak ompi_mpi_comm_null
#pragma weak ompi_mpi_group_empty
#pragma weak ompi_request_null
#pragma weak ompi_mpi_op_null
#pragma weak ompi_mpi_op_max
#pragma weak ompi_mpi_op_min
#pragma weak ompi_mpi_op_sum
#pragma weak ompi_mpi_op_prod
#pragma weak ompi_mpi_op_land
#pragma weak ompi_mpi_op_band
#pragma weak ompi_mpi_op_lor
#pragma weak ompi_mpi_op_bor
#pragma weak ompi_mpi_op_lxor
#pragma weak ompi_mpi_op_bxor
#pragma weak ompi_mpi_op_maxloc
#pragma weak ompi_mpi_op_minloc
#pragma weak ompi_mpi_op_replace
#pragma weak ompi_mpi_op_no_op
#pragma weak ompi_message_null
#pragma weak ompi_mpi_group_null
#pragma weak ompi_mpi_datatype_null
#pragma weak ompi_mpi_byte
#pragma weak ompi_mpi_int64_t
#pragma weak ompi_mpi_uint32_t
#pragma weak OMPI_C_MPI_COMM_NULL_COPY_FN
#endif

/* PMPI functions the modules call that mpi_functions.def does not wrap (interpose.c makes the
 * wrapped ones weak): weak too, so that LD_BIND_NOW cannot break a process without libmpi. */
#pragma weak PMPI_Comm_group
#pragma weak PMPI_Comm_rank
#pragma weak PMPI_Comm_remote_group
#pragma weak PMPI_Comm_size
#pragma weak PMPI_Comm_test_inter
#pragma weak PMPI_Group_free
#pragma weak PMPI_Group_size
#pragma weak PMPI_Group_translate_ranks

#endif
