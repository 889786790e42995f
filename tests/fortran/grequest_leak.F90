! Each rank starts a generalized request with Fortran functions and completes it with
! MPI_Grequest_complete, but never waits on it or frees it: one request per rank still active at
! MPI_Finalize, reported at the Fortran line of MPI_Grequest_start. Issue 28.
! np: 2
! expect: request_not_completed ranks 0 line 19
! expect: request_not_completed ranks 1 line 19
program grequest_leak
#include "mpi_style.h"
  integer :: ierr
  integer(kind=MPI_ADDRESS_KIND) :: state
  external :: grequest_query, grequest_free, grequest_cancel
#if defined(STYLE_F08)
  type(MPI_Request) :: request
#else
  integer :: request
#endif
  call MPI_Init(ierr)
  state = 7
  call MPI_Grequest_start(grequest_query, grequest_free, grequest_cancel, state, request, ierr) ! <- reported
  call MPI_Grequest_complete(request, ierr)
  call MPI_Finalize(ierr)
end program grequest_leak

#include "grequest_callbacks.h"
