#!/usr/bin/env bash
# Fails when a folder of src/ includes a header of a folder it may not use: a layer above it or a
# sibling (docs/architecture.md, "Layers"), or a header internal to another folder. Headers are
# named by their bare file name (every header of the tree has a name of its own); an include that names no header of the tree (a system one, a
# generated one) is not checked. Fails too when a CMakeLists.txt compiles a source of src/ outside
# its own folder: each target builds its folder, tests and benches link libraries.
# Usage: scripts/check-layers.sh [repository root]
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

# The table, written once: each folder and the folders it may include besides its own. engines/*
# stands for every engine; an engine may use none of its siblings.
allowed_table='
base
include
wire         base
engines/*    base wire
common       base wire
report       base wire common
sampler      base wire common
sim          base wire common engines/hang
interpose    base wire engines/scaling engines/deadlock
tester       base wire
concolic_rt  base wire include engines/solver
agent        base wire common sampler engines/*
cc           base wire include agent concolic_rt engines/solver
concolic     base wire include common report agent engines/solver
cli          base wire include common report sampler agent concolic engines/*
'
foreign=$(grep -rnE --include=CMakeLists.txt '(\.\./|\$\{PROJECT_SOURCE_DIR\}/src/)[^ )]*\.c\b' \
    src tests bench examples || true)
if [ -n "$foreign" ]; then
    echo "check-layers: a target compiles a source of another folder (link its library instead):"
    echo "$foreign"
    exit 1
fi

# Each header: its name, its folder, and whether it is its folder's own (named *_internal.h, or
# "Internal to" in its opening comment): no other folder may include it.
find src include -type f \( -name '*.h' -o -name '*.def' -o -name '*.inc' \) -print0 |
    xargs -0 awk 'FNR == 1 {
            n = split(FILENAME, p, "/")
            folder = p[1] == "include" ? "include" : p[2] == "engines" ? p[2] "/" p[3] : p[2]
            own[FILENAME] = p[n] ~ /_internal\.h$/
            key[FILENAME] = p[n] " " folder
        }
        FNR <= 5 && /Internal to/ { own[FILENAME] = 1 }
        END { for (f in key) print key[f], own[f] }' >"${TMPDIR:-/tmp}/mg-layers.$$"
trap 'rm -f "${TMPDIR:-/tmp}/mg-layers.$$"' EXIT

grep -rH --include='*.c' --include='*.h' --include='*.def' \
    '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' src |
    awk -v table="$allowed_table" -v headers="${TMPDIR:-/tmp}/mg-layers.$$" '
    function folder(path, p) {
        split(path, p, "/")
        return p[2] == "engines" ? p[2] "/" p[3] : p[2]
    }
    function may(from, to,   key, list, n, i, e) {
        if (from == to) return 1
        key = from ~ /^engines\// ? "engines/*" : from
        if (!(key in allowed)) return -1
        n = split(allowed[key], list, " ")
        for (i = 1; i <= n; i++) {
            e = list[i]
            if (e == to || (e == "engines/*" && to ~ /^engines\//)) return 1
        }
        return 0
    }
    BEGIN {
        n = split(table, rows, "\n")
        for (i = 1; i <= n; i++) {
            if (split(rows[i], w, " ") == 0) continue
            allowed[w[1]] = substr(rows[i], index(rows[i], w[1]) + length(w[1]))
        }
        while ((getline line < headers) > 0) {
            split(line, w, " "); owner[w[1]] = w[2]; internal[w[1]] = w[3]
        }
        bad = 0
    }
    {
        file = substr($0, 1, index($0, ":") - 1)
        name = $0; sub(/^[^"]*"/, "", name); sub(/".*$/, "", name); sub(/^.*\//, "", name)
        if (!(name in owner)) next
        from = folder(file); to = owner[name]
        ok = internal[name] && from != to ? 0 : may(from, to)
        if (ok == -1 && !(from in unknown)) {
            unknown[from] = 1; bad = 1
            printf "check-layers: src/%s is not in the table of scripts/check-layers.sh\n", from
        } else if (ok == 0) {
            bad = 1
            printf "check-layers: %s includes %s of %s, which %s may not use%s\n", file, name, to,
                   from, internal[name] ? " (internal to its folder)" : ""
        }
    }
    END { exit bad }'
echo "check-layers: every include of src/ keeps to the table, every target to its folder"
