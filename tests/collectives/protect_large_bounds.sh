#!/bin/bash
# Which bounds act on the application's `_c` calls (MPICH; docs/design/collectives.md, "The application's
# `_c` calls"):
#   - the `_c` entries of a bounds file (schema version 2) bound the `_c` call itself: a Class G
#     entry of Gatherv_c fires G on MPI_Gatherv_c, a Class X entry of Ialltoallv_c fires X on
#     MPI_Ialltoallv_c (served under --agree; without it only W2 could, which does not apply to
#     these counts: left unprotected, with a line naming --agree), and nothing else fires, neither on the other `_c` calls nor on the int
#     calls of coll_check (a `_c` entry is no bound of the int form);
#   - the artificial `--bound` bounds the int calls only, unless `--bound-calls large|all` says
#     otherwise: by default no `_c` call fires;
#   - `--bound-calls all` bounds the `_c` forms W3 calls as well: a forced W3 then applies nowhere
#     and the cost model chooses another workaround for every int call.
# Every run's results are byte-identical to the unprotected collectives'.
# Usage: protect_large_bounds.sh FLAVOR   (mpich)
. "$(dirname "$0")/../lib.sh"
flavor=$1
dir="$BUILD/tests/collectives/$flavor"
launcher=$(launcher_for "$flavor")
cat >"$TMP/c.json" <<EOF
{"schema": "mpiguard-bounds/2", "mpi": {"flavor": "mpich", "version": "4.0.2"},
 "entries": [{"collective": "Gatherv_c", "type_size": 4, "np": 4, "safe_count": 8, "class": "G", "form": "n", "status": "bounded"},
             {"collective": "Ialltoallv_c", "type_size": 4, "np": 4, "safe_count": 10, "class": "X", "form": null, "status": "bounded"}]}
EOF
# sites: the "protect: MPI_... fired" lines of the last run, sorted.
sites() { sed -n 's/.*protect: \(MPI_[A-Za-z_]*\) at .*: detector \([DGX]*\) fired, workaround .*/\1 \2/p' "$TMP/stderr" | sort | tr '\n' ' '; }
same() { grep -q "^$1: $2 cases on 4 ranks, n 16, root 1: 0 mismatching$" "$TMP/stdout" ||
    { cat "$TMP/stdout" "$TMP/stderr" >&2; fail "$what: results differ from the unprotected collectives"; }; }

what="bounds file, _c calls"
expect_status 0 "$what" -- "$MPIGUARD" protect --agree --bounds "$TMP/c.json" -- $launcher -n 4 "$dir/coll_check_c" 16 1 1
same coll_check_c 92
[ "$(sites)" = "MPI_Gatherv_c G MPI_Ialltoallv_c X " ] || { cat "$TMP/stderr" >&2; fail "$what: fired: $(sites)"; }
# Without --agree only W2 may serve them, and coll_check_c's counts have no common divisor: both
# triggers are left unprotected, saying what would serve them.
what="bounds file, _c calls, no --agree"
expect_status 0 "$what" -- "$MPIGUARD" protect --bounds "$TMP/c.json" -- $launcher -n 4 "$dir/coll_check_c" 16 1 1
same coll_check_c 92
expect_stderr "0 call site(s) routed through a workaround, 2 trigger(s) left unprotected"
for call in MPI_Gatherv_c MPI_Ialltoallv_c; do
    expect_stderr "protect: $call at .*: detector fired but not protected: W2 does not apply, and only W2 serves this call without --agree"
done
what="bounds file, int calls"
expect_status 0 "$what" -- "$MPIGUARD" protect --bounds "$TMP/c.json" -- $launcher -n 4 "$dir/coll_check" 16 1
same coll_check 46
[ -z "$(sites)" ] || fail "$what: a _c entry fired on an int call: $(sites)"
what="--bound, _c calls"
expect_status 0 "$what" -- "$MPIGUARD" protect --bound 40 -- $launcher -n 4 "$dir/coll_check_c" 16 1 1
same coll_check_c 92
[ -z "$(sites)" ] || fail "$what: the int bound fired on a _c call: $(sites)"
what="--bound-calls all, W3 forced"
expect_status 0 "$what" -- "$MPIGUARD" protect --report "$TMP/r.json" --bound 40 --bound-calls all --workaround W3 \
    -- $launcher -n 4 "$dir/coll_check" 16 1
same coll_check 46
python3 - "$TMP/r.json" <<'PY' || fail "$what: report content"
import json, sys
f = [x for x in json.load(open(sys.argv[1]))["findings"] if x["kind"] == "workaround"]
used = {x["evidence"]["collective"]: x["evidence"]["workaround"] for x in f}
assert len(used) == 24 and "W3" not in used.values(), used
PY
pass "mpich: _c entries bound the _c calls (G and X) and nothing else; --bound leaves _c calls alone unless --bound-calls says so; --bound-calls all keeps W3 off"
