! Both ranks probe for the other's message in two nested `DO 20` loops sharing their ending
! `20 CONTINUE` (fixed form): a deadlock. As in probe_labelled.f90, through `use mpi_f08` and
! Open MPI's `use mpi` gfortran 12 gives the call a row of the loops' statements, not its own
! (docs/design/check.md, "Fortran call lines"); the comment line in the loop names the function
! too, and is no statement.
! np: 2
! expect: deadlock ranks 0,1 knot 0,1 line 17
      PROGRAM PROBE_SHARED_LABEL
#include "mpi_style.h"
      INTEGER I, J, N
#include "probe_peer.h"
      N = 2
      DO 20 I = 1, N
      DO 20 J = 1, N
C        MPI_PROBE RETURNS ONCE THE OTHER RANK'S MESSAGE IS THERE: IT
C        NEVER IS
         CALL MPI_PROBE(PEER, TAG, COMM, STATUS, IERR)
   20 CONTINUE
      CALL MPI_FINALIZE(IERR)
      END
