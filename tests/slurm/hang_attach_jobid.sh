#!/bin/bash
# `mpiguard hang --attach JOBID` on a real Slurm: an sbatch job that runs its ranks without mpiguard
# (no interposition library: ptrace, stacks alone) is watched from outside by its id. A 4-rank
# stencil of 1024^2 points a rank, whose ranks compute between exchanges (a 4-rank cg waits in MPI
# at nearly every stack sample, and without the call counter of a job started under mpiguard its
# model took 115-166 s to build); rank 2 enters an endless loop at 25 s. The hang is found (exit
# 81, a computation hang naming rank 2) and the job is cancelled through Slurm long before its
# time limit.
# Usage: hang_attach_jobid.sh FLAVOR (needs SLURM_CONF of a running cluster: the slurm fixture)
. "$(dirname "$0")/../lib.sh"
flavor=$1
app="$BUILD/examples/$flavor/stencil"
: "${SLURM_CONF:?}"
mpi=$([ "$flavor" = mpich ] && echo pmi2 || echo pmix)
cat >"$TMP/plain.sh" <<SCRIPT
#!/bin/bash
#SBATCH -n 4 -t 5 -J plain -o $TMP/plain.out
export OMPI_MCA_mpi_yield_when_idle=1
srun --mpi=$mpi -n 4 "$app" --announce --size 1024 --seconds 280 --fault compute-loop --fault-rank 2 --fault-at 25
SCRIPT
id=$(sbatch --parsable "$TMP/plain.sh" | cut -d';' -f1)
[ -n "$id" ] || fail "sbatch refused the job"
# Whatever happens to the test, the job does not outlive it.
trap 'scancel "$id" 2>/dev/null; rm -rf "$TMP"' EXIT
announced() {
    local n
    n=$(grep -c "^stencil: rank" "$TMP/plain.out" 2>/dev/null)
    echo "${n:-0}"
}
for _ in $(seq 1 120); do
    [ "$(announced)" -eq 4 ] && break
    sleep 0.5
done
[ "$(announced)" -eq 4 ] || fail "job $id did not start its 4 ranks"
# slurm:ID, since a young cluster's ids are small numbers that a pid here may also be (a bare
# number naming both is refused: cli_errors).
start=$SECONDS
expect_status 81 "attached to Slurm job $id" -- timeout 200 "$MPIGUARD" hang -v --attach "slurm:$id" \
    --seed 7 --report "$TMP/r.json"
took=$((SECONDS - start))
expect_stderr "watching 4 ranks (sampler ptrace"
for _ in $(seq 1 30); do
    [ -z "$(squeue -h -j "$id" 2>/dev/null)" ] && break
    sleep 1
done
state=$(scontrol show job "$id" | sed -n 's/.*JobState=\([A-Z]*\).*/\1/p')
[ "$state" = CANCELLED ] || { fail "job $id is $state after the hang, expected CANCELLED"; }
python3 - "$TMP/r.json" <<'PY' || { cat "$TMP/stderr" >&2; fail "report content"; }
import json, sys
r = json.load(open(sys.argv[1]))
assert r["job"]["outcome"] == "stopped" and len(r["job"]["ranks"]) == 4, r["job"]
assert len(r["findings"]) == 1, r["findings"]
ev = r["findings"][0]["evidence"]
assert ev["hang_type"] == "computation" and ev["faulty_ranks"] == [2], ev
PY
pass "$flavor: Slurm job $id watched by its id from outside, its hang found after $took s and the job cancelled"
