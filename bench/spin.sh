#!/bin/sh
# spin.sh -- ensemble verify against SPIN on ensemble's own Promela export
# ('ensemble net -o model.pml'), side by side on the same scripts and sizes:
#
#   ensemble verify --send-mode=MODE            (its reductions)
#   ensemble verify --send-mode=MODE --exact    (every interleaving)
#   spin -a model.pml && cc ... -o pan pan.c    (reported apart)
#   ./pan                  with SPIN's partial-order reduction (default)
#   ./pan built -DNOREDUCE without it
#
# Targets (issue 13): ensemble faster than SPIN (pan with its reduction,
# and without) at every size where SPIN finishes within the time limit;
# ensemble reaching at least 10 times SPIN's largest process count; --exact
# at least twice SPIN's states/s with -DNOREDUCE.
#
#   bench/spin.sh [ENSEMBLE]            # or: make bench-spin
#   FULL=1 bench/spin.sh build/ensemble # the long sweep (about an hour)
#
# SPIN needs one model per send mode; ensemble is run per mode too
# (--send-mode=MODE), so each row compares one mode.  Every time is the
# whole process's CPU time, user + system (bench/rusage.c), which a
# machine busy with other work stretches far less than wall time:
# ensemble's includes reading and compiling the script, pan's includes
# allocating its hash table and stack but not spin -a and cc, which are
# their own column (CPU time of both).  States per second are the states
# stored over that CPU time, for both tools.  The limit is one of CPU
# time too (ulimit -t), so a busy machine does not move it.
#
# Environment:
# ENSEMBLE   the ensemble binary (first argument, else $ENSEMBLE, else
#            ./ensemble); top_srcdir the source tree (default: this file's
#            parent)
# FULL       1: the long sweep (sizes up to 100,000 for ensemble, SPIN
#            up to where it passes the time limit, limit 60 s)
# NPS        the -np sizes (default 3 6 1000; FULL: 2 4 8 16 32 64 100
#            1000 10000 100000); SPIN runs up to 255 processes (pan's
#            most), its judge included
# BENCH_SCRIPTS the scaled scripts (default ring tree pipeline jacobi farm);
#            dmax.pcg and dmax-tree.pcg (fixed size) are run once each
# LIMIT      CPU seconds a run may take (default 10; FULL: 60; 2 x that
#            for cc); a tool that passes it (or its memory) is not run at
#            larger sizes
# RUNS       runs per measurement (default 5): the median CPU time; a
#            measurement whose first run takes over 5 s is run once
# BATCH      a command whose median is under 50 ms of CPU is measured
#            again as RUNS batches of BATCH runs each (default 100), one
#            loop of the shell each, and its time is a batch's median over
#            BATCH: the kernel's CPU accounting of one process of a few ms
#            is too coarse to order two tools (both tools pay the loop's
#            fork alike); where both ensemble and pan are under 50 ms, the
#            pan / ensemble ratio is the median of RUNS pairs of such
#            batches taken in turn (ensemble, pan, ensemble, ...), so that
#            the machine's drift moves both sides of each pair alike
# MEMLIM     MB of memory for pan (-DMEMLIM) and ensemble (--max-memory):
#            default 8192
# PAN_CC     the C compiler and flags for pan (default: cc -O2 -w)
# CC, CFLAGS to build bench/rusage.c (default cc -O2)
#
# pan runs as './pan -mDEPTH -wBITS -e -c0 -n': DEPTH starts at 10000 and
# is multiplied by 10 while pan says 'max search depth too small' (no
# truncated search is timed); BITS (the hash table's log2 size) is
# log2(2 x the states --exact stored), between 12 and 28, so small models
# do not pay for pan's default 2^24 slots and large ones do not chain.
# pan is built with -DSAFETY -DMEMLIM=MEMLIM (and -DNOREDUCE), and
# -DVECTORSZ=N when pan asks for it.
#
# Exit status: 0 every target met, 1 one missed, 2 a run went wrong
# (a verdict of SPIN's unlike ensemble's, a tool missing).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=${top_srcdir:-$(dirname "$here")}
ensemble=${1:-${ENSEMBLE:-./ensemble}}
full=${FULL:-0}
runs=${RUNS:-5}
batch=${BATCH:-100}
memlim=${MEMLIM:-8192}
pancc=${PAN_CC:-cc -O2 -w}
cc=${CC:-cc}
cflags=${CFLAGS:--O2}
if [ "$full" = 1 ]; then
	nps=${NPS:-2 4 8 16 32 64 100 1000 10000 100000}
	limit=${LIMIT:-60}
