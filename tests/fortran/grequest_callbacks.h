! The functions of a generalized request that does nothing, for the programs that start one
! (MPI_Grequest_start(grequest_query, grequest_free, grequest_cancel, state, request, ierr)),
! included after the program so that its lines stay its own: complete as soon as the program calls
! MPI_Grequest_complete, with an empty status. The MPI calls them as Fortran's, with ierror last
! and extra_state by reference; grequest_free notes the state it gets in common /freed/, for the
! program to check.
subroutine grequest_query(extra_state, status, ierr)
#include "mpi_style.h"
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  MG_STATUS(status)
  integer :: ierr
  call MPI_Status_set_elements(status, MPI_BYTE, 0, ierr)
  call MPI_Status_set_cancelled(status, .false., ierr)
  ierr = MPI_SUCCESS
end subroutine grequest_query

subroutine grequest_free(extra_state, ierr)
#include "mpi_style.h"
  integer(kind=MPI_ADDRESS_KIND) :: extra_state, freed_state
  integer :: ierr
  common /freed/ freed_state
  freed_state = extra_state
  ierr = MPI_SUCCESS
end subroutine grequest_free

subroutine grequest_cancel(extra_state, complete, ierr)
#include "mpi_style.h"
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  logical :: complete
  integer :: ierr
  ierr = MPI_SUCCESS
end subroutine grequest_cancel
