#!/bin/bash
# `mpiguard demo` (README command 1) shows every tool with every installed MPI and each part ends as
# it says: run finds 4 ranks; hang names rank 2 of cg in a computation hang; check finds fig1b's
# deadlock, its knot and the line of both receives; protect routes the wrapped MPI_Gatherv through a
# workaround on Detector D, named by its line; concolic finds rank 1's crash on input 4242 in
# secret.c. Every part's report renders (the demo runs `mpiguard report` on each), and as a
# well-formed HTML page showing its findings (html_check.py).
. "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
# The demo sets Open MPI's root and oversubscription variables itself: leave them to it.
unset OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM OMPI_MCA_rmaps_base_oversubscribe
start=$(date +%s)
expect_status 0 "mpiguard demo" -- "$MPIGUARD" demo --output-dir "$TMP/demo"
echo "demo took $(($(date +%s) - start)) s (load: $(cut -d' ' -f1-3 /proc/loadavg))"
grep -q "^demo done$" "$TMP/stdout" || fail "the demo did not say it was done"
[ "$(grep -c '^shows: ' "$TMP/stdout")" -eq 10 ] || fail "not 10 parts, each saying what it shows"
python3 - "$TMP/demo" "$root" <<'PY' || fail "a part of the demo did not end as it says"
import json, sys
demo, root = sys.argv[1], sys.argv[2]

def line_of(path, text):
    for n, line in enumerate(open(f"{root}/{path}"), 1):
        if text in line:
            return n
    raise AssertionError(f"{text!r} not in {path}")

for mpi in ("openmpi", "mpich"):
    load = lambda tool: json.load(open(f"{demo}/{tool}-{mpi}.json"))
    r = load("run")
    assert r["tool_data"]["ranks_found"] == 4 and r["job"]["exit_status"] == 0, (mpi, r["tool_data"])
    assert sorted(x["rank"] for x in r["job"]["ranks"]) == [0, 1, 2, 3] and not r["findings"], mpi
    r = load("hang")
    [f] = r["findings"]
    assert f["kind"] == "hang" and f["evidence"]["hang_type"] == "computation", (mpi, f["summary"])
    assert f["evidence"]["faulty_ranks"] == [2] and r["job"]["outcome"] == "stopped", (mpi, f["summary"])
    r = load("check")
    deadlocks = [f for f in r["findings"] if f["kind"] == "deadlock"]
    assert deadlocks and sorted(deadlocks[0]["evidence"]["knot"]) == [0, 1], (mpi, r["findings"])
    want = line_of("tests/check/programs/fig1b_recv_recv.c", "MPI_Recv(")
    sites = {(s["rank"], s["function"], s["file"].split("/")[-1], s["line"]) for s in deadlocks[0]["sites"]}
    assert sites == {(0, "MPI_Recv", "fig1b_recv_recv.c", want), (1, "MPI_Recv", "fig1b_recv_recv.c", want)}, (mpi, sites)
    r = load("protect")
    used = [f for f in r["findings"] if f["kind"] == "workaround"]
    assert used and "D" in used[0]["evidence"]["detectors"], (mpi, r["findings"])
    site = used[0]["sites"][0]
    assert site["file"].endswith("coll_displ.c") and "MPI_Gatherv(" in open(site["file"]).readlines()[site["line"] - 1], (mpi, site)
    assert r["job"]["exit_status"] == 0, mpi
    r = load("concolic")
    bugs = [f for f in r["findings"] if f["kind"] == "concolic_bug"]
    assert bugs and bugs[0]["ranks"] == [1] and bugs[0]["evidence"]["inputs"] == [4242], (mpi, bugs)
    site = bugs[0]["sites"][0]
    assert site["file"].endswith("examples/secret.c") and site["line"] == line_of("examples/secret.c", "the planted bug"), (mpi, site)
PY
pages=()
for part in run hang check protect concolic; do
    for mpi in openmpi mpich; do
        grep -q "^== mpiguard $part: .* ($mpi) ==$" "$TMP/stdout" || fail "no $part part for $mpi"
        report="$TMP/demo/$part-$mpi.json"
        "$MPIGUARD" report --format html -o "$report.html" "$report" || fail "no html of $report"
        pages+=("$report.html" "$report")
    done
done
python3 "$(dirname "$0")/html_check.py" "${pages[@]}" || fail "html of the demo's reports"
pass "mpiguard demo: every tool with both MPIs"