else
	nps=${NPS:-3 6 1000}
	limit=${LIMIT:-10}
fi
scripts=${BENCH_SCRIPTS:-ring tree pipeline jacobi farm}

case $ensemble in
/*) ;;
*) ensemble=$(pwd)/$ensemble ;;
esac
if [ ! -x "$ensemble" ]; then
	echo "spin.sh: no ensemble binary at '$ensemble'" >&2
	exit 2
fi
for t in spin timeout; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "spin.sh: '$t' is not installed" >&2
		exit 2
	fi
done
work=$(mktemp -d "${TMPDIR:-/tmp}/ensemble-spin.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 2' HUP INT TERM
# shellcheck disable=SC2086
$cc $cflags -o "$work/rusage" "$here/rusage.c"
ru=$work/rusage
top=$(pwd)

cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "ensemble verify against SPIN on its Promela export: median CPU time of $runs runs, limit $limit CPU s"
echo "binary:  $ensemble"
echo "spin:    $(spin -V 2>&1 | head -n 1)"
echo "pan:     spin -a; $pancc -DSAFETY -DMEMLIM=$memlim [-DNOREDUCE]; ./pan -mDEPTH -wBITS -e -c0 -n"
echo "machine: $(nproc 2>/dev/null || echo '?') CPUs, ${cpu:-unknown CPU}"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
echo

fail=0
bad=0

# field FILE NAME: NAME=value from rusage's line
field() {
	sed -n "s/.*$2=\\([0-9.]*\\).*/\\1/p" "$1"
}

# median FILE: the median of a file's numbers, one a line
median() {
	sort -n "$1" | awk '{ v[NR] = $1 } END {
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# timed OUT LIMIT CMD...: run CMD with LIMIT seconds of CPU time
# (ulimit -t; and 30 times that of wall time) RUNS times (once when the
# first run took over 5 s), output to OUT; sets $cpu and $wall (medians),
# $kb (largest peak RSS), $st (last exit status; 124 for either limit).
# Under 50 ms, $cpu and $wall are again the medians of RUNS batches of
# BATCH runs, over BATCH.
timed() {
	out=$1 lim=$2
	shift 2
	: >"$work/cpus"
	: >"$work/walls"
	kb=0
	i=0
	while [ $i -lt "$runs" ]; do
		"$ru" -o "$work/ru" timeout $((lim * 30)) \
		    sh -c 'ulimit -t "$0" && exec "$@"' "$lim" "$@" >"$out" 2>&1 || true
		st=$(field "$work/ru" status)
		c=$(field "$work/ru" cpu)
		k=$(field "$work/ru" maxrss_kb)
		[ "$k" -gt "$kb" ] && kb=$k
		echo "$c" >>"$work/cpus"
		field "$work/ru" wall >>"$work/walls"
		case $st in
		124 | 137 | 152) st=124 ;;	# timeout, SIGKILL, SIGXCPU
		esac
		[ "$st" = 0 ] || [ "$st" = 1 ] || break
		i=$((i + 1))
		awk -v c="$c" 'BEGIN { exit !(c > 5) }' && break
	done
	cpu=$(median "$work/cpus")
	wall=$(median "$work/walls")
	case $st in 0 | 1) ;; *) return ;; esac
	awk -v c="$cpu" 'BEGIN { exit !(c < 0.05) }' || return 0
	: >"$work/cpus"
	: >"$work/walls"
	i=0
	while [ $i -lt "$runs" ]; do
		"$ru" -o "$work/ru" sh -c 'n=$0; while [ $n -gt 0 ]; do
			"$@" >/dev/null 2>&1; n=$((n - 1)); done' "$batch" "$@"
		field "$work/ru" cpu | awk -v b="$batch" '{ print $1 / b }' >>"$work/cpus"
		field "$work/ru" wall | awk -v b="$batch" '{ print $1 / b }' >>"$work/walls"
		i=$((i + 1))
	done
	cpu=$(median "$work/cpus")
	wall=$(median "$work/walls")
}

