#!/bin/sh
# verify.sh -- the model checker's speed and memory against its targets:
#
#   exact mode   >= 2 million states/s and <= 48 bytes per stored state on
#                a model with over 1 million states
#   wildcards    the farm with 10 workers ('recv any') verified in < 10 s
#   scale        ring, tree, jacobi at -np 1,000 in < 1 s and at -np 10,000
#                in < 10 s; a 100,000-process pipeline in < 10 s
#   limits       --max-memory 100 on a model that needs more: exit 3
#   judging      9 ping-pong pairs that never end, --exact: every state is
#                judged for processes stuck for good (a figure, no target)
#   thesis       the Jacobi CPN IR of Krabbe's thesis at n = 10 with Bsend
#                (bench/gen-jacobi-ir.sh), --exact: exactly 191,862 states
#                and 1,135,262 transitions in < 0.25 s and < 100 MB
#
#   bench/verify.sh [ENSEMBLE]            # or: make bench-verify
#
# ENSEMBLE   the ensemble binary (first argument, else $ENSEMBLE, else
#            ./ensemble); top_srcdir the source tree (default: this file's
#            parent)
# RUNS       runs per measurement (default 5): the median wall time, the
#            median states/s and the largest peak RSS are reported
# CC, CFLAGS to build bench/rusage.c (default cc -O2)
#
# Exit status: 0 every target met, 1 one missed, 2 a run went wrong.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=${top_srcdir:-$(dirname "$here")}
ensemble=${1:-${ENSEMBLE:-./ensemble}}
runs=${RUNS:-5}
cc=${CC:-cc}
cflags=${CFLAGS:--O2}

case $ensemble in
/*) ;;
*) ensemble=$(pwd)/$ensemble ;;
esac
if [ ! -x "$ensemble" ]; then
	echo "verify.sh: no ensemble binary at '$ensemble'" >&2
	exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/ensemble-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 2' HUP INT TERM
# shellcheck disable=SC2086
$cc $cflags -o "$work/rusage" "$here/rusage.c"

cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "ensemble verify benchmark: $runs runs each"
echo "binary:  $ensemble"
echo "machine: $(nproc 2>/dev/null || echo '?') CPUs, ${cpu:-unknown CPU}"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
echo

fail=0

# median FILE COLUMN
median() {
	sort -n -k "$2" "$1" | awk -v k="$2" '{ v[NR] = $k } END {
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# measure NAME WANT_STATUS ARGS...: run 'ensemble verify ARGS --stats' RUNS
# times; leaves in $work/m one line per run: wall KiB states rate
# bytes/state, and the last output in $work/out.
measure() {
	name=$1 want=$2
	shift 2
	: >"$work/m"
	i=0
	while [ $i -lt "$runs" ]; do
		"$work/rusage" -o "$work/ru" "$ensemble" verify "$@" --stats \
		    --no-progress >"$work/out" 2>"$work/err" || true
		st=$(sed -n 's/.*status=\([0-9]*\).*/\1/p' "$work/ru")
		if [ "$st" != "$want" ]; then
			echo "verify.sh: $name: exit status $st, expected $want" >&2
			cat "$work/out" "$work/err" >&2
			exit 2
		fi
		wall=$(sed -n 's/.*wall=\([0-9.]*\).*/\1/p' "$work/ru")
		kb=$(sed -n 's/.*maxrss_kb=\([0-9]*\).*/\1/p' "$work/ru")
		states=$(awk '/^states:/ { s += $2 } END { print s + 0 }' "$work/out")
		rate=$(awk '/^states per second:/ { if ($4 > r) r = $4 } END { print r + 0 }' "$work/out")
		bps=$(awk '/^memory per state:/ { b = $4 } END { print b + 0 }' "$work/out")
		echo "$wall $kb $states $rate $bps" >>"$work/m"
		i=$((i + 1))
	done
}

# report NAME LIMIT_S: print the medians; fail when the wall time is over
report() {
	w=$(median "$work/m" 1)
	kb=$(sort -n -k 2 "$work/m" | tail -n 1 | awk '{ print $2 }')
	s=$(median "$work/m" 3)
	ok=$(awk -v w="$w" -v l="$2" 'BEGIN { print (w < l) ? "PASS" : "FAIL" }')
	[ "$ok" = PASS ] || fail=1
	printf '%-44s %9s states %8.3f s %7.1f MB  (< %s s) %s\n' "$1" "$s" "$w" \
	    "$(awk -v k="$kb" 'BEGIN { print k * 1024 / 1e6 }')" "$2" "$ok"
}

