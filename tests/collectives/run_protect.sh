#!/bin/bash
# `mpiguard run` protects the collectives by default (Detector D needs no bounds file): a Gatherv
# whose int displacements wrapped is routed through a workaround and logged as by `mpiguard
# protect`; `--no-protect` leaves the protection module off; run shares protect's options and their
# checks (a missing bounds file 66; --no-protect with a protect option 64).
# Usage: run_protect.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
app="$BUILD/tests/collectives/$flavor/coll_displ"
launcher=$(launcher_for "$flavor")
expect_status 0 "run, D fires" -- "$MPIGUARD" run --report "$TMP/r.json" -- $launcher -n 4 "$app" gatherv-wrap1
grep -q "^coll_displ: gatherv-wrap1 on 4 ranks: correct$" "$TMP/stdout" || fail "wrong bytes under run"
expect_stderr "protect: MPI_Gatherv at coll_displ+0x[0-9a-f]*: detector D fired, workaround W"
# A job this short ends before a discovery scan opens the ranks' state: they are found and read
# from the segments the ranks leave on this host to the command, which removes them (run_ranks.sh
# checks that none is left).
expect_stderr "mpiguard: run: 4 of 4 ranks found, 4 interposed"
expect_stderr "mpiguard: run: 1 call site(s) routed through a workaround, 0 trigger(s) left unprotected"
# The report names the call's source line, read from the program's debug information.
call_line=$(grep -n "^ *MPI_Gatherv(own, counts\[me\]" "$(dirname "$0")/coll_displ.c" | cut -d: -f1)
python3 - "$TMP/r.json" "$call_line" <<'PY' || fail "report content"
import json, sys
r = json.load(open(sys.argv[1]))
f = [x for x in r["findings"] if x["kind"] == "workaround"]
assert len(f) == 1 and f[0]["evidence"]["collective"] == "MPI_Gatherv", f
assert "D" in f[0]["evidence"]["detectors"], f
assert f[0]["summary"].startswith(f"MPI_Gatherv at coll_displ.c:{sys.argv[2]}: detector D"), f
site = f[0]["sites"][0]
assert site["file"].endswith("/coll_displ.c") and site["line"] == int(sys.argv[2]), f
assert site["rank"] in f[0]["ranks"], f
assert r["tool_data"]["ranks_interposed"] == 4 and all(c >= 1 for c in r["tool_data"]["mpi_calls"]), r["tool_data"]
assert f[0]["evidence"]["call_site"].startswith("/") and "/coll_displ+0x" in f[0]["evidence"]["call_site"], f
PY
# A user error the module passes to MPI unchanged: the job's result is the same either way, and
# only the protected run says anything about it.
expect_status 0 "run, a user error" -- "$MPIGUARD" run -- $launcher -n 4 "$app" gatherv-user-first
expect_stderr "protect: MPI_Gatherv at .*: user error in the counts/displacements"
expect_status 0 "run --no-protect" -- "$MPIGUARD" run --no-protect -- $launcher -n 4 "$app" gatherv-user-first
grep -q "^coll_displ: gatherv-user-first on 4 ranks: correct$" "$TMP/stdout" || fail "--no-protect: result"
grep -q "protect" "$TMP/stderr" && { cat "$TMP/stderr" >&2; fail "--no-protect: the protection module spoke"; }
expect_stderr "mpiguard: run: [0-9]* of [0-9]* ranks found"
expect_status 64 "--no-protect with --bounds" -- "$MPIGUARD" run --no-protect --bounds "$TMP/b.json" -- $launcher -n 4 "$app" gatherv-wrap1
expect_stderr "--no-protect turns the protection off"
expect_status 66 "run --bounds missing" -- "$MPIGUARD" run --bounds "$TMP/none.json" -- $launcher -n 4 "$app" gatherv-wrap1
expect_stderr "cannot be read"
pass "$flavor: run protects (D fired, workaround logged and reported at its source line), --no-protect does not, protect's options and checks are run's"