# cmdfile FILE WORD...: FILE gets a shell command of the words, each
# quoted ('&&' left bare), for 'paired'
cmdfile() {
	f=$1
	shift
	for w in "$@"; do
		case $w in
		'&&') printf '&& ' ;;
		*) printf "'%s' " "$(printf '%s' "$w" | sed "s/'/'\\\\''/g")" ;;
		esac
	done >"$f"
	echo >>"$f"
}

# paired A B: the median over RUNS pairs of BATCH-run batches of the
# commands in files A and B, taken in turn, of B's CPU time over A's
paired() {
	: >"$work/pairs"
	i=0
	while [ $i -lt "$runs" ]; do
		for f in "$1" "$2"; do
			"$ru" -o "$work/ru.$i" sh -c 'n=$0; c=$(cat "$1"); while [ $n -gt 0 ]; do
				eval "$c" >/dev/null 2>&1; n=$((n - 1)); done' "$batch" "$f"
			field "$work/ru.$i" cpu >>"$work/pair.$i"
		done
		awk 'NR == 1 { a = $1 } NR == 2 { b = $1 } END { printf "%.4f\n", b / (a > 0 ? a : 1e-9) }' \
		    "$work/pair.$i" >>"$work/pairs"
		rm -f "$work/pair.$i"
		i=$((i + 1))
	done
	median "$work/pairs" | awk '{ printf "%.2f", $1 }'
}

# mb KB: megabytes of 10^6 bytes
mb() {
	awk -v k="$1" 'BEGIN { printf "%.0f", k * 1024 / 1e6 }'
}

# secs S: a time to print
secs() {
	awk -v w="$1" 'BEGIN { if (w < 0.01) printf "%.4f", w; else if (w < 10) printf "%.3f", w; else printf "%.1f", w }'
}

# The stop list: "TOOL.SCRIPT.MODE" once a tool passed the limit there.
stopped=" "
isstopped() {
	case $stopped in *" $1 "*) return 0 ;; esac
	return 1
}
stop() {
	stopped="$stopped$1 "
}

# build DIR NAME FLAGS...: compile DIR/pan.c into DIR/NAME; sets $ctime
build() {
	bd=$1 bn=$2
	shift 2
	# shellcheck disable=SC2086
	"$ru" -o "$work/ru" timeout $((limit * 60)) sh -c 'ulimit -t "$0" && exec "$@"' \
	    $((limit * 2)) $pancc -DSAFETY -DMEMLIM="$memlim" \
	    "$@" -o "$bd/$bn" "$bd/pan.c" >"$bd/$bn.cc" 2>&1 || true
	ctime=$(field "$work/ru" cpu)
	bst=$(field "$work/ru" status)
	[ "$bst" = 0 ]
}

