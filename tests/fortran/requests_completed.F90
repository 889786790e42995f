! The correct counterpart of file_request_leak and grequest_leak: each rank writes and reads back
! its number with MPI_File_iwrite_at and MPI_File_iread_at, and starts, completes and waits on a
! generalized request, whose free function the MPI calls as Fortran's with the program's state.
! Every call is one check models: clean, with no call listed as not checked. Issue 28.
! np: 2
! expect: clean
program requests_completed
#include "mpi_style.h"
  integer :: rank, ierr, back
  integer(kind=MPI_OFFSET_KIND) :: offset
  integer(kind=MPI_ADDRESS_KIND) :: state, freed_state
  common /freed/ freed_state
  external :: grequest_query, grequest_free, grequest_cancel
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
  call MPI_File_iwrite_at(file, offset, rank, 1, MPI_INTEGER, request, ierr)
  call MPI_Wait(request, MPI_STATUS_IGNORE, ierr)
  back = -1
  call MPI_File_iread_at(file, offset, back, 1, MPI_INTEGER, request, ierr)
  call MPI_Wait(request, MPI_STATUS_IGNORE, ierr)
  if (back /= rank) error stop 'read back another number'
  call MPI_File_close(file, ierr)
  state = 40 + rank
  freed_state = 0
  call MPI_Grequest_start(grequest_query, grequest_free, grequest_cancel, state, request, ierr)
  call MPI_Grequest_complete(request, ierr)
  call MPI_Wait(request, MPI_STATUS_IGNORE, ierr)
  if (freed_state /= 40 + rank) error stop 'the free function got another state'
  call MPI_Finalize(ierr)
end program requests_completed

#include "own_file.h"
#include "grequest_callbacks.h"
