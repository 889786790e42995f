#!/bin/bash
# interop.sh FLAVOR: mpiguard beside another PMPI tool (docs/cli.md, "Other tools and LD_PRELOAD").
# The tests' call counter (pmpi_counter.c) is given to the ranks in every way a user can: in the
# environment alone, in the environment before and after mpiguard's own library, and on the
# launcher's command line (Open MPI -x LD_PRELOAD=V and -x LD_PRELOAD; Hydra -genv LD_PRELOAD V and
# -genvlist; with LAUNCH_VIA=srun, srun's --export=ALL,LD_PRELOAD=V and --export=ALL,LD_PRELOAD,
# alone). Under each, `mpiguard run` and `mpiguard check` must
#   - see every call: run's per-rank MPI call counts equal the counter's, call for call;
#   - hand every call on: the counter's per-function counts equal those of a run without mpiguard
#     (a deterministic example), and its MPI_Init and MPI_Finalize ran (it wrote its counts then);
#   - find what they find without the counter: check's deadlock in fig1b_recv_recv (kind, ranks,
#     lines) is the same.
. "$(dirname "$0")/../lib.sh"
flavor=$1
launcher=$(launcher_for "$flavor")
counter="$BUILD/tests/interop/$flavor/libpmpi_counter.so"
library="$BUILD/lib/libmpiguard-$flavor.so"
cg="$BUILD/examples/$flavor/cg"
master_worker="$BUILD/examples/$flavor/master_worker"
deadlock_program="$(dirname "$0")/../check/programs/fig1b_recv_recv.c"
deadlock="$BUILD/tests/check/$flavor/fig1b_recv_recv"
findings="$(dirname "$0")/../check/report_findings.py"
for f in "$counter" "$library" "$cg" "$master_worker" "$deadlock"; do
    [ -e "$f" ] || fail "not built: $f"
done
export PMPI_COUNTER_DIR="$TMP/counts"

# The ways the counter reaches the ranks: "ENV LAUNCHER-OPTIONS", ENV being LD_PRELOAD's value in
# mpiguard's environment ('-' for none).
# Under srun the environment's ways are the plain launchers' (tested there): only srun's own.
if [ "${LAUNCH_VIA:-mpi}" = srun ]; then
    command_line=("- --export=ALL,LD_PRELOAD=$counter" "$counter --export=ALL,LD_PRELOAD")
    ways=("${command_line[@]}")
    deadlock_ways=("${command_line[0]}")
else
    if [ "$flavor" = openmpi ]; then
        command_line=("- -x LD_PRELOAD=$counter" "$counter -x LD_PRELOAD")
    else
        command_line=("- -genv LD_PRELOAD $counter" "$counter -genvlist LD_PRELOAD,PMPI_COUNTER_DIR")
    fi
    ways=("$counter" "$counter:$library" "$library:$counter" "${command_line[@]}")
    deadlock_ways=("$counter" "${command_line[0]}")
fi

# with_counter WAY TOOL -- REPORT PROGRAM ARGS...: runs `mpiguard TOOL` on a 2-rank job of PROGRAM
# with the counter given the WAY way, fresh counts; the status is in $status.
with_counter() {
    local way=$1 tool=$2 report=$4 program=$5
    shift 5
    local env options
    read -r env options <<<"$way"
    rm -rf "$PMPI_COUNTER_DIR" && mkdir -p "$PMPI_COUNTER_DIR"
    local preload=()
    [ "$env" = - ] || preload=(env LD_PRELOAD="$env")
    # shellcheck disable=SC2086 # the launcher options are words
    "${preload[@]}" "$MPIGUARD" "$tool" -v --report "$report" -- $launcher $options -n 2 \
        "$program" "$@" >"$TMP/stdout" 2>"$TMP/stderr"
    status=$?
}

# counts RANK: the counter's lines of that rank, sorted ("MPI_<Name> <calls>").
counts() {
    [ -s "$PMPI_COUNTER_DIR/rank.$1" ] || { cat "$TMP/stderr" >&2; fail "$what: the counter wrote nothing for rank $1 (its MPI_Finalize never ran)"; }
    sort "$PMPI_COUNTER_DIR/rank.$1"
}

# The counts of cg without mpiguard: the reference for every run below.
rm -rf "$PMPI_COUNTER_DIR" && mkdir -p "$PMPI_COUNTER_DIR"
what="$flavor cg under the plain launcher"
expect_status 0 "$what" -- $launcher -n 2 env LD_PRELOAD="$counter" "$cg" --iterations 40
plain0=$(counts 0) plain1=$(counts 1)
grep -qx "MPI_Allreduce 39" <<<"$plain0" || fail "$what: counter saw $plain0"