# pan DIR NAME FLAGS...: build and run pan until its depth and vector
# size suffice; sets $cell (what to print), $pstates, $prate, $pcpu,
# $pverdict ('verified', 'violated', 'limit' or 'error: ...')
pan() {
	pd=$1 pn=$2
	shift 2
	vflag=
	depth=10000
	pstates=- prate=- pcpu=- cell=-
	if ! build "$pd" "$pn" "$@"; then
		if [ "$bst" = 124 ] || [ "$bst" = 137 ] || [ "$bst" = 152 ] ||
		    grep -q -i 'killed signal\|CPU time limit' "$bd/$bn.cc"; then
			pverdict=limit
			cell="cc > $((limit * 2)) s"
		else
			pverdict="error: cc: $(grep -m 1 -i error "$pd/$pn.cc" || echo "exit $bst")"
		fi
		return
	fi
	cc1=$ctime
	while :; do
		# (in its directory: pan writes its trails there)
		cd "$pd"
		timed "$pd/$pn.out" "$limit" "./$pn" -m$depth -w$bits -e -c0 -n
		cmdfile "$pd/$pn.cmd" cd "$pd" "&&" "./$pn" -m$depth -w$bits -e -c0 -n
		cd "$top"
		if [ "$st" = 124 ]; then
			pverdict=limit
			cell="> $limit s"
			return
		fi
		if grep -q 'max search depth too small' "$pd/$pn.out"; then
			depth=$((depth * 10))
			continue
		fi
		n=$(sed -n 's/.*VECTORSZ=N with N>\([0-9]*\).*/\1/p' "$pd/$pn.out")
		# (or, with no size named, the state vector's: pan.h's
		# default VECTORSZ is 1024 bytes)
		if [ -z "$n" ] && grep -q 'VECTORSZ is too small' "$pd/$pn.out"; then
			n=$(sed -n 's/^State-vector \([0-9]*\) byte.*/\1/p' "$pd/$pn.out")
		fi
		if [ -n "$n" ] && [ -z "$vflag" ]; then
			vflag=-DVECTORSZ=$((n * 2))
			build "$pd" "$pn" "$@" $vflag || true
			continue
		fi
		break
	done
	pcpu=$cpu
	pstates=$(awk '/states, stored/ { print $1; exit }' "$pd/$pn.out")
	if grep -q 'out of memory' "$pd/$pn.out"; then
		pverdict=limit
		cell="out of memory"
		return
	fi
	if [ -z "$pstates" ]; then
		pverdict="error: $(grep -m 1 -i error "$pd/$pn.out" || tail -n 1 "$pd/$pn.out")"
		pstates=-
		return
	fi
	# states per CPU second of the whole process (pan's own rate is per
	# second of its wall clock, which a busy machine stretches)
	prate=$(awk -v s="$pstates" -v c="$pcpu" 'BEGIN { printf "%.0f", s / (c > 0.0005 ? c : 0.0005) }')
	if grep -q 'errors: 0' "$pd/$pn.out"; then
		pverdict=verified
	else
		pverdict=violated
	fi
	cell="$(secs "$pcpu") s, $(mb "$kb") MB"
	ctime=$cc1
}

# The table: one row per script, size and mode.
printf '| script | -np | mode | ensemble | --exact | states | M states/s | spin -a + cc | pan (POR) | states | pan -DNOREDUCE | states | M states/s | pan / ensemble (POR, NOREDUCE) | --exact / NOREDUCE states/s |\n'
printf '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'

# Per script: the largest -np SPIN finished (either build) and ensemble did
spinmax=$work/spinmax
ensmax=$work/ensmax
: >"$spinmax"
: >"$ensmax"
# ratios: 'fast' lines (pan / ensemble CPU time, per build), 'rate' lines
: >"$work/ratios"

