#!/bin/bash
# run.sh -- the runtime's speed against its targets (make bench-run):
#
#   launch   'ensemble run' of N no-op components against 'mpirun' of the
#            same executable from an MPMD appfile (one line per process,
#            as 'ensemble run' gives each its own argv): the ratio of
#            median wall times at most 1.3 at N = 8 and 32; the run's
#            start and wiring times are reported apart (bench/native.sh
#            times it against 'mpirun -np N' of the plain program)
#   ports    the cost of a port: ping-pong through ens_send/ens_recv
#            against raw MPI_Send/MPI_Recv between the same two processes,
#            in the same run (bench/native.sh compares the run itself with
#            a plain mpirun):
#            latency ratio at most 1.05 for 8 B and 1 MiB messages; the
#            same through each binding against that language's raw MPI:
#            C++ (bench/pingpong-cxx, MPI's C calls from C++) and Fortran
#            (bench/pingpong-f90, mpi_f08) at most 1.05, Python
#            (bench/pingpong.py, mpi4py's Send/Recv, NumPy buffers) at
#            most 1.15 for 8 B and 1.05 for 1 MiB
#   launch, Python  'ensemble run' of N Python no-op components
#            (bench/noop.py) against 'mpirun -np N PYTHON noop.py --mpi'
#            (mpi4py's own MPI_Init): the ratio at most 1.3
#
# ENSEMBLE   the ensemble binary (default ./ensemble, in the build tree)
# RUNS       runs per launch measurement (default 5); medians reported
# SIZES      launch sizes (default "8 32")
#
# Exit status: 0 every target met, 1 one missed, 2 a run went wrong.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
ensemble=${ENSEMBLE:-./ensemble}
runs=${RUNS:-5}
sizes=${SIZES:-8 32}
case $ensemble in
/*) ;;
*) ensemble=$(pwd)/$ensemble ;;
esac
build=$(dirname "$ensemble")
noop=$build/bench/noop
pingpong=$build/bench/pingpong
for f in "$ensemble" "$noop" "$pingpong"; do
	if [ ! -x "$f" ]; then
		echo "run.sh: '$f' is not built (make bench-run builds it)" >&2
		exit 2
	fi
done
mpirun=${MPIRUN:-$(command -v mpirun)}
. "$here/lib.sh"
mpi_scratch
missed=0


echo "launch: ensemble run of N no-op components vs mpirun -np N (MPMD appfile), median of $runs"
printf '%6s %12s %12s %8s %10s %10s\n' N "run (s)" "mpirun (s)" ratio "start (s)" "wiring (s)"
for n in $sizes; do
	: >"$work/appfile"
	for i in $(seq 1 "$n"); do echo "-np 1 $noop --mpi $i" >>"$work/appfile"; done
	: >"$work/t-run"; : >"$work/t-mpi"; : >"$work/t-start"; : >"$work/t-wire"
	for r in $(seq 1 "$runs"); do
		wall "$mpirun" --app "$work/appfile" >>"$work/t-mpi"
		wall "$ensemble" run "$here/noop.pcg" -np "$n" -L "$build/bench" >>"$work/t-run"
		sed -n 's/.*(start \([0-9.]*\) s, wiring \([0-9.]*\) s.*/\1 \2/p' "$work/err" >"$work/sw"
		cut -d' ' -f1 "$work/sw" >>"$work/t-start"
		cut -d' ' -f2 "$work/sw" >>"$work/t-wire"
	done
	tr=$(median <"$work/t-run"); tm=$(median <"$work/t-mpi")
	ts=$(median <"$work/t-start"); tw=$(median <"$work/t-wire")
	ratio=$(awk -v a="$tr" -v b="$tm" 'BEGIN { print a / b }')
	printf '%6d %12.3f %12.3f %8.2f %10.3f %10.4f\n' "$n" "$tr" "$tm" "$ratio" "$ts" "$tw"
	if awk -v r="$ratio" 'BEGIN { exit !(r > 1.3) }'; then
		echo "  MISSED: ratio above 1.3"
		missed=1
	fi
done

