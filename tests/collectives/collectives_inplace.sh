#!/bin/bash
# The calls with MPI_IN_PLACE, which libraries run by other code (Open MPI 4.1.4's in-place
# Alltoall overflows where the other does not; docs/collectives.md):
#   - the tester runs every in-place form of Table V's collectives (22: all but Bcast, blocking and
#     nonblocking) on 3 ranks and checks every byte it received;
#   - `mpiguard collectives` tests them by name and writes schema version 3;
#   - `mpiguard protect` applies an in-place entry to the in-place calls of an all-to-all
#     collective and not to its other calls, and a rooted collective's in-place entry to all of
#     its calls (only the root passes MPI_IN_PLACE; the others must decide alike); the protected
#     calls still deliver the right bytes.
# Usage: collectives_inplace.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
launcher=$(launcher_for "$flavor")
tester="$BUILD/bin/mpiguard-coll-tester-$flavor"
for c in Scatter Scatterv Gather Gatherv Allgather Allgatherv Alltoall Alltoallv Reduce Allreduce \
    Reduce_scatter; do
    for form in "$c" "I${c,}"; do
        s=1
        case $c in Reduce*|Allreduce) s=4 ;; esac
        expect_status 0 "tester ${form}_inplace" -- $launcher -n 3 "$tester" "${form}_inplace" $s 1001
    done
done
# Its message may be lost when the launcher ends the job on MPI_Abort; the status says it.
expect_status 2 "tester Bcast_inplace" -- $launcher -n 2 "$tester" Bcast_inplace 1 8

expect_status 0 "collectives in place" -- "$MPIGUARD" collectives --collectives \
    Alltoall_inplace,Igather_inplace --np 3 --max-count 8 -o "$TMP/b.json" -- $launcher
python3 - "$TMP/b.json" <<'PY' || fail "bounds file content"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "mpiguard-bounds/3", d["schema"]
got = {(e["collective"], e["status"], e["safe_count"]) for e in d["entries"]}
assert got == {("Alltoall_inplace", "unbounded", 8), ("Igather_inplace", "unbounded", 8)}, got
PY

version=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["mpi"]["version"])' "$TMP/b.json")
cat >"$TMP/x.json" <<EOF
{"schema": "mpiguard-bounds/3", "mpi": {"flavor": "$flavor", "version": "$version"},
 "entries": [{"collective": "Alltoall_inplace", "type_size": 1, "np": 3, "safe_count": 100, "class": "X", "form": null, "status": "bounded"},
             {"collective": "Gather_inplace", "type_size": 1, "np": 3, "safe_count": 100, "class": "X", "form": null, "status": "bounded"}]}
EOF
fired() { grep -c "protect: $1 at .*: detector X fired" "$TMP/stderr"; }
for call in Alltoall_inplace Alltoall Gather Gather_inplace; do
    expect_status 0 "protected $call" -- "$MPIGUARD" protect --bounds "$TMP/x.json" -- $launcher -n 3 \
        "$tester" "$call" 1 1000
    want=1
    [ "$call" = Alltoall ] && want=0
    [ "$(fired "MPI_${call%_inplace}")" = "$want" ] || { cat "$TMP/stderr" >&2; fail "$call: X fired $(fired "MPI_${call%_inplace}") time(s), want $want"; }
done
pass "$flavor: 22 in-place forms deliver the right bytes; tested by name into a version 3 file; an in-place entry bounds the in-place Alltoall and not the other, and every Gather"
