# tests/setup.sh -- sourced by every tests/*.test script: a scratch
# directory removed on exit, TAP output, and assertions on what a command
# printed and how it exited.  make check sets ENSEMBLE, top_srcdir and
# top_builddir; run by hand, set them yourself.
set -eu
: "${ENSEMBLE:?set ENSEMBLE to the ensemble binary}"
: "${top_srcdir:?set top_srcdir}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ensemble-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tap_n=0

plan() { echo "1..$1"; }

# config_str NAME: the string the build's config.h defines NAME to: what
# a test knows of the build, as ENS_MPI (the MPI it is on: "openmpi" or
# "mpich") and ENS_MPIRUN (that MPI's launcher program).
config_str() {
	sed -n "s/^#define $1 \"\(.*\)\"\$/\1/p" "$top_builddir/config.h"
}

ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $*"
}

not_ok() {
	tap_n=$((tap_n + 1))
	echo "not ok $tap_n - $*"
}

# Show a file as TAP comments (for a failure's details).
diag_file() {
	sed 's/^/# /' "$1"
}

# run CMD...: run it, keeping stdout in $tmp/out, stderr in $tmp/err and the
# exit status in $status.
run() {
	set +e
	"$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	set -e
}

# ens ARGS...: run ensemble (bounded in time).
ens() {
	run timeout 60 "$ENSEMBLE" "$@"
}

# expect DESC STATUS [STDOUT]: the last run exited STATUS and, when given,
# printed exactly STDOUT (a trailing newline added).
# With DUMP_EXPECT=FILE in the environment, an expect without STDOUT
# appends what the run printed to FILE, to write its expect_exact from.
expect() {
	local desc=$1 want=$2 good=1

	if [ -n "${DUMP_EXPECT:-}" ] && [ $# = 2 ]; then
		{ printf '@@DESC %s\n@@STATUS %s\n@@OUT\n' "$desc" "$status"; cat "$tmp/out"
		  printf '@@ERR\n'; cat "$tmp/err"; printf '@@END\n'; } >>"$DUMP_EXPECT"
	fi

	[ "$status" = "$want" ] || good=0
	if [ $# -ge 3 ]; then
		printf '%s\n' "$3" >"$tmp/want"
		cmp -s "$tmp/want" "$tmp/out" || good=0
	fi
	if [ $good = 1 ]; then
		ok "$desc"
		return
	fi
	not_ok "$desc"
	echo "# exit status $status, expected $want"
	if [ $# -ge 3 ]; then
		echo "# stdout differs from the expected:"
		diff "$tmp/want" "$tmp/out" | sed 's/^/# /' || true
	fi
	echo "# stderr:"
	diag_file "$tmp/err"
}

# expect_exact DESC STATUS STDOUT STDERR: the last run exited STATUS and
# printed exactly STDOUT and STDERR, each with a trailing newline added
# unless it is empty (then nothing at all was printed there).
expect_exact() {
	local desc=$1 want=$2 good=1 f out=$tmp/out err=$tmp/err

	[ "$status" = "$want" ] || good=0
	if [ -n "$3" ]; then printf '%s\n' "$3"; fi >"$tmp/want"
	if [ -n "$4" ]; then printf '%s\n' "$4"; fi >"$tmp/want-err"
	if [ $masked = 1 ]; then
		masked=0
		out=$tmp/out.masked
		err=$tmp/err.masked
		for f in out err; do
			sed -E -e 's/ in [0-9]+\.[0-9]+ s$/ in T s/' \
			    -e 's/ after [0-9]+\.[0-9]+ s/ after T s/g' \
			    "$tmp/$f" >"$tmp/$f.masked"
		done
	fi
	cmp -s "$tmp/want" "$out" || good=0
	cmp -s "$tmp/want-err" "$err" || good=0
	if [ $good = 1 ]; then
		ok "$desc"
		return
	fi
	not_ok "$desc"
	echo "# exit status $status, expected $want"
	echo "# stdout (- expected, + actual):"
	diff "$tmp/want" "$out" | sed 's/^/# /' || true
	echo "# stderr (- expected, + actual):"
	diff "$tmp/want-err" "$err" | sed 's/^/# /' || true
}

# mask_seconds: the next expect_exact compares what the last run printed
# with the seconds a verdict or a limit took ("in 0.01 s" at a line's end,
# "after 0.2 s") as "in T s", "after T s": the one field of such output
# that depends on timing.  The output itself is left as it was.
masked=0
mask_seconds() {
	masked=1
}

# expect_err DESC TEXT: stderr of the last run contains TEXT.
expect_err() {
	if grep -qF -- "$2" "$tmp/err"; then
		ok "$1"
	else
		not_ok "$1"
		echo "# stderr lacks: $2"
		diag_file "$tmp/err"
	fi
}

# expect_err_once DESC LINE: stderr of the last run has LINE, a line a
# process wrote, exactly once, as it wrote it: passed through, and not
# quoted again in the failure report ("    LINE").
expect_err_once() {
	if [ "$(grep -cxF -- "$2" "$tmp/err")" = 1 ] &&
	    ! grep -qxF -- "    $2" "$tmp/err"; then
		ok "$1"
	else
		not_ok "$1"
		echo "# stderr lacks, or has more than once: $2"
		diag_file "$tmp/err"
	fi
}

# expect_quiet DESC: the last run printed nothing on stderr.
expect_quiet() {
	if [ ! -s "$tmp/err" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag_file "$tmp/err"
	fi
}

# expect_no_stdout DESC: the last run printed nothing on stdout.
expect_no_stdout() {
	if [ ! -s "$tmp/out" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag_file "$tmp/out"
	fi
}

# Runs of 'ensemble run' carry this in their environment (and so do the
# processes mpirun starts), so that those left behind can be found; the
# test's own shell does not.
test_id="ensemble-test-$$-$RANDOM"

# runs ARGS...: 'ensemble run ARGS', bounded in time, marked with test_id.
runs() {
	run timeout 120 env ENSEMBLE_TEST_ID="$test_id" "$ENSEMBLE" run "$@"
}

# measure_slack RUNNER ARGS...: time a healthy run (RUNNER is runs, or a
# test's own wrapper of it) and set $slack to the seconds it took beyond
# 2.  A time bound in a test is the figure promised for a machine where
# such a run takes 2 s; a slower or loaded machine adds what it measured,
# so bounds follow the measured start time, not fixed seconds alone.
slack=0
measure_slack() {
	local t0=$SECONDS

	"$@"
	slack=$((SECONDS - t0 - 2))
	[ "$slack" -ge 0 ] || slack=0
	echo "# a healthy run took $((SECONDS - t0)) s: time bounds get $slack s more"
}

# expect_no_leftovers DESC: no process of this test's runs is alive.
expect_no_leftovers() {
	local pids
	pids=$(grep -lsaF "ENSEMBLE_TEST_ID=$test_id" /proc/[0-9]*/environ 2>/dev/null |
		sed 's|/proc/\([0-9]*\)/environ|\1|' | tr '\n' ' ' || true)
	if [ -z "$pids" ]; then
		ok "$1"
	else
		not_ok "$1"
		ps -o pid,ppid,args -p ${pids// /,} 2>/dev/null | sed 's/^/# /' || true
		kill -9 $pids 2>/dev/null || true
	fi
}
