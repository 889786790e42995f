# Sourced by the concolic benchmark scripts: the environment, a scratch directory (removed on exit)
# as the working directory, and the suite's targets (planted, heat, histogram) built there with
# mpiguard-cc for $flavor.
# Expects: build (the build tree), flavor.
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../tests/concolic/programs" && pwd)
export PATH="$build/bin:$PATH" MPIGUARD_MPI=$flavor
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
tmp=$(mktemp -d /tmp/mg-bench-concolic.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
make -s -f "$src/Makefile" SRC="$src" CC=mpiguard-cc planted heat histogram >/dev/null
