#!/bin/bash
# The planted-bug suite of `mpiguard concolic` (docs/design/concolic.md "Proof"): builds one target of
# tests/concolic/programs with `make CC=mpiguard-cc` for one MPI and asserts that a bounded-DFS
# campaign (from np 1, --max-np 6) finds every planted bug of that program within the stated
# budget of runs, each with a reproducer whose process count, rank and inputs are the ones the bug
# needs, and that one reproducer, run again, crashes the same way. The per-run timeout is
# generous: Open MPI takes ~1.2 s per run and up to ~15 s to end a job whose ranks exit non-zero
# (rejected inputs), and the shared machine runs at load 20-70.
#   suite.sh FLAVOR PROGRAM ITERATIONS     PROGRAM: planted, heat or histogram
. "$(dirname "$0")/../lib.sh"
flavor=$1 program=$2 budget=$3
src=$(cd "$(dirname "$0")/programs" && pwd)
export PATH="$BUILD/bin:$PATH" MPIGUARD_MPI=$flavor
cd "$TMP" || fail "no tmp dir"
make -s -f "$src/Makefile" SRC="$src" CC=mpiguard-cc "$program" >make.out 2>&1 || { cat make.out; fail "make CC=mpiguard-cc $program"; }
[ -x "$program" ] && [ -x "$program.mpiguard-heavy" ] && [ -s "$program.mpiguard-branches.tsv" ] || fail "outputs of mpiguard-cc"
# Branch ids are global across units: the table numbers them 0..n-1.
awk -F'\t' '!/^#/ { if ($1 != n++) exit 1 }' "$program.mpiguard-branches.tsv" || fail "branch ids not dense"

expect_status 80 "campaign" -- "$MPIGUARD" concolic --np 1 --max-np 6 --iterations "$budget" \
    --timeout 60 --dir camp --report report.json -- "./$program"
[ "$(grep -c '"kind":"concolic_bug"' <(tr -d ' \n' <report.json | sed 's/},{/}\n{/g'))" -ge 1 ] || fail "report lacks concolic_bug findings"
grep -q "coverage:" "$TMP/stdout" && grep -q "uncovered arms (" "$TMP/stdout" || fail "coverage report"

