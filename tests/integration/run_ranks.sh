#!/bin/bash
# `mpiguard run` on a real job: it completes with the job's status, every rank is found with the
# right pid (checked against what each rank says of itself), and every rank was interposed.
# Usage: run_ranks.sh FLAVOR NRANKS EXAMPLE SECONDS
. "$(dirname "$0")/../lib.sh"
flavor=$1 np=$2 example=$3 seconds=$4
app="$BUILD/examples/$flavor/$example"
report="$TMP/run.json"
expect_status 0 "run $example" -- "$MPIGUARD" run -v --report "$report" -- $(launcher_for "$flavor") -n "$np" "$app" --seconds "$seconds" --announce
expect_stderr "$np of $np ranks found, $np interposed"
grep -q "^$example: $np ranks" "$TMP/stdout" || fail "the job did not finish its run"
# What the ranks said of themselves: "<example>: rank R of N pid P".
sed -n "s/^$example: rank \([0-9]*\) of $np pid \([0-9]*\)$/\1 \2/p" "$TMP/stderr" | sort -n >"$TMP/announced"
[ "$(wc -l <"$TMP/announced")" -eq "$np" ] || fail "expected $np announcements"
python3 - "$report" >"$TMP/found" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["schema"] == "mpiguard-report/1" and r["tool"] == "run", r
assert r["job"]["exit_status"] == 0 and r["job"]["outcome"] == "completed", r["job"]
assert all(c and c > 0 for c in r["tool_data"]["mpi_calls"]), r["tool_data"]
for e in sorted(r["job"]["ranks"], key=lambda e: e["rank"]):
    print(e["rank"], e["pid"])
PY
[ $? -eq 0 ] || fail "report content"
diff "$TMP/announced" "$TMP/found" || fail "ranks found differ from what the ranks announced"
token=$(grep -o 'MPIGUARD_JOB_TOKEN[= ][0-9a-f]*' "$TMP/stderr" | head -1 | cut -c20-)
[ -n "$token" ] || fail "no job token in the verbose output"
[ -z "$(ls /dev/shm | grep "mpiguard-$token-" || true)" ] || fail "shared memory left in /dev/shm"
pass "$flavor $np ranks of $example: all found, pids right, all interposed"
