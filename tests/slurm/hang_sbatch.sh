#!/bin/bash
# `mpiguard hang` inside an sbatch script on a real Slurm: a hung job ends long before its time limit
# with exit 81 and the report next to its output; a healthy job runs to its end untouched, and so
# does one suspended for 20 s by `scontrol suspend` (Slurm stops every process of the job, mpiguard
# with it, and resumes them in its own order).
# Usage: hang_sbatch.sh FLAVOR (needs SLURM_CONF of a running cluster: the slurm fixture)
. "$(dirname "$0")/../lib.sh"
flavor=$1
app="$BUILD/examples/$flavor/cg"
: "${SLURM_CONF:?}"
mpi=$([ "$flavor" = mpich ] && echo pmi2 || echo pmix)

# submit NAME ARGS...: an sbatch job of 4 tasks and a 5-minute limit running the app under mpiguard.
submit() {
    local name=$1
    shift
    cat >"$TMP/$name.sh" <<SCRIPT
#!/bin/bash
#SBATCH -n 4 -t 5 -J $name -o $TMP/$name.out
export OMPI_MCA_mpi_yield_when_idle=1
"$MPIGUARD" hang --report "$TMP/$name.json" -- srun --mpi=$mpi -n 4 "$app" "\$@"
SCRIPT
    sbatch --parsable "$TMP/$name.sh" "$@" | cut -d';' -f1
}

# wait_job ID LIMIT: waits until the job has left the queue; prints the seconds it took.
wait_job() {
    local start=$SECONDS
    while [ -n "$(squeue -h -j "$1" 2>/dev/null)" ]; do
        [ $((SECONDS - start)) -lt "$2" ] || { scancel "$1"; fail "job $1 still queued after $2 s"; }
        sleep 1
    done
    echo $((SECONDS - start))
}

exit_code() { scontrol show job "$1" | sed -n 's/.* ExitCode=\([0-9]*\):.*/\1/p'; }

hung=$(submit hung --seconds 280 --fault compute-loop --fault-rank 2 --fault-at 20)
healthy=$(submit healthy --seconds 8)
suspended=$(submit suspended --seconds 60)
[ -n "$hung" ] && [ -n "$healthy" ] && [ -n "$suspended" ] || fail "sbatch refused the jobs"
for _ in $(seq 1 60); do
    grep -q "watching 4 ranks" "$TMP/suspended.out" 2>/dev/null && break
    sleep 1
done
sleep 12
scontrol suspend "$suspended" || fail "scontrol suspend refused"
sleep 20
scontrol resume "$suspended" || fail "scontrol resume refused"
took=$(wait_job "$hung" 200)
[ "$(exit_code "$hung")" = 81 ] || { cat "$TMP/hung.out"; fail "hung job exit code $(exit_code "$hung"), expected 81"; }
[ "$took" -lt 150 ] || fail "the hung job took $took s: not long before its 300 s limit"
grep -q "mpiguard: ERROR HANG" "$TMP/hung.out" || fail "no banner in the job's output"
python3 - "$TMP/hung.json" <<'PY' || fail "report of the hung job"
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
assert len(f) == 1 and f[0]["evidence"]["hang_type"] == "computation", f
assert f[0]["evidence"]["faulty_ranks"] == [2], f[0]["evidence"]["faulty_ranks"]
PY
wait_job "$healthy" 120 >/dev/null
[ "$(exit_code "$healthy")" = 0 ] || { cat "$TMP/healthy.out"; fail "healthy job exit code $(exit_code "$healthy")"; }
grep -q "^cg: 4 ranks" "$TMP/healthy.out" || fail "the healthy job did not run to its end"
grep -q "no hang found" "$TMP/healthy.out" || fail "no closing line for the healthy job"
wait_job "$suspended" 120 >/dev/null
[ "$(exit_code "$suspended")" = 0 ] || { cat "$TMP/suspended.out"; fail "suspended job exit code $(exit_code "$suspended")"; }
grep -q "^cg: 4 ranks" "$TMP/suspended.out" || fail "the suspended job did not run to its end"
grep -q "no hang found" "$TMP/suspended.out" || fail "no closing line for the suspended job"
pass "sbatch $flavor: hung job stopped after $took s with exit 81 and its report; healthy and suspended jobs untouched"
