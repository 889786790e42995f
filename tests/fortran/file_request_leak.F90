! Each rank writes its number into a file of its own with MPI_File_iwrite_at and never completes
! the request: one nonblocking file request per rank still active at MPI_Finalize, reported at the
! Fortran line of the call (mpiguard's Fortran entry, which the MPI's own binding would bypass).
! Issue 28.
! np: 2
! expect: request_not_completed ranks 0 line 22
! expect: request_not_completed ranks 1 line 22
program file_request_leak
#include "mpi_style.h"
  integer :: rank, ierr
  integer(kind=MPI_OFFSET_KIND) :: offset
#if defined(STYLE_F08)
  type(MPI_File) :: file
  type(MPI_Request) :: request
#else
  integer :: file, request
#endif
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call open_own_file(file)
  offset = 0
  call MPI_File_iwrite_at(file, offset, rank, 1, MPI_INTEGER, request, ierr) ! <- reported
  call MPI_File_close(file, ierr)
  call MPI_Finalize(ierr)
end program file_request_leak

#include "own_file.h"
