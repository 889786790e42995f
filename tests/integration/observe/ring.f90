! An Open MPI or MPICH Fortran program (use mpi) for tests/integration/observe.sh: Allreduces for
! SECONDS seconds; with a second argument R, rank R spins forever after 2 s (a computation hang).
program ring
  use mpi
  implicit none
  integer :: ierr, rank, going, hang_rank
  double precision :: t0, seconds, spin
  character(len=32) :: arg
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call get_command_argument(1, arg)
  read (arg, *) seconds
  hang_rank = -1
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) hang_rank
  end if
  t0 = MPI_Wtime()
  spin = 0
  going = 1
  do while (going == 1)
    if (rank == hang_rank .and. MPI_Wtime() - t0 > 2) then
      do while (spin >= 0)
        spin = spin + 1
      end do
    end if
    going = merge(1, 0, MPI_Wtime() - t0 < seconds)
    ! every rank stops at the same iteration: the first whose clock says so
    call MPI_Allreduce(MPI_IN_PLACE, going, 1, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD, ierr)
  end do
  if (rank == 0) print '(a)', 'ring: done'
  call MPI_Finalize(ierr)
end program ring
