! Rank 0 keeps 5000 receive requests live, so Open MPI's Fortran indexes go past 4096, keeps a
! copy of the last one and waits on both: the second waits on a request already freed, which Open
! MPI's table no longer holds (its index converts to MPI_REQUEST_NULL); reported at the Fortran
! line of the call, as file_request_waited_twice is below 4096. Issue 28.
! np: 1
! expect: request_freed ranks 0 line 30
program requests_many_waited_twice
#include "mpi_style.h"
  integer, parameter :: n = 5000
  integer :: rank, ierr, i, one
  integer :: values(n)
#if defined(STYLE_F08)
  type(MPI_Request) :: requests(n), copy
#else
  integer :: requests(n), copy
#endif
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  one = 1
  do i = 1, n
    call MPI_Irecv(values(i), 1, MPI_INTEGER, rank, i, MPI_COMM_WORLD, requests(i), ierr)
  end do
  do i = 1, n
    call MPI_Send(one, 1, MPI_INTEGER, rank, i, MPI_COMM_WORLD, ierr)
  end do
  copy = requests(n)
  call MPI_Wait(requests(n), MPI_STATUS_IGNORE, ierr)
  ! one statement, whose line gfortran gives the call in every style
  call MPI_Wait(copy, MPI_STATUS_IGNORE, ierr) ! <- reported
  call MPI_Waitall(n - 1, requests, MPI_STATUSES_IGNORE, ierr)
  call MPI_Finalize(ierr)
end program requests_many_waited_twice
