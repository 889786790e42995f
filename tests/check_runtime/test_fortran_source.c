/* The line of the one statement of a Fortran procedure's text that names an MPI function
 * (fortran_source.h): found whatever the case, past comments, strings, USE statements and names
 * the function's is a prefix of; unknown (0) when two statements name it, when an included file
 * or a #define anywhere does, when an included file cannot be read (mpif.h aside), and when the
 * only naming lies past the procedure's text. */
#include "fortran_source.h"
#include "mg_test.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char dir[] = "/tmp/mg-fortran-source-XXXXXX";
static char path[PATH_MAX];

/* Writes text as dir/name; path is the file's path. */
static void write_file(const char *name, const char *text)
{
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    MG_CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* The procedure's text is lines 1 .. 8 of each program (line 9 is past it). */
static int call_line(const char *program)
{
    write_file("p.F90", program);
    return fortran_source_call_line(path, 1, 9, "MPI_Grequest_start");
}

static void test_one_statement(void)
{
    MG_CHECK_INT(call_line("program p\n"
                           "  use mpi, only: MPI_Init, MPI_Grequest_start, &\n"
                           "                 MPI_Grequest_start\n"
                           "  ! MPI_Grequest_start would start it\n"
                           "  print *, 'MPI_Grequest_start('\n"
                           "  call MPI_Grequest_startx(ierr)\n"
                           "  CALL mpi_grequest_start (q, f, c, state, request, ierr) ! start\n"
                           "end program p\n"),
                 7);
    MG_CHECK_INT(call_line("program p\n"
                           "  call MPI_Grequest_start(q, f, c, state, &\n"
                           "                          request, ierr)\n"
                           "end program p\n"
                           "subroutine s\n"
                           "end subroutine s\n"
                           "\n"
                           "\n"
                           "  call MPI_Grequest_start(q, f, c, state, request, ierr)\n"),
                 2);
}

static void test_two_statements(void)
{
    MG_CHECK_INT(call_line("program p\n"
                           "  call MPI_Grequest_start(q, f, c, state, request, ierr)\n"
                           "  call MPI_Grequest_start(q, f, c, state, request2, ierr)\n"
                           "end program p\n"),
                 0);
    MG_CHECK_INT(
        call_line("program p\n"
                  "  call MPI_Grequest_start(q, f, c, s, r, e); call MPI_Grequest_start(q)\n"
                  "end program p\n"),
        0);
}

static void test_includes_and_macros(void)
{
    write_file("calls.inc", "  call MPI_Grequest_start(q, f, c, state, request, ierr)\n");
    write_file("decls.h", "  implicit none\n  include 'mpif.h'\n");
    write_file("macro.h", "#define START call MPI_Grequest_start(q, f, c, s, r, e)\n");
    MG_CHECK_INT(call_line("program p\n"
                           "#include \"decls.h\"\n"
                           "  call MPI_Grequest_start(q, f, c, state, request, ierr)\n"
                           "end program p\n"),
                 3);
    MG_CHECK_INT(call_line("program p\n"
                           "  include 'calls.inc'\n"
                           "  call MPI_Grequest_start(q, f, c, state, request, ierr)\n"
                           "end program p\n"),
                 0);
    MG_CHECK_INT(call_line("program p\n"
                           "  call MPI_Grequest_start(q, f, c, state, request, ierr)\n"
                           "  START\n"
                           "end program p\n"
                           "#include \"macro.h\"\n"),
                 0);
    MG_CHECK_INT(call_line("#define START call MPI_Grequest_start(q, f, c, s, r, e)\n"
                           "program p\n"
                           "  call MPI_Grequest_start(q, f, c, state, request, ierr)\n"
                           "end program p\n"),
                 0);
    MG_CHECK_INT(call_line("program p\n"
                           "#include \"missing.h\"\n"
                           "  call MPI_Grequest_start(q, f, c, state, request, ierr)\n"
                           "end program p\n"),
                 0);
}

static void test_none(void)
{
    MG_CHECK_INT(call_line("program p\n"
                           "  call MPI_Init(ierr)\n"
                           "end program p\n"),
                 0);
    MG_CHECK_INT(fortran_source_call_line("/nonexistent/p.F90", 1, 9, "MPI_Grequest_start"), 0);
}

int main(void)
{
    MG_CHECK(mkdtemp(dir) != NULL);
    MG_RUN(test_one_statement);
    MG_RUN(test_two_statements);
    MG_RUN(test_includes_and_macros);
    MG_RUN(test_none);
    for (const char *name = "p.F90\0calls.inc\0decls.h\0macro.h\0"; *name;
         name += strlen(name) + 1) {
        snprintf(path, sizeof path, "%s/%s", dir, name);
        unlink(path);
    }
    rmdir(dir);
    MG_TEST_END();
}
