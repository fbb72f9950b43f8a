# tests/slurm.sh -- sourced after tests/setup.sh by a test that needs a real
# Slurm: a one-node cluster (munged, slurmctld, slurmd) private to the test,
# all of it under $tmp/slurm and on TCP ports of its own, so that tests
# running at once under 'make -j check' do not meet.  Root only.
#
#	. "$top_srcdir/tests/slurm.sh"
#	slurm_start || { echo "1..0 # SKIP $slurm_why"; exit 0; }
#
# slurm_start exports SLURM_CONF (the client commands read it) and
# ENSEMBLE_SLURM=$slurm_dir: every process started after it carries that in
# its environment (the daemons, salloc, srun, mpirun and what they run), so
# that slurm_stop, which runs on exit before $tmp is removed, finds and ends
# all of them even when the test stops midway; slurmstepd, which slurmd
# starts with an empty environment, it finds by its open log file.

slurm_dir=$tmp/slurm
slurm_conf=$slurm_dir/slurm.conf
slurm_host=$(hostname -s)
slurm_why=
# Lines added to slurm.conf by slurm_start, overriding those above them
# (e.g. MinJobAge=4: sbatch --wait then polls every 2 s, not 2, 8, 32 s).
: "${slurm_conf_extra:=}"
# The same configuration with MessageTimeout=1, for clients only: with
# slurmctld down they fail at once instead of retrying for 9 s (squeue -j:
# 18 s), e.g. SLURM_CONF=$slurm_fast_conf squeue ...
slurm_fast_conf=$slurm_dir/fast.conf

# slurm_port_free PORT: nothing listens on TCP PORT.
slurm_port_free() {
	[ -z "$(ss -Hltn "sport = :$1" 2>/dev/null)" ]
}

# slurm_pick_ports: set slurm_ctld_port and slurm_d_port to two free ports
# below the ephemeral range (32768 up), searching from $slurm_port_next,
# which starts at a port keyed on our pid so that tests started at once
# look in different places.
slurm_port_next=$((10000 + ($$ * 2) % 20000))
slurm_pick_ports() {
	local p=$slurm_port_next n

	for n in $(seq 200); do
		p=$((10000 + (p - 10000) % 20000))
		if slurm_port_free "$p" && slurm_port_free $((p + 1)); then
			slurm_ctld_port=$p slurm_d_port=$((p + 1))
			slurm_port_next=$((p + 2))
			return 0
		fi
		p=$((p + 2))
	done
	return 1
}

# slurm_write_conf CPUS: slurm.conf for this host with CPUS cpus (more than
# it has: config_overrides believes the configuration, not the hardware).
# MailProg: the default /bin/mail is missing, which slurmctld logs as an
# error.  batch_sched_delay=0: a batch job starts when submitted, not up to
# 3 s later.  TmpFS and FirstJobId: srun's PMIx plugin makes a directory
# TmpFS/spmix_appdir_UID_JOB.STEP, so that two clusters of tests running
# at once, each numbering its jobs from 1 in /tmp, took each other's
# ("task launch failed"): ours is under $slurm_dir, and our jobs are
# numbered from a place keyed on our pid.
slurm_write_conf() {
	cat >"$slurm_conf" <<EOF
ClusterName=ens$$
SlurmctldHost=$slurm_host
SlurmctldPort=$slurm_ctld_port
SlurmdPort=$slurm_d_port
AuthType=auth/munge
AuthInfo=socket=$slurm_dir/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$slurm_dir/state
SlurmdSpoolDir=$slurm_dir/spool
SlurmctldPidFile=$slurm_dir/slurmctld.pid
SlurmdPidFile=$slurm_dir/slurmd.pid
SlurmctldLogFile=$slurm_dir/slurmctld.log
SlurmdLogFile=$slurm_dir/slurmd.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerParameters=batch_sched_delay=0
MpiDefault=none
TmpFS=$slurm_dir/tmp
FirstJobId=$(( ($$ % 60000) * 1000 + 1 ))
SlurmdParameters=config_overrides
ReturnToService=2
NodeName=$slurm_host CPUs=$1 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
$slurm_conf_extra
EOF
	{ cat "$slurm_conf"; echo MessageTimeout=1; } >"$slurm_fast_conf"
}

