#!/bin/bash
# native.sh -- what running an MPI program under 'ensemble run' costs
# against running it under a plain mpirun, same N, same machine (make
# bench-native):
#
#   latency  bench/native.c, native-cxx.cpp, native-f90.F90 and native.py:
#            one source per language, built twice, calling MPI_Init (run
#            with 'mpirun -np N') and calling ens_init (ens::session in
#            C++, the module's ens_init in Fortran, ensemble.init() in
#            Python; run with 'ensemble run bench/native.pcg -np N
#            --no-verify'); on MPI_COMM_WORLD, raw MPI: 8 B and 1 MiB
#            ping-pong between ranks 0 and 1 (half a round trip) and an
#            8 B MPI_Allreduce of every rank, each the median of 7 blocks;
#            at N = cores and 2 x cores, RUNS pairs of runs, plain then
#            ensemble; the medians of the runs' figures and the ratio
#            ensemble / plain: at most 1.05 at 8 B, 1.02 at 1 MiB (where
#            the runs of both fall in two modes, as oversubscribed, in
#            each mode: see compare).  Python
#            is skipped in a build without the Python binding, a language
#            whose programs are not built with a message
#   launch   'ensemble run' of N no-op components (bench/noop.pcg, verified
#            as by default) against 'mpirun -np N bench/noop --mpi', RUNS
#            each alternating: median wall times and their ratio (no
#            target set; reported)
#   quiet    C at N = cores: bench/native-ens ping-ponging for 12 s under
#            'ensemble run', and bench/native under mpirun; over 5 s
#            after the first 3, the voluntary context switches (all
#            threads) of each process: ensemble's helpers (ensemble, the
#            ensemble-exec trampolines, and mpirun's beyond the plain
#            run's) together at most 5 a second; and, with strace, the
#            system calls of rank 0's main thread in each: none that the
#            plain program does not make
#
# Both runs get only what a user gives a plain mpirun on one machine:
# OMPI_ALLOW_RUN_AS_ROOT=1 and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 when root,
# and OMPI_MCA_rmaps_base_oversubscribe=1 (needed at 2 x cores; 'ensemble
# run' sets it itself on one machine, with its choice of transports).
#
# ENSEMBLE   the ensemble binary (default ./ensemble, in the build tree)
# RUNS       pairs of runs per figure (default 9); medians reported
# SIZES      launch sizes (default "8 32 128")
# SMALL      operations per block at 8 B (default 20000)
# LARGE      round trips per block at 1 MiB (default 200)
# TIMEOUT    seconds a run may take before it counts as failed (default 600)
# LAUNCHER   'ensemble run --launcher LAUNCHER' (default: its own choice;
#            spawn: the processes MPI_Comm_spawn started, against
#            'mpirun -np N' of the plain program)
# LANGS      the languages of latency (default "C C++ Fortran Python")
# PARTS      what to measure (default "latency launch quiet")
#
# Exit status: 0 every target met, 1 one missed, 2 a run went wrong.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
ensemble=${ENSEMBLE:-./ensemble}
runs=${RUNS:-9}
sizes=${SIZES:-8 32 128}
small=${SMALL:-20000}
large=${LARGE:-200}
tmo=${TIMEOUT:-600}
launcher=${LAUNCHER:+--launcher $LAUNCHER}
langs=" ${LANGS:-C C++ Fortran Python} "
parts=" ${PARTS:-latency launch quiet} "
case $ensemble in
/*) ;;
*) ensemble=$(pwd)/$ensemble ;;
esac
build=$(dirname "$ensemble")
mpirun=${MPIRUN:-$(command -v mpirun)}
cores=$(nproc)
. "$here/lib.sh"
need_built native.sh bench-native "$ensemble" "$build/bench/noop"
mpi_scratch
figures="pingpong8 allreduce8 pingpong1M"
strace=
missed=0


# run CMD...: run CMD, its output in $work/out and $work/err; it must
# exit 0 within TIMEOUT seconds.
run() {
	if ! timeout "$tmo" "$@" >"$work/out" 2>"$work/err"; then
		echo "native.sh: failed: $*" >&2
		cat "$work/out" "$work/err" >&2
		exit 2
	fi
}

# wall CMD...: the seconds CMD took (see run).
wall() {
	local t0 t1
	t0=$(date +%s.%N)
	run "$@"
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", b - a }'
}

# take KIND CMD...: run CMD and add each of its figures to $work/KIND.FIGURE.
take() {
	local kind=$1 f v
	shift
	run "$@"
	for f in $figures; do
		v=$(sed -n "s/^$f \([0-9.]*\) us$/\1/p" "$work/out")
		if [ -z "$v" ]; then
			echo "native.sh: no $f figure from: $*" >&2
			cat "$work/out" "$work/err" >&2
			exit 2
		fi
		echo "$v" >>"$work/$kind.$f"
	done
}

# compare N FIGURE MAX: print the row of FIGURE from $work/plain.FIGURE
# and $work/ens.FIGURE (a run's figure a line): the medians and their
# ratio, which must be at most MAX (else the status is 1).  Oversubscribed,
# where nothing is bound, a run lands in one of two modes by where the
# scheduler puts the ranks, under either launcher (at 1 MiB about 60 or
# 95 us here), and a median of a few runs is then a coin's throw between
# them: when the runs of both fall in two groups, apart by more than a
# quarter (two-means on all of them), each mode gets its row, its runs
# counted, and the ratio is held to MAX in each mode both launchers
# reached at least twice.
compare() {
	local n=$1 f=$2 max=$3

	{ sed 's/^/p /' "$work/plain.$f"; sed 's/^/e /' "$work/ens.$f"; } |
	awk -v n="$n" -v f="$f" -v max="$max" '
	function median(a, k,   i, j, t) {
		for (i = 2; i <= k; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
			}
		return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
	}
	# row LABEL: the medians of the runs below cut (mode 1) or above it
	# (mode 2; 0: all), and their ratio; 1 when held to max and above it.
	function row(label, mode,   i, kp, ke, bad) {
		kp = ke = 0
		for (i = 1; i <= m; i++) {
			if (mode == 1 && v[i] > cut || mode == 2 && v[i] <= cut)
				continue
			if (who[i] == "p")
				p[++kp] = v[i]
			else
				e[++ke] = v[i]
		}
		if (kp == 0 || ke == 0) {
			printf "%6d  %-12s %12s %14s %8s  %s\n", n, f, kp ? sprintf("%.3f", median(p, kp)) : "-",
			    ke ? sprintf("%.3f", median(e, ke)) : "-", "-", label
			return 0
		}
		pm = median(p, kp); em = median(e, ke)
		printf "%6d  %-12s %12.3f %14.3f %8.3f%s\n", n, f, pm, em, em / pm, label
		bad = kp >= 2 && ke >= 2 && em / pm > max
		return bad
	}
	{ who[++m] = $1; v[m] = $2 }
	END {
		# Two-means on all the runs: lo and hi, the cut between.
		lo = hi = v[1]
		for (i = 1; i <= m; i++) {
			if (v[i] < lo) lo = v[i]
			if (v[i] > hi) hi = v[i]
		}
		for (it = 0; it < 50; it++) {
			cut = (lo + hi) / 2
			sl = sh = nl = nh = 0
			for (i = 1; i <= m; i++)
				if (v[i] <= cut) { sl += v[i]; nl++ } else { sh += v[i]; nh++ }
			if (nl == 0 || nh == 0)
				break
			lo = sl / nl; hi = sh / nh
		}
		if (nl < 2 || nh < 2 || hi < 1.25 * lo)
			exit row("", 0)
		for (i = 1; i <= m; i++)
			if (v[i] <= cut) { if (who[i] == "p") fp++; else fe++ }
		np = ne = 0
		for (i = 1; i <= m; i++)
			if (who[i] == "p") np++; else ne++
		b = row(sprintf("  fast mode: %d of %d runs plain, %d of %d ensemble", fp, np, fe, ne), 1)
		b += row(sprintf("  slow mode: %d of %d runs plain, %d of %d ensemble", np - fp, np, ne - fe, ne), 2)
		exit b > 0
	}'
}

# latency LABEL PROG CMD...: the figures of CMD (the plain program, run by
# 'mpirun -np N' before it) against those of PROG (bench/native.pcg's
# 'prog') under 'ensemble run', at N = cores and 2 x cores; the ratios of
# their medians at most 1.05 at 8 B and 1.02 at 1 MiB.
latency() {
	local label=$1 prog=$2 n r f p e ratio max
	shift 2

	echo
	echo "$label: ${*//$build\//} under 'mpirun -np N'," \
	    "bench/$prog under 'ensemble run -np N'"
	echo "  (median of $runs runs each, alternating; per operation," \
	    "half a round trip for ping-pong)"
	printf '%6s  %-12s %12s %14s %8s\n' N figure "plain (us)" "ensemble (us)" ratio
	for n in "$cores" $((2 * cores)); do
		rm -f "$work"/plain.* "$work"/ens.*
		for r in $(seq 1 "$runs"); do
			take plain "$mpirun" -np "$n" "$@" "$small" "$large"
			take ens "$ensemble" run $launcher "$here/native.pcg" -np "$n" --no-verify \
			    -L "$build/bench" -D prog="$prog" -D small="$small" \
			    -D large="$large"
		done
		for f in $figures; do
			max=$([ "$f" = pingpong1M ] && echo 1.02 || echo 1.05)
			compare "$n" "$f" "$max" || {
				echo "  MISSED: $label, N = $n, $f: a ratio above $max"
				missed=1
			}
		done
	done
}

