! A window's and a file's error handlers a Fortran program makes, sets, calls and frees once set
! (MPI keeps a handler while a window or file uses it): nothing to find, and each handler gets its
! window or file and the code as Fortran's. Issue 28.
! np: 2
! expect: clean
program errhandler_win_file_freed
#include "mpi_style.h"
  integer :: ierr, opened
  external :: note_error
#if defined(STYLE_F08)
  type(MPI_Win) :: win
  type(MPI_File) :: file
  type(MPI_Errhandler) :: handler
#else
  integer :: win, file, handler
#endif
  call MPI_Init(ierr)
  call MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_Win_create_errhandler(note_error, handler, ierr)
  call MPI_Win_set_errhandler(win, handler, ierr)
  call MPI_Errhandler_free(handler, ierr)
  call MPI_Win_call_errhandler(win, MPI_ERR_WIN, ierr)
  call expect_noted(MPI_ERR_WIN, MG_HANDLE(win))
  call MPI_Win_free(win, ierr)

  call open_own_file(file)
  opened = MG_HANDLE(file)
  call MPI_File_create_errhandler(note_error, handler, ierr)
  call MPI_File_set_errhandler(file, handler, ierr)
  call MPI_Errhandler_free(handler, ierr)
  call MPI_File_call_errhandler(file, MPI_ERR_FILE, ierr)
  call MPI_File_close(file, ierr)
  call expect_noted(MPI_ERR_FILE, opened)
  call MPI_Finalize(ierr)
end program errhandler_win_file_freed

#include "errhandler_notes.h"