# expect_plain_counts: the counter saw on each rank what it saw without mpiguard.
expect_plain_counts() {
    [ "$(counts 0)" = "$plain0" ] && [ "$(counts 1)" = "$plain1" ] ||
        fail "$what: the counter saw $(counts 0 | tr '\n' ' ')/ $(counts 1 | tr '\n' ' ')without mpiguard $(tr '\n' ' ' <<<"$plain0")"
}

# run_calls REPORT RANK: run's MPI call count of the rank.
run_calls() {
    python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['tool_data']['mpi_calls'][int(sys.argv[2])])" "$1" "$2"
}
# counter_calls RANK: the counter's calls of the functions mpiguard counts (not MPI_Init).
counter_calls() { counts "$1" | awk '$1 != "MPI_Init" && $1 != "MPI_Init_thread" { n += $2 } END { print n + 0 }'; }
# expect_run_counted REPORT: run's status 0 and, on each rank, as many calls as the counter saw.
expect_run_counted() {
    [ $status -eq 0 ] || { cat "$TMP/stderr" >&2; fail "$what: exit status $status"; }
    local r
    for r in 0 1; do
        [ "$(run_calls "$1" $r)" = "$(counter_calls $r)" ] ||
            fail "$what: rank $r: mpiguard counted $(run_calls "$1" $r) calls, the counter $(counter_calls $r)"
    done
}

for way in "${ways[@]}"; do
    what="$flavor run, counter as '$way'"
    with_counter "$way" run -- "$TMP/run.json" "$cg" --iterations 40
    expect_run_counted "$TMP/run.json"
    grep -q "2 of 2 ranks found, 2 interposed" "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "$what: not every rank interposed"; }
    expect_plain_counts
    pass "$what: both see all $(counter_calls 0) + $(counter_calls 1) calls of cg"

    # master_worker polls with MPI_Test, so its counts differ between runs but not between the two
    # tools of one run; its Test and Recv go through the protect and state modules' hooks (the
    # same under srun: left to the plain launchers' test, for CI's time).
    if [ "${LAUNCH_VIA:-mpi}" != srun ]; then
        what="$flavor run of master_worker, counter as '$way'"
        with_counter "$way" run -- "$TMP/run.json" "$master_worker" --iterations 200
        expect_run_counted "$TMP/run.json"
        pass "$what: both counted $(counter_calls 0) + $(counter_calls 1) calls"
    fi

    what="$flavor check of cg, counter as '$way'"
    with_counter "$way" check -- "$TMP/check.json" "$cg" --iterations 40
    [ $status -eq 0 ] || { cat "$TMP/stderr" >&2; fail "$what: exit status $status"; }
    python3 -c "import json,sys; sys.exit(json.load(open(sys.argv[1]))['tool_data']['ranks_captured'] != 2)" \
        "$TMP/check.json" || fail "$what: not every rank captured"
    expect_plain_counts
    pass "$what: clean, the counter saw every call"
done

# The deadlock's finding with and without the counter. check's receives are the capture module's
# replacements, which hand the call on to the counter (the job never reaches MPI_Finalize, so the
# counter writes nothing here). A short job sometimes loses a rank's records (docs/check.md): such
# a run is tried once more.
deadlock_summary() {
    local attempt
    for attempt in 1 2; do
        with_counter "$1" check -- "$TMP/deadlock.json" "$deadlock"
        [ $status -eq 82 ] || { cat "$TMP/stderr" >&2; fail "$what: exit status $status, expected 82"; }
        python3 "$findings" assert "$TMP/deadlock.json" "$deadlock_program" >/dev/null 2>&1 && break
    done
    python3 "$findings" assert "$TMP/deadlock.json" "$deadlock_program" ||
        fail "$what: not the finding fig1b_recv_recv.c expects"
    python3 "$findings" summary "$TMP/deadlock.json"
}
what="$flavor check of fig1b_recv_recv alone"
alone=$(deadlock_summary -)
for way in "${deadlock_ways[@]}"; do
    what="$flavor check of fig1b_recv_recv, counter as '$way'"
    beside=$(deadlock_summary "$way")
    [ "$beside" = "$alone" ] || fail "$what: found '$beside', alone '$alone'"
    pass "$what: $beside, as alone"
done
