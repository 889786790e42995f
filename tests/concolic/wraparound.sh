#!/bin/bash
# Bit-vector mode (docs/concolic.md "Integer semantics"): wraparound.c's two signed overflows (an
# int and a long) are found with --int-semantics bv as two `overflow` bugs at the
# multiplications' lines (in the campaign and the JSON report), every arm covered, and each
# reproducer overflows again at its line; with the default unbounded integers the same budget
# finds no bug and leaves both wrapped arms uncovered.
#   wraparound.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
src=$(cd "$(dirname "$0")/programs" && pwd)
export PATH="$BUILD/bin:$PATH" MPIGUARD_MPI=$flavor
cd "$TMP" || fail "no tmp dir"
mpiguard-cc -o wrap "$src/wraparound.c" || fail "build wraparound.c"
line_of() { grep -n "/\* $1 \*/" "$src/wraparound.c" | cut -d: -f1; }
campaign() { "$MPIGUARD" concolic --mpi "$flavor" --np 2 --max-np 3 --iterations 6 --timeout 30 "$@" -- ./wrap; }

expect_status 80 "bit-vector campaign" -- campaign --int-semantics bv --dir bv --report bv.json
# The report's findings: two concolic_bug of outcome overflow, at the two multiplications' lines.
sites=$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
print(" ".join(sorted("%s:%d" % (f["evidence"]["outcome"], f["sites"][0]["line"])
                      for f in r["findings"] if f["kind"] == "concolic_bug")))' bv.json)
[ "$sites" = "overflow:$(line_of OVERFLOW-INT) overflow:$(line_of OVERFLOW-LONG)" ] ||
    fail "bv: the report's bugs are '$sites'"
[ "$(grep -c '^bug ' bv/campaign)" -eq 2 ] || { cat bv/campaign >&2; fail "bv: not the two overflows"; }
grep -q "coverage: 8 of 8 branch arms" "$TMP/stdout" || fail "bv: a wrapped arm was not covered"
for kind in INT LONG; do
    site="wraparound.c:$(line_of "OVERFLOW-$kind")"
    bug=$(grep -l "^key overflow:.*/$site$" bv/bugs/bug-*.txt) || { cat bv/campaign >&2; fail "bv: no overflow bug at $site"; }
    grep -q "^outcome overflow$" "$bug" || fail "bv: $bug's outcome is not overflow"
    # The reproducer runs the overflow again: the focus's runtime names the same line.
    sh -c "$(sed -n 's/^command //p' "$bug")" >/dev/null 2>&1 || fail "bv: the reproducer of $bug failed"
    grep -q "/$site$" "${bug%.txt}".run/rank-*.overflow || fail "bv: the reproducer of $bug did not overflow at $site"
done

expect_status 0 "integer campaign" -- campaign --dir int
! grep -q "^bug " int/campaign || fail "int: a bug was found without bit-vector semantics"
for kind in INT LONG; do
    grep -q "wraparound.c:$(line_of "WRAPPED-$kind") main b[0-9]* if true" "$TMP/stdout" ||
        fail "int: the wrapped $kind arm should stay uncovered"
done
expect_status 64 "unknown semantics" -- campaign --int-semantics wrap --dir bad
pass "the int and long overflows only bit-vector semantics reaches ($flavor)"
