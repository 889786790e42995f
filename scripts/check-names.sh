#!/usr/bin/env bash
# Fails when a function or variable of src/ with external linkage breaks the naming rule
# (docs/design/style.md, "Names: the file is the prefix"): a name defined in FOLDER/FILE.c is FILE
# or begins with FILE_ (mg_array.c: mg_array_reserve; hang_model.c: hang_model_create), so the
# name says where it lives. Strict: no name is allowed to break it. Exempt by rule: main; the MPI
# entry points of the interposition library (MPI_*, mpi_*, PMPI_*), whose names the MPI standard
# fixes, libc's _exit, which check's own preloaded object defines (src/interpose/check_exit.c),
# and its per-function families generated from src/wire/mpi_functions.def (mg_enter_Send,
# mg_impl_Send, mg_observe_Send, mg_next_Send: named after the MPI function); in the two layers
# linked into the user's program, the names it sees: the concolic runtime's entry points, which
# carry the one reserved prefix mgrt_ (called by generated code), and the public prefix mpiguard_
# (the marking functions of include/mpiguard/concolic.h, which the user calls; the interposition
# library's exported call counter, which the sampler reads by name).
# Reads the objects of a build (nm), so it sees exactly what the compiler exports.
# Usage: scripts/check-names.sh BUILD_DIR
set -euo pipefail
export LC_ALL=C
build=${1:?usage: check-names.sh BUILD_DIR}
build=$(cd "$build" && pwd)

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
    if ((p[2] == "concolic_rt" || p[2] == "interpose") && name ~ /^mpiguard_/) next
    if (name == file || index(name, file "_") == 1) next
    print file ".c", name
}' | sort -u)

if [ -n "$breaking" ]; then
    echo "check-names: these names do not begin with their file's name (FILE_):"
    printf '%s\n' "$breaking" | sed 's/^/  /'
    exit 1
fi
echo "check-names: $(printf '%s\n' "$found" | wc -l) names, every one named after its file"
