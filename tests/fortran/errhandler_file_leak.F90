! A file's error handler a Fortran program makes with MPI_File_create_errhandler, sets on a file it
! opens and never frees: one errhandler_leak per rank at the creation's Fortran line.
! MPI_File_call_errhandler runs the handler, which must get the file and the code as Fortran's
! (mpiguard's trampoline converts the C file MPI passes). Issue 28.
! np: 2
! expect: errhandler_leak ranks 0 line 23
! expect: errhandler_leak ranks 1 line 23
program errhandler_file_leak
#include "mpi_style.h"
  integer :: ierr, seen_code, seen_file
  common /seen/ seen_code, seen_file
  external :: note_file_error
  integer :: opened
  character(len=64) :: path
#if defined(STYLE_F08)
  type(MPI_File) :: file
  type(MPI_Errhandler) :: handler
#else
  integer :: file, handler
#endif
  call MPI_Init(ierr)
  write (path, '(a,i0,a)') '/tmp/mpiguard-errhandler-', getpid(), '.tmp'
  call MPI_File_create_errhandler(note_file_error, handler, ierr) ! <- reported
  call MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE + MPI_MODE_RDWR + MPI_MODE_DELETE_ON_CLOSE, &
                     MPI_INFO_NULL, file, ierr)
  if (ierr /= MPI_SUCCESS) error stop 'MPI_File_open failed'
  opened = MG_HANDLE(file)
  call MPI_File_set_errhandler(file, handler, ierr)
  call MPI_File_call_errhandler(file, MPI_ERR_FILE, ierr)
  call MPI_File_close(file, ierr)
  if (seen_code /= MPI_ERR_FILE .or. seen_file /= opened) error stop 'the handler got other arguments'
  call MPI_Finalize(ierr)
end program errhandler_file_leak

subroutine note_file_error(file, code)
#include "mpi_style.h"
#if defined(STYLE_F08)
  type(MPI_File) :: file
#else
  integer :: file
#endif
  integer :: code, seen_code, seen_file
  common /seen/ seen_code, seen_file
  seen_code = code
  seen_file = MG_HANDLE(file)
end subroutine note_file_error
