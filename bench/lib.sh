# bench/lib.sh -- sourced by the benchmark scripts: the helpers they
# share.  The script sets $work, a scratch directory, before it calls wall.

# median: the median of the numbers on stdin.
median() {
	sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# wall CMD...: the seconds CMD took; it must exit 0 (else what it said on
# stderr is shown and the script exits 2), its output in $work/out and
# $work/err.
wall() {
	local t0 t1
	t0=$(date +%s.%N)
	if ! "$@" >"$work/out" 2>"$work/err"; then
		echo "${0##*/}: failed: $*" >&2
		cat "$work/err" >&2
		exit 2
	fi
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", b - a }'
}
