#!/bin/bash
# Every collective of Table V, blocking and nonblocking, in place where allowed, gives byte for
# byte the unprotected collective's buffers when `mpiguard protect --bound` makes every call fire
# Detector G and --workaround forces one plan (where it applies; elsewhere the cost model's).
# Nonblocking calls stay nonblocking under W2 and W3 (only W1-A/W1-B complete eagerly), and the
# arrays such a call keeps are released when the application's completion call is seen (coll_check
# completes with each of MPI's eight completion calls in turn).
# With FORM c (MPICH), coll_check_c does the same in the MPI-4 large-count `_c` forms
# (MPI_Gatherv_c, ...), plus a second pass with zero-size messages (92 cases), under
# `--bound-calls large`: all 24 `_c` entry points go through a workaround, the forced one wherever
# it applies, never W3 (a `_c` call is already the call W3 would make).
# Usage: protect_results.sh FLAVOR WORKAROUND NRANKS ROOT [c]
. "$(dirname "$0")/../lib.sh"
flavor=$1 w=$2 np=$3 root=$4 c=${5:+_$5}
prog=coll_check$c
app="$BUILD/tests/collectives/$flavor/$prog"
n=16
# n P 5/8 keeps every collective over the bound (n P > bound) and one element per message within
# it even for Reduce_scatter, whose n is its total (the check asserts each site was protected).
bound=$((n * np * 5 / 8))
opts=(--bound "$bound")
args=("$n" "$root")
cases=46
[ -n "$c" ] && opts+=(--bound-calls large) && args+=(1) && cases=92
[ "$w" = auto ] || opts+=(--workaround "$w")
expect_status 0 "$prog $flavor $w" -- "$MPIGUARD" protect --report "$TMP/r.json" "${opts[@]}" \
    -- $(launcher_for "$flavor") -n "$np" "$app" "${args[@]}"
grep -q "^$prog: $cases cases on $np ranks, n $n, root $root: 0 mismatching$" "$TMP/stdout" ||
    { cat "$TMP/stdout" "$TMP/stderr" >&2; fail "results differ from the unprotected collectives"; }
# One line per call site; without --agree each Alltoallv rank that fired reroutes (and logs) its
# own side.
sites=$(grep -o "protect: MPI_[A-Za-z_]*$c at .*: detector G fired, workaround W.*" "$TMP/stderr" | sort -u | wc -l)
[ "$sites" -eq 24 ] || { cat "$TMP/stderr" >&2; fail "$sites of 24 entry points went through a workaround"; }
expect_stderr "24 call site(s) routed through a workaround, 0 trigger(s) left unprotected"
grep -q "kept until MPI_Finalize" "$TMP/stderr" && fail "a nonblocking call's completion went unseen"
python3 - "$TMP/r.json" "$w" "$c" <<'PY' || fail "report content"
import json, sys
r = json.load(open(sys.argv[1])); w = sys.argv[2].replace("W1A", "W1-A").replace("W1B", "W1-B")
c = sys.argv[3]
f = [x for x in r["findings"] if x["kind"] == "workaround"]
assert len(f) == 24, len(f)
used = {x["evidence"]["collective"]: x["evidence"]["workaround"] for x in f}
assert all(name.endswith(c) for name in used), used
# Where a forced workaround applies it is the one used (Table 4.10 and docs/collectives-engine.md §1).
# W1-B applies to every collective, W3 to every int one where the MPI has the `_c` forms (MPICH
# only here) and to no `_c` one.
applies = {"W1-A": ["Bcast", "Gather", "Scatter", "Gatherv", "Scatterv", "Allgatherv"],
           "W2": ["Bcast", "Gather", "Scatter", "Gatherv", "Scatterv", "Allgather", "Allgatherv",
                  "Alltoall", "Alltoallv"], "W1-B": list(used), "W3": [] if c else list(used)}
if c:
    assert "W3" not in used.values(), used
for x in applies.get(w, []):
    x = x[4:len(x) - len(c)] if x.startswith("MPI_") else x
    for name in ("MPI_" + x + c, "MPI_I" + x[0].lower() + x[1:] + c):
        if name in used:
            assert used[name] == w, (name, used[name], w)
eager = [x for x in f if x["evidence"]["completed_eagerly"]]
assert all(x["evidence"]["collective"].startswith("MPI_I") for x in eager)
assert all(x["evidence"]["workaround"] in ("W1-A", "W1-B") for x in eager)
PY
pass "$flavor, $np ranks, root $root, workaround $w: $cases ${c:+_c }cases byte-identical, 24 entry points protected"
