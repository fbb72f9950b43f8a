#!/usr/bin/env bash
# run.sh -- fuzz the parser and expander (tests/fuzz/fuzz-parse) for a while.
#
# usage: tests/fuzz/run.sh [SECONDS] [LIBFUZZER-OPTION...]
#
# Run it from a build directory configured for fuzzing, e.g.
#   mkdir b-fuzz && cd b-fuzz
#   CC=clang CFLAGS="-g -O1 -fsanitize=fuzzer-no-link,address,undefined" \
#       ../configure --enable-fuzz && make tests/fuzz/fuzz-parse
#   ../tests/fuzz/run.sh 600
#
# SECONDS defaults to 600.  One fuzzing process (-fork=1) that keeps going
# after a crash, leak or timeout, so one run can find several bugs; every
# finding is saved under $FUZZ_OUT/artifacts (default fuzz-out/) and the
# corpus it grew in $FUZZ_OUT/corpus, reused by the next run.  The seeds in
# tests/fuzz/corpus are only read.  FUZZER names another binary, SEEDS
# another folder of seeds and DICT another dictionary (for fuzz-ir:
# SEEDS=tests/ir DICT=tests/fuzz/ir.dict).
#
# Each input is bounded: 4 KiB, 5 s (-timeout) and 2 GiB (-rss_limit_mb);
# those that go over are saved as timeout-* and oom-* artifacts.  An input
# that takes over 1 s or 500 MB is a finding too, so afterwards every input
# of the corpus is run once more on its own and those are listed (set
# FUZZ_REPLAY=0 to skip that; it takes about 50 ms an input).
#
# Afterwards, reproduce and minimise a finding with
#   tests/fuzz/fuzz-parse fuzz-out/artifacts/crash-XXXX
#   tests/fuzz/fuzz-parse -minimize_crash=1 -max_total_time=60 \
#       -exact_artifact_path=NAME.pcg fuzz-out/artifacts/crash-XXXX
# and save it as tests/fuzz/crashers/NAME.pcg, which tests/fuzz.test runs.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
secs=600
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
	secs=$1
	shift
fi
case $secs in
''|*[!0-9]*)
	echo "run.sh: SECONDS must be a whole number, not '$secs'" >&2
	exit 2
	;;
esac

fuzzer=${FUZZER:-./tests/fuzz/fuzz-parse}
if [ ! -x "$fuzzer" ]; then
	echo "run.sh: no fuzz target '$fuzzer'; build it in a directory configured with" >&2
	echo "  CC=clang CFLAGS=\"-g -O1 -fsanitize=fuzzer-no-link,address,undefined\" configure --enable-fuzz" >&2
	echo "(make tests/fuzz/fuzz-parse), run this from there or set FUZZER" >&2
	exit 2
fi

out=${FUZZ_OUT:-fuzz-out}
mkdir -p "$out/corpus" "$out/artifacts"

# UBSan reports must stop the run (the build may let it recover) and show
# where; ASan's leak check stays on.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}

echo "run.sh: fuzzing $fuzzer for $secs s; corpus $out/corpus, findings $out/artifacts/"
set +e
"$fuzzer" -dict="${DICT:-$here/dict}" -max_len=4096 -timeout=5 -rss_limit_mb=2048 \
    -report_slow_units=1 -print_final_stats=1 \
    -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -max_total_time="$secs" -artifact_prefix="$out/artifacts/" \
    "$@" "$out/corpus" "${SEEDS:-$here/corpus}"
rc=$?
set -e

# Replay the corpus one input at a time, for time and memory.
slow=0
if [ "${FUZZ_REPLAY:-1}" != 0 ]; then
	echo "run.sh: replaying $(find "$out/corpus" -type f | wc -l) inputs for time and memory"
	for f in "$out"/corpus/*; do
		log=$("$fuzzer" -timeout=60 -rss_limit_mb=4096 -print_final_stats=1 "$f" 2>&1) || {
			echo "run.sh: $f: failed on its own:"
			printf '%s\n' "$log" | grep -E 'ERROR|SUMMARY' | head -n 3
			slow=$((slow + 1))
			continue
		}
		ms=$(printf '%s\n' "$log" | sed -n 's/^Executed .* in \([0-9]*\) ms$/\1/p')
		mb=$(printf '%s\n' "$log" | sed -n 's/^stat::peak_rss_mb: *\([0-9]*\)$/\1/p')
		if [ "${ms:-0}" -gt 1000 ] || [ "${mb:-0}" -gt 500 ]; then
			echo "run.sh: $f: ${ms} ms, ${mb} MB"
			slow=$((slow + 1))
		fi
	done
	echo "run.sh: $slow input(s) over 1 s or 500 MB (or failing on their own)"
fi

n=$(find "$out/artifacts" -type f | wc -l)
if [ "$n" -gt 0 ]; then
	echo "run.sh: $n finding(s) in $out/artifacts:"
	ls -l "$out/artifacts"
	exit 1
fi
[ "$slow" -gt 0 ] && exit 1
echo "run.sh: no findings"
exit "$rc"
