# Sourced by the concolic benchmark scripts: the environment, a scratch directory (removed on exit
# unless BENCH_DIR names it)
# as the working directory, and the targets built there with mpiguard-cc for $flavor: the suite's
# (planted, heat, histogram) unless targets says otherwise; build_petsc_ex5 builds the marked
# PETSc example (tests/concolic/programs/petsc_ex5.c) by PETSc's own makefile (Open MPI).
# Expects: build (the build tree), flavor; optional: targets.
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../tests/concolic/programs" && pwd)
export PATH="$build/bin:$PATH" MPIGUARD_MPI=$flavor
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# BENCH_DIR, if set, is the scratch directory instead and is kept: the campaigns' logs, to read
# where two campaigns part.
if [ -n "${BENCH_DIR-}" ]; then
    tmp=$BENCH_DIR
    mkdir -p "$tmp"
else
    tmp=$(mktemp -d /tmp/mg-bench-concolic.XXXXXX)
    trap 'rm -rf "$tmp"' EXIT
fi
cd "$tmp"
targets=${targets-planted heat histogram}
[ -z "$targets" ] || make -s -f "$src/Makefile" SRC="$src" CC=mpiguard-cc $targets >/dev/null

build_petsc_ex5() {
    local petsc ex=/usr/share/petsc/3.18/share/petsc/examples/src/snes/tutorials
    petsc=$(pkg-config --variable=prefix PETSc) || { echo "PETSc is not installed" >&2; exit 1; }
    cp "$src/petsc_ex5.c" "$ex/makefile" . &&
        make -s PETSC_DIR="$petsc" PCC=mpiguard-cc CLINKER=mpiguard-cc petsc_ex5 >make.log 2>&1 ||
        { cat make.log >&2; exit 1; }
}

# stamped_campaign NAME OPTION... -- PROGRAM: a campaign in c-NAME, its report in NAME.out, its
# progress lines in NAME.err each stamped with the seconds since its start.
stamped_campaign() {
    local name=$1
    shift
    mpiguard concolic --dir "c-$name" "$@" >"$name.out" 2> >(t0=$SECONDS
        while IFS= read -r line; do echo "$((SECONDS - t0)) $line"; done >"$name.err") || true
}

# arms_at NAME "SECONDS...": the arms a stamped campaign had covered at each of the times, as
# table cells ("a | b | ").
arms_at() {
    awk -v marks="$2" '/concolic: run/ { split($13, a, "/"); at[NR] = $1; c[NR] = a[1] }
        END { k = split(marks, m, " ")
              for (i = 1; i <= k; i++) { v = 0; for (j = 1; j <= NR; j++) if ((j in c) && at[j] <= m[i]) v = c[j]
                                         printf "%s | ", v } }' "$1.err"
}
