! Both ranks probe for the other's message before sending theirs, in a `do 10` loop that ends on
! a labelled continue (free form): a deadlock. The call's arguments are variables, so through
! `use mpi_f08` on both MPIs and Open MPI's `use mpi` gfortran 12 gives it the row of the loop's
! `10 continue` (docs/design/check.md, "Fortran call lines"), and its line must come from the
! loop's body. Elsewhere the call has its own row.
! np: 2
! expect: deadlock ranks 0,1 knot 0,1 line 15
program probe_labelled
#include "mpi_style.h"
  integer :: i, rounds
#include "probe_peer.h"
  rounds = 3
  do 10 i = 1, rounds
    ! MPI_Probe returns once the other rank's message is there: it never is
    call MPI_Probe(peer, tag, comm, status, ierr) ! <- reported
10 continue
  call MPI_Finalize(ierr)
end program
