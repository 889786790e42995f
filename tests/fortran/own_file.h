! A file of the rank's own for the programs that need one (errhandler_notes.h, the programs of file
! requests), included after the program so that its lines stay its own.

! A file in /tmp of this process alone, deleted at its close.
subroutine open_own_file(file)
#include "mpi_style.h"
#if defined(STYLE_F08)
  type(MPI_File) :: file
#else
  integer :: file
#endif
  integer :: ierr
  character(len=64) :: path
  write (path, '(a,i0,a)') '/tmp/mpiguard-fortran-', getpid(), '.tmp'
  call MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE + MPI_MODE_RDWR + MPI_MODE_DELETE_ON_CLOSE, &
                     MPI_INFO_NULL, file, ierr)
  if (ierr /= MPI_SUCCESS) error stop 'MPI_File_open failed'
end subroutine open_own_file
