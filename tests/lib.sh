# Shared by the shell tests: where things are, the MPI environment for root on 2 cores, assertions.
# The caller sets MPIGUARD (the binary) and BUILD (the build tree) through CTest.
set -u
: "${MPIGUARD:?}" "${BUILD:?}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
TMP=$(mktemp -d /tmp/mg-test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "PASS: $*"; }

# The launcher words for a flavour; LAUNCH_VIA=srun (set by the Slurm tests) uses srun with the
# PMI each MPI needs under Slurm.
launcher_for() {
    case "${LAUNCH_VIA:-mpi}-$1" in
        mpi-openmpi) echo mpirun.openmpi ;;
        mpi-mpich) echo mpiexec.mpich ;;
        srun-openmpi) echo srun --mpi=pmix ;;
        srun-mpich) echo srun --mpi=pmi2 ;;
        *) fail "unknown MPI flavour $1" ;;
    esac
}
export OMPI_MCA_mpi_yield_when_idle=1

# expect_status WANT DESCRIPTION -- command...: runs the command, checks its exit status, keeps its
# stderr in $TMP/stderr and stdout in $TMP/stdout.
expect_status() {
    local want=$1 what=$2
    shift 3
    "$@" >"$TMP/stdout" 2>"$TMP/stderr"
    local got=$?
    [ "$got" -eq "$want" ] || { cat "$TMP/stderr" >&2; fail "$what: exit status $got, expected $want"; }
}

# wait_ended PID SECONDS: waits up to SECONDS for a background job to end; true if it ended. Sets
# WAITED_TENTHS to the time waited, in tenths of a second.
wait_ended() {
    WAITED_TENTHS=0
    while kill -0 "$1" 2>/dev/null && [ $WAITED_TENTHS -lt $(($2 * 10)) ]; do
        sleep 0.1
        WAITED_TENTHS=$((WAITED_TENTHS + 1))
    done
    ! kill -0 "$1" 2>/dev/null
}

# expect_status_within SECONDS WANT DESCRIPTION PATTERN -- command...: expect_status for a job that
# must end within SECONDS; WANT "nonzero" accepts any failure but a timeout (the status is left in
# EXPECT_STATUS_GOT). A job still running then has the state and stacks of every process
# matching PATTERN printed, is killed, and is run once more: a rare stall of the MPI runtime on
# this shared machine is shown in the log (a line "STALLED") instead of costing the whole test.
expect_status_within() {
    local limit=$1 want=$2 what=$3 pattern=$4 attempt got job pid
    shift 5
    for attempt in 1 2; do
        "$@" >"$TMP/stdout" 2>"$TMP/stderr" &
        job=$!
        if wait_ended $job "$limit"; then
            wait $job
            got=$?
            break
        fi
        got=124
        echo "STALLED: $what: still running after $limit s (attempt $attempt); its processes:" >&2
        for pid in $(pgrep -f -- "$pattern"); do
            [ "$pid" -ne $$ ] || continue
            ps -o pid=,stat=,etime=,wchan:32=,args= -p "$pid" >&2
            gdb -batch -p "$pid" -ex "thread apply all bt 12" 2>/dev/null | grep '^#' >&2
        done
        kill -TERM $job 2>/dev/null
        sleep 2
        for pid in $(pgrep -f -- "$pattern"); do
            [ "$pid" -eq $$ ] || kill -KILL "$pid" 2>/dev/null
        done
        wait $job 2>/dev/null
    done
    EXPECT_STATUS_GOT=$got
    if [ "$want" = nonzero ]; then
        [ "$got" -ne 0 ] && [ "$got" -ne 124 ] && return
    elif [ "$got" -eq "$want" ]; then
        return
    fi
    cat "$TMP/stderr" >&2
    fail "$what: exit status $got, expected $want"
}

expect_stderr() {
    grep -q -- "$1" "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "stderr lacks '$1'"; }
}

# capture_preload_options FLAVOR TOKEN: the launcher's options that preload mpiguard's library with
# its capture module alone, under job token TOKEN, in the array preload_options.
capture_preload_options() {
    local lib="$BUILD/lib/libmpiguard-$1.so"
    if [ "$1" = openmpi ]; then
        preload_options=(-x LD_PRELOAD="$lib" -x MPIGUARD_JOB_TOKEN="$2" -x MPIGUARD_MODULES=capture)
    else
        preload_options=(-genv LD_PRELOAD "$lib" -genv MPIGUARD_JOB_TOKEN "$2"
            -genv MPIGUARD_MODULES capture)
    fi
}

# Processes still running the given command line (the job must leave none behind). Tests running in
# parallel use the same programs, so callers pass something unique to their job.
leftovers() { pgrep -f -- "$1" || true; }

# stencil_announced FILE NP: waits up to a minute for the NP ranks of a stencil started with
# --announce to say so in FILE (its stderr), and prints "RANK PID" for each that did.
stencil_announced() {
    for _ in $(seq 1 300); do
        [ "$(grep -c '^stencil: rank' "$1")" = "$2" ] && break
        sleep 0.2
    done
    sed -n 's/^stencil: rank \([0-9]*\) of [0-9]* pid \([0-9]*\)$/\1 \2/p' "$1"
}

# Processes that carry a job's MPIGUARD_JOB_TOKEN in their environment.
token_processes() {
    grep -l -z "^MPIGUARD_JOB_TOKEN=$1\$" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3 || true
}

