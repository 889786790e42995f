! A window's error handler a Fortran program makes with MPI_Win_create_errhandler, sets on its
! window and never frees: one errhandler_leak per rank at the creation's Fortran line.
! MPI_Win_call_errhandler runs the handler, which must get the window and the code as Fortran's
! (mpiguard's trampoline converts the C window MPI passes). Issue 28.
! np: 2
! expect: errhandler_leak ranks 0 line 19
! expect: errhandler_leak ranks 1 line 19
program errhandler_win_leak
#include "mpi_style.h"
  integer :: ierr
  external :: note_error
#if defined(STYLE_F08)
  type(MPI_Win) :: win
  type(MPI_Errhandler) :: handler
#else
  integer :: win, handler
#endif
  call MPI_Init(ierr)
  call MPI_Win_create_errhandler(note_error, handler, ierr) ! <- reported
  call MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_Win_set_errhandler(win, handler, ierr)
  call MPI_Win_call_errhandler(win, MPI_ERR_WIN, ierr)
  call expect_noted(MPI_ERR_WIN, MG_HANDLE(win))
  call MPI_Win_free(win, ierr)
  call MPI_Finalize(ierr)
end program errhandler_win_leak

#include "errhandler_notes.h"
