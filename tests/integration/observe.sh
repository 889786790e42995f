#!/bin/bash
# Never blind in silence: a rank mpiguard cannot observe is named with its cause within seconds, by
# run and protect (exit 83), check (stops the job by itself, exit 83) and hang (reads it by ptrace
# instead and still finds a hang in it); a wrong --mpi is refused before launch (64).
# Usage: observe.sh FLAVOR SCENARIO, SCENARIO one of
#   wrapper  a script between launcher and program unsets LD_PRELOAD for rank 1 (protect names it
#            within 20 s while the job runs 30 s); check's stop for it ends the others before
#            their MPI_Init (stopped_before_init)
#   slowwrapper  a script between launcher and program that sleeps 3 s before it execs it: not
#            named not_mpi while it is still the script (or its sleep): every rank observed by run
#            and check (not hang: its session keeps the sleep's pid as the rank's and takes the
#            sleep's end for the rank's exit, a false hang of its own)
#   option   the user's own -x LD_PRELOAD= / -genv LD_PRELOAD (the case that motivated this):
#            merged, every rank observed
#   notmpi   a dynamic program that is not MPI
#   static   a static program that is not MPI; under MPICH also a static MPI program
#   othermpi --mpi naming the other MPI, the other MPI's binary under this MPI's launcher (both
#            refused before launch), and the same binary hidden behind a script
#   fortran  a Fortran program: observed on both MPIs (mpiguard wraps both Fortran bindings)
#   cxx      a C++ program (mpicxx.FLAVOR): every rank observed by run, check and hang
. "$(dirname "$0")/../lib.sh"
flavor=$1 scenario=$2
here=$(dirname "$0")/observe
launcher=$(launcher_for "$flavor")
other=$([ "$flavor" = openmpi ] && echo mpich || echo openmpi)
report="$TMP/report.json"
# srun does not say which MPI a program that links none is for: the user says it (docs/cli.md).
mpi_option=()
[ "${LAUNCH_VIA:-mpi}" = srun ] && mpi_option=(--mpi "$flavor")

# report_says PYTHON-CONDITION: asserts over the report's `observation` (obs, by rank) and all (r).
report_says() {
    python3 - "$report" "$1" <<'PY' || fail "report: $1"
import json, sys
r = json.load(open(sys.argv[1]))
obs = {o["rank"]: o for o in r["observation"]}
assert eval(sys.argv[2]), json.dumps(r.get("observation"), indent=1)
PY
}

# blind_run TOOL WANT RANKS CAUSE PATTERN -- command: the tool names each of RANKS as not observed,
# with CAUSE in the report and PATTERN in its message, and exits WANT (within 150 s: never a wait
# without end); WANT "job": the job's own failure status, the report's job.exit_status (docs/cli.md:
# a job that fails by itself keeps its status, unseen ranks or not). With NAMED_WITHIN=S, the
# first of RANKS is named within S s of the start.
blind_run() {
    local tool=$1 want=$2 ranks=$3 cause=$4 pattern=$5 r watcher
    shift 6
    rm -f "$TMP/stderr" "$TMP/named_after"
    if [ -n "${NAMED_WITHIN:-}" ]; then
        named_after "^mpiguard: $tool: rank ${ranks%% *} (pid [0-9]*) is not observed" &
        watcher=$!
    fi
    expect_status_within 150 "${want/#job/nonzero}" "$tool, $scenario" "$report" -- \
        "$MPIGUARD" "$tool" "${mpi_option[@]}" --report "$report" -- "$@"
    [ "$want" != job ] ||
        report_says "r['job']['exit_status'] == $EXPECT_STATUS_GOT and r['job']['outcome'] == 'failed'"
    if [ -n "${NAMED_WITHIN:-}" ]; then
        wait $watcher
        [ "$(cat "$TMP/named_after")" -le "$NAMED_WITHIN" ] ||
            fail "$tool named rank ${ranks%% *} $(cat "$TMP/named_after") s after the start, over $NAMED_WITHIN s"
    fi
    for r in $ranks; do
        grep -q "^mpiguard: $tool: rank $r (pid [0-9]*) is not observed: .*$pattern" "$TMP/stderr" ||
            { cat "$TMP/stderr" >&2; fail "$tool did not name rank $r ($pattern)"; }
        report_says "obs[$r]['cause'] == '$cause'"
    done
}

# named_after PATTERN: writes to $TMP/named_after the whole seconds from now until a line of
# $TMP/stderr matches PATTERN (999 when none did in 150 s).
named_after() {
    local start=$SECONDS
    until grep -q "$1" "$TMP/stderr" 2>/dev/null; do
        [ $((SECONDS - start)) -lt 150 ] || { echo 999 >"$TMP/named_after"; return; }
        sleep 0.2
    done
    echo $((SECONDS - start)) >"$TMP/named_after"
}