# slurm_alive NAME: the daemon of NAME.pid runs.
slurm_alive() {
	local pid

	pid=$(cat "$slurm_dir/$1.pid" 2>/dev/null) && kill -0 "$pid" 2>/dev/null
}

# slurm_ctld_start: start slurmctld in the background (-D: it stays our
# child, its early errors go to slurmctld.out).
slurm_ctld_start() {
	slurmctld -D -f "$slurm_conf" </dev/null >>"$slurm_dir/slurmctld.out" 2>&1 &
	slurm_ctld_pid=$!
}

# slurm_wait_ready SECONDS: wait until the node is idle (or running jobs)
# and takes a job; 1 if it did not within SECONDS or a daemon died.
slurm_wait_ready() {
	local end=$((SECONDS + $1)) state

	while :; do
		kill -0 "$slurm_ctld_pid" 2>/dev/null &&
		    kill -0 "$slurm_d_pid" 2>/dev/null || return 1
		[ "$SECONDS" -lt "$end" ] || return 1
		state=$(timeout 5 sinfo -h -o %T 2>/dev/null) || state=
		case $state in
		idle | mixed | allocated) break ;;
		esac
		sleep 0.2
	done
	timeout $((end - SECONDS + 1)) srun -n1 true </dev/null \
	    >/dev/null 2>>"$slurm_dir/srun.err"
}

# slurm_start [CPUS]: start the cluster, its node with CPUS cpus (8), and
# wait until it runs a job; 0 when it does, else 1 with the reason in
# $slurm_why and nothing left running.
slurm_start() {
	local cpus=${1:-8} i n

	slurm_why=
	for i in munged slurmctld slurmd srun sinfo scancel ss; do
		command -v "$i" >/dev/null || { slurm_why="no $i"; return 1; }
	done
	[ "$(id -u)" = 0 ] || { slurm_why="not root"; return 1; }
	mkdir -p "$slurm_dir/state" "$slurm_dir/spool" "$slurm_dir/tmp"
	export ENSEMBLE_SLURM=$slurm_dir
	# Stop before the exit trap there is (setup.sh's removes $tmp).
	eval "set -- $(trap -p EXIT)"
	case ${3:-} in
	slurm_stop*) ;;
	*) trap "slurm_stop; ${3:-}" EXIT ;;
	esac
	slurm_traps exit

	# munge: a key of our own and a daemon on our own socket; --force
	# because it runs as root.  It forks once ready.
	dd if=/dev/urandom of="$slurm_dir/munge.key" bs=1024 count=1 2>/dev/null
	chmod 0400 "$slurm_dir/munge.key"
	if ! munged --force --socket="$slurm_dir/munge.socket" \
	    --key-file="$slurm_dir/munge.key" \
	    --pid-file="$slurm_dir/munged.pid" \
	    --log-file="$slurm_dir/munged.log" \
	    --seed-file="$slurm_dir/munged.seed" </dev/null >/dev/null 2>&1; then
		slurm_why="munged did not start"
		slurm_stop
		return 1
	fi

	# Our cluster, not the allocation 'make check' may run in.
	for n in $(compgen -e SLURM_); do
		unset "$n"
	done
	export SLURM_CONF=$slurm_conf
	# Another instance may take our ports between the look and the bind:
	# then try the next ones.
	for i in 1 2 3; do
		if ! slurm_pick_ports; then
			slurm_why="no free TCP ports"
			break
		fi
		slurm_write_conf "$cpus"
		# The output of failed try N is kept as *.out.N.
		for n in slurmctld slurmd; do
			[ ! -e "$slurm_dir/$n.out" ] ||
			    mv "$slurm_dir/$n.out" "$slurm_dir/$n.out.$((i - 1))"
		done
		slurm_ctld_start
		slurmd -D -f "$slurm_conf" </dev/null >"$slurm_dir/slurmd.out" 2>&1 &
		slurm_d_pid=$!
		if slurm_wait_ready 30; then
			slurm_why=
			return 0
		fi
		slurm_why="slurm did not run a job in 30 s"
		for n in slurmd slurmctld; do
			slurm_alive "$n" || slurm_why="$n failed"
		done
		# Why, as TAP comments (the logs go with $tmp).
		tail -n 3 "$slurm_dir"/slurm*.out | sed 's/^/# /'
		kill -9 "$slurm_d_pid" "$slurm_ctld_pid" 2>/dev/null || true
		wait "$slurm_d_pid" "$slurm_ctld_pid" 2>/dev/null || true
		grep -qs 'Address already in use' "$slurm_dir"/slurm*.out ||
		    break
		slurm_why="TCP ports taken"
	done
	slurm_stop
	return 1
}

