! A communicator's error handler a Fortran program makes with MPI_Comm_create_errhandler, sets on a
! duplicate of MPI_COMM_WORLD and never frees: one errhandler_leak per rank at the creation's
! Fortran line. MPI_Comm_call_errhandler runs the handler, which must get the duplicate and the
! code as Fortran's (mpiguard's trampoline converts the C communicator MPI passes). The handler
! comes after the program: a module before it would shift the lines gfortran gives its calls.
! Issue 28.
! np: 2
! expect: errhandler_leak ranks 0 line 24
! expect: errhandler_leak ranks 1 line 24
program errhandler_leak
#include "mpi_style.h"
  integer :: rank, ierr, seen_code, seen_rank
  common /seen/ seen_code, seen_rank
  external :: note_error
#if defined(STYLE_F08)
  type(MPI_Comm) :: work
  type(MPI_Errhandler) :: handler
#else
  integer :: work, handler
#endif
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, work, ierr)
  call MPI_Comm_create_errhandler(note_error, handler, ierr) ! <- reported
  call MPI_Comm_set_errhandler(work, handler, ierr)
  call MPI_Comm_call_errhandler(work, MPI_ERR_OTHER, ierr)
  if (seen_code /= MPI_ERR_OTHER .or. seen_rank /= rank) error stop 'the handler got other arguments'
  call MPI_Comm_free(work, ierr)
  call MPI_Finalize(ierr)
end program errhandler_leak

subroutine note_error(comm, code)
#include "mpi_style.h"
#if defined(STYLE_F08)
  type(MPI_Comm) :: comm
#else
  integer :: comm
#endif
  integer :: code, ierr, seen_code, seen_rank
  common /seen/ seen_code, seen_rank
  seen_code = code
  call MPI_Comm_rank(comm, seen_rank, ierr)
end subroutine note_error
