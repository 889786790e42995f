! Rank 0 keeps a copy of its MPI_File_iwrite_at request and waits on both: the first MPI_Wait
! completes and frees the request and sets only the handle it was given to MPI_REQUEST_NULL, so the
! second waits on a request already freed, reported at the Fortran line of the call before it
! reaches MPI, which may then end the job (as the C suite's request_freed_wait_copy). Issue 28.
! np: 2
! expect: request_freed ranks 0 line 27
program file_request_waited_twice
#include "mpi_style.h"
  integer :: rank, ierr
  integer(kind=MPI_OFFSET_KIND) :: offset
#if defined(STYLE_F08)
  type(MPI_File) :: file
  type(MPI_Request) :: request, copy
#else
  integer :: file, request, copy
#endif
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call open_own_file(file)
  call MPI_File_set_errhandler(file, MPI_ERRORS_RETURN, ierr)
  offset = 0
  call MPI_File_iwrite_at(file, offset, rank, 1, MPI_INTEGER, request, ierr)
  copy = request
  call MPI_Wait(request, MPI_STATUS_IGNORE, ierr)
  ! one statement with its test, whose line gfortran gives the call in every style
  if (rank == 0) call MPI_Wait(copy, MPI_STATUS_IGNORE, ierr) ! <- reported
  call MPI_File_close(file, ierr)
  call MPI_Finalize(ierr)
end program file_request_waited_twice

#include "own_file.h"
