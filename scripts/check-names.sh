#!/usr/bin/env bash
# Fails when a function or variable of src/ with external linkage breaks the naming rule
# (docs/design/style.md, "Names: the file is the prefix"): a name defined in FOLDER/FILE.c is FILE
# or begins with FILE_ (mg_array.c: mg_array_reserve; hang_model.c: hang_model_create), so the
# name says where it lives. Exempt: main; the MPI entry points of the interposition library
# (MPI_*, mpi_*, PMPI_*), whose names the MPI standard fixes, libc's _exit, which check's own
# preloaded object defines (src/interpose/check_exit.c), and its per-function families
# generated from src/wire/mpi_functions.def (mg_enter_Send, mg_impl_Send, mg_observe_Send,
# mg_next_Send: named after the MPI function); the concolic runtime's entry points, which carry the
# one reserved prefix mgrt_ (linked into the user's program, called by generated code). Names that break it today are listed in scripts/names-allowed.txt, one
# "FILE.c NAME" a line, counted in docs/design/style.md; a listed name that follows the rule now,
# or is gone, is said (not a failure: a branch that renames one need not touch the list).
# Reads the objects of a build (nm), so it sees exactly what the compiler exports.
# Usage: scripts/check-names.sh BUILD_DIR [repository root]
set -euo pipefail
export LC_ALL=C
build=${1:?usage: check-names.sh BUILD_DIR [ROOT]}
root=${2:-$(cd "$(dirname "$0")/.." && pwd)}
build=$(cd "$build" && pwd)
allowed="$root/scripts/names-allowed.txt"

# Each object of src/: "src/FOLDER/FILE.c SYMBOL" for every defined global symbol (nm -A: "OBJECT:
# ADDRESS TYPE NAME"). The objects of one source built for several targets (the interposition
# library per MPI) give the same lines, kept once.
found=$(find "$build/src" -path '*/CMakeFiles/*.dir/*' -name '*.c.o' -print0 |
    xargs -0 -r nm --defined-only -g -A 2>/dev/null |
    awk -v build="$build/" 'NF == 3 {
        obj = $1; sub(/:[^:]*$/, "", obj); sub(build, "", obj)
        sub(/\/CMakeFiles\/[^\/]+\.dir\//, "/", obj); sub(/\.o$/, "", obj)
        print obj, $3
    }' | sort -u)
[ -n "$found" ] || { echo "check-names: no objects under $build/src: build first" >&2; exit 66; }

breaking=$(printf '%s\n' "$found" | awk '{
    n = split($1, p, "/"); file = p[n]; sub(/\.c$/, "", file)
    name = $2
    if (name == "main" || name == "_exit" || name ~ /^(P?MPI|p?mpi)_/) next
    if (p[2] == "interpose" && name ~ /^mg_(enter|impl|observe|next)_[A-Z]/) next
    if (p[2] == "concolic_rt" && name ~ /^mgrt_/) next
    if (name == file || index(name, file "_") == 1) next
    print file ".c", name
}' | sort -u)

bad=0
new=$(comm -23 <(printf '%s\n' "$breaking" | sed '/^$/d') <(grep -v '^#' "$allowed" | sed '/^$/d' | sort -u))
if [ -n "$new" ]; then
    bad=1
    echo "check-names: these names do not begin with their file's name (FILE_):"
    printf '%s\n' "$new" | sed 's/^/  /'
fi
stale=$(comm -13 <(printf '%s\n' "$breaking" | sed '/^$/d') <(grep -v '^#' "$allowed" | sed '/^$/d' | sort -u))
if [ -n "$stale" ]; then
    echo "check-names: scripts/names-allowed.txt lists names that follow the rule now or are gone:"
    printf '%s\n' "$stale" | sed 's/^/  /'
fi
[ "$bad" = 0 ] || exit 1
echo "check-names: $(printf '%s\n' "$found" | wc -l) names, $(grep -vc '^#' "$allowed") of them allowed to break the rule (scripts/names-allowed.txt)"
