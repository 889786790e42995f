! Each rank passes its own rank as the root of one Bcast: the roots disagree.
! np: 2
! expect: collective_mismatch ranks 0,1 line 11
program bcast_root
#include "mpi_style.h"
  integer :: rank, ierr, x
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  x = 5
  ! <- reported: the next line
  call MPI_Bcast(x, 1, MPI_INTEGER, rank, MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
end program
