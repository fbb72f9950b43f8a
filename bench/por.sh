#!/bin/sh
# por.sh -- the reductions at growing size: states and wall time of
# 'ensemble verify' (default engine), of '--exact' at the small sizes,
# and of SPIN's pan with its partial-order reduction on the Promela export
# ('ensemble net -o m.pml'), per send mode.  The shapes are the models of
# tests/verify/:
#
#   po-pairs          N independent pairs exchanging 3 rounds, the sender
#                     choosing send or ssend each round
#   po-endless        N endless ping-pong pairs (determinate: one run)
#   po-farm           a master and N workers replying by send or ssend, as
#                     they choose
#   po-halo           a nonblocking halo exchange on a ring of N, endless
#   po-nbpairs        N independent pairs exchanging by requests, endless
#   po-choice-endless N endless pairs, the sender choosing send or ssend
#   po-torus          a 2 x N torus, one round of 4 x 'irecv any' and
#                     4 x 'isend'
#   po-server         a server taking N clients' requests by 'recv any',
#                     each client choosing port and send mode
#   po-farm3          producer -> N transformers -> reducer 'recv any'
#   po-ringany        a ring of N, two rounds of 'irecv any', deadlocking
#                     in synchronous mode (found by the dive)
#   po-farm2l         a two-level farm, 'recv any' at both levels, workers
#                     replying by send or ssend
#   po-hub            N pairs exchanging 2 rounds by send or ssend, their
#                     receivers reporting to one hub's 'recv any'
#   po-drift          N senders' 3 rounds against a hub's 2 N receives
#                     (unmatched sends)
#   po-beside         N pairs of 3 rounds beside one endless pair (SPIN's
#                     reduction on the export of a net that never ends)
#   po-groups         N groups of three, 2 rounds of a send or ssend and an
#                     allreduce over the group (disjoint groups: the sum;
#                     SPIN on the export beside it)
#
# Targets: each shape's default run at its target size under 1 s (the
# sizes of issue 22); the default run never slower than --exact's by
# more than FIXED_COST (default 0.05 s: the dive's budget, the start);
# states growing no faster than the shape's factor
# from the size before at the last size; at every size SPIN finished, no
# more states than SPIN's reduction where the default engine searches
# (the one-run engine 'kahn' counts its actions, not distinct states: it
# is compared by time).
#
#   bench/por.sh [ENSEMBLE]            # or: make bench-por
#
# ENSEMBLE   the ensemble binary (first argument, else $ENSEMBLE, else
#            ./ensemble); top_srcdir the source tree (default: this file's
#            parent)
# SPIN_MAX   SPIN runs up to this many seconds and 2 GB a size (default
#            60 s); sizes past the first it did not finish are left out
# VERIFY_MAX ensemble runs up to this many seconds a mode (--max-time,
#            default 20 s); a row it stopped says '+' after its states
# SHAPES     the shapes to run, by name (default: all)
#
# Exit status: 0 every target met, 1 one missed, 2 a run went wrong.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=${top_srcdir:-$(dirname "$here")}
ensemble=${1:-${ENSEMBLE:-./ensemble}}
spin_max=${SPIN_MAX:-60}
verify_max=${VERIFY_MAX:-20}
fixed=${FIXED_COST:-0.05}

