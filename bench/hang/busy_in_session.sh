#!/bin/bash
# busy_in_session.sh PIDFILE COUNT NP PROGRAM ARGS...: each of a job's NP ranks starts its share of
# COUNT busy loops (rounded up), appends their pids to PIDFILE, then execs PROGRAM.
# Why inside the job: the kernel's autogroup (/proc/sys/kernel/sched_autogroup_enabled) shares
# the CPUs between sessions first, so loops in a session the ranks are not in add one more session
# for the ranks to share with, however many loops there are (bench/hang/load_share.sh measures
# it). Which session a rank is in is the launcher's: all of them mpirun's (Open MPI) or
# slurmstepd's (srun), each its own under Hydra. The loops are left to init, with an empty
# environment and no descriptor of the rank's (Hydra's PMI socket would keep the job from ending),
# so that nothing takes them for ranks.
pidfile=$1 count=$2 np=$3
shift 3
share=$(((count + np - 1) / np))
i=0
while [ "$i" -lt "$share" ]; do
    (
        # bash, not sh: dash takes "exec 10>&-" for a command named 10, and the subshell ends there
        for fd in /proc/self/fd/*; do
            fd=${fd##*/}
            [ "$fd" -le 2 ] || eval "exec $fd>&-"
        done 2>/dev/null
        env -i sh -c 'while :; do :; done' </dev/null >/dev/null 2>&1 &
        echo $! >>"$pidfile"
    )
    i=$((i + 1))
done
exec "$@"
