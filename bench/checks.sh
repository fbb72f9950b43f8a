#!/bin/bash
# checks.sh -- what the run's checks cost (make bench-checks):
#
#   step      the protocol check's step alone (bench/monstep: ens_mon_step
#             in one process, processor time, no MPI), a loaded machine's
#             noise left out
#   cpu       calls that do not block, in one process, in the processor
#             time of its main thread (bench/callcost.pcg): 8 bytes sent
#             to itself and an allreduce of a world of one, raw MPI and
#             through ens_ calls; RUNS runs each of the default (protocol
#             checked, deadlock watch on), --no-check-protocol,
#             --no-deadlock-watch and bench/callcost under a plain
#             'mpirun -np 1', alternated: the medians, and the ratios of
#             what each check adds to a call that costs far less than a
#             message between processes (reported; no target: the
#             targets are the ratios below)
#   protocol  the protocol check (on by default for a verified run)
#             against the same run with --no-check-protocol: the 8-byte
#             ping-pong through ens_send/ens_recv (bench/pingpong.pcg,
#             N = 2) and the 8-byte ens_allreduce (bench/allreduce.pcg,
#             N = 2 and 4); RUNS pairs of runs, alternated; per figure the
#             medians of the runs' figures, checked and not, and their
#             ratio: at most 1.05.  Each run also times the same operation
#             in raw MPI between the same processes, beside it, which no
#             check sees: the ratio of the medians of each run's
#             ens / mpi, checked and not, is printed too ("paired"), the
#             machine's drift from run to run taken out.
#   watch     the deadlock watch (on by default) against the same build
#             with --no-deadlock-watch, and against a plain mpirun:
#             bench/native-ens under 'ensemble run bench/native.pcg -np
#             N --no-verify' and bench/native under 'mpirun -np N', N the
#             cores (pingpong8 and allreduce8: raw MPI calls, which
#             libensemble's PMPI layer says in its slot), RUNS triples
#             alternated; the ratios of the medians: watch / no watch at
#             most 1.01, watch / plain at most 1.05.  The same for the
#             port calls: the ping-pong of bench/pingpong.pcg, checked,
#             with and without the watch (at most 1.01).
#
# ENSEMBLE   the ensemble binary (default ./ensemble, in the build tree)
# RUNS       pairs (triples) of runs per figure (default 11)
# REPS       operations per run at 8 B (default 50000)
#
# Exit status: 0 every target met, 1 one missed, 2 a run went wrong.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
ensemble=${ENSEMBLE:-./ensemble}
runs=${RUNS:-11}
reps=${REPS:-50000}
case $ensemble in
/*) ;;
*) ensemble=$(pwd)/$ensemble ;;
esac
build=$(dirname "$ensemble")
mpirun=${MPIRUN:-$(command -v mpirun)}
cores=$(nproc)
. "$here/lib.sh"
need_built checks.sh bench-checks "$ensemble" "$build/bench/pingpong" \
    "$build/bench/allreduce" "$build/bench/native" "$build/bench/native-ens" \
    "$build/bench/monstep" "$build/bench/callcost" "$build/bench/callcost-ens"
mpi_scratch
missed=0

# run CMD...: run CMD, its output in $work/out; it must exit 0.
run() {
	if ! timeout 600 "$@" >"$work/out" 2>"$work/err"; then
		echo "checks.sh: failed: $*" >&2
		cat "$work/out" "$work/err" >&2
		exit 2
	fi
}

# fig PATTERN: the number in the line of $work/out sed's PATTERN matches.
fig() {
	local v
	v=$(sed -n "s/$1/\\1/p" "$work/out")
	if [ -z "$v" ]; then
		echo "checks.sh: no figure '$1'" >&2
		cat "$work/out" "$work/err" >&2
		exit 2
	fi
	echo "$v"
}

# ratio A B: A / B.
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'
}

# over RATIO MAX: whether RATIO is above MAX.
over() {
	awk -v r="$1" -v x="$2" 'BEGIN { exit !(r > x) }'
}

# pair LABEL KIND PCG NP ARGS_A ARGS_B MAX: RUNS runs of 'ensemble run
# PCG -np NP' (NP empty: its own size) with ARGS_A, then with ARGS_B,
# alternated; KIND 'pingpong' or 'allreduce' says which lines hold the
# figures.  Prints the medians and the ratios, and
# holds the ratio of the medians to MAX.
pair() {
	local label=$1 kind=$2 pcg=$3 np=$4 a=$5 b=$6 max=$7 r e m ra rb pa pb
	local pat

	rm -f "$work"/a.* "$work"/b.*
	if [ "$kind" = pingpong ]; then
		pat="pingpong %s 8 bytes: \\([0-9.]*\\) us"
	else
		pat="allreduce %s \\([0-9.]*\\) us"
	fi
	for r in $(seq 1 "$runs"); do
		for side in a b; do
			# shellcheck disable=SC2086
			run "$ensemble" run "$here/$pcg" ${np:+-np "$np"} \
			    -L "$build/bench" -D reps="$reps" \
			    $([ $side = a ] && echo "$a" || echo "$b")
			e=$(fig "^$(printf "$pat" ens)\$")
			m=$(fig "^$(printf "$pat" mpi)\$")
			echo "$e" >>"$work/$side.ens"
			ratio "$e" "$m" >>"$work/$side.pair"
			echo >>"$work/$side.pair"
		done
	done
	ra=$(median <"$work/a.ens"); rb=$(median <"$work/b.ens")
	pa=$(median <"$work/a.pair"); pb=$(median <"$work/b.pair")
	printf '  %-34s %10.3f %10.3f %8s   paired %s\n' "$label" "$ra" "$rb" \
	    "$(ratio "$ra" "$rb")" "$(ratio "$pa" "$pb")"
	if over "$(ratio "$ra" "$rb")" "$max"; then
		echo "  MISSED: $label: a ratio above $max"
		missed=1
	fi
}

echo "what the run's checks cost: $cores cores, $(uptime | sed 's/.*load/load/')"
echo
echo "protocol check, its step alone (processor time a call, median of 7 blocks):"
"$build/bench/monstep" | sed 's/^/  /'
echo
echo "calls that do not block, one process, processor time (us per call), median"
echo "  of $runs runs each, alternating: default, --no-check-protocol,"
echo "  --no-deadlock-watch, plain mpirun"
rm -f "$work"/c.*
for r in $(seq 1 "$runs"); do
	for side in d p w m; do
		case $side in
		d) run "$ensemble" run "$here/callcost.pcg" -L "$build/bench" ;;
		p) run "$ensemble" run "$here/callcost.pcg" -L "$build/bench" \
		    --no-check-protocol ;;
		w) run "$ensemble" run "$here/callcost.pcg" -L "$build/bench" \
		    --no-deadlock-watch ;;
		m) run "$mpirun" -np 1 "$build/bench/callcost" ;;
		esac
		for f in self8 allreduce8 ens_self8 ens_allreduce8; do
			[ $side = m ] && [ "${f#ens_}" != "$f" ] && continue
			fig "^$f \\([0-9.]*\\) us\$" >>"$work/c.$side.$f"
		done
	done
done
printf '  %-16s %9s %9s %9s %9s  %s\n' figure default no-check no-watch plain \
    ratios
for f in ens_self8 ens_allreduce8; do
	d=$(median <"$work/c.d.$f"); p=$(median <"$work/c.p.$f")
	printf '  %-16s %9.4f %9.4f %9s %9s  checked / not %s\n' "$f" "$d" "$p" \
	    - - "$(ratio "$d" "$p")"
done
for f in self8 allreduce8; do
	d=$(median <"$work/c.d.$f"); w=$(median <"$work/c.w.$f")
	m=$(median <"$work/c.m.$f")
	printf '  %-16s %9.4f %9s %9.4f %9.4f  watch / none %s, / plain %s\n' \
	    "$f" "$d" - "$w" "$m" "$(ratio "$d" "$w")" "$(ratio "$d" "$m")"
done
echo
echo "protocol check: checked against --no-check-protocol, median of $runs runs each,"
echo "  alternating, $reps operations a run (us per operation; target 1.05)"
printf '  %-34s %10s %10s %8s\n' figure checked unchecked ratio
pair "pingpong 8 B, N = 2" pingpong pingpong.pcg "" "" --no-check-protocol 1.05
pair "allreduce 8 B, N = 2" allreduce allreduce.pcg 2 "" --no-check-protocol 1.05
pair "allreduce 8 B, N = 4" allreduce allreduce.pcg 4 "" --no-check-protocol 1.05

echo
echo "deadlock watch: on against --no-deadlock-watch and a plain mpirun, N = $cores,"
echo "  median of $runs runs each, alternating (us per operation; target 1.01, 1.05)"
rm -f "$work"/w.* "$work"/n.* "$work"/p.*
for r in $(seq 1 "$runs"); do
	for side in w n p; do
		case $side in
		w) run "$ensemble" run "$here/native.pcg" -np "$cores" --no-verify \
		    -L "$build/bench" -D small="$reps" -D large=2 ;;
		n) run "$ensemble" run "$here/native.pcg" -np "$cores" --no-verify \
		    --no-deadlock-watch -L "$build/bench" -D small="$reps" -D large=2 ;;
		p) run "$mpirun" -np "$cores" "$build/bench/native" "$reps" 2 ;;
		esac
		for f in pingpong8 allreduce8; do
			fig "^$f \\([0-9.]*\\) us\$" >>"$work/$side.$f"
		done
	done
done
printf '  %-20s %10s %10s %10s %10s %10s\n' figure watch "no watch" plain \
    "w / none" "w / plain"
for f in pingpong8 allreduce8; do
	w=$(median <"$work/w.$f"); n=$(median <"$work/n.$f"); p=$(median <"$work/p.$f")
	printf '  %-20s %10.3f %10.3f %10.3f %10s %10s\n' "$f" "$w" "$n" "$p" \
	    "$(ratio "$w" "$n")" "$(ratio "$w" "$p")"
	if over "$(ratio "$w" "$n")" 1.01; then
		echo "  MISSED: $f: watch / no watch above 1.01"
		missed=1
	fi
	if over "$(ratio "$w" "$p")" 1.05; then
		echo "  MISSED: $f: watch / plain above 1.05"
		missed=1
	fi
done
echo
echo "deadlock watch on port calls: the checked ping-pong, watch against none"
printf '  %-34s %10s %10s %8s\n' figure watch "no watch" ratio
pair "pingpong 8 B, N = 2" pingpong pingpong.pcg "" "" --no-deadlock-watch 1.01
exit $missed
