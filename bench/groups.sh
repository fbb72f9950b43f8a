#!/bin/sh
# groups.sh -- collectives over groups at growing size: states and wall
# time of 'ensemble verify' (default engine) and of '--exact' at the small
# sizes on tests/verify/gr-grid.pcg, an H x W grid whose cells take an
# allreduce over their row and one over their column each step (row and
# column groups overlap; the H row groups are disjoint, and so are the W
# column groups).
#
# Target (issue 26): -D H=10 -D W=10 verified in under 1 s by default:
# independent groups must not multiply.  The default run's states must
# grow no faster than the number of collectives (H + W per step: one
# state per group's collective), where every interleaving (--exact) is a
# product over the groups.
#
#   bench/groups.sh [ENSEMBLE]          # or: make bench-groups
#
# GROUP_CALLS the folder of bench/group-calls, built (make bench-groups
#            sets it): then also what a collective over a group costs
#            through libensemble against plain MPI (RUNS runs, default 5)
#
# ENSEMBLE   the ensemble binary (first argument, else $ENSEMBLE, else
#            ./ensemble); top_srcdir the source tree (default: this file's
#            parent)
#
# Exit status: 0 every target met, 1 one missed, 2 a run went wrong.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=${top_srcdir:-$(dirname "$here")}
ensemble=${1:-${ENSEMBLE:-./ensemble}}
model=$src/tests/verify/gr-grid.pcg

if [ ! -x "$ensemble" ]; then
	echo "groups.sh: no ensemble binary at '$ensemble'" >&2
	exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/ensemble-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 2' HUP INT TERM

cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "ensemble groups benchmark (tests/verify/gr-grid.pcg)"
echo "binary:  $ensemble"
echo "machine: $(nproc 2>/dev/null || echo '?') CPUs, ${cpu:-unknown CPU}"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
echo

fail=0

now() {
	date +%s.%N
}

# run ARGS...: ensemble verify --json on the model; sets r_b r_s (states
# per mode), r_e (the engines), r_t (wall seconds), r_v (the verdict).
run() {
	local t0 t1 out st
	t0=$(now)
	set +e
	"$ensemble" verify --json --max-time 60 "$@" "$model" >"$work/out" 2>"$work/err"
	st=$?
	set -e
	t1=$(now)
	r_t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
	out=$(cat "$work/out")
	r_b=$(printf '%s\n' "$out" | sed -n 's/.*"buffered":{[^}]*"states":\([0-9]*\),.*/\1/p')
	r_s=$(printf '%s\n' "$out" | sed -n 's/.*"synchronous":{[^}]*"states":\([0-9]*\),.*/\1/p')
	r_e=$(printf '%s\n' "$out" | sed -n 's/.*"buffered":{[^}]*"engine":"\([a-z]*\)".*/\1/p')
	r_v=$(printf '%s\n' "$out" | sed -n 's/^{"application":"[^"]*","verdict":"\([a-z]*\)".*/\1/p')
	if [ "$st" != 0 ] || [ -z "$r_b" ] || [ -z "$r_s" ]; then
		echo "groups.sh: verify $*: exit $st: $out" >&2
		cat "$work/err" >&2
		return 1
	fi
}

printf '%-14s %-7s %12s %12s %8s   %12s %12s %8s\n' "H x W, S" engine \
    buffered synchronous seconds "exact buf." "exact sync." seconds
for size in "2 2 1" "3 3 1" "4 4 1" "3 3 3" "10 10 1" "10 10 10" "20 20 1" "32 32 2"; do
	set -- $size
	run -D H=$1 -D W=$2 -D S=$3 || exit 2
	d_b=$r_b d_s=$r_s d_t=$r_t d_e=$r_e
	e_b=- e_s=- e_t=-
	if [ $(($1 * $2)) -le 16 ]; then
		run --exact -D H=$1 -D W=$2 -D S=$3 || exit 2
		e_b=$r_b e_s=$r_s e_t=$r_t
	fi
	printf '%-14s %-7s %12s %12s %8s   %12s %12s %8s\n' "$1 x $2, $3" \
	    "$d_e" "$d_b" "$d_s" "$d_t" "$e_b" "$e_s" "$e_t"
	# One state per collective: S (H + W) + 1.
	want=$(($3 * ($1 + $2) + 1))
	if [ "$d_b" -gt "$want" ] || [ "$d_s" -gt "$want" ]; then
		echo "  MISSED: more than S (H + W) + 1 = $want states"
		fail=1
	fi
	if [ "$1 $2" = "10 10" ] && awk -v t="$d_t" 'BEGIN { exit !(t >= 1) }'; then
		echo "  MISSED: 10 x 10 took $d_t s, target < 1 s"
		fail=1
	fi
done

# A collective over a group through libensemble against the same MPI
# call on the group's communicator (bench/group-calls.c), 2 processes:
# the microseconds per call, medians of 7 blocks of 20,000, per run, and
# the median of RUNS runs.  No target: a figure (the ratio grows as the
# call gets cheaper; 8 bytes between two processes is the cheapest).
if [ -n "${GROUP_CALLS:-}" ] && [ -x "$GROUP_CALLS/group-calls" ]; then
	echo
	echo "over a group, 2 processes, us a call (ens_*_over, MPI on its communicator; median of ${RUNS:-5} runs)"
	for i in $(seq "${RUNS:-5}"); do
		OMPI_MCA_rmaps_base_oversubscribe=1 timeout 120 "$ensemble" run \
		    "$src/bench/group-calls.pcg" --no-verify -L "$GROUP_CALLS" \
		    2>/dev/null >>"$work/calls" || exit 2
	done
	for op in bcast allreduce; do
		awk -v op=$op '$1 == op { print $2, $3 }' "$work/calls" | sort -n |
		    awk -v op=$op '{ a[NR] = $1; b[NR] = $2 }
		    END { m = int((NR + 1) / 2); printf "%-10s %8.3f %8.3f  ratio %.3f\n",
		    op, a[m], b[m], a[m] / b[m] }'
	done
fi

echo
if [ $fail = 0 ]; then
	echo "every target met"
else
	echo "some target missed"
fi
exit $fail
