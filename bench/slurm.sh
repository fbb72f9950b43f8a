#!/bin/bash
# slurm.sh -- launch time inside a Slurm allocation (make bench-slurm):
# 'salloc -n N ensemble run' of N no-op components (bench/noop.pcg)
# against 'salloc -n N mpirun -np N' of the plain program (bench/noop
# --mpi, MPI_Init only), at N = 8, 32 and 128, taken in turn; medians of
# the whole command's wall time, salloc's own allocation included in both,
# and their ratio.  No target is set: the figures are reported.
#
# Inside an allocation already (SLURM_JOBID set), it uses the cluster that
# made it, with 'salloc' nested as Slurm allows; otherwise, as root, it
# starts a one-node cluster of its own with as many CPUs as the largest N
# (tests/slurm.sh: munged, slurmctld and slurmd under a temporary
# directory, stopped on exit).  Open MPI's oversubscription is left off:
# the slots are the allocation's.
#
# ENSEMBLE   the ensemble binary (default ./ensemble, in the build tree)
# RUNS       runs of each command at each size (default 5)
# SIZES      the sizes (default "8 32 128")
#
# Exit status: 0 measured, 2 a run went wrong or Slurm cannot be started.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
ensemble=${ENSEMBLE:-./ensemble}
runs=${RUNS:-5}
sizes=${SIZES:-8 32 128}
case $ensemble in
/*) ;;
*) ensemble=$(pwd)/$ensemble ;;
esac
build=$(dirname "$ensemble")
noop=$build/bench/noop
mpirun=${MPIRUN:-$(command -v mpirun)}
for f in "$ensemble" "$noop"; do
	if [ ! -x "$f" ]; then
		echo "slurm.sh: '$f' is not built (make bench-slurm builds it)" >&2
		exit 2
	fi
done
if [ "$(id -u)" = 0 ]; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
unset OMPI_MCA_rmaps_base_oversubscribe

# tests/slurm.sh wants setup.sh's scratch directory and its trap.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ensemble-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM
work=$tmp
. "$here/lib.sh"
max=0
for n in $sizes; do
	[ "$n" -le "$max" ] || max=$n
done
if [ -z "${SLURM_JOBID:-}" ]; then
	. "$here/../tests/slurm.sh"
	if ! slurm_start "$max"; then
		echo "slurm.sh: cannot start a Slurm: $slurm_why" >&2
		exit 2
	fi
	echo "a one-node Slurm of $max CPUs on $(hostname), started for this run"
else
	echo "inside the Slurm allocation $SLURM_JOBID"
fi

echo "launch inside Slurm: salloc -n N, ensemble run of N no-op components vs mpirun -np N of the plain program, median of $runs"
printf '%6s %14s %14s %8s\n' N "ensemble (s)" "mpirun (s)" ratio
for n in $sizes; do
	: >"$tmp/t-run"
	: >"$tmp/t-mpi"
	for r in $(seq 1 "$runs"); do
		wall salloc -Q -n "$n" "$mpirun" -np "$n" "$noop" --mpi >>"$tmp/t-mpi"
		wall salloc -Q -n "$n" "$ensemble" run "$here/noop.pcg" -np "$n" \
		    -L "$build/bench" >>"$tmp/t-run"
	done
	tr=$(median <"$tmp/t-run")
	tm=$(median <"$tmp/t-mpi")
	printf '%6d %14.3f %14.3f %8.2f\n' "$n" "$tr" "$tm" \
	    "$(awk -v a="$tr" -v b="$tm" 'BEGIN { print a / b }')"
done
echo "target: none set; reported"