# found KEY...: each key is a bug of the campaign, and the campaign's crashes are those bugs
# alone (a crash once keyed by its line and once by the branch before it was listed twice).
found() {
    for bug in "$@"; do
        grep -qxF "bug $bug" camp/campaign || { cat camp/campaign "$TMP/stderr" >&2; fail "planted bug $bug not found in $budget runs"; }
    done
    [ "$(grep -cE '^bug (signal|assertion):' camp/campaign)" -eq $# ] ||
        { cat camp/campaign >&2; fail "crashes other than the $# planted bugs, or one listed twice"; }
}
# The line of a planted bug: the line of PROGRAM.c that carries the comment /* TAG */.
line() { grep -n "/\* $1 \*/" "$src/$program.c" | cut -d: -f1; }
key() { echo "$1:$src/$program.c:$(line "$2")"; }
# The reproducer of a bug (by key), and its fields: np, rank, input I (1-based, marking order).
repro() { grep -lxF "key $1" camp/bugs/*.txt | head -1; }
np_of() { sed -n 's/^np //p' "$(repro "$1")"; }
rank_of() { sed -n 's/^rank //p' "$(repro "$1")"; }
input_of() { sed -n 's/^inputs //p' "$(repro "$1")" | cut -d' ' -f"$2"; }
# rerun KEY RANK SIGNAL: the reproducer's one command (its own inputs file, its logs and outcomes
# in bug-N.run), run again, ends rank RANK by SIGNAL. Up to three tries: when the inputs crash
# another rank too, that rank waits for RANK to settle, but only for 250 ms without a log record
# (docs/concolic.md "Limits"), which a loaded machine can exceed.
rerun() {
    local r cmd try
    r=$(repro "$1")
    cmd=$(sed -n 's/^command //p' "$r")
    for try in 1 2 3; do
        rm -f "${r%.txt}.run"/rank-*.outcome
        sh -c "$cmd" >repro.out 2>&1 && fail "reproducer of $1 ran clean"
        grep -q "^signal $3\b" "${r%.txt}.run/rank-$2.outcome" && return 0
    done
    fail "reproducer of $1 did not end rank $2 by signal $3 in 3 tries"
}

case $program in
planted)
    grep -q planted_solver.c planted.mpiguard-branches.tsv || fail "second unit missing from the table"
    found "signal:11:$src/planted.c:60" "assertion:6:$src/planted.c:62" "signal:8:$src/planted.c:37" \
          "signal:11:$src/planted.c:65" "assertion:6:after $src/planted_solver.c:16"
    # B3 needs an even process count (2 or 4), B2 rank 2, B5 three processes.
    grep -l "key signal:8:" camp/bugs/*.txt | xargs grep -qE "^np (2|4)$" || fail "B3 not at 2 or 4 processes"
    grep -l "planted.c:65" camp/bugs/*.txt | xargs grep -q "^np 3$" || fail "B5 not at 3 processes"
    grep -l "planted.c:62" camp/bugs/*.txt | xargs grep -q "^rank 2$" || fail "B2 not on rank 2"
    # B1's command, run again, crashes with SIGSEGV at the same line.
    rerun "signal:11:$src/planted.c:60" 0 11
    ;;
heat) # inputs: cells steps t_left t_right tol_exp boundary source
    h1=$(key assertion:6 H1) h2=$(key signal:11 H2) h3=$(key assertion:6 H3) h4=$(key assertion:6 H4)
    h5=$(key signal:11 H5)
    found "$h1" "$h2" "$h3" "$h4" "$h5"
    [ "$(input_of "$h1" 1)" -eq 1024 ] || fail "H1 not at 1024 cells"
    [ "$(rank_of "$h2")" -ge 1 ] && [ "$(input_of "$h2" 7)" -ge 0 ] || fail "H2 not on a rank other than 0 with a source"
    case $(np_of "$h3") in 3 | 5 | 6) ;; *) fail "H3 not at 3, 5 or 6 processes" ;; esac
    [ "$(input_of "$h4" 2)" -gt 12 ] || fail "H4 not with more than 12 steps"
    [ "$(np_of "$h5")" -ge 2 ] && [ "$(rank_of "$h5")" -eq $(($(np_of "$h5") - 1)) ] &&
        [ "$(input_of "$h5" 6)" -eq 2 ] && [ "$(input_of "$h5" 7)" -eq 0 ] ||
        fail "H5 not on the last of 2 or more ranks with a periodic rod and the source on cell 0"
    rerun "$h5" $(($(np_of "$h5") - 1)) 11
    ;;
histogram) # inputs: nkeys nbuckets seed key_min key_max pct root report
    s1=$(key assertion:6 S1) s2=$(key signal:11 S2) s3=$(key signal:8 S3) s4=$(key signal:8 S4)
    s5=$(key signal:8 S5)
    found "$s1" "$s2" "$s3" "$s4" "$s5"
    [ "$(input_of "$s1" 6)" -eq 100 ] || fail "S1 not at percentile 100"
    [ "$(rank_of "$s2")" -ge 1 ] && [ "$(rank_of "$s2")" -eq "$(input_of "$s2" 7)" ] || fail "S2 not on a root other than rank 0"
    [ "$(np_of "$s3")" -eq 1 ] || fail "S3 not at 1 process"
    [ "$(input_of "$s4" 1)" -gt 8 ] || fail "S4 not with more than 8 keys per rank"
    [ $(($(input_of "$s5" 5) - $(input_of "$s5" 4))) -lt "$(input_of "$s5" 2)" ] || fail "S5 not with a key range below the bucket count"
    rerun "$s2" "$(rank_of "$s2")" 11
    ;;
*) fail "unknown program $program" ;;
esac
pass "all planted bugs of $program found with $flavor within $budget runs"
