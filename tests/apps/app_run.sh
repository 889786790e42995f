#!/bin/bash
# A tool that lets a healthy job run to its end (run, protect, check) on a Debian application: a plain
# run of the same inputs and ranks first, then the tool's, which must end on its own (within
# MG_APPS_GUARD s) with exit 0, no finding, the application's results identical to the plain run's
# (tests/apps/apps.sh says what is compared), every rank found with its pid, and no process of the
# job left. And each tool's own view of every rank: run, every rank interposed and its MPI calls
# counted; check, every rank's calls captured; protect reads no rank state and reports no more.
# Usage: app_run.sh run|protect|check APP NRANKS
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/apps.sh"
tool=$1 app=$2 np=$3
launcher=$(launcher_for openmpi)
report="$TMP/report.json"
app_prepare "$app" short "$TMP/plain" && app_prepare "$app" short "$TMP/tool" || fail "inputs of $app"
(cd "$TMP/plain" && expect_status 0 "plain $app" -- $launcher -n "$np" $(app_command "$app" short)) || exit 1
app_result "$app" "$TMP/plain" "$TMP/stdout" >"$TMP/plain.result" || fail "the plain $app did not run to its end"
[ -s "$TMP/plain.result" ] || fail "nothing to compare in the plain $app's output"
(cd "$TMP/tool" && expect_status_within "${MG_APPS_GUARD:-600}" 0 "$tool $app" "$report" -- "$MPIGUARD" "$tool" -v --report "$report" -- $launcher -n "$np" $(app_command "$app" short)) || exit 1
case $tool in
    run) expect_stderr "$np of $np ranks found, $np interposed" ;;
    check) expect_stderr "nothing found in $np of $np ranks observed" ;;
esac
app_result "$app" "$TMP/tool" "$TMP/stdout" >"$TMP/tool.result" || fail "$app under $tool did not run to its end"
diff "$TMP/plain.result" "$TMP/tool.result" >&2 || fail "$app's results under $tool differ from the plain run's"
python3 - "$report" "$tool" "$np" <<'PY' || fail "report content"
import json, sys
r = json.load(open(sys.argv[1])); np = int(sys.argv[3])
assert r["tool"] == sys.argv[2] and r["findings"] == [], (r["tool"], r["findings"])
assert r["job"]["exit_status"] == 0 and r["job"]["outcome"] == "completed", r["job"]
assert sorted(e["rank"] for e in r["job"]["ranks"]) == list(range(np)), r["job"]["ranks"]
if r["tool"] == "run":
    calls = r["tool_data"]["mpi_calls"]
    assert len(calls) == np and all(c and c > 0 for c in calls), calls
if r["tool"] == "check":
    assert r["tool_data"]["ranks_captured"] == np, r["tool_data"]
PY
token=$(grep -o 'MPIGUARD_JOB_TOKEN[= ][0-9a-f]*' "$TMP/stderr" | head -1 | cut -c20-)
[ -n "$token" ] || fail "no job token in mpiguard's -v output"
sleep 0.3
[ -z "$(token_processes "$token")" ] || fail "processes of the job left: $(token_processes "$token")"
pass "$tool $app, $np ranks: results as in the plain run ($(wc -l <"$TMP/tool.result") lines), every rank seen, no finding"