# built LABEL FILE...: whether every FILE is built, else say it is skipped.
built() {
	local label=$1 f
	shift
	for f in "$@"; do
		if [ ! -x "$f" ]; then
			echo
			echo "$label: '$f' is not built (make bench-native builds it); skipped"
			return 1
		fi
	done
}

# launch: 'ensemble run' of N no-op components against 'mpirun -np N' of
# the same executable calling MPI_Init itself; no target.
launch() {
	local n r tr tm ratio

	echo
	echo "launch: ensemble run of N no-op components vs mpirun -np N bench/noop --mpi,"
	echo "  median wall time of $runs runs each, alternating (target: none set; reported)"
	printf '%6s %12s %12s %8s\n' N "run (s)" "mpirun (s)" ratio
	for n in $sizes; do
		: >"$work/t-run"; : >"$work/t-mpi"
		for r in $(seq 1 "$runs"); do
			wall "$mpirun" -np "$n" "$build/bench/noop" --mpi >>"$work/t-mpi"
			wall "$ensemble" run $launcher "$here/noop.pcg" -np "$n" -L "$build/bench" >>"$work/t-run"
		done
		tr=$(median <"$work/t-run"); tm=$(median <"$work/t-mpi")
		ratio=$(awk -v a="$tr" -v b="$tm" 'BEGIN { print a / b }')
		printf '%6d %12.3f %12.3f %8.2f\n' "$n" "$tr" "$tm" "$ratio"
	done
}

