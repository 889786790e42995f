#!/usr/bin/env bash
# The simulator drives the production watch engine (src/engines/hang): a small seeded batch at
# 10^3 and 10^5 simulated ranks, both backends, detects every fault (AC_h 1, none missed), with no
# false alarm, each fault's process classified right (AC_f, PR_f 1) and a median delay under 10 s
# (docs/hang-simulation.md has the full batches).
# Usage: hang_sim_small.sh HANG_SIM
set -euo pipefail
sim=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
for spec in "1000 20 shm" "1000 20 ptrace" "100000 5 shm"; do
    read -r procs runs backend <<<"$spec"
    line=$("$sim" --procs "$procs" --runs "$runs" --seed 1 --backend "$backend" | awk '$2 == "parastack"')
    [ -n "$line" ] || fail "no parastack row at P=$procs ($backend)"
    read -r _ _ faulty correct ac_h _ missed fp _ d_med _ ac_f pr_f _ <<<"$line"
    [ "$faulty" = "$runs" ] && [ "$correct" = "$runs" ] || fail "P=$procs $backend: ran $faulty+$correct, not $runs+$runs"
    [ "$ac_h" = 1.000 ] && [ "$missed" = 0.000 ] || fail "P=$procs $backend: AC_h $ac_h, missed $missed"
    [ "$fp" = 0.000 ] || fail "P=$procs $backend: false alarms $fp"
    [ "$ac_f" = 1.000 ] && [ "$pr_f" = 1.000 ] || fail "P=$procs $backend: AC_f $ac_f, PR_f $pr_f"
    awk -v d="$d_med" 'BEGIN { exit !(d < 10) }' || fail "P=$procs $backend: median delay $d_med s"
    echo "P=$procs $backend: AC_h $ac_h, FP $fp, AC_f $ac_f, PR_f $pr_f, median delay $d_med s"
done