# ports LABEL EXEC MAX8 MAX1M: ping-pong through the port interface of
# bench/EXEC (bench/pingpong.pcg running EXEC) against its language's raw
# MPI on the same port, in the same run, at 8 B and 1 MiB; the latency
# ratio at most MAX8 and MAX1M.
ports() {
	local label=$1 exe=$2 bytes reps e m ratio max

	if [ ! -x "$build/bench/$exe" ]; then
		echo "run.sh: '$build/bench/$exe' is not built (make bench-run builds it)" >&2
		exit 2
	fi
	sed "s/exec \"pingpong\"/exec \"$exe\"/" "$here/pingpong.pcg" >"$work/$exe.pcg"
	echo
	echo "ports, $label: ping-pong latency through the binding vs raw MPI (median block)"
	for bytes in 8 1048576; do
		reps=$([ "$bytes" -le 1024 ] && echo 200000 || echo 2000)
		max=$([ "$bytes" -le 1024 ] && echo "$3" || echo "$4")
		"$ensemble" run "$work/$exe.pcg" -L "$build/bench" -D bytes="$bytes" \
		    -D reps="$reps" >"$work/out" 2>"$work/err" || { cat "$work/err" >&2; exit 2; }
		e=$(sed -n "s/^pingpong ens $bytes bytes: \([0-9.]*\) us$/\1/p" "$work/out")
		m=$(sed -n "s/^pingpong mpi $bytes bytes: \([0-9.]*\) us$/\1/p" "$work/out")
		if [ -z "$e" ] || [ -z "$m" ]; then
			echo "run.sh: no figures from $exe" >&2
			cat "$work/out" "$work/err" >&2
			exit 2
		fi
		ratio=$(awk -v a="$e" -v b="$m" 'BEGIN { print a / b }')
		printf '%8d B: ens %10.3f us   mpi %10.3f us   ratio %.3f\n' "$bytes" "$e" "$m" "$ratio"
		if awk -v r="$ratio" -v x="$max" 'BEGIN { exit !(r > x) }'; then
			echo "  MISSED: ratio above $max"
			missed=1
		fi
	done
}

# launch_python: 'ensemble run' of N Python no-op components against
# mpirun of the same script with mpi4py's own MPI_Init.
launch_python() {
	local py n r tr tm ratio

	py=$(sed -n '1s/^#!//p' "$build/bench/noop.py")
	echo
	echo "launch, Python: ensemble run of N Python no-op components vs mpirun -np N $py noop.py, median of $runs"
	printf '%6s %12s %12s %8s\n' N "run (s)" "mpirun (s)" ratio
	sed 's/exec "noop"/exec "noop.py"/' "$here/noop.pcg" >"$work/noop-py.pcg"
	for n in $sizes; do
		: >"$work/t-run"; : >"$work/t-mpi"
		for r in $(seq 1 "$runs"); do
			wall "$mpirun" -np "$n" "$py" "$build/bench/noop.py" --mpi >>"$work/t-mpi"
			wall "$ensemble" run "$work/noop-py.pcg" -np "$n" -L "$build/bench" >>"$work/t-run"
		done
		tr=$(median <"$work/t-run"); tm=$(median <"$work/t-mpi")
		ratio=$(awk -v a="$tr" -v b="$tm" 'BEGIN { print a / b }')
		printf '%6d %12.3f %12.3f %8.2f\n' "$n" "$tr" "$tm" "$ratio"
		if awk -v r="$ratio" 'BEGIN { exit !(r > 1.3) }'; then
			echo "  MISSED: ratio above 1.3"
			missed=1
		fi
	done
}

ports C pingpong 1.05 1.05
ports C++ pingpong-cxx 1.05 1.05
ports Fortran pingpong-f90 1.05 1.05
# The Python binding is not built with the sanitizers.
if [ -x "$build/bench/noop.py" ] && [ -x "$build/bench/pingpong.py" ]; then
	ports Python pingpong.py 1.15 1.05
	launch_python
else
	echo
	echo "Python: no Python binding in this build; skipped"
fi
exit $missed
