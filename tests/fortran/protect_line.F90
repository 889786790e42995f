! One Allreduce of 64 integers whose arguments are all variables: under `use mpi` (Open MPI) and
! `use mpi_f08` gfortran 12's line table gives the call the program statement's line
! (docs/design/platform-notes.md, "gfortran 12's line table"), so the site `mpiguard protect`
! reports must take the call's line from the source. Rank 0 prints the sum.
program protect_line
#include "mpi_style.h"
#if defined(STYLE_F08)
  type(MPI_Datatype) :: dtype
  type(MPI_Op) :: op
  type(MPI_Comm) :: comm
#else
  integer :: dtype, op, comm
#endif
  integer :: ierr, rank, n, a(64), b(64)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  dtype = MPI_INTEGER
  op = MPI_SUM
  comm = MPI_COMM_WORLD
  n = 64
  a = rank + 1
  call MPI_Allreduce(a, b, n, dtype, op, comm, ierr)
  if (rank == 0) print '(a,i0)', 'sum: ', sum(b)
  call MPI_Finalize(ierr)
end program
