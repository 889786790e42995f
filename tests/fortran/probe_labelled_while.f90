! Both ranks probe for the other's message in a `do 30 while` loop that ends on a labelled
! assignment (free form): a deadlock. As in probe_labelled.f90, through `use mpi_f08` and Open
! MPI's `use mpi` gfortran 12 gives the call a row of the loop's statements, not its own
! (docs/design/check.md, "Fortran call lines").
! np: 2
! expect: deadlock ranks 0,1 knot 0,1 line 13
program probe_labelled_while
#include "mpi_style.h"
  integer :: rounds
#include "probe_peer.h"
  rounds = 0
  do 30 while (rounds < 3)
    call MPI_Probe(peer, tag, comm, status, ierr) ! <- reported
30 rounds = rounds + 1
  call MPI_Finalize(ierr)
end program
