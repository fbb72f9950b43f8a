#!/usr/bin/env bash
# difftest.sh -- differential test of the model checker against SPIN:
# random scripts (tests/unit/gen.c, by difftest-gen), each checked in
# both send modes by 'ensemble verify', by default and with --exact, and
# by SPIN on the mode's Promela export ('ensemble net -o m.pml'): the
# three verdicts and violation kinds must agree.  Exports the P/T net
# refuses (an MPI_ANY_SOURCE order, a root running ahead, an endless
# rendezvous) are counted, not compared; so are models SPIN does not
# finish within its depth or time.
#
# usage: difftest.sh [-s SEED] [-n COUNT] [-f FIRST] [-j JOBS] [-k DIR] [-g] [-P]
# -g: random scripts and protocols only, each with groups (difftest-gen -g).
# -P: every script with sendrecv, named requests, wait, test, waitany,
# waitsome, probe and iprobe (difftest-gen -P), which the export refuses:
# verify and --exact are compared ('make difftest DIFFTEST_FLAGS=-P').
# Needs ENSEMBLE and GEN (difftest-gen) in the environment, spin and a C
# compiler (PANCC, default clang when installed, else cc).  Each
# disagreement prints the model's number and verdicts, and the model is
# kept in DIR (default ./difftest-failures) as m-I.pcg; difftest-gen -s
# SEED -f I -n 1 makes it again.  Prints a summary: models compared, the
# engines and reductions that decided them; exit 1 on a disagreement.
set -u
seed=1 count=100 first=0 jobs=2 keep=./difftest-failures groups= p2p=
while getopts s:n:f:j:k:gP o; do
	case $o in
	s) seed=$OPTARG ;;
	n) count=$OPTARG ;;
	f) first=$OPTARG ;;
	j) jobs=$OPTARG ;;
	k) keep=$OPTARG ;;
	g) groups=-g ;;
	P) p2p=-P ;;
	*) echo "usage: difftest.sh [-s SEED] [-n COUNT] [-f FIRST] [-j JOBS] [-k DIR] [-g] [-P]" >&2
	   exit 2 ;;
	esac
done
: "${ENSEMBLE:?ENSEMBLE names the ensemble program}" "${GEN:?GEN names difftest-gen}"
if [ -z "${PANCC:-}" ]; then
	command -v clang >/dev/null 2>&1 && PANCC=clang || PANCC=cc
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/difftest.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/m" "$work/res"

# verdict JSON MODE: "verified", "violated/KIND" or "incomplete" for the
# mode's part of verify --json's output.
verdict() {
	local part

	# (without the symmetry's names: "rotations of w[1..5]" has a '[')
	part=$(sed 's/"symmetry":"[^"]*"//g' "$1" |
	    grep -o "\"$2\":{\"verdict\":\"[a-z]*\"[^[]*\(\[{\"kind\":\"[a-z-]*\"\)\?")
	case $part in
	*'"verdict":"verified"'*) echo verified ;;
	*'"verdict":"violated"'*) echo "violated/$(echo "$part" | sed 's/.*"kind":"\([a-z-]*\)".*/\1/')" ;;
	*) echo incomplete ;;
	esac
}

# pan_verdict OUT: SPIN's verdict from pan's output, the worst kind
# first; "incomplete" when the depth limit or a channel's room in the
# model cut the search short.
pan_verdict() {
	local k

	if grep -q "max search depth too small" "$1"; then
		echo incomplete
		return
	fi
	if grep -q "errors: 0" "$1"; then
		echo verified
		return
	fi
	for k in collective_mismatch deadlock orphan_receive unmatched_send \
	    unwaited_request; do
		if grep -q "assertion violated.*found_$k" "$1"; then
			echo "violated/${k//_/-}"
			return
		fi
	done
	# A channel without a bound outgrew the model's (promela.c).
	grep -q "assertion violated.*found_channel_full" "$1" && echo incomplete ||
		echo error
}

