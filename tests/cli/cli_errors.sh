#!/bin/bash
# Every bad command line gets a clear message and its documented exit status (docs/cli.md).
. "$(dirname "$0")/../lib.sh"
APP="$BUILD/examples/mpich/cg"

expect_status 64 "no tool" -- "$MPIGUARD"
expect_stderr "usage: mpiguard <tool>"
expect_status 64 "unknown tool" -- "$MPIGUARD" frobnicate
expect_stderr "unknown tool 'frobnicate'"
expect_status 64 "unknown option" -- "$MPIGUARD" run --frob -- mpiexec.mpich -n 2 "$APP"
expect_stderr "unknown option '--frob'"
# An agent proves itself with the run's secret, which comes from its environment only.
for secret in "" "not-hex"; do
    expect_status 64 "agent without the secret" -- env MPIGUARD_AGENT_SECRET="$secret" "$MPIGUARD" agent hang --connect 127.0.0.1:9 --token 0
    expect_stderr "MPIGUARD_AGENT_SECRET is missing or not 64 hex digits"
done
expect_status 64 "missing --" -- "$MPIGUARD" run mpiexec.mpich -n 2 "$APP"
expect_stderr "goes after '--'"
expect_status 64 "nothing after --" -- "$MPIGUARD" run --
expect_stderr "no launcher command"
expect_status 64 "option without value" -- "$MPIGUARD" run --report
expect_stderr "needs a value"
expect_status 64 "bad choice" -- "$MPIGUARD" run --mpi lam -- mpiexec.mpich -n 2 "$APP"
expect_stderr "auto|openmpi|mpich"
expect_status 69 "launcher not installed" -- "$MPIGUARD" run -- mpirun.lam -n 2 "$APP"
expect_stderr "launcher 'mpirun.lam' is not installed"
expect_status 69 "not a launcher" -- "$MPIGUARD" run -- /bin/echo "$APP"
expect_stderr "not a launcher mpiguard knows"
expect_status 66 "application missing" -- "$MPIGUARD" run -- mpiexec.mpich -n 2 ./no-such-app
expect_stderr "application './no-such-app' does not exist"
expect_status 66 "application not in PATH" -- "$MPIGUARD" run -- mpirun.openmpi -n 2 no-such-app
expect_stderr "not found in PATH"
expect_status 73 "report not writable" -- "$MPIGUARD" run --report /nonexistent/dir/r.json -- mpiexec.mpich -n 2 "$APP" --seconds 1 --size 7777
expect_stderr "cannot write report '/nonexistent/dir/r.json'"
[ -z "$(leftovers "$APP --seconds 1 --size 7777")" ] || fail "a job was started although the report could not be written"
expect_status 66 "report file missing" -- "$MPIGUARD" report "$TMP/none.json"
expect_status 65 "report file malformed" -- "$MPIGUARD" report /etc/hostname
expect_stderr "not valid JSON"
expect_status 64 "report without a file" -- "$MPIGUARD" report
expect_status 66 "hang attach to nothing" -- "$MPIGUARD" hang --attach 2147480000
expect_stderr "no process 2147480000 and no rank of Slurm job 2147480000 on this node to attach to"
expect_status 66 "hang attach to no pid" -- "$MPIGUARD" hang --attach pid:2147480000
expect_stderr "no process 2147480000 to attach to"
expect_status 66 "hang attach to no Slurm job" -- "$MPIGUARD" hang --attach slurm:2147480000
expect_stderr "no process of Slurm job 2147480000 on this node"
# A number that is both a pid here and the id of a Slurm job with ranks here is refused, not guessed:
# a rank-like process carrying SLURM_JOB_ID = the pid of another process.
sleep 30 &
other=$!
SLURM_JOB_ID=$other PMI_RANK=0 sleep 30 &
rank_like=$!
sleep 0.2
expect_status 64 "hang attach to an ambiguous number" -- "$MPIGUARD" hang --attach $other
kill $other $rank_like
expect_stderr "both process $other and Slurm job $other have ranks here; say which: --attach pid:$other or --attach slurm:$other"
# mpiguard's own ancestors (this shell, init) are never a launcher: stopping one would take down
# far more than a job (every rank on the node descends from init).
expect_status 64 "hang attach to its own shell" -- "$MPIGUARD" hang --attach pid:$$
expect_stderr "process $$ is mpiguard's own ancestor, not a job's launcher"
expect_status 64 "hang attach to init" -- "$MPIGUARD" hang --attach pid:1
expect_stderr "process 1 is mpiguard's own ancestor"
expect_status 64 "hang attach with a command" -- "$MPIGUARD" hang --attach 1 -- mpiexec.mpich -n 2 "$APP"
expect_stderr "give no command"
expect_status 64 "hang attach not a number" -- "$MPIGUARD" hang --attach job42
expect_stderr "pid or a Slurm job id"
expect_status 64 "hang attach with a prefix and no number" -- "$MPIGUARD" hang --attach slurm:
expect_stderr "(N, pid:N or slurm:N), not 'slurm:'"
expect_status 64 "hang without command" -- "$MPIGUARD" hang
expect_stderr "missing '--'"
expect_status 64 "hang bad action" -- "$MPIGUARD" hang --on-hang=explode -- mpiexec.mpich -n 2 "$APP"
expect_stderr "kill, report, signal:SIG or exec:CMD"
expect_status 64 "hang bad signal" -- "$MPIGUARD" hang --on-hang=signal:SIGNOPE -- mpiexec.mpich -n 2 "$APP"
expect_status 64 "hang alpha out of range" -- "$MPIGUARD" hang --alpha 2 -- mpiexec.mpich -n 2 "$APP"
# The collectives tester takes a launcher of at most 32 words, and says so.
expect_status 64 "collectives launcher too long" -- "$MPIGUARD" collectives -- mpiexec.mpich $(seq 1 32)
expect_stderr "the launcher takes at most 32 words after '--'"
expect_status 64 "concolic given a launcher" -- "$MPIGUARD" concolic -- mpiexec.mpich -n 2 "$APP"
expect_stderr "concolic starts the program itself, at the process counts it chooses: give the program after '--', not the launcher 'mpiexec.mpich'"
expect_status 69 "hang unsupported launcher" -- "$MPIGUARD" hang -- /bin/sleep 1
expect_stderr "not a launcher mpiguard knows"
# A launcher that refuses to start (Open MPI as root without its two variables) ends the job before
# any rank exists: check must say that nothing was checked, never print its clean line, and end
# with the launcher's status.
if [ "$(id -u)" -eq 0 ]; then
    expect_status 1 "check of a job whose launcher refused" -- env -u OMPI_ALLOW_RUN_AS_ROOT -u OMPI_ALLOW_RUN_AS_ROOT_CONFIRM "$MPIGUARD" check -- mpirun.openmpi -n 2 "$BUILD/examples/openmpi/cg"
    expect_stderr "the job ended before any of its ranks was found: nothing was checked"
    ! grep -q "nothing found" "$TMP/stderr" || fail "check printed its clean line for a job with no rank"
fi
# The interposition library is inert in a process that is not an MPI rank and has no libmpi.
for flavor in openmpi mpich; do
    expect_status 0 "preload into a non-MPI process ($flavor)" -- env LD_BIND_NOW=1 LD_PRELOAD="$BUILD/lib/libmpiguard-$flavor.so" /bin/echo inert
    grep -q "^inert$" "$TMP/stdout" || fail "a non-MPI process with the $flavor library preloaded misbehaved"
done
expect_status 0 "help" -- "$MPIGUARD" --help
grep -q "run " "$TMP/stdout" || fail "help lists no tools"
expect_status 0 "run --help" -- "$MPIGUARD" run --help
grep -q -- "--report FILE" "$TMP/stdout" || fail "run --help lacks --report"
expect_status 0 "version" -- "$MPIGUARD" version
grep -q "interposition library for openmpi  present" "$TMP/stdout" || fail "version: no Open MPI library"
pass "cli errors"
