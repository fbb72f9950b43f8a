#!/bin/sh
# shapes.sh -- the growth of the default engine on every family of issues
# 22 and 35 and on everyday shapes: states (buffered, synchronous), CPU
# seconds of both modes and microseconds a state, at N = 8, 32, 100 and
# 1000 where reachable.  The shapes are tests/verify/po-*.pcg (issue 22's,
# bench/por.sh) and bench/shapes/*.pcg, each with 'scale N', and a few
# made here for each N (gen_butterfly: N a power of two).  A master
# answering work requests by 'waitany' over N named requests is left out:
# its code is copied for each set of requests that may be pending (too
# large a program at N = 8); master-requests.pcg takes them by 'probe any
# as m; recv m;'.  A size is left out once a smaller one took
# longer than VERIFY_MAX or stopped at a limit.
#
# Targets (issue 35): every shape decided at N = 32 in under 1 s and at
# N = 100 in under 10 s; the endless halo exchanges (halo-line, po-halo,
# torus-halo) at N = 1000 in under 1 s; each a state in under 10 us on
# average (CPU time over the states of both modes, where a run stored
# more than 10,000).  A shape that stays exponential is marked with what
# makes its nondeterminism real (bench/README.md).
#
#   bench/shapes.sh [ENSEMBLE]          # or: make bench-shapes
#
# ENSEMBLE    the ensemble binary (first argument, else $ENSEMBLE, else
#             ./ensemble); top_srcdir the source tree (default: this
#             file's parent)
# VERIFY_MAX  seconds a run may take (--max-time; default 20)
# SIZES       the sizes (default "8 32 100 1000")
# SHAPES      the shapes to run, by name (default: all)
# ARGS        more arguments for every 'ensemble verify' (--no-symmetry)
#
# Exit status: 0 every target met, 1 one missed, 2 a run went wrong.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=${top_srcdir:-$(dirname "$here")}
ensemble=${1:-${ENSEMBLE:-./ensemble}}
verify_max=${VERIFY_MAX:-20}
sizes=${SIZES:-8 32 100 1000}
args=${ARGS:-}

case $ensemble in
/*) ;;
*) ensemble=$(pwd)/$ensemble ;;
esac
if [ ! -x "$ensemble" ]; then
	echo "shapes.sh: no ensemble binary at '$ensemble'" >&2
	exit 2
fi
# CPU time by GNU time where there is one, else wall time.
timer=
[ -x /usr/bin/time ] && /usr/bin/time -f '%U' true 2>/dev/null && timer=/usr/bin/time
. "$here/lib.sh"
scratch

echo "ensemble shapes benchmark"
echo "binary:  $ensemble $args"
machine
echo
printf '%-20s %5s | %10s %10s %-9s | %8s %7s | %s\n' shape N buffered \
    synchronous engines "cpu s" "us/st" notes
fail=0

# gen_butterfly N: recursive doubling over N = 2^L processes (N rounded
# down to a power of two), each level an 'irecv any' and an 'isend' to
# the partner at distance 2^(k-1), then waitall.
gen_butterfly() {
	local n=1 l=0 k d
	while [ $((n * 2)) -le "$1" ]; do n=$((n * 2)); l=$((l + 1)); done
	echo "application butterfly;"
	echo "scale N = $1;"
	echo "PCG"
	echo "Components"
	echo "    node : X;"
	echo "Processes"
	echo "    node[1..$n] : X[$l];"
	echo "Channels"
	k=1 d=1
	while [ $k -le $l ]; do
		echo "    node[i].X[$k] <-> node[i + $d].X[$k] for i in 1..$n if (i - 1) / $d % 2 == 0;"
		k=$((k + 1)) d=$((d * 2))
	done
	echo "BEHAVIOUR"
	echo "    node { for k in 1..$l { irecv any X; isend X[k]; waitall; } }"
}

# run SCRIPT N: one verify; sets r_b r_s (states), r_e (engines), r_cpu
# (user + system seconds), r_stop ('+' when a limit or a count stopped
# it), r_kind (the verdict).
run() {
	local out t0 t1
	set +e
	t0=$(date +%s.%N)
	if [ -n "$timer" ]; then
		"$timer" -f '%U %S' -o "$work/time" "$ensemble" verify --json \
		    --max-time "$verify_max" -np "$2" $args "$1" \
		    >"$work/out" 2>"$work/err"
	else
		"$ensemble" verify --json --max-time "$verify_max" -np "$2" $args \
		    "$1" >"$work/out" 2>"$work/err"
	fi
	st=$?
	t1=$(date +%s.%N)
	set -e
	if [ -n "$timer" ]; then
		r_cpu=$(awk 'END { printf "%.2f", $1 + $2 }' "$work/time")
	else
		r_cpu=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	fi
	out=$(cat "$work/out")
	r_b=$(printf '%s\n' "$out" | sed -n 's/.*"buffered":{[^}]*"states":\([0-9]*\),.*/\1/p')
	r_s=$(printf '%s\n' "$out" | sed -n 's/.*"synchronous":{[^}]*"states":\([0-9]*\),.*/\1/p')
	r_e=$(printf '%s\n' "$out" | sed -n 's/.*"buffered":{[^}]*"engine":"\([a-z]*\)".*"synchronous":{[^}]*"engine":"\([a-z]*\)".*/\1\/\2/p')
	r_kind=$(printf '%s\n' "$out" | sed -n 's/^{"application":"[^"]*","verdict":"\([a-z]*\)".*/\1/p')
	r_stop=
	if [ "$st" = 3 ] || grep -q 'stopped after' "$work/err"; then
		r_stop=+
	fi
	if [ "$st" = 2 ] || [ "$st" -gt 3 ] || [ -z "$r_b" ] || [ -z "$r_s" ]; then
		echo "shapes.sh: $1 -np $2: exit $st" >&2
		cat "$work/err" >&2
		return 1
	fi
}

