! A Fortran program that waits for ever in a module's subroutine, for test_unwind_lines.c. The
! subroutine's INTENT(OUT) argument makes gfortran 12 give run's call of it run's own row, 16
! (docs/design/platform-notes.md, "gfortran 12's line table"); the call's line, 20, comes from
! the source only when the frame's lookup names the function called.
module waits
contains
  subroutine mg_wait(n)
    integer, intent(out) :: n
    n = 0
    do
      call sleep(1)
      n = n + 1
    end do
  end subroutine
end module
subroutine run
  use waits
  implicit none
  integer :: n
  call mg_wait(n)
end subroutine
program unwind_lines
  call run
end program
