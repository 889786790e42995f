! What the probe_* programs share, included after mpi_style.h and their own declarations: MPI
! started, comm (MPI_COMM_WORLD), rank, peer (the other of two ranks), tag 0 and a status to probe
! with. Its statements start in column 7, so that fixed-form programs (.f) include it too.
      integer :: rank, ierr, peer, tag
      MG_STATUS(status)
      MG_COMM(comm)
      call MPI_Init(ierr)
      comm = MPI_COMM_WORLD
      call MPI_Comm_rank(comm, rank, ierr)
      peer = 1 - rank
      tag = 0