case $ensemble in
/*) ;;
*) ensemble=$(pwd)/$ensemble ;;
esac
if [ ! -x "$ensemble" ]; then
	echo "por.sh: no ensemble binary at '$ensemble'" >&2
	exit 2
fi
have_spin=1
command -v spin >/dev/null 2>&1 && command -v cc >/dev/null 2>&1 || have_spin=0
work=$(mktemp -d "${TMPDIR:-/tmp}/ensemble-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 2' HUP INT TERM

cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "ensemble reduction benchmark"
echo "binary:  $ensemble"
echo "spin:    $(if [ $have_spin = 1 ]; then spin -V 2>/dev/null | head -n 1; else echo 'not installed: left out'; fi)"
echo "machine: $(nproc 2>/dev/null || echo '?') CPUs, ${cpu:-unknown CPU}"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
echo

fail=0

now() {
	date +%s.%N
}

# verify MODEL N [ARGS...]: run ensemble verify --json; sets v_b v_s
# (states per mode), v_eb v_es (engines), v_i ('+' when a limit stopped
# it), v_t (wall seconds); returns 1 when it went wrong.
verify() {
	local m=$1 n=$2 t0 t1 out
	shift 2
	t0=$(now)
	set +e
	"$ensemble" verify --json --max-time "$verify_max" -np "$n" "$@" \
	    "$src/tests/verify/$m.pcg" >"$work/out" 2>"$work/err"
	st=$?
	set -e
	t1=$(now)
	v_t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
	out=$(cat "$work/out")
	v_b=$(printf '%s\n' "$out" | sed -n 's/.*"buffered":{[^}]*"states":\([0-9]*\),.*/\1/p')
	v_s=$(printf '%s\n' "$out" | sed -n 's/.*"synchronous":{[^}]*"states":\([0-9]*\),.*/\1/p')
	v_eb=$(printf '%s\n' "$out" | sed -n 's/.*"buffered":{[^}]*"engine":"\([a-z]*\)".*/\1/p')
	v_es=$(printf '%s\n' "$out" | sed -n 's/.*"synchronous":{[^}]*"engine":"\([a-z]*\)".*/\1/p')
	v_i=
	[ "$st" = 3 ] && v_i=+
	if [ "$st" = 2 ] || [ "$st" -gt 3 ] || [ -z "$v_b" ] || [ -z "$v_s" ]; then
		echo "por.sh: $m -np $n $*: exit $st: $out" >&2
		cat "$work/err" >&2
		return 1
	fi
}

# pan MODEL N MODE: SPIN's states (its default reduction) in p_n and pan's
# wall seconds in p_t; p_n empty when it did not finish in time.
pan() {
	local d=$work/pan-$3 t0 t1
	p_n= p_t=
	rm -rf "$d"
	mkdir "$d"
	"$ensemble" net -np "$2" --send-mode="$3" -o "$d/m.pml" \
	    "$src/tests/verify/$1.pcg" 2>"$d/err" || return 0
	(cd "$d" && spin -a m.pml >spin.out 2>&1 &&
	    cc -O2 -w -DSAFETY -DMEMLIM=2048 -DVECTORSZ=65536 -o pan pan.c 2>cc.err) || return 0
	t0=$(now)
	(cd "$d" && timeout "$spin_max" ./pan -w22 -m2000000 -c0 >pan.out 2>&1) || true
	t1=$(now)
	grep -q 'states, stored' "$d/pan.out" || return 0
	grep -q 'max search depth too small\|MEMLIM\|VECTORSZ\|Search not completed' \
	    "$d/pan.out" && return 0
	p_n=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' "$d/pan.out" | head -n 1)
	p_n=$(awk -v v="$p_n" 'BEGIN { printf "%d", v }')
	p_t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
}