# shape NAME SCRIPT|gen_FN KIND: the rows of one shape at each size;
# KIND: 'halo' for the endless halo exchanges (N = 1000 under 1 s), else
# 'any'.
shape() {
	local name=$1 what=$2 kind=$3 n f us note stopped=0
	case " ${SHAPES:-$name} " in
	*" $name "*) ;;
	*) return 0 ;;
	esac
	for n in $sizes; do
		if [ $stopped = 1 ]; then
			printf '%-20s %5s | %10s %10s %-9s | %8s %7s | %s\n' "$name" "$n" \
			    - - - - - "left out"
			continue
		fi
		case $what in
		gen_*)	f=$work/$name-$n.pcg
			$what "$n" >"$f" ;;
		*)	f=$what ;;
		esac
		run "$f" "$n" || exit 2
		us=-
		if [ $((r_b + r_s)) -gt 10000 ]; then
			us=$(awk -v c="$r_cpu" -v s="$((r_b + r_s))" 'BEGIN { printf "%.1f", c * 1e6 / s }')
		fi
		note=$r_kind
		if [ -n "$r_stop" ]; then
			note="$note, stopped"
			stopped=1
		fi
		if awk -v c="$r_cpu" -v m="$verify_max" 'BEGIN { exit !(c >= m / 2) }'; then
			stopped=1
		fi
		if { [ "$n" = 32 ] && awk -v c="$r_cpu" 'BEGIN { exit !(c >= 1) }'; } ||
		    { [ "$n" = 100 ] && awk -v c="$r_cpu" 'BEGIN { exit !(c >= 10) }'; } ||
		    { [ "$n" = 1000 ] && [ "$kind" = halo ] &&
		      awk -v c="$r_cpu" 'BEGIN { exit !(c >= 1) }'; } ||
		    { [ "$n" -le 100 ] && [ -n "$r_stop" ]; } ||
		    { [ "$us" != - ] && awk -v u="$us" 'BEGIN { exit !(u > 10) }'; }; then
			note="$note, MISSED"
			fail=1
		fi
		printf '%-20s %5s | %10s %10s %-9s | %8s %7s | %s\n' "$name" "$n" \
		    "$r_b$r_stop" "$r_s$r_stop" "$r_e" "$r_cpu" "$us" "$note"
	done
}

v=$src/tests/verify
b=$src/bench/shapes
# Issue 22's families (bench/por.sh).
for m in po-pairs po-endless po-farm po-halo po-nbpairs po-choice-endless \
    po-torus po-server po-farm3 po-ringany po-farm2l po-hub po-drift \
    po-beside po-groups po-pairs2; do
	k=any
	[ $m = po-halo ] && k=halo
	shape "$m" "$v/$m.pcg" $k
done
# Issue 35's families.
shape farm-endless "$b/farm-endless.pcg" any
shape hub-pairs "$b/hub-pairs.pcg" any
shape pairs2-any "$b/pairs2-any.pcg" any
shape pairs2-any-choice "$b/pairs2-any-choice.pcg" any
shape ring-double "$b/ring-double.pcg" any
shape farm-dynamic "$b/farm-dynamic.pcg" any
shape wavefront "$b/wavefront.pcg" any
shape halo-line "$b/halo-line.pcg" halo
shape ring-oneway "$b/ring-oneway.pcg" halo
shape torus-halo "$b/torus-halo.pcg" halo
shape butterfly gen_butterfly any
# Everyday shapes.
shape master-requests "$b/master-requests.pcg" any
shape pipeline-feedback "$b/pipeline-feedback.pcg" any
shape reduce-tree "$b/reduce-tree.pcg" any
shape token-choice "$b/token-choice.pcg" any
shape two-servers "$b/two-servers.pcg" any
shape servers-endless "$b/servers-endless.pcg" any
shape bsp-barrier "$b/bsp-barrier.pcg" any
shape probe-line "$b/probe-line.pcg" any
shape farm-tasks "$b/farm-tasks.pcg" any
shape multigrid "$b/multigrid.pcg" any

targets_end $fail
