! A window's error handler a Fortran program makes with MPI_Win_create_errhandler, sets on its
! window and never frees: one errhandler_leak per rank at the creation's Fortran line.
! MPI_Win_call_errhandler runs the handler, which must get the window and the code as Fortran's
! (mpiguard's trampoline converts the C window MPI passes). Issue 28.
! np: 2
! expect: errhandler_leak ranks 0 line 20
! expect: errhandler_leak ranks 1 line 20
program errhandler_win_leak
#include "mpi_style.h"
  integer :: ierr, seen_code, seen_win
  common /seen/ seen_code, seen_win
  external :: note_win_error
#if defined(STYLE_F08)
  type(MPI_Win) :: win
  type(MPI_Errhandler) :: handler
#else
  integer :: win, handler
#endif
  call MPI_Init(ierr)
  call MPI_Win_create_errhandler(note_win_error, handler, ierr) ! <- reported
  call MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_Win_set_errhandler(win, handler, ierr)
  call MPI_Win_call_errhandler(win, MPI_ERR_WIN, ierr)
  if (seen_code /= MPI_ERR_WIN .or. seen_win /= MG_HANDLE(win)) error stop 'the handler got other arguments'
  call MPI_Win_free(win, ierr)
  call MPI_Finalize(ierr)
end program errhandler_win_leak

subroutine note_win_error(win, code)
#include "mpi_style.h"
#if defined(STYLE_F08)
  type(MPI_Win) :: win
#else
  integer :: win
#endif
  integer :: code, seen_code, seen_win
  common /seen/ seen_code, seen_win
  seen_code = code
  seen_win = MG_HANDLE(win)
end subroutine note_win_error
