! grequest_leak's generalized request, started from two statements: two requests per rank still
! active at MPI_Finalize. Through `use mpi` and `use mpi_f08`, gfortran 12 gives both calls the
! program statement's line (docs/design/platform-notes.md, "gfortran 12's line table"): each
! call's order among the program's two calls of MPI_Grequest_start names its statement
! (docs/design/check.md, "Fortran call lines"). Through mpif.h, each its own line. The `use` is on
! the line after the program statement, as real codes write it (mpi_style.h's repeats it): there
! gfortran declares the C main it generates, which starts no procedure's text.
! np: 2
! expect: request_not_completed ranks 0 line 33
! expect: request_not_completed ranks 1 line 33
! expect: request_not_completed ranks 0 line 34
! expect: request_not_completed ranks 1 line 34
#if defined(STYLE_F08)
#define MG_USE use mpi_f08
#elif defined(STYLE_MPI)
#define MG_USE use mpi
#else
#define MG_USE
#endif
program grequest_leak_twice
  MG_USE
#include "mpi_style.h"
  integer :: ierr
  integer(kind=MPI_ADDRESS_KIND) :: state
  external :: grequest_query, grequest_free, grequest_cancel
#if defined(STYLE_F08)
  type(MPI_Request) :: first, second
#else
  integer :: first, second
#endif
  call MPI_Init(ierr)
  state = 7
  call MPI_Grequest_start(grequest_query, grequest_free, grequest_cancel, state, first, ierr)
  call MPI_Grequest_start(grequest_query, grequest_free, grequest_cancel, state, second, ierr)
  call MPI_Grequest_complete(first, ierr)
  call MPI_Grequest_complete(second, ierr)
  call MPI_Finalize(ierr)
end program grequest_leak_twice

#include "grequest_callbacks.h"
