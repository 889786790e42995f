! A file's error handler a Fortran program makes with MPI_File_create_errhandler, sets on a file it
! opens and never frees: one errhandler_leak per rank at the creation's Fortran line.
! MPI_File_call_errhandler runs the handler, which must get the file and the code as Fortran's
! (mpiguard's trampoline converts the C file MPI passes). Issue 28.
! np: 2
! expect: errhandler_leak ranks 0 line 19
! expect: errhandler_leak ranks 1 line 19
program errhandler_file_leak
#include "mpi_style.h"
  integer :: ierr, opened
  external :: note_error
#if defined(STYLE_F08)
  type(MPI_File) :: file
  type(MPI_Errhandler) :: handler
#else
  integer :: file, handler
#endif
  call MPI_Init(ierr)
  call MPI_File_create_errhandler(note_error, handler, ierr) ! <- reported
  call open_own_file(file)
  opened = MG_HANDLE(file)
  call MPI_File_set_errhandler(file, handler, ierr)
  call MPI_File_call_errhandler(file, MPI_ERR_FILE, ierr)
  call MPI_File_close(file, ierr)
  call expect_noted(MPI_ERR_FILE, opened)
  call MPI_Finalize(ierr)
end program errhandler_file_leak

#include "errhandler_notes.h"
