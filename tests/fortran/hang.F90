! Conjugate-gradient-like iterations (local work, then an Allreduce of two dot products and rank 0's
! Bcast of whether to stop) for SECONDS; with FAULT_AT > 0, rank FAULT_RANK enters an endless
! compute loop at FAULT_AT seconds and the other ranks wait for it in the MPI_Barrier that follows
! (in subroutine wait_for_all): a computation hang whose faulty rank `mpiguard hang` must name. The
! Barrier's arguments are variables, so that under `use mpi` and `use mpi_f08` gfortran 12's line
! table gives the call the subroutine statement's line (docs/design/platform-notes.md, "gfortran
! 12's line table"), and the stack's line of it must come from the source. Usage: hang SECONDS
! FAULT_AT FAULT_RANK
program hang
#include "mpi_style.h"
  interface
    subroutine fault_compute_loop() bind(C, name='fault_compute_loop')
    end subroutine
  end interface
  integer, parameter :: n = 200000
  integer :: rank, nprocs, ierr, i, iterations, fault_rank, stop_now
  double precision :: seconds, fault_at, start, elapsed, alpha, local(2), global(2)
  double precision, allocatable :: x(:), r(:)
  character(len=32) :: arg
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call get_command_argument(1, arg)
  read (arg, *) seconds
  call get_command_argument(2, arg)
  read (arg, *) fault_at
  call get_command_argument(3, arg)
  read (arg, *) fault_rank
  allocate (x(n), r(n))
  x = 0
  r = [(1d0 + mod(i + rank, 5), i = 1, n)]
  start = MPI_Wtime()
  iterations = 0
  do
    elapsed = MPI_Wtime() - start
    if (fault_at > 0 .and. elapsed >= fault_at .and. rank == fault_rank) call fault_compute_loop()
    call wait_for_all()
    local = 0
    do i = 1, n
      local(1) = local(1) + r(i) * r(i)
      local(2) = local(2) + r(i) * (2 * r(i) - r(max(i - 1, 1)))
    end do
    call MPI_Allreduce(local, global, 2, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    alpha = global(1) / global(2)
    x = x + alpha * r
    r = 0.5 * r + 0.5 * mod(iterations, 3)
    iterations = iterations + 1
    stop_now = merge(1, 0, elapsed >= seconds)
    call MPI_Bcast(stop_now, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    if (stop_now == 1) exit
  end do
  if (rank == 0) print '(a,i0,a,i0,a)', 'hang: ', nprocs, ' ranks, ', iterations, ' iterations'
  call MPI_Finalize(ierr)
end program

subroutine wait_for_all()
#include "mpi_style.h"
#if defined(STYLE_F08)
  type(MPI_Comm) :: comm
#else
  integer :: comm
#endif
  integer :: ierr
  comm = MPI_COMM_WORLD
  call MPI_Barrier(comm, ierr)
end subroutine

! The faulty rank's endless loop, named for the report (bind(C): no compiler's mangling).
subroutine fault_compute_loop() bind(C, name='fault_compute_loop')
  implicit none
  double precision, volatile :: x
  x = 1
  do
    x = x * 1.0000001d0 + 1d-9
  end do
end subroutine
