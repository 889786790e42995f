! A window's and a file's error handlers a Fortran program makes, sets, calls and frees once set
! (MPI keeps a handler while a window or file uses it): nothing to find, and each handler gets its
! window or file and the code as Fortran's. Issue 28.
! np: 2
! expect: clean
program errhandler_win_file_freed
#include "mpi_style.h"
  integer :: ierr, seen_code, seen_handle
  common /seen/ seen_code, seen_handle
  external :: note_win_error, note_file_error
  integer :: opened
  character(len=64) :: path
#if defined(STYLE_F08)
  type(MPI_Win) :: win
  type(MPI_File) :: file
  type(MPI_Errhandler) :: handler
#else
  integer :: win, file, handler
#endif
  call MPI_Init(ierr)
  call MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_Win_create_errhandler(note_win_error, handler, ierr)
  call MPI_Win_set_errhandler(win, handler, ierr)
  call MPI_Errhandler_free(handler, ierr)
  call MPI_Win_call_errhandler(win, MPI_ERR_WIN, ierr)
  if (seen_code /= MPI_ERR_WIN .or. seen_handle /= MG_HANDLE(win)) error stop 'the window handler got other arguments'
  call MPI_Win_free(win, ierr)

  write (path, '(a,i0,a)') '/tmp/mpiguard-errhandler-', getpid(), '.tmp'
  call MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE + MPI_MODE_RDWR + MPI_MODE_DELETE_ON_CLOSE, &
                     MPI_INFO_NULL, file, ierr)
  if (ierr /= MPI_SUCCESS) error stop 'MPI_File_open failed'
  opened = MG_HANDLE(file)
  call MPI_File_create_errhandler(note_file_error, handler, ierr)
  call MPI_File_set_errhandler(file, handler, ierr)
  call MPI_Errhandler_free(handler, ierr)
  call MPI_File_call_errhandler(file, MPI_ERR_FILE, ierr)
  call MPI_File_close(file, ierr)
  if (seen_code /= MPI_ERR_FILE .or. seen_handle /= opened) error stop 'the file handler got other arguments'
  call MPI_Finalize(ierr)
end program errhandler_win_file_freed

subroutine note_win_error(win, code)
#include "mpi_style.h"
#if defined(STYLE_F08)
  type(MPI_Win) :: win
#else
  integer :: win
#endif
  integer :: code, seen_code, seen_handle
  common /seen/ seen_code, seen_handle
  seen_code = code
  seen_handle = MG_HANDLE(win)
end subroutine note_win_error

subroutine note_file_error(file, code)
#include "mpi_style.h"
#if defined(STYLE_F08)
  type(MPI_File) :: file
#else
  integer :: file
#endif
  integer :: code, seen_code, seen_handle
  common /seen/ seen_code, seen_handle
  seen_code = code
  seen_handle = MG_HANDLE(file)
end subroutine note_file_error