# The pid of world rank RANK among a job's processes (by token): OMPI_COMM_WORLD_RANK or PMI_RANK.
rank_pid() {
    local pid
    for pid in $(token_processes "$1"); do
        grep -q -z -E "^(OMPI_COMM_WORLD_RANK|PMI_RANK)=$2\$" "/proc/$pid/environ" 2>/dev/null && { echo "$pid"; return 0; }
    done
    return 1
}

# await_rank GUARD NRANKS RANK: once the job of the mpiguard running in the background as GUARD
# (with -v, its stderr in $TMP/stderr) shows its NRANKS ranks, sets TOKEN to the job's token and
# RANK_PID to world rank RANK's pid; false when mpiguard ended first or after 60 s.
await_rank() {
    TOKEN="" RANK_PID=""
    for _ in $(seq 1 300); do
        [ -n "$TOKEN" ] || TOKEN=$(grep -o 'MPIGUARD_JOB_TOKEN[= ][0-9a-f]*' "$TMP/stderr" 2>/dev/null | head -1 | cut -c20-)
        if [ -n "$TOKEN" ] && [ "$(token_processes "$TOKEN" | wc -l)" -ge "$2" ]; then
            RANK_PID=$(rank_pid "$TOKEN" "$3") && return 0
        fi
        kill -0 "$1" 2>/dev/null || return 1
        sleep 0.2
    done
    return 1
}

# where_stopped PID: where the stopped process PID's main thread stands, for a rank that publishes
# no state (a job under the ptrace sampler): "in" MPI when it stopped in sched_yield (Open MPI's
# wait when oversubscribed) or in the code of an MPI library, "out" in the program's or another
# library's code, nothing in libc or the loader, which both sides call.
where_stopped() {
    local fields range perm offset dev inode path pc
    read -ra fields <"/proc/$1/syscall" 2>/dev/null || return 0
    # "running" while the stop is not complete yet
    [ ${#fields[@]} -gt 1 ] || return 0
    [ "${fields[0]}" != 24 ] || { echo in; return 0; }
    pc=$((fields[-1]))
    while read -r range perm offset dev inode path; do
        [ $((16#${range%-*} <= pc && pc < 16#${range#*-})) -eq 1 ] || continue
        case ${path##*/} in
        libmpi* | libopen-pal* | libopen-rte* | mca_* | libuc[pstm]* | libpmix* | libevent* | libfabric* | libhwloc* | libmpiguard*) echo in ;;
        libc.so* | ld-linux* | "") ;;
        *) echo out ;;
        esac
        return 0
    done <"/proc/$1/maps"
}

# published_side TOKEN NRANKS RANK: "in" or "out" of MPI as the rank's published state (shm) says;
# nothing for a rank that publishes none.
published_side() {
    local in_mpi
    in_mpi=$("$BUILD/tests/rank_state_dump" "$1" "$2" | sed -n "s/^rank $3 in_mpi \([0-9]*\) .*/\1/p")
    [ -z "$in_mpi" ] || { [ "$in_mpi" -gt 0 ] && echo in || echo out; }
}

# catch_rank TOKEN NRANKS RANK PID out|in: leaves the rank SIGSTOPped where its published state (shm)
# says it is out of MPI or in (where_stopped for a rank that publishes none): stops it, reads its
# state, and continues it to try again a moment later when it is elsewhere. Fails when it never
# was within CATCH_SECONDS (600), or the rank ended.
catch_rank() {
    local token=$1 np=$2 rank=$3 pid=$4 attempt=0 now deadline=$((SECONDS + ${CATCH_SECONDS:-600}))
    while [ $((attempt += 1)) -le 2000 ] && [ $SECONDS -lt $deadline ]; do
        kill -STOP "$pid"
        while ! awk '{print $3}' "/proc/$pid/stat" 2>/dev/null | grep -q '^T$'; do
            [ -e "/proc/$pid" ] || return 1
            sleep 0.01
        done
        now=$(published_side "$token" "$np" "$rank")
        [ -n "$now" ] || now=$(where_stopped "$pid")
        if [ "$now" = "$5" ]; then
            echo "rank $rank caught $5 MPI at attempt $attempt"
            return 0
        fi
        kill -CONT "$pid"
        sleep 0.0$((RANDOM % 10))
    done
    return 1
}

# inject_fault TOKEN NRANKS RANK PID CASE, CASE stop-out|stop-in|spin-out|spin-in: the rank caught out
# of or in MPI (catch_rank), then left stopped, or made to spin in its SIGUSR2 handler (the job must
# preload tests/apps/libspin_on_signal.so).
inject_fault() {
    catch_rank "$1" "$2" "$3" "$4" "${5#*-}" || return 1
    [ "${5%-*}" = stop ] || { kill -USR2 "$4"; kill -CONT "$4"; }
}

# expect_verdict PID SECONDS WHAT: the mpiguard in the background (its stderr in $TMP/stderr) ends
# within SECONDS with exit 81; stopped with SIGINT and failed otherwise.
expect_verdict() {
    wait_ended "$1" "$2" || { kill -INT "$1"; wait "$1"; cat "$TMP/stderr" >&2; fail "no verdict $2 s after $3"; }
    wait "$1"
    local status=$?
    [ $status -eq 81 ] || { cat "$TMP/stderr" >&2; fail "$3: exit status $status, expected 81"; }
}
