! Two communicators' error handlers a Fortran program makes, sets on MPI_COMM_WORLD one after the
! other and frees once set (MPI keeps a handler while a communicator uses it): nothing to find.
! Issue 28.
! np: 2
! expect: clean
module errhandler_quiet
#include "mpi_style.h"
contains
  subroutine quiet_error(comm, code)
#if defined(STYLE_F08)
    type(MPI_Comm) :: comm
#else
    integer :: comm
#endif
    integer :: code
    if (code == MPI_SUCCESS) print *, 'quiet_error: called without an error'
  end subroutine quiet_error
end module errhandler_quiet

program errhandler_freed
  use errhandler_quiet
  implicit none
  integer :: ierr, i
#if defined(STYLE_F08)
  type(MPI_Errhandler) :: handler
#else
  integer :: handler
#endif
  call MPI_Init(ierr)
  do i = 1, 2
    call MPI_Comm_create_errhandler(quiet_error, handler, ierr)
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler, ierr)
    call MPI_Errhandler_free(handler, ierr)
  end do
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
end program errhandler_freed
