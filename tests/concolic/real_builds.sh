#!/bin/bash
# Real builds with mpiguard-cc (docs/design/concolic.md "Real builds"): the multi-directory project of
# programs/multidir, built by recursive `make CC=mpiguard-cc` (a static library of bitcode units
# beside a native object, linked with -L/-l; two executables), by CMake and by autoconf, a failed
# link, and under Open MPI a PETSc tutorial built by PETSc's own makefile against the installed
# PETSc (a native shared library). A short campaign on each; the library's planted bug is found and its reproducer,
# re-run, fails the same way. Open MPI refusing to run as root is a setup error, not a bug.
#   real_builds.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
src=$(cd "$(dirname "$0")/programs" && pwd)
export PATH="$BUILD/bin:$PATH" MPIGUARD_MPI=$flavor
cd "$TMP" || fail "no tmp dir"
cp -r "$src/multidir" md && cd md || fail "copy"

make -j2 CC=mpiguard-cc NATIVE_CC=cc >make.log 2>&1 || { cat make.log >&2; fail "make CC=mpiguard-cc"; }
for exe in solve count; do
    for f in "" .mpiguard-heavy .mpiguard-branches.tsv .mpiguard-cfg; do
        [ -s "app/$exe$f" ] || fail "make built no app/$exe$f"
    done
done
# The archive's bitcode members the programs use are in the module (instrumented), the member
# nobody uses is not (its undefined reference would break the link), the native member links.
grep -q "grid_sum	.*lib/stats.c:" app/solve.mpiguard-branches.tsv || fail "lib/stats.c not linked as bitcode"
grep -q "grid_cells	.*lib/grid.c:" app/count.mpiguard-branches.tsv || fail "lib/grid.c not linked into count"
! grep -q grid_unused app/solve.mpiguard-branches.tsv || fail "an unneeded archive member was linked"
$(launcher_for "$flavor") -n 1 ./app/solve | grep -q "^sum " || fail "solve does not run"

# The same tree by CMake: its compiler checks, ar qc + ranlib, the link of both executables.
CC=mpiguard-cc cmake -S . -B cmake-build >cmake.log 2>&1 && cmake --build cmake-build >>cmake.log 2>&1 ||
    { cat cmake.log >&2; fail "CMake with CC=mpiguard-cc"; }
grep -q "grid_sum	.*lib/stats.c:" cmake-build/solve.mpiguard-branches.tsv || fail "CMake: lib/stats.c not linked as bitcode"
[ -x cmake-build/count.mpiguard-heavy ] || fail "CMake: count not built"

# And by autoconf: configure's compiler and function checks link and run mpiguard-cc's programs.
cp -r "$src/multidir" ../md-autotools && cd ../md-autotools && cp autotools/* . || fail "copy for autoconf"
{ autoconf && ./configure CC=mpiguard-cc && make; } >autotools.log 2>&1 || { cat autotools.log >&2; fail "autoconf, configure, make"; }
grep -q "grid_sum	.*lib/stats.c:" app/solve.mpiguard-branches.tsv && [ -x app/count.mpiguard-heavy ] ||
    fail "autoconf: the executables or their archive's units are missing"
cd ../md || fail "back to md"

# A failed link leaves nothing behind.
expect_status 1 "failed link" -- mpiguard-cc -o app/broken app/count.o -Llib -lgrid -lno_such_library
ls app/broken* >/dev/null 2>&1 && fail "a failed link left $(ls app/broken*)"

# A program linked from archives only (HPL's makefile: main is a member of libhpl.a): the member
# defining main and what it needs join the module, as a linker takes them.
ar rcs app/libsolve.a app/solve.o || fail "ar of solve.o"
mpiguard-cc -o app/solve-archived app/libsolve.a -Llib -lgrid >archived.log 2>&1 ||
    { cat archived.log >&2; fail "mpiguard-cc linking archives only"; }
grep -q "grid_sum	.*lib/stats.c:" app/solve-archived.mpiguard-branches.tsv && grep -q "solve.c:" app/solve-archived.mpiguard-branches.tsv ||
    fail "archives only: main's member or the library's units are not in the module"
$(launcher_for "$flavor") -n 1 ./app/solve-archived | grep -q "^sum " || fail "the program linked from archives does not run"

# The library's bug (rank 0 holding 7 cells) is found in the archive's code, its reproducer runs.
# Tuned (the default), as capped, at run 8: the tuned runs' loops are short (n = 5), so `n == 7`
# is unsatisfiable on their paths until the loop's folded exit is negated again (n = 6, 7;
# docs/concolic.md "Limits").
line=$(grep -n "BLOCK7" lib/stats.c | cut -d: -f1)
expect_status 80 "campaign on solve" -- "$MPIGUARD" concolic --mpi "$flavor" --np 1 --max-np 3 \
    --iterations 12 --dir c -- ./app/solve
grep -q "^bug assertion:6:stats.c:$line$" c/campaign || { cat c/campaign >&2; fail "the library's bug was not found"; }
command=$(sed -n 's/^command //p' c/bugs/bug-1.txt)
[ -n "$command" ] && [ -s c/bugs/bug-1.inputs ] || fail "bug-1 has no reproducer"
sh -c "$command" >repro.log 2>&1 && fail "the reproducer did not fail"
grep -q "stats.c:$line: .*Assertion" repro.log || { cat repro.log >&2; fail "the reproducer failed otherwise"; }
grep -q "^signal 6 " c/bugs/bug-1.run/rank-0.outcome || fail "the reproducer's outcome"

[ "$flavor" = openmpi ] || { pass "real builds with $flavor"; exit 0; }

# PETSc's ex23 (a tridiagonal solve over the ranks), by its own makefile, linking libpetsc.
petsc=$(pkg-config --variable=prefix PETSc 2>/dev/null)
[ -n "$petsc" ] || fail "PETSc is not installed (scripts/install-deps.sh)"
ex=/usr/share/petsc/3.18/share/petsc/examples/src/ksp/ksp/tutorials
mkdir ../petsc && cd ../petsc && cp "$ex/ex23.c" "$ex/makefile" . || fail "copy ex23"
make PETSC_DIR="$petsc" PCC=mpiguard-cc CLINKER=mpiguard-cc ex23 >make.log 2>&1 ||
    { cat make.log >&2; fail "PETSc's makefile with mpiguard-cc"; }
[ -x ex23 ] && [ -x ex23.mpiguard-heavy ] || fail "ex23 not built"
expect_status 0 "campaign on ex23" -- "$MPIGUARD" concolic --np 2 --max-np 3 --iterations 3 \
    --dir c -- ./ex23
grep -qE "^  .*ex23.c +[1-9][0-9]*/[0-9]+ arms" "$TMP/stdout" || { cat "$TMP/stdout" >&2; fail "ex23: no arm covered"; }
[ "$(grep -c $'\tclean\t' c/runs.tsv)" -eq 3 ] || { cat c/runs.tsv >&2; fail "ex23: a run was not clean"; }

# Open MPI refusing to run as root: the setup error's status and message, no bug.
if [ "$(id -u)" -eq 0 ]; then
    expect_status 69 "launcher refusal" -- env -u OMPI_ALLOW_RUN_AS_ROOT -u OMPI_ALLOW_RUN_AS_ROOT_CONFIRM \
        "$MPIGUARD" concolic --np 2 --iterations 2 --dir c-root -- ./ex23
    grep -q "did not start the program (.*run as root.*setup problem" "$TMP/stderr" || fail "refusal message"
    ! grep -q "^bug" c-root/campaign 2>/dev/null || fail "the refusal was reported as a bug"
fi
pass "real builds with $flavor"
