#!/bin/bash
# launch.sh -- ens_launch against plain mpirun (make bench-launch): an
# application started by ens_launch from a driver under 'mpirun -np 1'
# (tests/components/launch-driver) against the same program under
# 'mpirun -np N', RUNS pairs taken in turn, medians and their ratio:
#
#	8 B ping-pong between the two spawned processes (bench/native-ens
#	    of bench/native.pcg, -np 2: half a round trip, the median of its
#	    blocks) vs bench/native under 'mpirun -np 2' (target: at most
#	    1.05);
#	launch of N no-op components (bench/noop.pcg, --no-verify): the
#	    wall time of the ens_launch call, the driver's own start left
#	    out, vs 'mpirun -np N bench/noop --mpi' (reported; no target).
#
# ENSEMBLE   the ensemble binary (default ./ensemble, in the build tree)
# RUNS       pairs of runs (default 7)
# SIZES      the launch's N (default "2 4")
#
# Exit status: 0 measured, 2 a run went wrong.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
ensemble=${ENSEMBLE:-./ensemble}
runs=${RUNS:-7}
sizes=${SIZES:-2 4}
case $ensemble in
/*) ;;
*) ensemble=$(pwd)/$ensemble ;;
esac
build=$(dirname "$ensemble")
driver=$build/tests/components/launch-driver
for f in "$ensemble" "$driver" "$build/bench/noop" "$build/bench/native" \
    "$build/bench/native-ens"; do
	if [ ! -x "$f" ]; then
		echo "launch.sh: '$f' is not built (make bench-launch builds it)" >&2
		exit 2
	fi
done
if [ "$(id -u)" = 0 ]; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export OMPI_MCA_rmaps_base_oversubscribe=1 ENSEMBLE_PROGRAM=$ensemble
. "$here/lib.sh"
scratch
machine
keep=(--mca orte_abort_on_non_zero_status 0 --mca orte_allowed_exit_without_sync 1)

echo "8 B ping-pong: half a round trip (us), 2 processes by ens_launch vs mpirun -np 2, median of $runs pairs"
echo "$here/native.pcg -np 2 -D small=20000 -D large=10 --no-verify -L $build/bench" \
    >"$work/list"
: >"$work/p-ens"
: >"$work/p-mpirun"
for r in $(seq 1 "$runs"); do
	wall mpirun -np 2 "$build/bench/native" 20000 10 >/dev/null
	sed -n 's/^pingpong8 \([0-9.]*\) us$/\1/p' "$work/out" >>"$work/p-mpirun"
	wall mpirun "${keep[@]}" -np 1 "$driver" "$work/list" >/dev/null
	grep -q '^launch 1: 0 (success), status 0$' "$work/out" || {
		echo "launch.sh: the launched ping-pong failed:" >&2
		cat "$work/out" >&2
		exit 2
	}
	sed -n 's/^pingpong8 \([0-9.]*\) us$/\1/p' "$work/out" >>"$work/p-ens"
done
printf '%14s %14s %8s\n' "ens_launch" "mpirun" ratio
printf '%14.3f %14.3f %8.2f\n' $(ratio "$work/p-ens" "$work/p-mpirun")
echo "target: at most 1.05"

echo "launch of N no-op processes (s): the ens_launch call vs mpirun -np N of the plain program, median of $runs pairs"
printf '%6s %14s %14s %8s\n' N "ens_launch" "mpirun" ratio
for n in $sizes; do
	echo "$here/noop.pcg -np $n --no-verify -L $build/bench" >"$work/list"
	: >"$work/t-ens"
	: >"$work/t-mpirun"
	for r in $(seq 1 "$runs"); do
		wall mpirun -np "$n" "$build/bench/noop" --mpi >>"$work/t-mpirun"
		wall env LAUNCH_DRIVER_TIME=1 mpirun "${keep[@]}" -np 1 \
		    "$driver" "$work/list" >/dev/null
		sed -n 's/^seconds //p' "$work/out" >>"$work/t-ens"
	done
	printf '%6d %14.3f %14.3f %8.2f\n' "$n" $(ratio "$work/t-ens" "$work/t-mpirun")
done
echo "target: none set; reported"
