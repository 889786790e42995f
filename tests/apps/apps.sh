# Shared by the apps tests and bench/apps: the three Debian applications (all linked to Open MPI),
# how each is started from its inputs in a working directory, and the part of its output that a run
# under a tool must reproduce exactly. Source it after tests/lib.sh (or with OMPI_* set as there).
APPS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
APPS="lammps hpcc qe"

# The seconds a long run lasts at least: past the 60 s of healthy watching the issue asks for.
APPS_LONG_SECONDS=${APPS_LONG_SECONDS:-65}

# app_prepare APP LENGTH DIR: writes APP's inputs into DIR, its working directory. LENGTH short: a
# run of seconds at 4 ranks (tens under load); long: a run of at least APPS_LONG_SECONDS (LAMMPS and
# pw.x stop themselves by their own wall-time limit; hpcc cannot, so it solves HPL problems enough
# for that on an idle machine: hpcc_long_sizes).
app_prepare() {
    local app=$1 length=$2 dir=$3
    mkdir -p "$dir"
    case $app in
        lammps) ;;
        hpcc)
            if [ "$length" = long ]; then
                sed -e "s/^1  *# of problems sizes/$(hpcc_long_sizes | wc -w)            # of problems sizes/" \
                    -e "s/^400  *Ns/$(hpcc_long_sizes) Ns/" "$APPS_DIR/hpccinf.txt" >"$dir/hpccinf.txt"
            else
                cp "$APPS_DIR/hpccinf.txt" "$dir/hpccinf.txt"
            fi ;;
        qe)
            python3 "$APPS_DIR/h_local_upf.py" >"$dir/H.upf" || return 1
            if [ "$length" = long ]; then
                sed -e "s/CALCULATION/md/; s/MAX_SECONDS/$APPS_LONG_SECONDS/" "$APPS_DIR/pw-h2.in" >"$dir/pw.in"
            else
                sed -e "s/CALCULATION/scf/; s/MAX_SECONDS/1.0d7/" "$APPS_DIR/pw-h2.in" >"$dir/pw.in"
            fi ;;
        *) echo "unknown application $app" >&2; return 1 ;;
    esac
}

# HPL's problem sizes for hpcc's long run (HPL takes at most 20).
hpcc_long_sizes() { echo $(yes 2000 | head -20); }

# app_command APP LENGTH: the application's words after `<launcher> -n NP`, run in its directory.
app_command() {
    case $1-$2 in
        lammps-short) echo lmp -in "$APPS_DIR/in.melt" -log none -nocite ;;
        lammps-long) echo lmp -in "$APPS_DIR/in.melt" -log none -nocite -var steps 100000000 -var seconds "$APPS_LONG_SECONDS" ;;
        hpcc-*) echo hpcc ;;
        qe-*) echo pw.x -nd 1 -in pw.in ;;
    esac
}

# app_long_status APP: the exit status of a long run that went to its end: pw.x reaching its
# max_seconds ends with its own "STOP 2".
app_long_status() { if [ "$1" = qe ]; then echo 2; else echo 0; fi; }

# app_result APP DIR STDOUT: prints what a run must reproduce, from its directory and its stdout;
# fails when the run did not get to its end. LAMMPS: the thermo table (every value, every 20
# steps); hpcc: its summary's verdict, residuals, norms and error counts (timings vary); pw.x: the
# energies of every SCF iteration and the number of iterations.
app_result() {
    local app=$1 dir=$2 out=$3
    case $app in
        lammps)
            grep -q "^Total wall time" "$out" || return 1
            grep -E '^ +[0-9]+ +[-0-9.e+]+ +[-0-9.e+]+ ' "$out" ;;
        hpcc)
            grep -q "^End of Summary section" "$dir/hpccoutf.txt" || return 1
            grep -E '^(Success|CommWorldProcs|HPL_N|HPL_[RAXB]norm[1I]|PTRANS_residual|MPIRandomAccess(_LCG)?_Errors|MPIFFT_maxErr)=' "$dir/hpccoutf.txt" ;;
        qe)
            grep -q "JOB DONE" "$out" || return 1
            grep -E 'total energy +=|convergence has been achieved' "$out" ;;
    esac
}