# csw PID: the voluntary context switches of all the threads of PID.
csw() {
	cat /proc/"$1"/task/*/status 2>/dev/null |
	    awk '/^voluntary_ctxt_switches:/ { s += $2 } END { print s + 0 }'
}

# tree PID: PID and its descendants, a process a line.
tree() {
	local c
	echo "$1"
	for c in $(ps -o pid= --ppid "$1"); do
		tree "$c"
	done
}

# rank0 PROG PID...: the one of the PIDs that runs PROG as rank 0.
rank0() {
	local prog=$1 p
	shift
	for p in "$@"; do
		if [ "$(cat /proc/"$p"/comm 2>/dev/null)" = "$prog" ] &&
		    tr '\0' '\n' </proc/"$p"/environ 2>/dev/null |
		    grep -qx OMPI_COMM_WORLD_RANK=0; then
			echo "$p"
			return
		fi
	done
}

# watch KIND PROG CMD...: start CMD (a 12 s ping-pong of PROG); after 3 s,
# count for 5 s the voluntary context switches of every process of the
# run, and with strace the system calls of rank 0's main thread, into
# $work/KIND.csw ("name pid threads switches") and $work/KIND.calls
# ("name calls"); CMD must exit 0.
watch() {
	local kind=$1 prog=$2 pid p comp spid rc=0
	local -a procs before
	shift 2

	timeout "$tmo" "$@" >"$work/$kind.out" 2>"$work/$kind.err" &
	pid=$!
	sleep 3
	# timeout's child is the run.
	p=$(ps -o pid= --ppid "$pid" | tr -d ' ' | head -n 1)
	if [ -z "$p" ]; then
		wait "$pid" || true
		echo "native.sh: ended before 3 s: $*" >&2
		cat "$work/$kind.out" "$work/$kind.err" >&2
		exit 2
	fi
	mapfile -t procs < <(tree "$p")
	for p in "${!procs[@]}"; do
		before[p]=$(csw "${procs[p]}")
	done
	comp=$(rank0 "$prog" "${procs[@]}")
	spid=
	if [ -n "$strace" ] && [ -n "$comp" ]; then
		timeout -s INT 5 "$strace" -c -o "$work/$kind.strace" -p "$comp" \
		    >/dev/null 2>"$work/$kind.strace-err" &
		spid=$!
	fi
	sleep 5
	: >"$work/$kind.csw"
	for p in "${!procs[@]}"; do
		echo "$(cat /proc/"${procs[p]}"/comm 2>/dev/null || echo '?') ${procs[p]}" \
		    "$(ls /proc/"${procs[p]}"/task 2>/dev/null | wc -l)" \
		    "$(($(csw "${procs[p]}") - before[p]))" >>"$work/$kind.csw"
	done
	: >"$work/$kind.calls"
	if [ -n "$spid" ]; then
		wait "$spid" || true
		# It writes nothing when there was no call.
		if grep -q 'Process .* attached' "$work/$kind.strace-err"; then
			awk '/^-----/ { d++; next } d == 1 { print $NF, $4 }' \
			    "$work/$kind.strace" >"$work/$kind.calls"
		else
			echo "native.sh: strace of process $comp: $(cat "$work/$kind.strace-err")" >&2
			strace=
		fi
	fi
	wait "$pid" || rc=$?
	if [ "$rc" != 0 ]; then
		echo "native.sh: failed ($rc): $*" >&2
		cat "$work/$kind.out" "$work/$kind.err" >&2
		exit 2
	fi
}

# quiet: how often a quiet ensemble run wakes its helpers, and what rank
# 0's main thread calls, against a plain mpirun of the same program.
quiet() {
	local n=$cores ens plain extra helpers calls extra_calls f

	if [ ! -x "$build/bench/native" ] || [ ! -x "$build/bench/native-ens" ]; then
		echo
		echo "quiet: bench/native is not built (make bench-native builds it); skipped"
		return
	fi
	strace=$(command -v strace || true)
	watch plain native "$mpirun" -np "$n" "$build/bench/native" 1 1 12
	watch ens native-ens "$ensemble" run $launcher "$here/native.pcg" -np "$n" --no-verify \
	    -L "$build/bench" -D seconds=12
	echo
	echo "quiet: C at N = $n, a 12 s ping-pong: voluntary context switches (all threads)"
	echo "  in 5 s after the first 3"
	printf '  %-14s %-16s %8s %8s %10s\n' run process pid threads switches
	for f in plain ens; do
		awk -v run="$([ $f = plain ] && echo mpirun || echo 'ensemble run')" \
		    '{ printf "  %-14s %-16s %8s %8s %10s\n", run, $1, $2, $3, $4 }' \
		    "$work/$f.csw"
	done
	plain=$(awk '$1 == "mpirun" { s += $4 } END { print s + 0 }' "$work/plain.csw")
	ens=$(awk '$1 == "mpirun" { s += $4 } END { print s + 0 }' "$work/ens.csw")
	helpers=$(awk '$1 == "ensemble" || $1 == "ensemble-exec" { s += $4 }
	    END { print s + 0 }' "$work/ens.csw")
	extra=$((ens > plain ? ens - plain : 0))
	echo "  ensemble's helpers in 5 s: ensemble and ensemble-exec $helpers, mpirun $ens" \
	    "(plain: $plain, +$extra)"
	echo "  together $((helpers + extra)) in 5 s," \
	    "$(awk -v s=$((helpers + extra)) 'BEGIN { printf "%.1f", s / 5 }') a second" \
	    "(target: at most 5 a second)"
	if [ $((helpers + extra)) -gt 25 ]; then
		echo "  MISSED: ensemble's helpers wake $((helpers + extra)) times in 5 s, above 25"
		missed=1
	fi
	if [ -z "$strace" ]; then
		echo "  system calls: no strace here; skipped"
		return
	fi
	echo "  system calls of rank 0's main thread in 5 s (strace -c, no -f):"
	calls=$(awk '{ printf " %s %s", $1, $2 }' "$work/plain.calls")
	echo "    plain mpirun:${calls:- none}"
	calls=$(awk '{ printf " %s %s", $1, $2 }' "$work/ens.calls")
	echo "    ensemble run:${calls:- none}"
	calls=" $(awk '{ printf "%s ", $1 }' "$work/plain.calls")"
	extra_calls=$(awk -v p="$calls" 'index(p, " " $1 " ") == 0 { printf " %s", $1 }' \
	    "$work/ens.calls")
	if [ -z "$extra_calls" ]; then
		echo "  same system calls"
	else
		echo "  MISSED: system calls under ensemble run that the plain" \
		    "program does not make:$extra_calls"
		missed=1
	fi
}

echo "ensemble run${launcher:+ $launcher} against plain mpirun: $cores cores, $(uptime | sed 's/.*load/load/')"
case $parts in *" latency "*) ;; *) langs=" " ;; esac
if [[ $langs == *" C "* ]] && built C "$build/bench/native" "$build/bench/native-ens"; then
	latency C native-ens "$build/bench/native"
fi
if [[ $langs == *" C++ "* ]] && built C++ "$build/bench/native-cxx" "$build/bench/native-cxx-ens"; then
	latency C++ native-cxx-ens "$build/bench/native-cxx"
fi
if [[ $langs == *" Fortran "* ]] && built Fortran "$build/bench/native-f90" "$build/bench/native-f90-ens"; then
	latency Fortran native-f90-ens "$build/bench/native-f90"
fi
# The Python binding is not built with the sanitizers.
if [[ $langs != *" Python "* ]]; then
	:
elif [ -x "$build/bench/native.py" ]; then
	py=$(sed -n '1s/^#!//p' "$build/bench/native.py")
	latency Python native.py "$py" "$build/bench/native.py" --mpi
else
	echo
	echo "Python: no Python binding in this build; skipped"
fi
[[ $parts != *" launch "* ]] || launch
[[ $parts != *" quiet "* ]] || quiet
exit $missed
