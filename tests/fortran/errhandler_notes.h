! Shared by the programs of window and file error handlers (errhandler_win_leak.F90,
! errhandler_file_leak.F90, errhandler_win_file_freed.F90), included after the program so that its
! lines stay its own: a handler that notes the code and the handle it gets in common /seen/, the
! check of what it noted, and (own_file.h) a file of the rank's own to set a handler on.

! A window's or file's handler: in `use mpi_f08` too, what it gets is one INTEGER (a TYPE(MPI_Win)
! or TYPE(MPI_File) holds just that), so one subroutine serves both kinds.
subroutine note_error(handle, code)
  implicit none
  integer :: handle, code, seen_code, seen_handle
  common /seen/ seen_code, seen_handle
  seen_code = code
  seen_handle = handle
end subroutine note_error

! Stops the program unless the last handler called got code and handle.
subroutine expect_noted(code, handle)
  implicit none
  integer :: code, handle, seen_code, seen_handle
  common /seen/ seen_code, seen_handle
  if (seen_code /= code .or. seen_handle /= handle) error stop 'the handler got other arguments'
end subroutine expect_noted

#include "own_file.h"
