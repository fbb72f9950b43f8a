#!/bin/bash
# instr.sh -- what the run's checks cost, in instructions (make
# bench-instr): counted by valgrind's callgrind, so that neither the
# machine's load nor its processor's changing speed moves the figures
# (bench/checks.sh times the same in processor time and end to end):
#
#   step   the protocol check's step as libensemble takes it
#          (bench/monstep, one behaviour at a time): instructions a step,
#          the difference of a run of K rounds and one of 2K, so that the
#          monitor's making and the program's start are left out
#   calls  bench/callcost's operations, one process, under 'ensemble run'
#          (default: protocol checked, deadlock watch on;
#          --no-check-protocol; --no-deadlock-watch) and bench/callcost
#          under a plain 'mpirun -np 1': instructions an operation,
#          callgrind's inclusive count of each op_ function of callcost.c
#          over the 8 K operations it makes; and what each check adds:
#          an ens_ call checked against not, a raw call through the PMPI
#          layer against plain mpirun (self8: an MPI_Send and an
#          MPI_Recv; ens_self8: an ens_send and an ens_recv).
#
# ENSEMBLE   the ensemble binary (default ./ensemble, in the build tree)
# K          operations a block of callcost (default 4000; monstep: 12 K)
# VALGRIND   valgrind (default: the one on PATH)
#
# No targets: exit status 0, or 2 when a run went wrong or valgrind is
# missing.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
ensemble=${ENSEMBLE:-./ensemble}
k=${K:-4000}
case $ensemble in
/*) ;;
*) ensemble=$(pwd)/$ensemble ;;
esac
build=$(dirname "$ensemble")
mpirun=${MPIRUN:-$(command -v mpirun)}
valgrind=${VALGRIND:-$(command -v valgrind || true)}
. "$here/lib.sh"
need_built instr.sh bench-instr "$ensemble" "$build/bench/monstep" \
    "$build/bench/callcost" "$build/bench/callcost-ens"
if [ -z "$valgrind" ] || ! command -v callgrind_annotate >/dev/null; then
	echo "instr.sh: valgrind and callgrind_annotate are needed (Debian: apt-get install valgrind)" >&2
	exit 2
fi
mpi_scratch

# ir FILE: the instructions a callgrind output file counted in all.
ir() {
	sed -n 's/^summary: *\([0-9]*\).*/\1/p; s/^totals: *\([0-9]*\).*/\1/p' "$1" |
	    head -n 1
}

# incl FILE FUNCTION: callgrind's inclusive count of FUNCTION in FILE.
incl() {
	callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null |
	    awk -v f=":$2 " '{ n = $1; gsub(",", "", n); line = $0 " " }
	    index(line, f) && n ~ /^[0-9]+$/ && v == "" { v = n }
	    END { print v }'
}

# per A B N: A / B to one decimal.
per() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'
}

# callgrind OUT CMD...: run CMD under callgrind, its counts in OUT.
callgrind() {
	local out=$1
	shift
	if ! timeout 1200 "$valgrind" --tool=callgrind --callgrind-out-file="$out" \
	    "$@" >"$work/out" 2>"$work/err"; then
		echo "instr.sh: failed under callgrind: $*" >&2
		cat "$work/out" "$work/err" >&2
		exit 2
	fi
}

echo "what the run's checks cost, in instructions (valgrind --tool=callgrind)"
echo
echo "protocol check, its step alone as libensemble takes it (instructions a step):"
mk=$((k * 12))
for n in 1 2 3; do
	callgrind "$work/m1" "$build/bench/monstep" "$mk" "$n"
	label=$(sed 's/ [0-9.]* ns$//' "$work/out")
	callgrind "$work/m2" "$build/bench/monstep" "$((2 * mk))" "$n"
	# 7 blocks of K rounds; a round is 2, 1 or 3 steps; the third
	# behaviour makes K / 4 rounds.
	case $n in
	1) steps=$((7 * mk * 2)) ;;
	2) steps=$((7 * mk)) ;;
	3) steps=$((7 * (mk / 4) * 3)) ;;
	esac
	printf '  %-28s %8s\n' "$label" \
	    "$(per "$(($(ir "$work/m2") - $(ir "$work/m1")))" "$steps")"
done

echo
echo "calls that do not block, one process: instructions an operation"
# The component's executable as the script names it, run under
# callgrind: a script of that name in $work, the only -L directory.
for side in d p w; do
	cat >"$work/callcost-ens" <<EOF
#!/bin/sh
exec "$valgrind" --tool=callgrind --callgrind-out-file="$work/c.$side" \
    "$build/bench/callcost-ens" "\$@"
EOF
	chmod +x "$work/callcost-ens"
	case $side in
	d) flags= ;;
	p) flags=--no-check-protocol ;;
	w) flags=--no-deadlock-watch ;;
	esac
	# shellcheck disable=SC2086
	if ! timeout 1200 "$ensemble" run "$here/callcost.pcg" -L "$work" \
	    -D k="$k" $flags >"$work/out" 2>"$work/err"; then
		echo "instr.sh: failed: ensemble run callcost.pcg $flags" >&2
		cat "$work/out" "$work/err" >&2
		exit 2
	fi
done
# Plain mpirun: its program under callgrind, mpirun not.
if ! timeout 1200 "$mpirun" -np 1 "$valgrind" --tool=callgrind \
    --callgrind-out-file="$work/c.m" "$build/bench/callcost" "$k" \
    >"$work/out" 2>"$work/err"; then
	echo "instr.sh: failed: mpirun -np 1 callgrind callcost" >&2
	cat "$work/out" "$work/err" >&2
	exit 2
fi
ops=$((8 * k))
printf '  %-16s %9s %9s %9s %9s  %s\n' figure default no-check no-watch plain \
    added
for f in ens_self8 ens_allreduce8 self8 allreduce8; do
	for side in d p w m; do
		if [ $side = m ] && [ "${f#ens_}" != "$f" ]; then
			eval "v_$side=-"
			continue
		fi
		v=$(incl "$work/c.$side" "op_$f")
		if [ -z "$v" ]; then
			echo "instr.sh: no count of op_$f in run $side" >&2
			exit 2
		fi
		eval "v_$side=$(per "$v" "$ops")"
	done
	if [ "${f#ens_}" != "$f" ]; then
		added="the check: $(per "$(awk -v a="$v_d" -v b="$v_p" \
		    'BEGIN { print a - b }')" 1)"
	else
		added="the PMPI layer: $(per "$(awk -v a="$v_d" -v b="$v_m" \
		    'BEGIN { print a - b }')" 1)"
	fi
	printf '  %-16s %9s %9s %9s %9s  %s\n' "$f" "$v_d" "$v_p" "$v_w" "$v_m" \
	    "$added"
done
