# Several "nodes" on one machine, for the multi-node tests (docs/testing.md, "Nodes as namespaces").
# Sourced after tests/lib.sh. mn_nodes_up N builds N compute nodes (1..N) and a head node (0) where
# the launcher and mpiguard run, as on a login node. Each is a network namespace with its own address
# on a bridge, its own mount namespace (a private /dev/shm) and hostname; each compute node also has
# its own PID namespace, so its /proc shows its own processes only. The head stays in this PID
# namespace: a process may enter a PID namespace below its own, never a sibling, so the launchers
# enter the compute nodes from there. One holder process per node keeps its namespaces open;
# mn_on K CMD runs CMD on node K. Names are unique per run so
# that tests in parallel do not collide, and everything is torn down at exit, even on failure:
# killing a node's holder (its PID namespace's init) kills every process left on that node. A run
# killed outright (CTest's timeout sends SIGKILL: no trap runs) is torn down by mn_sweep, which
# the multinode_sweep cleanup fixture runs after the multinode tests: each run leaves its id and
# its shell's pid in MN_RUNS while its nodes are up.
# Sets MN_IDS (the run's id), MN_ADDR[K] (node K's address), MN_RSH (the script the launchers use
# instead of ssh: "MN_RSH ADDRESS COMMAND..."), MN_HOSTFILE (the compute nodes' addresses).

MN_ID=$(printf 'mg%05x' $(((($$ << 15) ^ RANDOM) & 0xfffff)))
MN_RUNS=/run/mpiguard-multinode
MN_NODES=0
MN_HOLDER=()
MN_ADDR=()

mn_nodes_down() {
    local k
    for ((k = 0; k < MN_NODES; k++)); do
        [ -z "${MN_HOLDER[$k]:-}" ] || kill -KILL "${MN_HOLDER[$k]}" 2>/dev/null
        ip netns del "${MN_ID}n$k" 2>/dev/null
    done
    ip link del "${MN_ID}b" 2>/dev/null
    rm -f "$MN_RUNS/$MN_ID"
    MN_NODES=0
}
MN_SLURMCTLD=""
trap '[ -z "$MN_SLURMCTLD" ] || kill "$MN_SLURMCTLD" 2>/dev/null; mn_nodes_down; rm -rf "$TMP"' EXIT
trap 'exit 143' HUP INT TERM

