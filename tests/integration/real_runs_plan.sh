#!/bin/bash
# bench/hang/real_runs.sh's draw (PLAN_ONLY=1): one seed gives the same runs, MPI included, twice;
# APPS= keeps the applications out; a plan runs nothing and writes no TSV.
. "$(dirname "$0")/../lib.sh"
script="$(dirname "$0")/../../bench/hang/real_runs.sh"
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
plan() { PLAN_ONLY=1 bash "$script" "$BUILD" 110 32 4 81 "$tmp/runs.tsv"; }
plan >"$tmp/a" && plan >"$tmp/b" || fail "real_runs.sh's plan failed"
[ "$(wc -l <"$tmp/a")" -eq 142 ] || fail "a plan of 110 faulty and 32 correct runs has $(wc -l <"$tmp/a") lines"
cmp -s "$tmp/a" "$tmp/b" || fail "seed 81 drew two plans: $(diff "$tmp/a" "$tmp/b" | head -4)"
[ "$(cut -f3 "$tmp/a" | sort -u | paste -sd' ')" = "mpich openmpi" ] || fail "the plan does not draw both MPIs"
cut -f4 "$tmp/a" | grep -qxE 'lammps|hpcc|qe' || fail "the default plan draws no application"
APPS= plan >"$tmp/c" || fail "real_runs.sh's plan with APPS= failed"
apps=$(cut -f4 "$tmp/c" | grep -xE 'lammps|hpcc|qe' | sort -u | paste -sd' ')
[ -z "$apps" ] || fail "APPS= still draws $apps"
[ ! -e "$tmp/runs.tsv" ] || fail "a plan wrote the TSV"
pass "one seed, one plan (142 runs, both MPIs); APPS= draws no application"
