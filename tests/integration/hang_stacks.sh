#!/bin/bash
# The stacks of a hang as people read them (docs/hang.md "The stack tree"): 4 ranks hung from the
# start (rank 0 in MPI_Recv, ranks 1-3 in MPI_Barrier). Usage: hang_stacks.sh FLAVOR SAMPLER BUILD
#   debug     built with -g: the frame under each MPI call is main at its file:line
#   stripped  a stripped copy: the application's frames are object+offset, and the offset is the
#             call's (addr2line on the unstripped build gives its line); never a wrong name
# Either way: the tree's leaves are the MPI calls as the program made them, with their rank lists
# in the report, the text on stderr and the DOT (and SVG, when Graphviz is installed); no frame of
# mpiguard shows; the MPI library's own functions are named from its symbol tables.
. "$(dirname "$0")/../lib.sh"
flavor=$1 sampler=$2 build=$3 np=4
source=$(dirname "$0")/hang_start/first_call.c
"mpicc.$flavor" -g -O1 -o "$TMP/first_call_debug" "$source" || fail "cannot build the $flavor program"
program=$TMP/first_call_debug
if [ "$build" = stripped ]; then
    program=$TMP/first_call_stripped
    strip -o "$program" "$TMP/first_call_debug"
fi
report="$TMP/hang.json"
expect_status_within 120 81 "hung from the start" "$program" -- \
    "$MPIGUARD" hang --sampler "$sampler" --seed 5 --report "$report" -- \
    $(launcher_for "$flavor") -n $np "$program" recv
recv_line=$(grep -n 'MPI_Recv(&v, 1, MPI_INT, 1, 7' "$source" | cut -d: -f1)
barrier_line=$(grep -n 'MPI_Barrier(MPI_COMM_WORLD);' "$source" | head -1 | cut -d: -f1)
python3 - "$report" "$flavor" "$build" "$recv_line" "$barrier_line" "$TMP/first_call_debug" <<'PY' ||
import json, subprocess, sys
report, flavor, build, recv_line, barrier_line, unstripped = sys.argv[1:]
ev = json.load(open(report))["findings"][0]["evidence"]
nodes = {n["id"]: n for n in ev["stack_tree"]}
assert not ev["stack_tree_truncated"]
# mpiguard's frames are gone; only its MPI_X wrapper may stand for the call the program made
for n in nodes.values():
    assert n["mpi_call"] or "mpiguard" not in (n["module"] or ""), n
    assert "through_modules" not in n["label"], n
leaves = {n["label"]: n for n in nodes.values() if n["mpi_call"]}
assert sorted(leaves) == ["MPI_Barrier", "MPI_Recv"], leaves
assert leaves["MPI_Recv"]["ranks"] == [0] and leaves["MPI_Recv"]["rank_list"] == "0", leaves
assert leaves["MPI_Barrier"]["ranks"] == [1, 2, 3], leaves
assert leaves["MPI_Barrier"]["rank_list"] == "1-3", leaves
root = [n for n in nodes.values() if n["parent"] is None]
assert len(root) == 1 and root[0]["rank_list"] == "0-3", root
app = "first_call_" + build
for call, line in (("MPI_Recv", recv_line), ("MPI_Barrier", barrier_line)):
    caller = nodes[leaves[call]["parent"]]
    assert caller["module"] == app, caller
    if build == "debug":
        assert caller["function"] == "main" and caller["file"].endswith("first_call.c"), caller
        assert caller["line"] == int(line), (caller, line)
        assert caller["label"] == "main (first_call.c:%s)" % line, caller
    else:
        assert caller["function"] is None and caller["file"] is None, caller
        assert caller["label"] == "%s+0x%x" % (app, caller["offset"]), caller
        where = subprocess.run(["addr2line", "-e", unstripped, hex(caller["offset"])],
                               capture_output=True, text=True).stdout.strip()
        assert where.endswith("first_call.c:%s" % line), (where, line)
# MPI's functions come from its .dynsym when it has no .symtab (Debian's libmpich.so.12)
library = "libmpich" if flavor == "mpich" else "libmpi."
stack = [e for e in ev["per_rank"] if e["rank"] == 0][0]["stack"]
assert any(f.startswith("PMPI_Recv+") and "(" + library in f for f in stack), stack
PY
    { cat "$TMP/stderr" >&2; fail "report content"; }
expect_stderr "mpiguard: hang:           MPI_Recv  rank 0$"
expect_stderr "mpiguard: hang:           MPI_Barrier  ranks 1-3$"
"$MPIGUARD" report --format dot "$report" >"$TMP/tree.dot" || fail "no DOT from the report"
grep -q 'label="MPI_Barrier | ranks 1-3"' "$TMP/tree.dot" || { cat "$TMP/tree.dot" >&2; fail "DOT without rank lists"; }
if command -v dot >/dev/null; then
    dot -Tsvg "$TMP/tree.dot" >"$TMP/tree.svg" || fail "dot cannot draw the tree"
    grep -q '>MPI_Barrier | ranks 1&#45;3<' "$TMP/tree.svg" || fail "SVG without rank lists"
fi
[ -z "$(leftovers "$program")" ] || fail "processes of the job left"
pass "$flavor $sampler $build: rank lists, MPI calls at the leaves, frames named"
