#!/bin/bash
# A real single-node Slurm cluster for tests: munged, slurmctld and slurmd from Debian's packages,
# with all their state in one directory. Usage:
#   slurm_cluster.sh start DIR   starts it (idempotent per DIR) and waits until the node is idle;
#                                prints the SLURM_CONF to export
#                                with no job of an earlier run left in its state
#   slurm_cluster.sh stop DIR    cancels its jobs (a failed test's job must not run on), stops the
#                                daemons started from DIR and removes nothing else
#   slurm_cluster.sh conf DIR CTLD_NAME CTLD_ADDRESS NODE=ADDRESS...
#                                only writes DIR/slurm.conf for a cluster of those nodes (each
#                                slurmd's files apart: -N NODE), its controller at that address,
#                                and starts munged if none runs: the multi-node tests start the
#                                daemons themselves, each on its node (tests/multinode/nodes.sh)
set -eu
cmd=$1 dir=$2
host=$(hostname)
conf="$dir/slurm.conf"

munge() {
    if ! pgrep -x munged >/dev/null; then
        mkdir -p /run/munge && chown munge:munge /run/munge
        [ -s /etc/munge/munge.key ] || { dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null; chown munge:munge /etc/munge/munge.key; chmod 400 /etc/munge/munge.key; }
        runuser -u munge -- /usr/sbin/munged
    fi
}

# write_conf CTLD_NAME CTLD_ADDRESS NODE=ADDRESS...: fresh state, spool and log directories and the
# configuration; with one node, its slurmd's files are named as before (slurmd.pid, slurmd.log).
# With several, their TmpFS is DIR/node-tmp, which each node must make its own (a tmpfs mounted
# there): Slurm's PMIx plugin makes /tmp/spmix_appdir_UID_JOB.STEP on every node of a step, and
# on one /tmp the second node's fails ("File exists").
write_conf() {
    local ctld=$1 ctld_address=$2 names="" each="" node
    shift 2
    rm -rf "$dir/state" "$dir/spool"
    mkdir -p "$dir/state" "$dir/spool" "$dir/log"
    if [ $# -gt 1 ]; then
        each=-%n
        mkdir -p "$dir/node-tmp"
        echo "TmpFS=$dir/node-tmp" >"$conf"
    else
        : >"$conf"
    fi
    cat >>"$conf" <<CONF
ClusterName=mpiguard-test
SlurmctldHost=$ctld($ctld_address)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
MpiDefault=none
ReturnToService=2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool$each
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd$each.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd$each.log
SlurmctldPort=$((20000 + RANDOM % 20000))
SlurmdPort=$((40000 + RANDOM % 20000))
CONF
    for node in "$@"; do
        echo "NodeName=${node%%=*} NodeAddr=${node#*=} CPUs=64 Sockets=1 CoresPerSocket=64 ThreadsPerCore=1 RealMemory=20000" >>"$conf"
        names=$names${names:+,}${node%%=*}
    done
    echo "PartitionName=debug Nodes=$names Default=YES State=UP MaxTime=60" >>"$conf"
}

start() {
    munge
    write_conf "$host" 127.0.0.1 "$host=127.0.0.1"
    export SLURM_CONF="$conf"
    slurmctld -f "$conf"
    slurmd -f "$conf"
    for _ in $(seq 1 100); do
        state=$(sinfo -h -o %t 2>/dev/null || true)
        [ "$state" = idle ] && { echo "$conf"; return 0; }
        sleep 0.2
    done
    echo "slurm did not become ready; logs in $dir/log" >&2
    return 1
}

stop() {
    if [ -f "$conf" ] && [ -f "$dir/slurmctld.pid" ]; then
        SLURM_CONF="$conf" scancel --full --user="$(id -un)" 2>/dev/null || true
        for _ in $(seq 1 50); do
            [ -z "$(SLURM_CONF="$conf" squeue -h 2>/dev/null)" ] && break
            sleep 0.2
        done
    fi
    for d in slurmd slurmctld; do
        [ -f "$dir/$d.pid" ] && kill "$(cat "$dir/$d.pid")" 2>/dev/null || true
    done
    sleep 0.5
}

case "$cmd" in
    start) start ;;
    stop) stop ;;
    conf) shift 2; munge; write_conf "$@" ;;
    *) echo "usage: slurm_cluster.sh start|stop|conf DIR ..." >&2; exit 64 ;;
esac