echo "exact mode (buffered sends, every interleaving)"
for m in "jacobi.pcg -np 5 -D iters=100" "farm.pcg -np 9"; do
	# shellcheck disable=SC2086
	measure "$m" 0 "$src/scripts/${m%% *}" ${m#* } --exact --send-mode=buffered
	s=$(median "$work/m" 3)
	r=$(median "$work/m" 4)
	b=$(median "$work/m" 5)
	okr=$(awk -v r="$r" 'BEGIN { print (r >= 2000000) ? "PASS" : "FAIL" }')
	okb=$(awk -v b="$b" 'BEGIN { print (b <= 48) ? "PASS" : "FAIL" }')
	printf '%-30s %8s states %5.2f M states/s (>= 2) %s  %5.1f bytes/state (<= 48) %s\n' \
	    "$m" "$s" "$(awk -v r="$r" 'BEGIN { print r / 1e6 }')" "$okr" "$b" "$okb"
	[ "$okr" = PASS ] && [ "$okb" = PASS ] || fail=1
done
echo

echo "every state judged (processes that never end: no end state)"
measure pairs 0 "$here/pairs.pcg" -np 9 --exact --send-mode=buffered
s=$(median "$work/m" 3)
r=$(median "$work/m" 4)
printf '%-30s %8s states %5.2f M states/s (figure only)\n' \
    "pairs.pcg -np 9 (9 endless pairs)" "$s" "$(awk -v r="$r" 'BEGIN { print r / 1e6 }')"
echo

echo "with reductions (both send modes)"
measure farm10 0 "$src/scripts/farm.pcg" -np 10
report "farm.pcg -np 10 (recv any)" 10
for n in 1000 10000; do
	lim=$([ $n = 1000 ] && echo 1 || echo 10)
	for s in ring tree jacobi; do
		# (jacobi requires a cell per process at least)
		cells=$([ $s = jacobi ] && echo "-D cells=$n" || true)
		# shellcheck disable=SC2086
		measure "$s$n" 0 "$src/scripts/$s.pcg" -np $n $cells
		report "$s.pcg -np $n" "$lim"
	done
done
measure pipe 0 "$src/scripts/pipeline.pcg" -np 100000
report "pipeline.pcg -np 100000" 10
echo

echo "the thesis's model (CPN IR, --exact: the thesis's net)"
sh "$here/gen-jacobi-ir.sh" 10 >"$work/jacobi10.ir"
measure jacobi10ir 0 "$work/jacobi10.ir" --exact
w=$(median "$work/m" 1)
kb=$(sort -n -k 2 "$work/m" | tail -n 1 | awk '{ print $2 }')
s=$(sed -n 's/^states: //p' "$work/out")
t=$(sed -n 's/^transitions: //p' "$work/out")
ok=$(awk -v w="$w" -v k="$kb" -v s="$s" -v t="$t" 'BEGIN {
	print (w < 0.25 && k * 1024 < 100e6 && s == 191862 && t == 1135262) ? "PASS" : "FAIL" }')
[ "$ok" = PASS ] || fail=1
printf '%-30s %8s states %8s transitions %6.3f s (< 0.25) %6.1f MB (< 100) %s\n' \
    "jacobi10.ir --exact (Bsend)" "$s" "$t" "$w" \
    "$(awk -v k="$kb" 'BEGIN { print k * 1024 / 1e6 }')" "$ok"
echo

echo "limits"
runs_saved=$runs
runs=1
measure mem 3 "$src/scripts/farm.pcg" -np 10 --exact --max-memory 100
runs=$runs_saved
kb=$(awk '{ print $2 }' "$work/m")
printf '%-44s exit 3, peak %.1f MB: %s\n' "farm -np 10 --exact --max-memory 100" \
    "$(awk -v k="$kb" 'BEGIN { print k * 1024 / 1e6 }')" "$(cat "$work/err")"
exit $fail
