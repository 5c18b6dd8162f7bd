#!/usr/bin/env bash
# A real single-node Slurm cluster on this machine, from Debian's packages, for running
# sharded `sargon diff` job arrays (scripts/slurm/submit-diff.sh) without a site cluster.
#
#   local-cluster.sh start    install slurm-wlm and munge if missing (as root), write the
#                             config, start munged, slurmctld and slurmd, wait for the node
#                             to be idle
#   local-cluster.sh stop     cancel the cluster's jobs, stop the three daemons (by pid file)
#   local-cluster.sh status   which daemons run, and sinfo
#   local-cluster.sh env      the exports that point sbatch/squeue/sinfo at this cluster:
#                             eval "$(scripts/slurm/local-cluster.sh env)"
#
# Everything the cluster owns (slurm.conf, munge key and socket, spool and state dirs, logs,
# pid files) lives in one directory, ${SARGON_SLURM_DIR:-/tmp/sargon-slurm}, so the machine's
# own /etc/slurm and /etc/munge are never read or changed, and `rm -rf` of it forgets the
# cluster. The daemons listen on ports 16817/16818 (SARGON_SLURM_PORT, SARGON_SLURM_PORT+1),
# not Slurm's default 6817/6818, so a site installation on the same machine is not disturbed.
#
# Settings that work inside a container: no cgroups anywhere (proctrack/linuxproc tracks job
# processes by parent pid, task/none binds nothing), no accounting database.
set -euo pipefail

CLUSTER_DIR=${SARGON_SLURM_DIR:-/tmp/sargon-slurm}
CTLD_PORT=${SARGON_SLURM_PORT:-16817}
SLURMD_PORT=$((CTLD_PORT + 1))

CONF=$CLUSTER_DIR/slurm.conf
MUNGE_SOCKET=$CLUSTER_DIR/munge/munge.socket.2
MUNGE_PID=$CLUSTER_DIR/run/munged.pid
CTLD_PID=$CLUSTER_DIR/run/slurmctld.pid
SLURMD_PID=$CLUSTER_DIR/run/slurmd.pid

die() {
    echo "local-cluster: $*" >&2
    exit 1
}

usage() {
    echo "usage: $0 {start|stop|status|env}" >&2
    exit 2
}

