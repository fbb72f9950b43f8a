#!/bin/sh
# trace.sh -- the speed of MTF traces (make bench-trace):
#
#   stats    'ensemble trace stats' on a generated trace of EVENTS events
#            (bench/gen-trace.sh, default 10,000,000, about 800 MB): median
#            wall time under 5 s and peak RSS under 200 MB (targets), and
#            its Total row exact;
#   messages 'ensemble trace messages' on it: time and peak RSS (no target);
#   query    'ensemble trace query' of the messages between two processes,
#            and 'ensemble trace check' of the trace against ring.pcg
#            (which it must find conforming): time and peak RSS (no target);
#   overhead bench/pingpong (8 B, REPS round trips) run with and without
#            'ensemble run --trace': the half round trip in each, and the
#            difference, the cost of recording one operation.
#
# ENSEMBLE   the ensemble binary (default ./ensemble, in the build tree)
# RUNS       runs per measurement (default 3); medians reported
# EVENTS     the generated trace's events (default 10000000)
# REPS       ping-pong round trips (default 20000)
# CC, CFLAGS to build bench/rusage.c (default cc -O2)
#
# Exit status: 0 every target met, 1 one missed, 2 a run went wrong.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ensemble=${ENSEMBLE:-./ensemble}
runs=${RUNS:-3}
events=${EVENTS:-10000000}
reps=${REPS:-20000}
cc=${CC:-cc}
cflags=${CFLAGS:--O2}
case $ensemble in
/*) ;;
*) ensemble=$(pwd)/$ensemble ;;
esac
build=$(dirname "$ensemble")
if [ ! -x "$ensemble" ] || [ ! -x "$build/bench/pingpong" ]; then
	echo "trace.sh: build ensemble and bench/pingpong first (make bench-trace)" >&2
	exit 2
fi
. "$here/lib.sh"
mpi_scratch
# shellcheck disable=SC2086
$cc $cflags -o "$work/rusage" "$here/rusage.c"
fail=0

cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "ensemble trace benchmark: $runs runs each"
echo "machine: $(nproc 2>/dev/null || echo '?') CPUs, ${cpu:-unknown CPU}"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"


# measure ARGS...: 'ensemble ARGS' RUNS times under rusage; $work/w the
# wall times, $work/c the CPU times, $work/k the peak RSS (KiB), $work/out
# the last output.
measure() {
	: >"$work/w"
	: >"$work/c"
	: >"$work/k"
	i=0
	while [ $i -lt "$runs" ]; do
		if ! "$work/rusage" -o "$work/ru" "$ensemble" "$@" >"$work/out" 2>"$work/err"; then
			echo "trace.sh: failed: ensemble $*" >&2
			cat "$work/err" >&2
			exit 2
		fi
		sed -n 's/.*wall=\([0-9.]*\).*/\1/p' "$work/ru" >>"$work/w"
		sed -n 's/.*cpu=\([0-9.]*\).*/\1/p' "$work/ru" >>"$work/c"
		sed -n 's/.*maxrss_kb=\([0-9]*\).*/\1/p' "$work/ru" >>"$work/k"
		i=$((i + 1))
	done
}

t0=$(date +%s.%N)
sh "$here/gen-trace.sh" "$events" 64 >"$work/big.mtf"
t1=$(date +%s.%N)
printf 'generated %s events, %s bytes, in %.1f s\n' "$events" \
    "$(wc -c <"$work/big.mtf")" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"

measure trace stats "$work/big.mtf"
w=$(median <"$work/w")
kb=$(sort -n "$work/k" | tail -n 1)
sends=$(( (events - 128) / 2 ))
if ! grep -q "^Total  *64  *64  *$sends  *$sends  *$((sends * 64))  *$((sends * 64)) " "$work/out"; then
	echo "trace.sh: trace stats: the Total row is not 64 64 $sends $sends:" >&2
	cat "$work/out" >&2
	exit 2
fi
ok=$(awk -v w="$w" -v k="$kb" 'BEGIN { print (w < 5 && k * 1024 < 200e6) ? "PASS" : "FAIL" }')
[ "$ok" = PASS ] || fail=1
printf 'trace stats:    %8.3f s (cpu %.3f s)  %7.1f MB  (< 5 s, < 200 MB) %s\n' "$w" \
    "$(median <"$work/c")" "$(awk -v k="$kb" 'BEGIN { print k * 1024 / 1e6 }')" "$ok"

measure trace messages "$work/big.mtf"
w=$(median <"$work/w")
kb=$(sort -n "$work/k" | tail -n 1)
printf 'trace messages: %8.3f s (cpu %.3f s)  %7.1f MB  (%s lines)\n' "$w" \
    "$(median <"$work/c")" "$(awk -v k="$kb" 'BEGIN { print k * 1024 / 1e6 }')" \
    "$(wc -l <"$work/out")"

# The query language and the conformance check on the same trace: each
# reads it once as a stream (no target; the check must find it conforming).
measure trace query "$work/big.mtf" \
    'SELECT ALL MESSAGES BETWEEN PROCESS(node[1-2]) WHERE SIZE > 32'
w=$(median <"$work/w")
kb=$(sort -n "$work/k" | tail -n 1)
printf 'trace query:    %8.3f s (cpu %.3f s)  %7.1f MB  (%s)\n' "$w" \
    "$(median <"$work/c")" "$(awk -v k="$kb" 'BEGIN { print k * 1024 / 1e6 }')" \
    "$(tail -n 1 "$work/out")"
if [ $((sends % 64)) = 0 ]; then
	measure trace check "$work/big.mtf" "$here/../scripts/ring.pcg" -np 64 \
	    -D rounds=$((sends / 64))
	w=$(median <"$work/w")
	kb=$(sort -n "$work/k" | tail -n 1)
	if ! tail -n 1 "$work/out" | grep -qx "conforming: $sends messages on 64 of 64 channels"; then
		echo "trace.sh: trace check: not '$sends messages on 64 of 64 channels':" >&2
		tail -n 3 "$work/out" >&2
		exit 2
	fi
	printf 'trace check:    %8.3f s (cpu %.3f s)  %7.1f MB  (conforming)\n' \
	    "$w" "$(median <"$work/c")" \
	    "$(awk -v k="$kb" 'BEGIN { print k * 1024 / 1e6 }')"
else
	echo "trace check:    skipped (EVENTS leaves the last round partial)"
fi
rm -f "$work/big.mtf"

# The ping-pong with and without tracing: half a round trip each.
: >"$work/off"
: >"$work/on"
i=0
while [ $i -lt "$runs" ]; do
	for mode in off on; do
		set -- "$here/pingpong.pcg" -L "$build/bench" -D bytes=8 -D reps="$reps" --no-verify
		[ $mode = on ] && set -- "$@" --trace "$work/pp.mtf"
		if ! "$ensemble" run "$@" >"$work/out" 2>"$work/err"; then
			echo "trace.sh: failed: ensemble run $*" >&2
			cat "$work/err" >&2
			exit 2
		fi
		sed -n 's/^pingpong ens 8 bytes: \([0-9.]*\) us$/\1/p' "$work/out" >>"$work/$mode"
	done
	i=$((i + 1))
done
off=$(median <"$work/off")
on=$(median <"$work/on")
n=$(tail -n 1 "$work/pp.mtf" | awk '{ print $2 }')
printf 'ping-pong 8 B:  %.3f us untraced, %.3f us traced: %.3f us per operation recorded (%s events)\n' \
    "$off" "$on" "$(awk -v a="$on" -v b="$off" 'BEGIN { print a - b }')" "$n"
exit $fail
