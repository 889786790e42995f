/* The line of the one statement of a Fortran procedure's text that names an MPI function
 * (fortran_source.h): found whatever the case, past comments, strings, USE statements and names
 * the function's is a prefix of; unknown (0) when two statements name it, when an included file
 * or a #define anywhere does, when an included file cannot be read (mpif.h aside), and when the
 * only naming lies past the procedure's text. Two statements are told apart by the call's place
 * among the procedure's calls of the function where the counts agree; a row on a do loop's do or
 * ending statement (`end do`, or the labelled statement a `do 10` loop ends on, in free and fixed
 * form) gives the one naming of its body. */
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

/* The procedure's text is lines 1 .. 8 of each program (line 9 is past it), in file `name`; the
 * call's row is `row`, and it is call k of `calls` by address (calls 0: not known). */
static int call_line_in(const char *name, const char *program, int row, int k, int calls)
{
    write_file(name, program);
    fortran_source_call call = {.row = row, .k = k, .calls = calls};
    return fortran_source_call_line(path, 1, 9, "MPI_Grequest_start", &call);
}

/* A call given the procedure's line, its place among the calls not known. */
static int call_line(const char *program)
{
    return call_line_in("p.F90", program, 1, 0, 0);
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

/* Two statements, told apart by the call's place among the procedure's calls by address, where
 * the counts agree. */
static const char two[] = "program p\n"
                          "  call MPI_Grequest_start(q, f, c, state, request, ierr)\n"
                          "  if (.false.) call MPI_Init(ierr)\n"
                          "  call MPI_Grequest_start(q, f, c, state, request2, ierr)\n"
                          "end program p\n";

/* A call given a do loop's row: the one naming of the loop's body, or the call's by order. */
static const char loops[] = "program p\n"
                            "  call MPI_Grequest_start(q, f, c, state, request, ierr)\n"
                            "  outer: do i = 1, n\n"
                            "    call MPI_Grequest_start(q, f, c, state, request, ierr)\n"
                            "    DO WHILE (x)\n"
                            "    end do\n"
                            "  enddo outer\n"
                            "  double precision :: d\n";

/* `do 10` loops, one ended by a continue and one by a call. */
static const char labelled[] = "program p\n"
                               "  do 10 i = 1, n\n"
                               "    call MPI_Grequest_start(q, f, c, state, request, ierr)\n"
                               "10 continue\n"
                               "  do 20, i = 1, n\n"
                               "    x = x + 1\n"
                               "20 call MPI_Grequest_start(q, f, c, state, request, ierr)\n"
                               "  x = 0\n";

static const char shared[] = "program p\n"
                             "  do 30 i = 1, n\n"
                             "    do 30 j = 1, n\n"
                             "      if (j > 2) exit\n"
                             "      call MPI_Grequest_start(q, f, c, state, request, ierr)\n"
                             "30 continue\n"
                             "  call MPI_Grequest_start(q, f, c, state, request, ierr)\n";

static const char end_do[] = "program p\n"
                             "  do\n"
                             "    do 50 i = 1, n\n"
                             "      call MPI_Grequest_start(q, f, c, state, request, ierr)\n"
                             "50  end do\n"
                             "    call MPI_Grequest_start(q, f, c, state, request, ierr)\n"
                             "  end do\n";

static const struct {
    const char *program;
    int row, k, calls, line;
} placed[] = {
    {two, 1, 0, 2, 2},
    {two, 1, 1, 2, 4},
    /* a call the compiler dropped, or one more than the source shows */
    {two, 1, 0, 1, 0},
    {two, 1, 2, 3, 0},
    {"program p\n"
     "  call MPI_Grequest_start(q, f, c, s, r, e); call MPI_Grequest_start(q)\n",
     1, 1, 2, 2},
    {loops, 3, 0, 0, 4},
    {loops, 7, 0, 0, 4},
    {loops, 3, 1, 2, 4},
    /* the order puts the call outside the loop: a row that cannot be its */
    {loops, 3, 0, 2, 0},
    /* the inner loop names nothing; neither a statement nor a labelled do is a loop's row */
    {loops, 5, 0, 0, 0},
    {loops, 8, 0, 0, 0},
    /* a labelled loop: its do statement's row, or its ending statement's, labelled on a continue
     * or on an executable statement, which is in the loop's body (a row naming the function may
     * be the call's own: it stands) */
    {labelled, 2, 0, 0, 3},
    {labelled, 4, 0, 0, 3},
    {labelled, 5, 0, 0, 7},
    {labelled, 7, 0, 0, 0},
    /* nested loops sharing their ending statement: its row is the outer loop's */
    {shared, 2, 0, 0, 5},
    {shared, 3, 0, 0, 5},
    {shared, 6, 0, 0, 5},
    {shared, 6, 0, 2, 5},
    {shared, 6, 1, 2, 0},
    /* `10 end do` ends the labelled loop alone, the block loop around it ends after */
    {end_do, 3, 0, 0, 4},
    {end_do, 5, 0, 0, 4},
    {end_do, 7, 0, 0, 0},
    {end_do, 7, 1, 2, 6},
    {"program p\n"
     "  do 40 while (x)\n"
     "    call MPI_Grequest_start(q, f, c, state, request, ierr)\n"
     "40 continue\n",
     2, 0, 0, 3},
    /* loops that do not nest as read (a block loop ended by a labelled statement): none followed */
    {"program p\n"
     "  do 10 i = 1, n\n"
     "    do\n"
     "      call MPI_Grequest_start(q, f, c, state, request, ierr)\n"
     "10 continue\n"
     "    end do\n",
     2, 0, 0, 0},
    /* a do statement that names the function may make the call itself */
    {"program p\n"
     "  do while (MPI_Grequest_start(q) > 0)\n"
     "    call MPI_Grequest_start(q, f, c, state, request, ierr)\n"
     "  end do\n",
     2, 0, 0, 0},
};

static void test_placed_calls(void)
{
    for (size_t i = 0; i < sizeof placed / sizeof placed[0]; i++)
        MG_CHECK_INT(
            call_line_in("p.F90", placed[i].program, placed[i].row, placed[i].k, placed[i].calls),
            placed[i].line);
}

/* Fixed form (.f): a comment line starting with C, text past column 72 and a continuation mark in
 * column 6 name nothing and start no statement; labels in columns 1-5. */
static const char fixed[] = "      program p\n"
                            "C     call MPI_Grequest_start(q, f, c, state, request, ierr)\n"
                            "      do 10 i = 1, n\n"
                            "        call MPI_Grequest_start(q, f, c, state, request,\n"
                            "     1  10 , ierr)\n"
                            "   10 continue\n"
                            "      x = 0                         "
                            "                                    "
                            "MPI_Grequest_start\n"
                            "      end\n";

static void test_fixed_form(void)
{
    MG_CHECK_INT(call_line_in("p.f", fixed, 3, 0, 0), 4);
    MG_CHECK_INT(call_line_in("p.f", fixed, 6, 0, 0), 4);
    MG_CHECK_INT(call_line_in("p.f", fixed, 1, 0, 0), 4);
    /* read as free form, the comment and the columns past 72 name the function too */
    MG_CHECK_INT(call_line_in("p.F90", fixed, 1, 0, 0), 0);
    write_file("p.f", fixed);
    MG_CHECK_INT(
        fortran_source_call_line(path, 1, 9, "MPI_Grequest_start",
                                 &(fortran_source_call){.row = 1, .form = FORTRAN_SOURCE_FREE}),
        0);
    write_file("p.F90", fixed);
    MG_CHECK_INT(
        fortran_source_call_line(path, 1, 9, "MPI_Grequest_start",
                                 &(fortran_source_call){.row = 1, .form = FORTRAN_SOURCE_FIXED}),
        4);
}

/* Calls written over several lines: the line table's row is the statement's last line (or, for
 * a call it gave no row, the procedure's or a loop's), the naming on any of its lines; the answer
 * is the statement's first line, in free form (& at a line's end), fixed form (a mark in column
 * 6), past comment lines among its lines, and for a do or ending statement written so. */
static const char continued_free[] = "program p\n"
                                     "  call MPI_Grequest_start(q, f, c, &\n"
                                     "    ! the state\n"
                                     "    & state, request, ierr)\n"
                                     "  call &\n"
                                     "    MPI_Grequest_start(q, f, c, state, request, ierr)\n"
                                     "  x = 1 + &\n"
                                     "    2\n";

static const char continued_fixed[] = "      PROGRAM P\n"
                                      "      CALL MPI_GREQUEST_START(Q, F, C,\n"
                                      "C     THE STATE\n"
                                      "     1     STATE,\n"
                                      "     2     REQUEST, IERR)\n"
                                      "      X = 1\n"
                                      "      END\n";

static const char continued_loop[] = "program p\n"
                                     "  do i = 1, &\n"
                                     "       n\n"
                                     "    call MPI_Grequest_start(q, f, c, state, request, ierr)\n"
                                     "  end &\n"
                                     "    do\n"
                                     "  do &\n"
                                     "    20 i = 1, n\n";

/* Fixed form's blanks mean nothing: `DO10I=1,N` opens a loop, `DO10I=1.5` sets the variable
 * DO10I, `DOUBLE PRECISION` declares, and `DOWHILE(1) = 2` sets an element of the array DOWHILE. */
static const char blank_free[] = "      PROGRAM P\n"
                                 "      DO10I=1,N\n"
                                 "        CALL MPI_GREQUEST_START(Q, F, C, S, R, IERR)\n"
                                 "   10 CONTINUE\n"
                                 "      DOUBLE PRECISION D\n"
                                 "      END\n";

static const char assigned[] = "      PROGRAM P\n"
                               "      DO10I=1.5\n"
                               "        CALL MPI_GREQUEST_START(Q, F, C, S, R, IERR)\n"
                               "   10 CONTINUE\n"
                               "      END\n";

static const char while_free[] = "      PROGRAM P\n"
                                 "      DO 10 WHILE (X .GT. F(1, 2))\n"
                                 "        CALL MPI_GREQUEST_START(Q, F, C, S, R, IERR)\n"
                                 "   10 CONTINUE\n"
                                 "      DO 20, I = A(1, 2), N\n"
                                 "        DOWHILE(1) = 2\n"
                                 "        CALL MPI_GREQUEST_START(Q, F, C, S, R, IERR)\n"
                                 "   20 CONTINUE\n";

/* Free form with code in columns 1-5 and lines ending with &, compiled as fixed form would read
 * otherwise; a text showing no form is read by its suffix. */
static const char shown_free[] = "program p\n"
                                 "  call MPI_Grequest_start(q, f, c, state, &\n"
                                 "       request, ierr)\n"
                                 "end program p\n";

static const char shown_neither[] = "      PROGRAM P\n"
                                    "      CALL MPI_GREQUEST_START(Q, F, C, STATE,\n"
                                    "     1     REQUEST, IERR)\n"
                                    "      END\n";

/* Strings continued over lines (free form: an & ends the line inside the string, and the next
 * line not a comment goes on with it, past an & there if it has one; fixed form: the string runs
 * on into the line marked in column 6): their quotes, ! and names are text, and the code after
 * such a string is code, whatever the quotes of comment lines among them. */
static const char string_named[] = "program p\n"
                                   "  print *, 'a string that goes on &\n"
                                   "           &with a quote '' and a ! in it, &\n"
                                   "           &and names MPI_Grequest_start(q) &\n"
                                   "   here'\n"
                                   "  call MPI_Grequest_start(q, f, c, state, request, ierr)\n";

static const char string_before_call[] = "program p\n"
                                         "  if (x == 'a &\n"
                                         "  ! it's a comment line\n"
                                         "     &b' // 'c') call MPI_Grequest_start(q, f, c, &\n"
                                         "     state, request, ierr)\n"
                                         "  print *, 'calls &\n"
                                         "    &MPI_Grequest_start'\n";

static const char string_line[] = "program p\n"
                                  "  print *, &\n"
                                  "    'a line of a string alone'\n"
                                  "  call MPI_Grequest_start(q, f, c, state, &\n"
                                  "    request, ierr)\n";

static const char string_fixed[] =
    "      PROGRAM P\n"
    "      IF (X .EQ. 'A STRING THAT RUNS ON\n"
    "C     IT'S A COMMENT LINE\n"
    "     1! INTO THE NEXT LINE: ''!'' ') CALL MPI_GREQUEST_START(Q,\n"
    "     2  F, C, S, R, IERR)\n"
    "      PRINT *, 'NAMES\n"
    "     1MPI_GREQUEST_START'\n"
    "      END\n";

static const struct {
    const char *name, *program;
    fortran_source_form form;
    int row, k, calls, line;
} statements[] = {
    {"p.F90", continued_free, FORTRAN_SOURCE_BY_SUFFIX, 4, 0, 0, 2},
    {"p.F90", continued_free, FORTRAN_SOURCE_BY_SUFFIX, 6, 0, 0, 5},
    {"p.F90", continued_free, FORTRAN_SOURCE_BY_SUFFIX, 1, 0, 2, 2},
    {"p.F90", continued_free, FORTRAN_SOURCE_BY_SUFFIX, 1, 1, 2, 5},
    /* a statement naming no MPI function, and a row on a statement's first line: as they are */
    {"p.F90", continued_free, FORTRAN_SOURCE_BY_SUFFIX, 8, 0, 0, 7},
    {"p.F90", continued_free, FORTRAN_SOURCE_BY_SUFFIX, 2, 0, 0, 0},
    {"p.f", continued_fixed, FORTRAN_SOURCE_BY_SUFFIX, 5, 0, 0, 2},
    {"p.f", continued_fixed, FORTRAN_SOURCE_BY_SUFFIX, 4, 0, 0, 2},
    {"p.f", continued_fixed, FORTRAN_SOURCE_BY_SUFFIX, 1, 0, 0, 2},
    {"p.F90", continued_loop, FORTRAN_SOURCE_BY_SUFFIX, 3, 0, 0, 4},
    {"p.F90", continued_loop, FORTRAN_SOURCE_BY_SUFFIX, 6, 0, 0, 4},
    {"p.F90", continued_loop, FORTRAN_SOURCE_BY_SUFFIX, 8, 0, 0, 7},
    {"p.f", blank_free, FORTRAN_SOURCE_BY_SUFFIX, 2, 0, 0, 3},
    {"p.f", blank_free, FORTRAN_SOURCE_BY_SUFFIX, 4, 0, 0, 3},
    {"p.f", blank_free, FORTRAN_SOURCE_BY_SUFFIX, 5, 0, 0, 0},
    {"p.f", assigned, FORTRAN_SOURCE_BY_SUFFIX, 2, 0, 0, 0},
    {"p.f", assigned, FORTRAN_SOURCE_BY_SUFFIX, 4, 0, 0, 0},
    {"p.f", while_free, FORTRAN_SOURCE_BY_SUFFIX, 4, 0, 0, 3},
    {"p.f", while_free, FORTRAN_SOURCE_BY_SUFFIX, 5, 0, 0, 7},
    {"p.f", while_free, FORTRAN_SOURCE_BY_SUFFIX, 8, 0, 0, 7},
    /* the form the text shows where the switches were not recorded, else the suffix's */
    {"p.F90", continued_fixed, FORTRAN_SOURCE_UNRECORDED, 5, 0, 0, 2},
    {"p.f", shown_free, FORTRAN_SOURCE_UNRECORDED, 3, 0, 0, 2},
    {"p.f", shown_free, FORTRAN_SOURCE_BY_SUFFIX, 3, 0, 0, 0},
    {"p.f", shown_neither, FORTRAN_SOURCE_UNRECORDED, 3, 0, 0, 2},
    {"p.F90", shown_neither, FORTRAN_SOURCE_UNRECORDED, 3, 0, 0, 0},
    {"p.F90", string_named, FORTRAN_SOURCE_BY_SUFFIX, 1, 0, 0, 6},
    {"p.F90", string_before_call, FORTRAN_SOURCE_BY_SUFFIX, 5, 0, 0, 2},
    {"p.F90", string_before_call, FORTRAN_SOURCE_BY_SUFFIX, 1, 0, 0, 2},
    {"p.F90", string_line, FORTRAN_SOURCE_BY_SUFFIX, 5, 0, 0, 4},
    {"p.f", string_fixed, FORTRAN_SOURCE_BY_SUFFIX, 5, 0, 0, 2},
    {"p.f", string_fixed, FORTRAN_SOURCE_BY_SUFFIX, 1, 0, 0, 2},
    {"p.f", string_fixed, FORTRAN_SOURCE_UNRECORDED, 1, 0, 0, 2},
};

static void test_statements(void)
{
    for (size_t i = 0; i < sizeof statements / sizeof statements[0]; i++) {
        write_file(statements[i].name, statements[i].program);
        fortran_source_call call = {.row = statements[i].row,
                                    .k = statements[i].k,
                                    .calls = statements[i].calls,
                                    .form = statements[i].form};
        MG_CHECK_INT(fortran_source_call_line(path, 1, 9, "MPI_Grequest_start", &call),
                     statements[i].line);
    }
    /* with no function named, only the row moves */
    write_file("p.F90", continued_free);
    MG_CHECK_INT(fortran_source_call_line(path, 1, 9, "", &(fortran_source_call){.row = 4}), 2);
    MG_CHECK_INT(fortran_source_call_line(path, 1, 9, "", &(fortran_source_call){.row = 1}), 0);
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
    MG_CHECK_INT(fortran_source_call_line("/nonexistent/p.F90", 1, 9, "MPI_Grequest_start",
                                          &(fortran_source_call){.row = 1}),
                 0);
}

int main(void)
{
    MG_CHECK(mkdtemp(dir) != NULL);
    MG_RUN(test_one_statement);
    MG_RUN(test_two_statements);
    MG_RUN(test_placed_calls);
    MG_RUN(test_fixed_form);
    MG_RUN(test_statements);
    MG_RUN(test_includes_and_macros);
    MG_RUN(test_none);
    for (const char *name = "p.F90\0p.f\0calls.inc\0decls.h\0macro.h\0"; *name;
         name += strlen(name) + 1) {
        snprintf(path, sizeof path, "%s/%s", dir, name);
        unlink(path);
    }
    rmdir(dir);
    MG_TEST_END();
}
