#!/bin/bash
# `mpiguard hang` on a Fortran program (hang.F90, 4 ranks): rank 1 enters an endless compute loop
# at 20 s, once the model has learnt the healthy job (as tests/integration/hang.sh): exit 81, one
# computation hang naming rank 1 alone, OUT_MPI in fault_compute_loop (ptrace), every other rank
# IN_MPI in MPI_Barrier, named as the function table names it whatever the binding and sampler;
# the job stopped and nothing of it left; the stack tree has rank 1 in fault_compute_loop at its
# line of hang.F90, and the other ranks' frame of wait_for_all at the Barrier's line, which under
# `use mpi` and `use mpi_f08` comes from the source (the line table gives the subroutine
# statement's line).
# Usage: fortran_hang.sh FLAVOR STYLE SAMPLER
. "$(dirname "$0")/../lib.sh"
flavor=$1 style=$2 sampler=$3
np=4 faulty=1
app="$BUILD/tests/fortran/$flavor/hang_$style"
report="$TMP/hang.json"
expect_status 81 "hang_$style" -- "$MPIGUARD" hang -v --sampler "$sampler" --seed 7 --report "$report" -- $(launcher_for "$flavor") -n $np "$app" 27 20 $faulty
expect_stderr "mpiguard: ERROR HANG"
source_file="$(dirname "$0")/hang.F90"
barrier=$(grep -n "call MPI_Barrier(comm" "$source_file" | cut -d: -f1)
loop_first=$(grep -n "^subroutine fault_compute_loop" "$source_file" | cut -d: -f1)
loop_end=$(grep -n "^end subroutine" "$source_file" | tail -1 | cut -d: -f1)
python3 - "$report" $faulty $np "$sampler" "$barrier" "$loop_first" "$loop_end" <<'PY' || { cat "$TMP/stderr" >&2; fail "report content"; }
import json, sys
r = json.load(open(sys.argv[1])); faulty, np, sampler = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
barrier, loop_first, loop_end = (int(x) for x in sys.argv[5:8])
assert r["tool"] == "hang" and len(r["job"]["ranks"]) == np, r["job"]
assert len(r["findings"]) == 1 and r["job"]["outcome"] == "stopped", (r["findings"], r["job"])
ev = r["findings"][0]["evidence"]
assert ev["hang_type"] == "computation" and ev["faulty_ranks"] == [faulty], ev
per_rank = {e["rank"]: e for e in ev["per_rank"]}
assert per_rank[faulty]["state"] == "OUT_MPI", per_rank[faulty]
others = [e for k, e in per_rank.items() if k != faulty]
assert len(others) == np - 1 and all(e["state"] == "IN_MPI" for e in others), others
assert all(e["function"] == "MPI_Barrier" for e in others), [e["function"] for e in others]
if sampler == "ptrace":
    assert per_rank[faulty]["function"] == "fault_compute_loop", per_rank[faulty]
# the stack tree (sampled by ptrace whatever the sampler): the faulty rank's loop at its line
loops = [n for n in ev["stack_tree"] if n["function"] == "fault_compute_loop"]
assert len(loops) == 1 and loops[0]["ranks"] == [faulty], loops
assert loops[0]["file"].endswith("hang.F90") and loops[0]["line"] in range(loop_first, loop_end), loops[0]
waiting = [n for n in ev["stack_tree"] if n["function"] == "wait_for_all_"]
assert len(waiting) == 1 and waiting[0]["ranks"] == [k for k in range(np) if k != faulty], waiting
assert waiting[0]["file"].endswith("hang.F90") and waiting[0]["line"] == barrier, (waiting[0], barrier)
PY
token=$(grep -o 'MPIGUARD_JOB_TOKEN[= ][0-9a-f]*' "$TMP/stderr" | head -1 | cut -c20-)
sleep 0.5
[ -z "$(token_processes "$token")" ] || fail "processes of the job left: $(token_processes "$token")"
pass "hang $flavor hang_$style ($sampler): computation hang, rank $faulty named"