# run, check and hang on a program no rank of which is observed; hang reads them all by ptrace (its
# job lasts HANG_SECONDS: past the time the cause is decided in).
all_blind() {
    local cause=$1 pattern=$2 app=$3 hang_seconds=$4
    blind_run run 83 "0 1" "$cause" "$pattern" -- $launcher -n 2 "$app" 4
    report_says "not any(o['observed'] for o in obs.values())"
    blind_run check 83 "0 1" "$cause" "$pattern" -- $launcher -n 2 "$app" 60
    expect_stderr "check: stopping the job: a rank it cannot observe"
    report_says "r['job']['outcome'] == 'stopped'"
    blind_run hang 0 "0 1" "$cause" "$pattern" -- $launcher -n 2 "$app" "$hang_seconds"
    expect_stderr "rank 1 is sampled by ptrace from now on"
    expect_stderr "no hang found in 2 of 2 ranks observed (0 by shm, 2 by ptrace)"
    report_says "all(o['sampler'] == 'ptrace' and o['observed'] for o in obs.values())"
}

case "$scenario" in
wrapper)
    app="$BUILD/examples/$flavor/cg"
    blind_run run 83 1 preload_replaced "its LD_PRELOAD (unset) does not name mpiguard's library" \
        -- $launcher -n 3 "$here/blind_rank.sh" "$app" --seconds 4
    expect_stderr "3 of 3 ranks found, 2 interposed, [0-9]* MPI calls; 2 of 3 ranks observed"
    report_says "obs[0]['cause'] == obs[2]['cause'] == 'observed' and not obs[1]['observed']"
    NAMED_WITHIN=20 blind_run protect 83 1 preload_replaced \
        "its LD_PRELOAD (unset) does not name mpiguard's library" \
        -- $launcher -n 3 "$here/blind_rank.sh" "$app" --seconds 30
    expect_stderr "protect: 3 of 3 ranks found; 2 of 3 ranks observed"
    report_says "obs[0]['sampler'] == obs[2]['sampler'] == 'shm' and obs[1]['sampler'] is None"
    blind_run check 83 1 preload_replaced "LD_PRELOAD" -- $launcher -n 3 "$here/blind_rank.sh" "$app" --seconds 60
    # Named at 2 s while the others wait 30 s before MPI_Init: check's stop ends them before it,
    # which is what they are named for (as across nodes), not a cause of their own.
    "mpicc.$flavor" -O1 -o "$TMP/late_init" "$here/late_init.c" || fail "cannot build late_init"
    blind_run check 83 "1" preload_replaced "LD_PRELOAD" -- $launcher -n 3 "$here/blind_rank.sh" "$TMP/late_init" 30
    report_says "obs[0]['cause'] == obs[2]['cause'] == 'stopped_before_init' and not obs[0]['observed']"
    expect_stderr "rank 0 (pid [0-9]*) is not observed: mpiguard stopped the job before this rank reached its MPI_Init"
    # the blind rank spins from 3 s on while the others wait for it in MPI
    blind_run hang 81 1 preload_replaced "LD_PRELOAD" -- $launcher -n 3 "$here/blind_rank.sh" "$app" \
        --seconds 600 --fault compute-loop --fault-rank 1 --fault-at 3
    expect_stderr "rank 1 is sampled by ptrace from now on"
    expect_stderr "ERROR HANG computation hang .*rank 1 is computing in fault_compute_loop"
    report_says "obs[1]['sampler'] == 'ptrace' and obs[0]['sampler'] == 'shm'"
    report_says "r['findings'][0]['ranks'] == [1]"
    ;;
slowwrapper)
    app="$BUILD/examples/$flavor/cg"
    for tool in run check; do
        expect_status_within 150 0 "$tool, a wrapper that sleeps 3 s" "$report" -- "$MPIGUARD" $tool \
            --report "$report" -- $launcher -n 2 "$here/slow_wrapper.sh" "$app" --seconds 4
        report_says "sorted(obs) == [0, 1] and all(o['cause'] == 'observed' for o in obs.values())"
    done
    expect_stderr "nothing found in 2 of 2 ranks observed"
    ;;
