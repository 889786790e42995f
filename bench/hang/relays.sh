#!/bin/bash
# The "Relays" table of docs/hang-measurements-agents.md: what a reading round costs mpiguard itself (its
# frames and bytes, both ways, headers included, and its wall time, from `mpiguard hang -v`) while
# it watches a healthy 16-rank cg job for SECONDS through 16 agents read directly and through 4
# relays of 4 (--agent-fanout 4), by bench/hang/agent_rounds.sh. The two alternate, RUNS of each,
# so that both see the same load; one table row per run with the load at its start, then each
# configuration's median of each figure.
#   bench/hang/relays.sh BUILD [SECONDS] [RUNS] [FLAVOR]
set -eu
build=$1 seconds=${2:-20} runs=${3:-3} flavor=${4:-openmpi}
configs="16 16/4"
# one line per run: agents, relays (F), load, frames, bytes, ms
runs_tsv=$(for _ in $(seq "$runs"); do
    for agents in $configs; do
        "$(dirname "$0")/agent_rounds.sh" "$build" 16 "$seconds" "$agents" "$flavor" |
            awk -v agents="$agents" '
                /^# / { sub(/;.*/, ""); load = $NF }
                / reading rounds: / { sub(/.* reading rounds: /, ""); frames = $1; bytes = $4; ms = $6 }
                END { if (frames == "") { print "no reading rounds with agents " agents > "/dev/stderr"; exit 1 }
                      n = split(agents, a, "/")
                      relays = n == 1 ? "none" : sprintf("%d (%d)", (a[1] + a[2] - 1) / a[2], a[2])
                      printf "%s\t%s\t%.0f\t%.1f\t%.0f\t%.1f\n", agents, relays, load, frames, bytes, ms }'
    done
done)
row() { awk -F'\t' '{ split($1, a, "/"); printf "| %s | %s | %s | %s / %s B / %s ms |\n", a[1], $2, $3, $4, $5, $6 }'; }
echo "# $(date -u +%FT%TZ) cg, 16 ranks ($flavor), $seconds s each, $runs of each alternating"
echo "| agents | relays (F) | load | mpiguard's frames / bytes / time per reading round |"
echo "|---|---|---|---|"
echo "$runs_tsv" | row
# median AGENTS COLUMN: the middle of a configuration's runs in that column
median() { echo "$runs_tsv" | awk -F'\t' -v a="$1" '$1 == a' | cut -f"$2" | sort -n | sed -n "$(((runs + 1) / 2))p"; }
for agents in $configs; do
    printf '%s\t%s\tmedian\t%s\t%s\t%s\n' "$agents" "$(median "$agents" 2)" \
        "$(median "$agents" 4)" "$(median "$agents" 5)" "$(median "$agents" 6)" | row
done
