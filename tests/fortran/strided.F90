! A strided array section as a buffer: rank 0 sends every other element of a(1:20), rank 1 receives
! them into a whole array. Under `use mpi_f08` MPICH passes the section as a non-contiguous
! descriptor, which mpiguard hands to MPICH's own binding and says so; elsewhere the compiler
! passes a contiguous copy. Either way the values arrive.
program strided
#include "mpi_style.h"
  integer :: rank, ierr, i, a(20), b(10)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  a = [(i, i = 1, 20)]
  if (rank == 0) then
    call MPI_Send(a(1:20:2), 10, MPI_INTEGER, 1, 0, MPI_COMM_WORLD, ierr)
  else if (rank == 1) then
    call MPI_Recv(b, 10, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    if (any(b /= [(2 * i - 1, i = 1, 10)])) error stop 'strided: wrong values'
    print '(a)', 'strided: the section arrived'
  end if
  call MPI_Finalize(ierr)
end program