# shape MODEL EXACT_MAX TIME_N TIME_MAX GROWTH SIZES...: the table of one
# shape; --exact up to EXACT_MAX; the default run at TIME_N must take less
# than TIME_MAX s and not stop at a limit; states at the last size at most
# GROWTH times those at the one before.
shape() {
	local m=$1 exact_max=$2 time_n=$3 time_max=$4 growth=$5 n spin_on=$have_spin
	case " ${SHAPES:-$m} " in
	*" $m "*) ;;
	*) return 0 ;;
	esac
	local prev_b= prev_s= d_b= d_s= d_t d_i d_e d_eb d_es e_b e_s e_t s_b s_s s_t
	shift 5
	echo "$m (states buffered, synchronous; wall time of both)"
	printf '%5s | %10s %10s %7s %5s | %10s %10s %7s | %9s %9s %7s\n' N \
	    default "" time "" --exact "" time "SPIN" "" time
	for n in "$@"; do
		prev_b=$d_b prev_s=$d_s
		verify "$m" "$n" || exit 2
		d_b=$v_b d_s=$v_s d_t=$v_t d_i=$v_i d_eb=$v_eb d_es=$v_es
		d_e=$v_eb
		[ "$v_es" = "$v_eb" ] || d_e=$v_eb/$v_es
		e_b=- e_s=- e_t=-
		if [ "$n" -le "$exact_max" ]; then
			verify "$m" "$n" --exact || exit 2
			e_b=$v_b$v_i e_s=$v_s$v_i e_t=$v_t
		fi
		s_b=- s_s=- s_t=-
		if [ $spin_on = 1 ]; then
			pan "$m" "$n" buffered
			s_b=${p_n:--} s_t=${p_t:-0}
			pan "$m" "$n" synchronous
			s_s=${p_n:--}
			s_t=$(awk -v a="$s_t" -v b="${p_t:-0}" 'BEGIN { printf "%.2f", a + b }')
			if [ "$s_b" = - ] && [ "$s_s" = - ]; then
				spin_on=0	# larger sizes would take longer still
				s_t=-
			fi
		fi
		printf '%5s | %10s %10s %7s %5s | %10s %10s %7s | %9s %9s %7s\n' "$n" \
		    "$d_b$d_i" "$d_s$d_i" "$d_t" "$d_e" "$e_b" "$e_s" "$e_t" \
		    "$s_b" "$s_s" "$s_t"
		if { [ "$s_b" != - ] && [ "$d_eb" != kahn ] && [ "$d_b" -gt "$s_b" ]; } ||
		    { [ "$s_s" != - ] && [ "$d_es" != kahn ] && [ "$d_s" -gt "$s_s" ]; }; then
			echo "  MISSED: more states than SPIN's reduction at N = $n"
			fail=1
		fi
		if [ "$e_t" != - ] && awk -v d="$d_t" -v e="$e_t" -v f="$fixed" \
		    'BEGIN { exit !(d > e + f) }'; then
			echo "  MISSED: N = $n took ${d_t} s, --exact ${e_t} s (more than ${fixed} s slower)"
			fail=1
		fi
		if [ "$n" = "$time_n" ] && { [ -n "$d_i" ] || awk -v t="$d_t" \
		    -v m="$time_max" 'BEGIN { exit !(t >= m) }'; }; then
			echo "  MISSED: N = $n took ${d_t} s${d_i:+ and stopped at a limit}, target < $time_max s"
			fail=1
		fi
	done
	if [ -n "$prev_b" ] && awk -v a="$prev_b" -v b="$d_b" -v c="$prev_s" \
	    -v d="$d_s" -v g="$growth" 'BEGIN { exit !(b > g * a || d > g * c) }'; then
		echo "  MISSED: states grew more than $growth times from the size before"
		fail=1
	fi
	echo
}

shape po-pairs 4 100 1 2.1 1 2 3 4 5 10 20 50 100
shape po-endless 8 100 1 2.1 1 2 4 8 16 32 50 100
shape po-farm 7 50 1 4.2 1 2 3 5 7 10 20 50 100
shape po-halo 6 32 1 8.5 2 3 4 6 8 16 32 64
shape po-nbpairs 4 100 1 2.1 1 2 3 4 8 16 50 100
shape po-choice-endless 4 100 1 2.1 1 2 3 4 8 16 50 100
shape po-torus 2 8 1 4.2 2 3 4 8
shape po-server 8 32 1 2.1 1 2 4 8 16 32
shape po-farm3 6 100 1 2.1 1 2 3 4 6 8 12 16 50 100
shape po-ringany 6 8 1 2.1 3 4 5 6 8 12 16
shape po-farm2l 3 50 1 2.1 1 2 3 4 8 16 25 50
shape po-hub 4 100 1 2.1 1 2 3 4 8 16 50 100
shape po-drift 4 5 1 20 1 2 3 4 5
shape po-beside 4 32 1 2.1 1 2 3 4 8 16 32
shape po-groups 4 100 1 2.1 1 2 3 4 8 16 50 100

if [ $fail = 0 ]; then
	echo "every target met"
else
	echo "some target missed"
fi
exit $fail
