#!/bin/sh
# check-big.sh -- time 'ensemble check' on a script that expands to N
# processes and N channels, against the target: under 2 s wall and 500 MB
# peak resident memory for N = 100000.
#
#   bench/check-big.sh [ENSEMBLE]        # or: make bench
#
# ENSEMBLE      the ensemble binary (first argument, else $ENSEMBLE, else
#               ./ensemble)
# N             processes and channels (default 100000)
# RUNS          runs per measurement (default 5); the median wall time and
#               the largest peak RSS are reported
# TIME_LIMIT    seconds (default 2), RSS_LIMIT_MB megabytes of 10^6 bytes
#               (default 500)
# CC, CFLAGS    to build bench/rusage.c (default cc -O2)
# BENCH_DIR     where the scripts and rusage go (default a temporary
#               directory, removed at the end)
# GLIBC_TUNABLES is passed on and shown (glibc.malloc.hugetlb=1 backs
#               malloc with transparent huge pages; see README.md)
#
# Both forms of bench/gen-big.sh are checked: 'literal' (4N lines: scanner,
# parser) and 'parametric' (a few lines with 'for': expansion).  'ensemble
# expand' on the parametric form (output to /dev/null) is timed for
# information.  The median user+sys CPU time is shown beside the wall time:
# it is the steadier figure when the machine is busy.  Every run must exit
# 0, print "N processes, N channels" and nothing on stderr.  Exit status:
# 0 all targets pass, 1 a target fails, 2 a run went wrong.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
ensemble=${1:-${ENSEMBLE:-./ensemble}}
n=${N:-100000}
runs=${RUNS:-5}
tlimit=${TIME_LIMIT:-2}
mlimit=${RSS_LIMIT_MB:-500}
cc=${CC:-cc}
cflags=${CFLAGS:--O2}

case $ensemble in
/*) ;;
*) ensemble=$(pwd)/$ensemble ;;
esac
if [ ! -x "$ensemble" ]; then
	echo "check-big.sh: no ensemble binary at '$ensemble' (give its path" \
	    "as the first argument or in \$ENSEMBLE)" >&2
	exit 2
fi

if [ -n "${BENCH_DIR:-}" ]; then
	work=$BENCH_DIR
	mkdir -p "$work"
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/ensemble-bench.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	trap 'exit 2' HUP INT TERM
fi

# shellcheck disable=SC2086
$cc $cflags -o "$work/rusage" "$here/rusage.c"
"$here/gen-big.sh" "$n" "$work"

cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
ncpu=$(nproc 2>/dev/null || echo '?')
echo "ensemble check benchmark: N=$n, $runs runs each"
echo "binary:  $ensemble"
echo "machine: $ncpu CPUs, ${cpu:-unknown CPU}"
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
echo "load:    $load (1, 5, 15 min averages before the runs)"
if [ -n "${GLIBC_TUNABLES:-}" ]; then
	echo "env:     GLIBC_TUNABLES=$GLIBC_TUNABLES"
fi
echo "target:  median wall < $tlimit s, peak RSS < $mlimit MB (10^6 bytes)"
echo

fail=0
bad=0

# median K: the median of column K of $work/times (wall, KiB, cpu).
median() {
	awk -v k="$1" '{ print $k }' "$work/times" | sort -n | awk '
		{ t[NR] = $1 }
		END {
			if (NR % 2) printf "%.3f", t[(NR + 1) / 2]
			else printf "%.3f", (t[NR / 2] + t[NR / 2 + 1]) / 2
		}'
}

# measure LABEL EXPECT_SUMMARY OUTPUT CMD...: run CMD $runs times; sets
# $med (median wall seconds), $cpu (median user+sys seconds), $rss (max
# peak RSS in MB) and $all (every wall time).
measure() {
	label=$1
	expect=$2
	output=$3
	shift 3
	: >"$work/times"
	i=0
	while [ "$i" -lt "$runs" ]; do
		i=$((i + 1))
		if ! "$work/rusage" -o "$work/ru" "$@" >"$output" 2>"$work/err"; then
			echo "$label: run $i failed:" >&2
			cat "$work/ru" "$work/err" >&2
			bad=1
		fi
		if [ -s "$work/err" ]; then
			echo "$label: run $i printed on stderr:" >&2
			head -n 5 "$work/err" >&2
			bad=1
		fi
		if [ -n "$expect" ] && ! grep -q "$expect" "$output"; then
			echo "$label: run $i: expected '$expect', got:" >&2
			head -n 5 "$output" >&2
			bad=1
		fi
		sed -n 's/^wall=\([^ ]*\) cpu=\([^ ]*\) maxrss_kb=\([^ ]*\) .*/\1 \3 \2/p' \
		    "$work/ru" >>"$work/times"
	done
	med=$(median 1)
	cpu=$(median 3)
	rss=$(awk 'BEGIN { m = 0 } $2 > m { m = $2 } END {
		printf "%.1f", m * 1024 / 1e6 }' "$work/times")
	all=$(awk '{ printf "%s%.3f", (NR > 1 ? " " : ""), $1 }' "$work/times")
}

# verdict: PASS or FAIL of $med and $rss against the limits.
verdict() {
	v=$(awk -v t="$med" -v m="$rss" -v tl="$tlimit" -v ml="$mlimit" 'BEGIN {
		why = ""
		if (t + 0 >= tl + 0) why = "time >= " tl " s"
		if (m + 0 >= ml + 0) why = why (why != "" ? ", " : "") "RSS >= " ml " MB"
		print why == "" ? "PASS" : "FAIL (" why ")" }')
	case $v in
	FAIL*) fail=1 ;;
	esac
}

row() {
	printf '%-11s %-26s %9s s %8s s %9s MB  %s\n' "$1" "$2" "$med" "$cpu" \
	    "$rss" "$3"
	printf '%-11s %-26s wall of each run: %s\n' '' '' "$all"
}

printf '%-11s %-26s %11s %10s %12s  %s\n' form command 'median wall' \
    'median cpu' 'peak RSS' result
summary=": $n processes, $n channels,"
for form in literal parametric; do
	measure "$form" "$summary" "$work/out" \
	    "$ensemble" check "$work/big-$form.pcg"
	verdict
	row "$form" "check big-$form.pcg" "$v"
done
measure "parametric expand" "" /dev/null \
    "$ensemble" expand "$work/big-parametric.pcg"
row parametric "expand big-parametric.pcg" "(information, output to /dev/null)"

if [ "$bad" -ne 0 ]; then
	echo "check-big.sh: some runs went wrong (see above)" >&2
	exit 2
fi
exit "$fail"
