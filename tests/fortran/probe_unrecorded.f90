! Both ranks probe for the other's message in a call written over two lines: a deadlock. The text
! is fixed form under a free form's suffix, compiled with -ffixed-form and -gno-record-gcc-switches,
! so the debug information does not say the form: the text does (its C comment line, its & in
! column 6), and the call's row, its statement's last line, becomes the statement's first
! (docs/design/check.md, "Fortran call lines"). Built in the mpif style only, where the call has
! its own row.
! np: 2
! expect: deadlock ranks 0,1 knot 0,1 line 14
      PROGRAM PROBE_UNRECORDED
#include "mpi_style.h"
#include "probe_peer.h"
C     MPI_PROBE RETURNS ONCE THE OTHER RANK'S MESSAGE IS THERE: IT
C     NEVER IS
      CALL MPI_PROBE(PEER, TAG,
     &               COMM, STATUS, IERR)
      CALL MPI_FINALIZE(IERR)
      END
