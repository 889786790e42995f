! Both ranks probe for the other's message before sending theirs, in a call written over three
! lines with a comment line among them: a deadlock. gfortran 12's line table gives the call its
! statement's last line (mpif.h, MPICH's `use mpi`), or the program statement's where it gives it no
! row of its own (`use mpi_f08`, Open MPI's `use mpi`: docs/design/check.md, "Fortran call
! lines"), and its line comes from the source; either way the finding names the statement's first
! line, where the call is read.
! np: 2
! expect: deadlock ranks 0,1 knot 0,1 line 13
program probe_continued
#include "mpi_style.h"
#include "probe_peer.h"
  ! MPI_Probe returns once the other rank's message is there: it never is
  call MPI_Probe(peer, tag, & ! <- reported
                 ! the message probed for
                 comm, status, &
                 ierr)
  call MPI_Finalize(ierr)
end program