option)
    # mpiguard merges the user's LD_PRELOAD with its own (tests/interop checks that both libraries
    # see every call): every rank observed, where it was named preload_replaced before the merge.
    case "$flavor" in
    openmpi) option=(-x LD_PRELOAD=libm.so.6) ;;
    mpich) option=(-genv LD_PRELOAD libm.so.6) ;;
    esac
    expect_status 0 "run with ${option[*]}" -- "$MPIGUARD" run --report "$report" -- $launcher \
        "${option[@]}" -n 2 "$BUILD/examples/$flavor/cg" --seconds 3
    expect_stderr "2 of 2 ranks observed"
    report_says "obs[0]['cause'] == obs[1]['cause'] == 'observed'"
    ;;
notmpi)
    gcc -O1 -o "$TMP/sleeper" "$here/sleeper.c" || fail "cannot build the sleeper"
    all_blind not_mpi "not an MPI program: it maps no MPI library" "$TMP/sleeper" 8
    ;;
static)
    gcc -static -O1 -o "$TMP/sleeper" "$here/sleeper.c" || fail "cannot build the static sleeper"
    all_blind static_binary "a statically linked program that is not MPI" "$TMP/sleeper" 8
    if [ "$flavor" = mpich ]; then
        # Debian ships libmpich.a (Open MPI no libmpi.a) but no libudev.a, which hwloc needs.
        gcc -static -O1 -o "$TMP/static_mpi" "$here/late_init.c" "$here/udev_none.c" \
            $(pkg-config --cflags mpich) -lmpich -lucp -luct -lucs -lucm -lhwloc -lnuma -lm -lpthread \
            -lrt -ldl 2>"$TMP/link.log" || { cat "$TMP/link.log"; fail "cannot link a static MPICH program"; }
        # Debian's static UCX asserts in MPI_Init: the job's own status, both ranks named before
        blind_run run job "0 1" static_binary "a statically linked MPI program" \
            -- $launcher -n 2 "$TMP/static_mpi" 4
    fi
    ;;
othermpi)
    app="$BUILD/examples/$flavor/cg"
    for tool in run check hang; do
        expect_status 64 "$tool --mpi $other" -- "$MPIGUARD" "$tool" --mpi "$other" -- $launcher -n 2 "$app" --seconds 2
        expect_stderr "error: --mpi $other, but '$app' links $flavor's libmpi: give --mpi $flavor"
    done
    expect_status 64 "the $other binary under $launcher" -- "$MPIGUARD" run -- $launcher -n 2 "$BUILD/examples/$other/cg" --seconds 2
    expect_stderr "links $other but the launcher is $flavor's"
    # A script hides the binary from that check: its ranks are named once they map the other MPI.
    "mpicc.$other" -O1 -o "$TMP/late_init" "$here/late_init.c" || fail "cannot build the $other program"
    # mpiguard's library calls the other MPI's communicators: the job fails, with its own status
    BLIND_RANK=none blind_run run job "0 1" other_mpi "linked to $other but given mpiguard's $flavor library" \
        -- $launcher -n 2 "$here/blind_rank.sh" "$TMP/late_init" 4
    ;;
fortran)
    # Both MPIs' Fortran bindings are wrapped: every rank observed by every tool. (A binding still not
    # wrapped is told apart by elimination; test_rank_observe drives that decision.)
    "mpif90.$flavor" -O0 -o "$TMP/ring" "$here/ring.f90" || fail "cannot build the Fortran ring"
    for tool in run check hang; do
        expect_status_within 150 0 "$tool, Fortran" "$report" -- "$MPIGUARD" $tool --report "$report" -- $launcher -n 2 "$TMP/ring" 4
        report_says "all(o['cause'] == 'observed' for o in obs.values())"
    done
    expect_stderr "no hang found in 2 of 2 ranks observed (2 by shm, 0 by ptrace)"
    ;;
cxx)
    # C++ reaches MPI through the C symbols (mpi.h declares them extern "C"): nothing of its own to
    # wrap, but issue 26 asks every rank observed in every tool for C++ too.
    "mpicxx.$flavor" -O1 -g -o "$TMP/ring_cxx" "$here/ring.cpp" 2>"$TMP/build.log" ||
        { cat "$TMP/build.log"; fail "cannot build the C++ ring"; }
    for tool in run check hang; do
        expect_status_within 150 0 "$tool, C++" "$report" -- "$MPIGUARD" $tool --report "$report" -- $launcher -n 3 "$TMP/ring_cxx" 2
        grep -q "^ring: done after [1-9][0-9]* turns" "$TMP/stdout" || fail "$tool: the C++ ring did not finish"
        report_says "sorted(obs) == [0, 1, 2] and all(o['cause'] == 'observed' for o in obs.values())"
    done
    expect_stderr "no hang found in 3 of 3 ranks observed (3 by shm, 0 by ptrace)"
    ;;
*) fail "unknown scenario $scenario" ;;
esac
pass "$flavor $scenario: every rank mpiguard could not observe was named"