# slurm_traps exit|wait: on HUP, INT and TERM exit, running the EXIT trap
# (bash's default is to end without it), or go on (while stopping: a
# second signal must not cut slurm_stop short).  A handler, not '', so
# that commands started meanwhile do not inherit an ignored signal.
slurm_traps() {
	if [ "$1" = exit ]; then
		trap 'exit 129' HUP
		trap 'exit 130' INT
		trap 'exit 143' TERM
	else
		trap : HUP INT TERM
	fi
}

# slurm_kill NAME [PID]: end the daemon of NAME.pid (or PID) and wait for
# it, 10 s at most before SIGKILL.
slurm_kill() {
	local pid=${2:-} i

	[ -n "$pid" ] || pid=$(cat "$slurm_dir/$1.pid" 2>/dev/null) || return 0
	kill "$pid" 2>/dev/null || return 0
	for i in $(seq 100); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -9 "$pid" 2>/dev/null || true
}

# slurm_procs: the pids of the live processes of this instance: those
# marked, and those with a file of $slurm_dir open.
slurm_procs() {
	# In a subshell without the mark, or grep would find itself.
	(
		unset ENSEMBLE_SLURM
		{
			grep -lzxsF "ENSEMBLE_SLURM=$slurm_dir" \
			    /proc/[0-9]*/environ
			find /proc/[0-9]*/fd -maxdepth 1 \
			    -lname "$slurm_dir/*" 2>/dev/null
		} | sed -n 's|^/proc/\([0-9]*\)/.*|\1|p' | sort -u |
		    tr '\n' ' '
	) || true
}

# slurm_down: stop slurmctld alone, for a test of "Slurm is down".
slurm_down() {
	slurm_kill slurmctld
}

# slurm_up: start slurmctld again after slurm_down (it recovers its jobs
# from the state directory) and wait until the node takes jobs again.
slurm_up() {
	local end=$((SECONDS + 30))

	slurm_ctld_start
	until timeout 5 sinfo -h >/dev/null 2>&1; do
		kill -0 "$slurm_ctld_pid" 2>/dev/null || return 1
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.1
	done
	# The node stays "unknown" until slurmd registers again, which
	# slurmctld asks for some 3 s later; SIGHUP makes it register now.
	kill -HUP "$slurm_d_pid" 2>/dev/null || true
	slurm_wait_ready $((end - SECONDS))
}

# slurm_stop: cancel the jobs, stop the daemons, end whatever else of this
# instance is left (job steps, salloc); run on exit too.
slurm_stop() {
	local pids

	[ -n "${ENSEMBLE_SLURM:-}" ] || return 0
	slurm_traps wait
	if slurm_alive slurmctld; then
		timeout 10 scancel --quiet --user=root 2>/dev/null || true
	fi
	slurm_kill slurmd
	slurm_kill slurmctld
	slurm_kill munged
	pids=$(slurm_procs)
	[ -z "$pids" ] || kill -9 $pids 2>/dev/null || true
	unset ENSEMBLE_SLURM SLURM_CONF
	slurm_traps exit
}
