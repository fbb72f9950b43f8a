#!/bin/bash
# slurm.sh -- launch time inside a Slurm allocation (make bench-slurm):
# 'salloc -n N ensemble run' of N no-op components (bench/noop.pcg)
# against 'salloc -n N mpirun -np N' of the plain program (bench/noop
# --mpi, MPI_Init only), at N = 8, 32 and 128, taken in turn; medians of
# the whole command's wall time, salloc's own allocation included in both,
# and their ratio.  No target is set: the figures are reported.
#
# Then srun's direct launch (--launcher srun, no mpirun): 'salloc -n N
# ensemble run --launcher srun' of the no-op components against 'salloc
# -n N srun --mpi=PLUGIN -n N' of the plain program, at the same sizes
# (target: the ratio at most 1.05); and 8 B ping-pong (bench/native: half
# a round trip, the median of its blocks) between two processes, under
# 'ensemble run --launcher srun' (bench/native-ens) and under a plain
# srun (bench/native), RUNS pairs taken in turn, the medians and their
# ratio (target: at most 1.05).  PLUGIN is pmix (Open MPI) or pmi2
# (MPICH), as ensemble gives it; skipped where srun lacks it.
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
# PARTS      "srun": only the srun part (default "mpirun srun": both)
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
native=$build/bench/native
mpirun=${MPIRUN:-$(command -v mpirun)}
for f in "$ensemble" "$noop" "$native" "$native-ens"; do
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

# launch LAUNCHER BASE CMD...: for each size N, RUNS pairs of 'salloc -n
# N' of CMD N (the plain program's launch) and of 'ensemble run' with
# LAUNCHER's options of the no-op components; a row of medians each.
launch() {
	local what=$1 base=$2 n r

	shift 2
	printf '%6s %14s %14s %8s\n' N "ensemble (s)" "$base (s)" ratio
	for n in $sizes; do
		: >"$tmp/t-run"
		: >"$tmp/t-base"
		for r in $(seq 1 "$runs"); do
			wall salloc -Q -n "$n" "$@" "$n" "$noop" --mpi >>"$tmp/t-base"
			wall salloc -Q -n "$n" "$ensemble" run $what \
			    "$here/noop.pcg" -np "$n" -L "$build/bench" >>"$tmp/t-run"
		done
		printf '%6d %14.3f %14.3f %8.2f\n' "$n" \
		    $(ratio "$tmp/t-run" "$tmp/t-base")
	done
}

if [ "${PARTS:-mpirun srun}" != srun ]; then
	echo "launch inside Slurm: salloc -n N, ensemble run of N no-op components vs mpirun -np N of the plain program, median of $runs"
	launch "" mpirun "$mpirun" -np
	echo "target: none set; reported"
fi

plugin=pmix
grep -q '^#define ENS_MPI "mpich"' "$build/config.h" && plugin=pmi2
if ! salloc -Q -n 1 srun --mpi=list 2>&1 | grep -qw "$plugin"; then
	echo "srun: no '$plugin' plugin here; --launcher srun not measured"
	exit 0
fi
echo "launch by srun: salloc -n N, ensemble run --launcher srun vs srun --mpi=$plugin -n N of the plain program, median of $runs"
launch "--launcher srun" srun srun --mpi="$plugin" -n
echo "target: at most 1.05"

echo "8 B ping-pong under srun: half a round trip (us), ensemble run --launcher srun vs srun --mpi=$plugin -n 2, median of $runs pairs"
: >"$tmp/p-run"
: >"$tmp/p-srun"
for r in $(seq 1 "$runs"); do
	wall salloc -Q -n 2 srun --mpi="$plugin" -n 2 "$native" 20000 10 \
	    >/dev/null
	sed -n 's/^pingpong8 \([0-9.]*\) us$/\1/p' "$work/out" >>"$tmp/p-srun"
	wall salloc -Q -n 2 "$ensemble" run --launcher srun --no-verify \
	    "$here/native.pcg" -np 2 -D small=20000 -D large=10 \
	    -L "$build/bench" >/dev/null
	sed -n 's/^pingpong8 \([0-9.]*\) us$/\1/p' "$work/out" >>"$tmp/p-run"
done
printf '%14s %14s %8s\n' "ensemble (us)" "srun (us)" ratio
printf '%14.3f %14.3f %8.2f\n' $(ratio "$tmp/p-run" "$tmp/p-srun")
echo "target: at most 1.05"