# row NAME NP MODE ARGS...
row() {
	name=$1 np=$2 mode=$3
	shift 3
	key=$name.$mode
	d=$work/$name-$np-$mode
	mkdir -p "$d"
	ecell=- xcell=- xstates=- xrate=- ccell=- c1=- s1=- c2=- s2=- r2=- q1=- q2=-
	ecpu= xrateraw= rq=-
	verdict=
	if ! isstopped "ens.$key"; then
		# (the CPU time limit: --max-time counts wall time)
		timed "$d/e.out" "$limit" "$ensemble" verify "$@" --send-mode="$mode" \
		    --max-memory "$memlim" --no-progress
		cmdfile "$d/e.cmd" "$ensemble" verify "$@" --send-mode="$mode" \
		    --max-memory "$memlim" --no-progress
		case $st in
		0 | 1)
			verdict=$([ "$st" = 0 ] && echo verified || echo violated)
			ecpu=$cpu
			ecell="$(secs "$cpu") s, $(mb "$kb") MB"
			echo "$name $np" >>"$ensmax"
			;;
		3 | 124) ecell="> $limit s"; stop "ens.$key" ;;
		*) ecell="error (exit $st)"; bad=1; stop "ens.$key" ;;
		esac
	fi
	if ! isstopped "exact.$key"; then
		timed "$d/x.out" "$limit" "$ensemble" verify "$@" --send-mode="$mode" \
		    --exact --stats --max-memory "$memlim" --no-progress
		case $st in
		0 | 1)
			xstates=$(awk '/^states:/ { print $2 }' "$d/x.out")
			xrateraw=$(awk -v s="$xstates" -v c="$cpu" 'BEGIN { printf "%.0f", s / (c > 0.0005 ? c : 0.0005) }')
			xrate=$(awk -v r="$xrateraw" 'BEGIN { printf "%.2f", r / 1e6 }')
			xcell="$(secs "$cpu") s, $(mb "$kb") MB"
			;;
		3 | 124)
			xcell="> $limit s"
			grep -q -i memory "$d/x.out" && xcell="> $memlim MB"
			stop "exact.$key"
			;;
		*) xcell="error (exit $st)"; bad=1; stop "exact.$key" ;;
		esac
	fi
	if isstopped "por.$key" && isstopped "nr.$key"; then
		:
	elif ! "$ensemble" net "$@" --send-mode="$mode" -o "$d/m.pml" >"$d/net.err" 2>&1; then
		ccell="no model: $(tail -n 1 "$d/net.err")"
		stop "por.$key"
		stop "nr.$key"
	elif [ "$(grep -c '^active proctype' "$d/m.pml")" -gt 255 ]; then
		ccell="no SPIN run: over 255 processes"
		stop "por.$key"
		stop "nr.$key"
	else
		cd "$d"
		"$ru" -o "$work/ru" spin -a m.pml >"$d/spin.out" 2>&1 || true
		cd "$top"
		if [ ! -f "$d/pan.c" ]; then
			# (SPIN's own limits, e.g. 'd_step sequence too long')
			ccell="no pan: spin -a: $(grep -m 1 -i error "$d/spin.out" | sed 's/.*Error: //')"
			stop "por.$key"
			stop "nr.$key"
		fi
		stime=$(field "$work/ru" cpu)
		bits=28
		if [ "$xstates" != - ]; then
			bits=$(awk -v s="$xstates" 'BEGIN { b = 12; while (2 ^ b < 2 * s && b < 28) b++; print b }')
		fi
		for b in por nr; do
			[ -f "$d/pan.c" ] || break
			isstopped "$b.$key" && continue
			q=-
			if [ $b = por ]; then
				pan "$d" pan
			else
				pan "$d" pan-nr -DNOREDUCE
			fi
			case $pverdict in
			verified | violated)
				if [ -n "$verdict" ] && [ "$pverdict" != "$verdict" ]; then
					echo "spin.sh: $name -np $np $mode: SPIN ($b) $pverdict, ensemble $verdict" >&2
					bad=1
				fi
				echo "$name $np" >>"$spinmax"
				if [ -n "$ecpu" ]; then
					q=$(awk -v p="$pcpu" -v e="$ecpu" 'BEGIN { printf "%.2f", p / (e > 0.00005 ? e : 0.00005) }')
					if awk -v p="$pcpu" -v e="$ecpu" 'BEGIN { exit !(p < 0.05 && e < 0.05) }'; then
						q=$(paired "$d/e.cmd" "$d/$([ $b = por ] && echo pan || echo pan-nr).cmd")
					fi
					echo "fast $b $name $np $mode $q" >>"$work/ratios"
				fi
				;;
			limit) cell=$cell; stop "$b.$key" ;;
			*)
				cell=$pverdict
				bad=1
				stop "$b.$key"
				;;
			esac
			if [ $b = por ]; then
				c1=$cell s1=$pstates q1=$q
				ccell="$(secs "$(awk -v a="$stime" -v b="$ctime" 'BEGIN { print a + b }')") s"
			else
				c2=$cell s2=$pstates q2=$q
				[ "$prate" = - ] || r2=$(awk -v r="$prate" 'BEGIN { printf "%.2f", r / 1e6 }')
				if [ -n "$xrateraw" ] && [ "$prate" != - ]; then
					rq=$(awk -v x="$xrateraw" -v p="$prate" 'BEGIN { printf "%.1f", x / p }')
					echo "rate $name $np $mode $rq $xstates" >>"$work/ratios"
				fi
			fi
		done
	fi
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s, %s | %s |\n' \
	    "$name" "$np" "$mode" "$ecell" "$xcell" "$xstates" "$xrate" "$ccell" \
	    "$c1" "$s1" "$c2" "$s2" "$r2" "$q1" "$q2" "$rq"
}

