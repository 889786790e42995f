! Both ranks receive twice, first from MPI_PROC_NULL (at once), then from each other: a deadlock
! at the second of two identical statements. Their arguments are variables, so through Open MPI's
! `use mpi` and `use mpi_f08` gfortran 12 gives both calls the program statement's row
! (docs/design/check.md, "Fortran call lines"): the second call by address is the second statement.
! Elsewhere each call has its own row.
! np: 2
! expect: deadlock ranks 0,1 knot 0,1 line 23
program recv_twice
#include "mpi_style.h"
  integer :: rank, ierr, source, in, count, tag
  MG_STATUS(status)
  MG_COMM(comm)
  MG_DATATYPE(datatype)
  call MPI_Init(ierr)
  comm = MPI_COMM_WORLD
  call MPI_Comm_rank(comm, rank, ierr)
  datatype = MPI_INTEGER
  count = 1
  tag = 0
  source = MPI_PROC_NULL
  call MPI_Recv(in, count, datatype, source, tag, comm, status, ierr)
  source = 1 - rank
  call MPI_Recv(in, count, datatype, source, tag, comm, status, ierr) ! <- reported
  call MPI_Finalize(ierr)
end program
