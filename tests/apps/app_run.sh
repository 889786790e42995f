#!/bin/bash
# A tool that lets a healthy job run to its end (run, protect, check) on a Debian application: a plain
# run of the same inputs and ranks first, then the tool's, which must end on its own (within
# MG_APPS_GUARD s) with exit 0, no finding (check: notes of leaks at most), the application's results identical to the plain run's
# (tests/apps/apps.sh says what is compared), every rank found with its pid, and no process of the
# job left. And each tool's own view of every rank: run, every rank interposed and its MPI calls
# counted; check, every rank's calls captured; run and protect, every rank observed by the segment
# it publishes at MPI_Init.
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
# hpcc under check: a standard send to a rank that is in MPI_Bcast, which MPI may make wait for
# the sender (potential deadlocks, docs/apps.md); the job still ends 0, so check exits 80
status=0
[ "$tool/$app" = check/hpcc ] && status=80
(cd "$TMP/tool" && expect_status_within "${MG_APPS_GUARD:-600}" $status "$tool $app" "$report" -- "$MPIGUARD" "$tool" -v --report "$report" -- $launcher -n "$np" $(app_command "$app" short)) || exit 1
case $tool/$app in
    run/*) expect_stderr "$np of $np ranks found, $np interposed, [0-9]* MPI calls; $np of $np ranks observed" ;;
    protect/*) expect_stderr "protect: $np of $np ranks found; $np of $np ranks observed" ;;
    check/hpcc) expect_stderr "WARNING POTENTIAL_DEADLOCK" ;;
    check/*) expect_stderr "nothing found in $np of $np ranks observed" ;;
esac
app_result "$app" "$TMP/tool" "$TMP/stdout" >"$TMP/tool.result" || fail "$app under $tool did not run to its end"
diff "$TMP/plain.result" "$TMP/tool.result" >&2 || fail "$app's results under $tool differ from the plain run's"
python3 - "$report" "$tool" "$np" "$app" <<'PY' || fail "report content"
import json, sys
r = json.load(open(sys.argv[1])); np = int(sys.argv[3])
# check's notes (communicators never freed: MPI_Finalize frees them) are not errors
assert r["tool"] == sys.argv[2], r["tool"]
notes = [f for f in r["findings"] if f["severity"] == "note"]
for f in notes:
    print("note: %s: %s" % (f["kind"], f["summary"]))
others = [f for f in r["findings"] if f["severity"] != "note"]
if (sys.argv[2], sys.argv[4]) == ("check", "hpcc"):
    # HPL receives its panels from MPI_ANY_SOURCE: message races by check's definition (docs/apps.md)
    races = [f for f in others if f["kind"] == "message_race"]
    assert all(f["severity"] == "warning" and f["sites"][0]["function"] == "MPI_Irecv" for f in races), races
    others = [f for f in others if f["kind"] != "message_race"]
    assert others, r["findings"]
    for f in others:
        knot = [b for b in f["evidence"]["blocked"] if b["in_knot"]]
        assert f["kind"] == "potential_deadlock", f
        assert sorted(b["function"] for b in knot) == ["MPI_Bcast", "MPI_Send"], knot
else:
    assert not others, others
assert r["job"]["exit_status"] == 0 and r["job"]["outcome"] == "completed", r["job"]
assert sorted(e["rank"] for e in r["job"]["ranks"]) == list(range(np)), r["job"]["ranks"]
if r["tool"] == "run":
    calls = r["tool_data"]["mpi_calls"]
    assert len(calls) == np and all(c and c > 0 for c in calls), calls
if r["tool"] == "check":
    assert r["tool_data"]["ranks_captured"] == np, r["tool_data"]
if r["tool"] in ("run", "protect"):
    obs = r["observation"]
    assert sorted(o["rank"] for o in obs) == list(range(np)), obs
    assert all(o["observed"] and o["sampler"] == "shm" for o in obs), obs
PY
token=$(grep -o 'MPIGUARD_JOB_TOKEN[= ][0-9a-f]*' "$TMP/stderr" | head -1 | cut -c20-)
[ -n "$token" ] || fail "no job token in mpiguard's -v output"
sleep 0.3
[ -z "$(token_processes "$token")" ] || fail "processes of the job left: $(token_processes "$token")"
pass "$tool $app, $np ranks: results as in the plain run ($(wc -l <"$TMP/tool.result") lines), every rank seen, no finding but notes"