for s in $scripts; do
	for np in $nps; do
		args="$src/scripts/$s.pcg -np $np"
		# jacobi needs a cell per process at least
		if [ "$s" = jacobi ] && [ "$np" -gt 1000 ]; then
			args="$args -D cells=$np"
		fi
		for mode in buffered synchronous; do
			# shellcheck disable=SC2086
			row "$s" "$np" "$mode" $args
		done
	done
done
for s in dmax dmax-tree; do
	for mode in buffered synchronous; do
		row "$s" - "$mode" "$src/scripts/$s.pcg"
	done
done
echo

# The targets.
echo "targets (limit $limit s a run):"
# 1. faster at every size where SPIN finishes
slow=$(awk '$1 == "fast" && $6 + 0 <= 1 { printf " %s -np %s %s (%s, %s x)", $3, $4, $5, $2, $6 }' "$work/ratios")
n=$(grep -c '^fast' "$work/ratios" || true)
if [ -z "$slow" ]; then
	lo=$(awk '$1 == "fast" { if (m == "" || $6 < m) m = $6 } END { print m }' "$work/ratios")
	echo "  ensemble faster than pan wherever pan finished ($n runs; pan / ensemble >= $lo): PASS"
else
	echo "  ensemble faster than pan wherever pan finished: FAIL at$slow"
	fail=1
fi
# 2. ten times further in process count, where SPIN passed the limit
for s in $scripts; do
	sm=$(awk -v s="$s" '$1 == s { if ($2 > m) m = $2 } END { print m + 0 }' "$spinmax")
	em=$(awk -v s="$s" '$1 == s { if ($2 > m) m = $2 } END { print m + 0 }' "$ensmax")
	if isstopped "por.$s.buffered" && isstopped "nr.$s.buffered" &&
	    isstopped "por.$s.synchronous" && isstopped "nr.$s.synchronous"; then
		ok=$(awk -v a="$em" -v b="$sm" 'BEGIN { print (a >= 10 * b) ? "PASS" : "FAIL" }')
		[ "$ok" = PASS ] || fail=1
	else
		ok="no verdict: SPIN finished every size run"
	fi
	echo "  $s: SPIN up to -np $sm, ensemble up to -np $em (>= 10x): $ok"
done
# 3. --exact states/s at least twice pan -DNOREDUCE's (models of 10,000
#    states or more: below, start-up is all either rate measures)
awk '$1 == "rate" && $6 >= 10000' "$work/ratios" >"$work/rates"
if [ -s "$work/rates" ]; then
	lo=$(awk '{ if (m == "" || $5 < m) { m = $5; w = $2 " -np " $3 " " $4 } } END { print m " (" w ")" }' "$work/rates")
	med=$(awk '{ print $5 }' "$work/rates" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	ok=$(awk -v l="${lo%% *}" 'BEGIN { print (l >= 2) ? "PASS" : "FAIL" }')
	[ "$ok" = PASS ] || fail=1
	echo "  --exact / pan -DNOREDUCE states/s on $(wc -l <"$work/rates") models of >= 10,000 states: median $med, lowest $lo (>= 2): $ok"
else
	echo "  --exact / pan -DNOREDUCE states/s: no model of 10,000 states or more (FULL=1)"
fi
[ $bad = 0 ] || exit 2
exit $fail