# The pid in a pid file, if that process is alive.
live_pid() {
    local file=$1 pid
    [[ -s $file ]] || return 1
    pid=$(<"$file")
    [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

# slurm-wlm brings slurmctld, slurmd and the client commands; munge brings munged.
ensure_packages() {
    local missing=()
    command -v munged >/dev/null || missing+=(munge)
    for tool in slurmctld slurmd sbatch; do
        command -v "$tool" >/dev/null || { missing+=(slurm-wlm); break; }
    done
    ((${#missing[@]} == 0)) && return 0
    local install="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurm-wlm munge"
    if [[ $(id -u) != 0 ]]; then
        die "missing ${missing[*]}; install with: sudo sh -c '$install'"
    fi
    echo "local-cluster: installing ${missing[*]} (Debian packages slurm-wlm munge)" >&2
    sh -c "$install" >"${TMPDIR:-/tmp}/sargon-slurm-apt.log" 2>&1 ||
        die "apt-get failed; see ${TMPDIR:-/tmp}/sargon-slurm-apt.log"
}

# The node as slurmd sees it (name, sockets/cores/threads, memory), so that the config
# matches what slurmd registers; a mismatch would leave the node drained.
slurmd_node_line() {
    slurmd -C | head -n 1
}

write_config() {
    local user node_line node_name
    user=$(id -un)
    node_line=$(slurmd_node_line)
    node_name=${node_line#NodeName=}
    node_name=${node_name%% *}
    [[ -n $node_name ]] || die "cannot read the node name from 'slurmd -C': $node_line"
    mkdir -p "$CLUSTER_DIR"/{munge,run,log,state} "$CLUSTER_DIR/spool/slurmd-$node_name"
    # Readable by all so that other users' sbatch can reach the munge socket; the key
    # itself is readable by its owner only.
    chmod 755 "$CLUSTER_DIR"
    cat >"$CONF" <<EOF
# Written by scripts/slurm/local-cluster.sh; rewritten on every start.
ClusterName=sargon-local
SlurmctldHost=$node_name(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=$user
SlurmdUser=$user

# munged runs with its socket in this directory; the socket option tells Slurm where.
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$MUNGE_SOCKET

StateSaveLocation=$CLUSTER_DIR/state
SlurmdSpoolDir=$CLUSTER_DIR/spool/slurmd-%n
SlurmctldPidFile=$CTLD_PID
SlurmdPidFile=$SLURMD_PID
SlurmctldLogFile=$CLUSTER_DIR/log/slurmctld.log
SlurmdLogFile=$CLUSTER_DIR/log/slurmd.log

# No cgroups: they are often missing or read-only in containers.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none

SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
# A job whose dependency can no longer be met is cancelled rather than left pending forever.
DependencyParameters=kill_invalid_depend
# No mail server here; without this slurmctld logs an error at every start.
MailProg=/bin/true
# Finished jobs stay visible to scontrol for an hour (there is no accounting database).
MinJobAge=3600
ReturnToService=2
SlurmdTimeout=60

# The node exactly as 'slurmd -C' reports it; 127.0.0.1 so no name lookup is needed.
$node_line NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
    echo "$node_name" >"$CLUSTER_DIR/node-name"
}

start_munge() {
    if live_pid "$MUNGE_PID" >/dev/null; then return 0; fi
    local key=$CLUSTER_DIR/munge/munge.key
    if [[ ! -s $key ]]; then
        # A fresh 1 KiB random key; munged insists that only its owner can read it.
        (umask 077 && head -c 1024 /dev/urandom >"$key")
    fi
    chmod 400 "$key"
    # --force: munged refuses to start when it finds an old socket, e.g. after a crash.
    munged --force \
        --socket="$MUNGE_SOCKET" \
        --key-file="$key" \
        --pid-file="$MUNGE_PID" \
        --log-file="$CLUSTER_DIR/log/munged.log" \
        --seed-file="$CLUSTER_DIR/munge/munged.seed" ||
        die "munged did not start; see $CLUSTER_DIR/log/munged.log"
    # Round-trip a credential to show munged answers on the socket Slurm will use.
    munge --socket="$MUNGE_SOCKET" -n | unmunge --socket="$MUNGE_SOCKET" >/dev/null ||
        die "munged does not answer on $MUNGE_SOCKET"
}

show_logs() {
    local log
    for log in munged slurmctld slurmd; do
        [[ -f $CLUSTER_DIR/log/$log.log ]] || continue
        echo "--- last lines of $CLUSTER_DIR/log/$log.log" >&2
        tail -n 15 "$CLUSTER_DIR/log/$log.log" >&2
    done
}

start_cluster() {
    local started
    started=$(date +%s.%N)
    ensure_packages
    if live_pid "$CTLD_PID" >/dev/null && live_pid "$SLURMD_PID" >/dev/null; then
        echo "local-cluster: already running (SLURM_CONF=$CONF)"
        return 0
    fi
    write_config
    local node
    node=$(<"$CLUSTER_DIR/node-name")
    start_munge
    export SLURM_CONF=$CONF
    if ! live_pid "$CTLD_PID" >/dev/null; then
        slurmctld -f "$CONF" || { show_logs; die "slurmctld did not start"; }
    fi
    if ! live_pid "$SLURMD_PID" >/dev/null; then
        slurmd -f "$CONF" -N "$node" || { show_logs; die "slurmd did not start"; }
    fi
    # The node is usable once sinfo shows it idle (or already running something).
    local state=""
    for _ in $(seq 1 120); do
        state=$(sinfo -h -n "$node" -o %t 2>/dev/null || true)
        case $state in
        idle | mix | alloc) break ;;
        esac
        sleep 0.5
    done
    case $state in
    idle | mix | alloc) ;;
    *)
        show_logs
        die "node $node is '${state:-not answering}' after 60 s"
        ;;
    esac
    local took
    took=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    echo "local-cluster: node $node is $state after $took s; SLURM_CONF=$CONF"
}

# Ends one daemon by its pid file: SIGTERM, then up to 10 s for it to go, then SIGKILL.
stop_daemon() {
    local name=$1 file=$2 pid
    pid=$(live_pid "$file") || { rm -f "$file"; return 0; }
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        echo "local-cluster: $name (pid $pid) ignored SIGTERM; killing it" >&2
        kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$file"
    echo "local-cluster: stopped $name (pid $pid)"
}

stop_cluster() {
    export SLURM_CONF=$CONF
    # Cancel this cluster's jobs first, so that no job step outlives slurmd.
    if live_pid "$CTLD_PID" >/dev/null && [[ -n $(squeue -h -o %i 2>/dev/null) ]]; then
        echo "local-cluster: cancelling the cluster's jobs"
        scancel --partition=debug 2>/dev/null || true
        for _ in $(seq 1 100); do
            [[ -z $(squeue -h -t running,completing -o %i 2>/dev/null) ]] && break
            sleep 0.1
        done
    fi
    stop_daemon slurmd "$SLURMD_PID"
    stop_daemon slurmctld "$CTLD_PID"
    stop_daemon munged "$MUNGE_PID"
    # A job step that outlived the cancel would go on without its slurmd: say so.
    if pgrep -a slurmstepd >&2; then
        echo "local-cluster: warning: the slurmstepd processes above are still running" >&2
    fi
}

status_cluster() {
    local name file pid running=0
    for name in munged slurmctld slurmd; do
        file=$CLUSTER_DIR/run/$name.pid
        if pid=$(live_pid "$file"); then
            echo "$name: running (pid $pid)"
            running=$((running + 1))
        else
            echo "$name: not running"
        fi
    done
    if ((running == 3)); then
        SLURM_CONF=$CONF sinfo
        return 0
    fi
    return 3
}

print_env() {
    printf 'export SARGON_SLURM_DIR=%q\n' "$CLUSTER_DIR"
    printf 'export SLURM_CONF=%q\n' "$CONF"
}

(($# == 1)) || usage
case $1 in
start) start_cluster ;;
stop) stop_cluster ;;
status) status_cluster ;;
env) print_env ;;
*) usage ;;
esac
