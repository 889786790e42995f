#!/usr/bin/env bash
# The simulator drives the production watch engine (src/engines/hang): a small seeded batch at
# 10^3 and 10^5 simulated ranks, both backends, detects every fault (AC_h 1, none missed), with no
# false alarm, each fault's process classified right (AC_f, PR_f 1) and a median delay under 10 s
# (docs/hang-simulation.md has the full batches); at 10^4 the same with the ranks read through an
# agent tree over the agent protocol (10 node agents of 1000 ranks under 3 relays of 4), only the
# sampled ranks' relays and agents asked.
# Usage: hang_sim_small.sh HANG_SIM
set -euo pipefail
sim=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
for spec in "1000 20 shm" "1000 20 ptrace" "100000 5 shm" "10000 4 shm 1000 4"; do
    read -r procs runs backend node_size fanout <<<"$spec"
    out=$("$sim" --procs "$procs" --runs "$runs" --seed 1 --backend "$backend" \
        ${node_size:+--agents $node_size --fanout $fanout})
    line=$(awk '$2 == "parastack"' <<<"$out")
    [ -n "$line" ] || fail "no parastack row at P=$procs ($backend)"
    read -r _ _ faulty correct ac_h _ missed fp _ d_med _ ac_f pr_f _ <<<"$line"
    [ "$faulty" = "$runs" ] && [ "$correct" = "$runs" ] || fail "P=$procs $backend: ran $faulty+$correct, not $runs+$runs"
    [ "$ac_h" = 1.000 ] && [ "$missed" = 0.000 ] || fail "P=$procs $backend: AC_h $ac_h, missed $missed"
    [ "$fp" = 0.000 ] || fail "P=$procs $backend: false alarms $fp"
    [ "$ac_f" = 1.000 ] && [ "$pr_f" = 1.000 ] || fail "P=$procs $backend: AC_f $ac_f, PR_f $pr_f"
    awk -v d="$d_med" 'BEGIN { exit !(d < 10) }' || fail "P=$procs $backend: median delay $d_med s"
    echo "P=$procs $backend${node_size:+ agents}: AC_h $ac_h, FP $fp, AC_f $ac_f, PR_f $pr_f, median delay $d_med s"
    [ -n "$node_size" ] || continue
    # a sample of C = 10 ranks asks at most 10 relays and 10 agents (a frame each way), a scan
    # all 3 relays and all 10 agents
    wire=$(grep '^# agents: 10 of 1000 ranks each under 3 relays of 4;' <<<"$out") || fail "no agents line: $out"
    read -r sample_frames scan_frames <<<"$(sed -E 's/.*sample rounds [0-9]+: ([0-9.]+) frames.*scan rounds [0-9]+: ([0-9.]+) frames.*/\1 \2/' <<<"$wire")"
    awk -v s="$sample_frames" -v c="$scan_frames" 'BEGIN { exit !(s >= 4 && s <= 26 && c == 26) }' ||
        fail "frames per sample round $sample_frames (4-26 expected), per scan $scan_frames (26 expected)"
    echo "$wire"
done
