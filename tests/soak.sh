#!/usr/bin/env bash
# soak.sh -- many runs that fail, time out, are interrupted or lose one of
# their processes, in random order, on a machine kept busy, then a look
# for anything of any run left behind: a process, a file or FIFO in the
# runs' TMPDIR, Open MPI's shared-memory segments or session directory,
# or a directory of a run in /dev/shm.  From the build directory:
#
#	make soak [SOAK_RUNS=500] [SOAK_SEED=1] [SOAK_BUSY=4]
#
# SOAK_BUSY processes spin on the CPU meanwhile (as 'stress -c 4' would).
# Prints a line per kind of run, the leftovers if any, and ends with
# "soak: N runs, nothing left" (exit 0) or what was left (exit 1).
set -u
: "${ENSEMBLE:?set ENSEMBLE to the ensemble binary}"
: "${top_srcdir:?set top_srcdir}"
: "${top_builddir:?set top_builddir}"
runs=${SOAK_RUNS:-500}
RANDOM=${SOAK_SEED:-1}
busy=${SOAK_BUSY:-4}
bin=$top_builddir/tests/components
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
id=ensemble-soak-$$
work=$(mktemp -d "${TMPDIR:-/tmp}/ensemble-soak.XXXXXX") || exit 2
export TMPDIR=$work/tmp
mkdir "$TMPDIR"
ls -d /dev/shm/* 2>/dev/null | sort >"$work/shm-before"
burners=()
cleanup() {
	[ ${#burners[@]} -gt 0 ] && kill "${burners[@]}" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
for ((k = 0; k < busy; k++)); do
	sh -c 'while :; do :; done' &
	burners+=($!)
done

# The processes of the soak's runs, "pid comm" each.
ours() {
	grep -lsaF "ENSEMBLE_TEST_ID=$id" /proc/[0-9]*/environ 2>/dev/null |
		sed 's|/proc/\([0-9]*\)/environ|\1|' | while read -r p; do
			echo "$p $(cat "/proc/$p/comm" 2>/dev/null)"
		done
}
# comm NAME: the pids of our processes called NAME.
comm_pids() {
	ours | awk -v c="$1" '$2 == c { print $1 }'
}

cat >"$work/hang.pcg" <<'EOS'
application hang;
PCG
Components misbehave : Peer;
Processes  misbehave[1..3] : Peer[1];
Channels   misbehave[1].Peer[1] <-> misbehave[2].Peer[1];
           misbehave[3].Peer[1] <-> misbehave[3].Peer[1];
SEQUENTIAL COMPONENTS
    misbehave : args "hang";
EOS
sed 's/misbehave : args "hang";/misbehave[1] : args "crash";\n    misbehave[2..3] : args "hang";/' \
    "$work/hang.pcg" >"$work/crash.pcg"
sed 's/misbehave : args "hang";/misbehave[1] : args "exit" "3";\n    misbehave[2..3] : args "hang";/' \
    "$work/hang.pcg" >"$work/exit.pcg"

kinds="ok crash exit timeout int term kill-run kill-mpirun kill-exec kill-component kill-tidy trace"
declare -A count
for k in $kinds; do count[$k]=0; done
left=0
for ((i = 1; i <= runs; i++)); do
	set -- $kinds
	shift $((RANDOM % $#))
	kind=$1
	count[$kind]=$((count[$kind] + 1))
	args=(run "$work/hang.pcg" -L "$bin" --no-verify)
	case $kind in
	ok)	args=(run "$top_srcdir/scripts/ring.pcg") ;;
	crash)	args=(run "$work/crash.pcg" -L "$bin" --no-verify) ;;
	exit)	args=(run "$work/exit.pcg" -L "$bin" --no-verify) ;;
	timeout) args+=(--timeout 2) ;;
	trace)	args=(run "$top_srcdir/scripts/ring.pcg" --trace "$work/t.mtf" --timeout 20) ;;
	esac
	ENSEMBLE_TEST_ID=$id timeout 60 "$ENSEMBLE" "${args[@]}" \
	    >"$work/out" 2>"$work/err" </dev/null &
	pid=$!
	# Strike at a random moment of the start or of the run.
	sleep "0.$((RANDOM % 10))$((RANDOM % 10))"
	[ $((RANDOM % 2)) = 0 ] && sleep 1
	case $kind in
	int)	kill -INT $pid 2>/dev/null ;;
	term)	kill -TERM $pid 2>/dev/null ;;
	kill-run) comm_pids ensemble | xargs -r kill -9 ;;
	kill-mpirun) comm_pids mpirun | xargs -r kill -9 ;;
	kill-exec) comm_pids ensemble-exec | shuf -n 1 | xargs -r kill -9 ;;
	kill-component) comm_pids misbehave | shuf -n 1 | xargs -r kill -9 ;;
	kill-tidy) comm_pids ensemble-tidy | xargs -r kill -9 ;;
	esac
	case $kind in
	ok|crash|exit|timeout|trace) ;;
	*)	# What is not stopped otherwise, --timeout-less, is stopped here.
		sleep 3
		comm_pids ensemble | xargs -r kill -INT ;;
	esac
	wait $pid 2>/dev/null
	# Whatever is left of this run has 15 s to go.
	for ((k = 0; k < 150; k++)); do
		[ -z "$(ours)" ] && break
		sleep 0.1
	done
	if [ -n "$(ours)" ]; then
		echo "soak: run $i ($kind): processes left:"
		ours | sed 's/^/  /'
		ours | cut -d' ' -f1 | xargs -r kill -9
		left=$((left + 1))
	fi
done

for k in $kinds; do
	printf 'soak: %-15s %d runs\n' "$k" "${count[$k]}"
done
found=$( { find "$TMPDIR" -mindepth 1; find /tmp -maxdepth 1 -type p -newer "$work/shm-before" 2>/dev/null;
	ls -d /dev/shm/* 2>/dev/null | sort | comm -13 "$work/shm-before" -; } )
if [ -n "$found" ] || [ "$left" -gt 0 ]; then
	echo "soak: $runs runs, left behind:"
	printf '%s\n' "$found" | sed '/^$/d; s/^/  /'
	[ "$left" -gt 0 ] && echo "  processes after $left runs (above)"
	exit 1
fi
echo "soak: $runs runs, nothing left"
