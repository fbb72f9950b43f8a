# bench/lib.sh -- sourced by the benchmark scripts: the helpers they
# share.  The script sets $work, a scratch directory, before it calls wall
# (mpi_scratch does).

# median: the median of the numbers on stdin.
median() {
	sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# ratio FILE-A FILE-B: the medians of the two files' numbers and the
# ratio A / B, as three numbers.
ratio() {
	local a b

	a=$(median <"$1")
	b=$(median <"$2")
	echo "$a $b $(awk -v a="$a" -v b="$b" 'BEGIN { print a / b }')"
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

# scratch: $work, a scratch directory removed on exit (exit 2 on a
# signal).
scratch() {
	work=$(mktemp -d "${TMPDIR:-/tmp}/ensemble-bench.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	trap 'exit 2' HUP INT TERM
}

# machine: a report's lines on the machine and its load.
machine() {
	local cpu
	cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
	echo "machine: $(nproc 2>/dev/null || echo '?') CPUs, ${cpu:-unknown CPU}"
	echo "load:    $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
}

# targets_end FAIL: the last line of a benchmark with targets, and its
# exit status (FAIL: 0 every target met, 1 one missed).
targets_end() {
	echo
	if [ "$1" = 0 ]; then
		echo "every target met"
	else
		echo "some target missed"
	fi
	exit "$1"
}

# mpi_scratch: $work (scratch) and what Open MPI needs to run here: as
# root, and more processes than cores.
mpi_scratch() {
	scratch
	if [ "$(id -u)" = 0 ]; then
		export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	fi
	export OMPI_MCA_rmaps_base_oversubscribe=1
}

# need_built SCRIPT TARGET FILE...: exit 2, saying so, unless every FILE
# is an executable (SCRIPT names the script, TARGET the make target that
# builds them).
need_built() {
	local script=$1 target=$2 f
	shift 2
	for f in "$@"; do
		if [ ! -x "$f" ]; then
			echo "$script: '$f' is not built (make $target builds it)" >&2
			exit 2
		fi
	done
}