# mn_sweep: tears down the nodes of every run whose shell is gone (killed before its trap ran):
# every process in their network namespaces, the namespaces, the bridge. Runs still alive are left.
mn_sweep() {
    local run id ns
    for run in "$MN_RUNS"/mg*; do
        [ -e "$run" ] || continue
        id=${run##*/}
        ! kill -0 "$(cat "$run")" 2>/dev/null || continue
        for ns in $(ip netns list | awk -v id="$id" '$1 ~ "^" id "n[0-9]+$" { print $1 }'); do
            ip netns pids "$ns" | xargs -r kill -KILL 2>/dev/null
            ip netns del "$ns" 2>/dev/null
        done
        ip link del "${id}b" 2>/dev/null
        rm -f "$run"
    done
}

# mn_nodes_up N: the head 10.X.Y.1 and N compute nodes 10.X.Y.2..N+1 on bridge ${MN_ID}b (X.Y
# from the run's id).
mn_nodes_up() {
    local n=$(($1 + 1)) k ns subnet pidns
    subnet="10.$((0x${MN_ID:2:2} % 200 + 20)).$((0x${MN_ID:4:3} % 250))"
    mkdir -p "$MN_RUNS" && echo $$ >"$MN_RUNS/$MN_ID" || fail "cannot write $MN_RUNS/$MN_ID"
    ip link add "${MN_ID}b" type bridge && ip link set "${MN_ID}b" up ||
        fail "cannot create a bridge (root and CAP_NET_ADMIN needed)"
    for ((k = 0; k < n; k++)); do
        ns="${MN_ID}n$k"
        MN_NODES=$((k + 1))
        ip netns add "$ns" &&
            ip link add "${MN_ID}v$k" type veth peer name "${MN_ID}p$k" &&
            ip link set "${MN_ID}p$k" netns "$ns" &&
            ip link set "${MN_ID}v$k" master "${MN_ID}b" && ip link set "${MN_ID}v$k" up &&
            ip -n "$ns" link set lo up &&
            ip -n "$ns" link set "${MN_ID}p$k" name eth0 &&
            ip -n "$ns" addr add "$subnet.$((k + 1))/24" dev eth0 &&
            ip -n "$ns" link set eth0 up || fail "cannot build node $k ($ns)"
        MN_ADDR[$k]="$subnet.$((k + 1))"
        # The holder is ready once it sleeps (its hostname and /dev/shm set); on a compute node it
        # is the PID namespace's init, a child of unshare; its host pid is what nsenter targets.
        pidns="--pid --fork --mount-proc"
        [ $k -gt 0 ] || pidns=""
        ip netns exec "$ns" unshare $pidns --mount --uts --propagation private \
            sh -c 'hostname "$1" && mount -t tmpfs -o size=256m tmpfs /dev/shm && exec sleep 100000' \
            sh "${MN_ID}n$k" </dev/null >/dev/null 2>&1 &
        disown
        local unshare_pid=$! tries
        MN_HOLDER[$k]=""
        for tries in $(seq 100); do
            if [ $k -eq 0 ]; then
                [ "$(ps -o comm= -p $unshare_pid)" != sleep ] || MN_HOLDER[$k]=$unshare_pid
            else
                MN_HOLDER[$k]=$(pgrep -P $unshare_pid -x sleep || true)
            fi
            [ -n "${MN_HOLDER[$k]}" ] && break
            sleep 0.1
        done
        [ -n "${MN_HOLDER[$k]}" ] || fail "node $k did not come up"
    done
    MN_HOSTFILE=$TMP/hostfile
    MN_RSH=$TMP/node-rsh
    printf '%s\n' "${MN_ADDR[@]:1}" >"$MN_HOSTFILE"
    {
        echo '#!/bin/sh'
        echo '# Instead of ssh: skips ssh-style options, enters the node named by the address.'
        echo 'while [ $# -gt 0 ]; do case $1 in -*) shift ;; *) break ;; esac; done'
        echo 'host=$1; shift'
        echo 'case $host in'
        for ((k = 0; k < n; k++)); do
            echo "  ${MN_ADDR[$k]}|${MN_ID}n$k) pid=${MN_HOLDER[$k]} ;;"
        done
        echo '  *) echo "node-rsh: no node $host" >&2; exit 255 ;;'
        echo 'esac'
        echo 'exec nsenter -t "$pid" -a --wd="$PWD" -- sh -c "$*"'
    } >"$MN_RSH"
    chmod +x "$MN_RSH"
}

# mn_slurm_up: a Slurm cluster of the compute nodes (docs/testing.md, "Nodes as namespaces"): its
# slurmctld on the head, a slurmd on each compute node named after it (NodeName=its hostname,
# NodeAddr=its address), the host's munged shared through its socket. Each compute node gets the
# host's cgroup v1 hierarchies mounted afresh (`ip netns exec` gave it a /sys of its own, without
# them, and slurmd refuses to start without them) and a TmpFS of its own (slurm_cluster.sh). Sets
# SLURM_CONF. The slurmds go with their nodes; the slurmctld, on the head (this PID namespace), is
# stopped at exit by its pid, or by mn_sweep with the head's namespace.
mn_slurm_up() {
    local dir=$TMP/slurm k nodes=() state
    for ((k = 1; k < MN_NODES; k++)); do
        nodes+=("${MN_ID}n$k=${MN_ADDR[$k]}")
    done
    bash "$(dirname "${BASH_SOURCE[0]}")/../slurm/slurm_cluster.sh" conf "$dir" "${MN_ID}n0" \
        "${MN_ADDR[0]}" "${nodes[@]}" || fail "cannot write the Slurm configuration"
    export SLURM_CONF=$dir/slurm.conf
    mn_on 0 slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start"
    # the daemon writes its pid file after its parent returned
    for _ in $(seq 50); do
        MN_SLURMCTLD=$(cat "$dir/slurmctld.pid" 2>/dev/null) && [ -n "$MN_SLURMCTLD" ] && break
        sleep 0.1
    done
    [ -n "$MN_SLURMCTLD" ] || fail "slurmctld wrote no pid file"
    for ((k = 1; k < MN_NODES; k++)); do
        mkdir -p "$dir/spool-${MN_ID}n$k"
        mn_on $k sh -c 'mount -t tmpfs node-tmp "$1" && mount -t tmpfs cgroup /sys/fs/cgroup &&
            for c in cpu cpuacct cpuset memory devices freezer blkio pids name=systemd; do
                mkdir -p "/sys/fs/cgroup/${c#name=}" &&
                mount -t cgroup -o "$([ "${c#name=}" = "$c" ] || echo none,)$c" cgroup \
                    "/sys/fs/cgroup/${c#name=}" || exit 1
            done' sh "$dir/node-tmp" || fail "cannot mount cgroups on node $k"
        mn_on $k slurmd -f "$SLURM_CONF" -N "${MN_ID}n$k" || fail "slurmd did not start on node $k"
    done
    for _ in $(seq 150); do
        state=$(mn_on 0 sinfo -h -o '%t %D' 2>/dev/null)
        [ "$state" = "idle $((MN_NODES - 1))" ] && return 0
        sleep 0.2
    done
    tail -n 5 "$dir"/log/* >&2
    fail "the Slurm nodes did not become idle (sinfo: $state)"
}

# mn_on K COMMAND...: runs COMMAND on node K (its network, processes, /dev/shm and hostname).
mn_on() {
    local k=$1
    shift
    nsenter -t "${MN_HOLDER[$k]}" -a --wd="$PWD" -- "$@"
}

# mn_launcher FLAVOR: the launcher words that start a job's ranks one per compute node, entered
# through MN_RSH instead of ssh, talking only over the nodes' eth0 (docs/testing.md, "Nodes as
# namespaces", says why each option is there).
mn_launcher() {
    case $1 in
        openmpi) echo mpirun.openmpi --hostfile "$MN_HOSTFILE" --map-by node \
            --mca plm_rsh_agent "$MN_RSH" --mca plm_rsh_no_tree_spawn 1 --mca routed direct \
            --mca btl self,vader,tcp --mca btl_tcp_if_include eth0 --mca oob_tcp_if_include eth0 ;;
        mpich) echo mpiexec.mpich -f "$MN_HOSTFILE" -launcher ssh -launcher-exec "$MN_RSH" \
            -localhost "${MN_ADDR[0]}" ;;
        *) fail "unknown MPI flavour $1" ;;
    esac
}
