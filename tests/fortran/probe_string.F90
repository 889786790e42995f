! Both ranks probe for the other's message in an IF statement whose condition holds a character
! string continued over two lines (an & ends the first inside the string, another starts the
! second), with quotes and a ! in its second line: a deadlock. A later string goes on over two
! lines naming MPI_Probe. gfortran 12 gives the call the IF statement's last line (mpif.h, MPICH's
! `use mpi`) or its first (docs/design/check.md, "Fortran call lines"); the reader carries the open
! string to the next line, so the finding names the IF statement's first line either way.
! np: 2
! expect: deadlock ranks 0,1 knot 0,1 line 15
program probe_string
#include "mpi_style.h"
  character(len=5) :: greeting
#include "probe_peer.h"
  greeting = 'hello'
  ! MPI_Probe returns once the other rank's message is there: it never is
  if (greeting /= 'a message that &
                 &never comes: ''!''') call MPI_Probe(peer, tag, comm, status, ierr) ! <- reported
  print *, 'not printed: &
           &MPI_Probe(peer, tag, comm, status, ierr) never returns'
  call MPI_Finalize(ierr)
end program