# one I MODEL: $work/res/I holds, per mode, "MODE OURS EXACT SPIN"
# (SPIN: a verdict, "refused", "incomplete" or "error").
one() {
	local i=$1 m=$work/m/$2 d=$work/w$1 mode ours exact sp bsp=

	mkdir -p "$d"
	timeout 30 "$ENSEMBLE" verify --json "$m" >"$d/d.json" 2>/dev/null
	timeout 30 "$ENSEMBLE" verify --exact --json "$m" >"$d/x.json" 2>/dev/null
	for mode in buffered synchronous; do
		ours=$(verdict "$d/d.json" $mode)
		exact=$(verdict "$d/x.json" $mode)
		if ! timeout 30 "$ENSEMBLE" net --send-mode=$mode "$m" \
		    -o "$d/$mode.pml" 2>"$d/net.err"; then
			sp=refused
		elif [ $mode = synchronous ] && [ -n "$bsp" ] &&
		    cmp -s <(tail -n +2 "$d/buffered.pml") \
		    <(tail -n +2 "$d/synchronous.pml"); then
			sp=$bsp		# the same model (but its title): one pan
		else
			(
				cd "$d" && spin -a $mode.pml >spin.out 2>&1 &&
				$PANCC -O0 -w -DSAFETY -o pan pan.c 2>cc.err &&
				timeout 30 ./pan -w18 -m200000 -e -c0 >pan.out 2>&1
			)
			sp=$(pan_verdict "$d/pan.out" 2>/dev/null)
			[ -s "$d/pan.out" ] || sp=error
			rm -f "$d/pan" "$d/pan.out" "$d"/pan.[bchmpt]
		fi
		echo "$mode $ours $exact $sp"
		[ $mode = buffered ] && [ "$sp" != refused ] && bsp=$sp
	done >"$work/res/$i"
	rm -rf "$d"
}

t0=$SECONDS
"$GEN" -s "$seed" -f "$first" -n "$count" $p2p -o "$work/m" $groups >"$work/gen" || exit 2
running=0
while read -r i model _; do
	[ "$model" = - ] && continue
	one "$i" "$model" &
	running=$((running + 1))
	if [ $running -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
done <"$work/gen"
wait

# The figures, and every disagreement.
awk -v keep="$keep" -v seed="$seed" -v work="$work" -v t=$((SECONDS - t0)) '
# A disagreement: said, and the model kept.
function disagree(m, r) {
	bad++
	printf "DISAGREE model %d (seed %s), %s mode: verify %s, --exact %s, SPIN %s: kept in %s/m-%d.pcg\n", m, seed, r[1], r[2], r[3], r[4], keep, m
	system("mkdir -p " keep " && cp " work "/m/m-" m ".pcg " keep "/")
}
function eng(mode, e, pooled, bags) {
	n[mode " " e]++
	if (pooled > 0) n[mode " " e " pools"]++
	if (bags > 0) n[mode " " e " bags"]++
}
$2 == "-" { skip[$3]++; next }
{
	models++
	eng($3, $4, $5, $6); eng($7, $8, $9, $10)
	f = work "/res/" $1
	while ((getline l < f) > 0) {
		split(l, r, " ")
		checks++
		if (r[2] == "incomplete" || r[3] == "incomplete") { inc++; continue }
		if (r[2] != r[3]) {
			disagree($1, r)
			continue
		}
		if (r[4] == "refused") { refused++; continue }
		if (r[4] == "incomplete" || r[4] == "error") { spininc++; continue }
		if (r[4] != r[2]) {
			disagree($1, r)
			continue
		}
		agree++
		v[r[2]]++
	}
	close(f)
}
END {
	printf "seed %s: %d scripts, %d models (%d refused statically, %d too large), %d checks in %d s\n", seed, models + skip["static"] + skip["large"], models, skip["static"], skip["large"], checks, t
	printf "agree with SPIN: %d (", agree
	sep = ""
	for (k in v) { printf "%s%s %d", sep, k, v[k]; sep = ", " }
	printf ")\n"
	printf "not compared: %d exports refused, %d SPIN incomplete, %d verify incomplete\n", refused, spininc, inc
	for (mode in modes) ;
	split("buffered synchronous", ms, " ")
	for (j = 1; j <= 2; j++)
		printf "%s: kahn %d (pools %d), por %d (pools %d, bags %d)\n", ms[j], n[ms[j] " kahn"], n[ms[j] " kahn pools"], n[ms[j] " por"], n[ms[j] " por pools"], n[ms[j] " por bags"]
	printf "disagreements: %d\n", bad
	exit (bad > 0)
}' "$work/gen"
