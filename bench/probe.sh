#!/bin/sh
# probe.sh -- a task farm whose master probes before it receives, at
# growing size: states and wall time of 'ensemble verify' (default
# engine, both send modes) on bench/probe-farm.pcg, the collector written
# with a probe that names the message it finds ('probe any In as m; recv
# m;'), with a poll that blocks when it misses ('iprobe any In as m {
# recv m; } else { probe any In as m; recv m; }'), and, for comparison,
# with a plain 'recv any In' and with 'probe any In; recv any In' (whose
# receive may take another message: exponential, small sizes only).
#
# Targets (issue 34): the probe farm at -np 64 under 1 s and at -np 1000
# under 10 s, the polling farm likewise; states linear in N (at most
# 36 N + 1 a mode: 3 rounds, 12 states a result at most).
#
#   bench/probe.sh [ENSEMBLE]          # or: make bench-probe
#
# ENSEMBLE   the ensemble binary (first argument, else $ENSEMBLE, else
#            ./ensemble); top_srcdir the source tree (default: this file's
#            parent)
# RUNS       runs a size, the median wall time is shown (default 3)
#
# Exit status: 0 every target met, 1 one missed, 2 a run went wrong.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=${top_srcdir:-$(dirname "$here")}
ensemble=${1:-${ENSEMBLE:-./ensemble}}
model=$src/bench/probe-farm.pcg
runs=${RUNS:-3}

if [ ! -x "$ensemble" ]; then
	echo "probe.sh: no ensemble binary at '$ensemble'" >&2
	exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/ensemble-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 2' HUP INT TERM
. "$here/lib.sh"

cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "ensemble probe benchmark (bench/probe-farm.pcg, 3 rounds)"
echo "binary:  $ensemble"
echo "machine: $(nproc 2>/dev/null || echo '?') CPUs, ${cpu:-unknown CPU}"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
echo

fail=0

# run N STYLE WMODE: ensemble verify --json RUNS times; sets r_b r_s
# (states per mode), r_e (the engines), r_t (median wall seconds), r_v.
run() {
	local i out
	: >"$work/times"
	for i in $(seq "$runs"); do
		wall "$ensemble" verify --json --max-time 60 -np "$1" -D style="$2" \
		    -D wmode="$3" "$model" >>"$work/times"
	done
	r_t=$(median <"$work/times")
	out=$(cat "$work/out")
	r_b=$(printf '%s\n' "$out" | sed -n 's/.*"buffered":{[^}]*"states":\([0-9]*\),.*/\1/p')
	r_s=$(printf '%s\n' "$out" | sed -n 's/.*"synchronous":{[^}]*"states":\([0-9]*\),.*/\1/p')
	r_e=$(printf '%s\n' "$out" | sed -n 's/.*"buffered":{[^}]*"engine":"\([a-z]*\)".*/\1/p')/$(printf '%s\n' "$out" | sed -n 's/.*"synchronous":{[^}]*"engine":"\([a-z]*\)".*/\1/p')
	r_v=$(printf '%s\n' "$out" | sed -n 's/^{"application":"[^"]*","verdict":"\([a-z]*\)".*/\1/p')
}

printf '%-28s %5s  %-9s %10s %10s %9s\n' "collector (workers)" N engines \
    buffered synchronous seconds
for style in 1 3 2 4; do
	for wmode in 1 3; do
		case $style in
		1) name="probe as m; recv m" ;;
		2) name="recv any" ;;
		3) name="iprobe else probe" ;;
		4) name="probe; recv any" ;;
		esac
		[ $wmode = 3 ] && name="$name (choose)"
		for n in 8 64 1000; do
			[ $style = 4 ] && [ $n -gt 8 ] && continue
			run $n $style $wmode
			printf '%-28s %5s  %-9s %10s %10s %9s\n' "$name" $n "$r_e" \
			    "$r_b" "$r_s" "$r_t"
			if [ "$r_v" != verified ]; then
				echo "  MISSED: verdict $r_v, not verified"
				fail=1
			fi
			[ $style = 4 ] && continue
			if [ "$r_b" -gt $((36 * n + 1)) ] || [ "$r_s" -gt $((36 * n + 1)) ]; then
				echo "  MISSED: more than 36 N + 1 = $((36 * n + 1)) states"
				fail=1
			fi
			if [ $n = 64 ] && awk -v t="$r_t" 'BEGIN { exit !(t >= 1) }'; then
				echo "  MISSED: -np 64 took $r_t s, target < 1 s"
				fail=1
			fi
			if [ $n = 1000 ] && awk -v t="$r_t" 'BEGIN { exit !(t >= 10) }'; then
				echo "  MISSED: -np 1000 took $r_t s, target < 10 s"
				fail=1
			fi
		done
	done
done

targets_end $fail
