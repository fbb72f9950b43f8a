#!/usr/bin/env bash
# soak.sh -- many runs that fail, time out, deadlock, are interrupted or
# lose one of their processes, or their whole process group to a hangup
# or SIGKILL, whose standard output is a full disk, whose --output-dir
# holds a link, or whose --stdin all listener another user hammers (as
# uid 65534: when run as root), in random order, on a machine kept busy;
# each run's exit status must be one EXIT STATUS in ensemble(1) gives it;
# then a look for anything of any run left behind: a process, a file or
# FIFO in the runs' TMPDIR, Open MPI's shared-memory segments or session
# directory, or a directory of a run in /dev/shm.  As root it runs in a mount namespace
# of its own, with /dev/shm and /tmp its own (empty tmpfs), so that what
# it finds there is its runs' alone however busy the machine (elsewhere
# it counts what appears in them meanwhile, which may be others').  Each
# thing left is named with the run after which it appeared.  From the
# build directory:
#
#	make soak [SOAK_RUNS=500] [SOAK_SEED=1] [SOAK_BUSY=4]
#
# SOAK_BUSY processes spin on the CPU meanwhile (as 'stress -c 4' would).
# Prints a line per kind of run with the exit statuses seen, the
# leftovers and wrong statuses if any, and ends with "soak: N runs,
# nothing left" (exit 0) or what was wrong (exit 1).
set -u
# A mount namespace of our own, /dev/shm and /tmp fresh in it.
if [ -z "${ENSEMBLE_SOAK_NS:-}" ] && [ "$(id -u)" = 0 ] &&
    command -v unshare >/dev/null &&
    unshare --mount --propagation private true 2>/dev/null; then
	exec unshare --mount --propagation private env ENSEMBLE_SOAK_NS=1 \
	    bash "$0" "$@"
fi
private=0
if [ -n "${ENSEMBLE_SOAK_NS:-}" ] &&
    mount -t tmpfs -o mode=1777 soak-shm /dev/shm &&
    mount -t tmpfs -o mode=1777 soak-tmp /tmp; then
	private=1
	unset TMPDIR
fi
: "${ENSEMBLE:?set ENSEMBLE to the ensemble binary}"
: "${top_srcdir:?set top_srcdir}"
: "${top_builddir:?set top_builddir}"
runs=${SOAK_RUNS:-500}
RANDOM=${SOAK_SEED:-1}
busy=${SOAK_BUSY:-4}
bin=$top_builddir/tests/components
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
id=ensemble-soak-$$
work=$(mktemp -d "${TMPDIR:-/tmp}/ensemble-soak.XXXXXX") || exit 2
export TMPDIR=$work/tmp
mkdir "$TMPDIR"
ls -d /dev/shm/* 2>/dev/null | sort >"$work/shm-before"
# seen: what is in the places a run may leave things (sorted), for
# naming the run after which each appeared (in $work/made: "PATH RUN").
seen() {
	{ find "$TMPDIR" -mindepth 1 -maxdepth 1
	  find /tmp -mindepth 1 -maxdepth 1 ! -path "$work" \( -type p -o \
	      -type d -o -type f \) -newer "$work/shm-before"
	  ls -d /dev/shm/* 2>/dev/null; } 2>/dev/null | sort
}
: >"$work/made"
burners=()
cleanup() {
	[ ${#burners[@]} -gt 0 ] && kill "${burners[@]}" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
for ((k = 0; k < busy; k++)); do
	sh -c 'while :; do :; done' &
	burners+=($!)
done

# The processes of the soak's runs, "pid comm" each.
ours() {
	grep -lsaF "ENSEMBLE_TEST_ID=$id" /proc/[0-9]*/environ 2>/dev/null |
		sed 's|/proc/\([0-9]*\)/environ|\1|' | while read -r p; do
			echo "$p $(cat "/proc/$p/comm" 2>/dev/null)"
		done
}
# comm NAME: the pids of our processes called NAME.
comm_pids() {
	ours | awk -v c="$1" '$2 == c { print $1 }'
}

cat >"$work/hang.pcg" <<'EOS'
application hang;
PCG
Components misbehave : Peer;
Processes  misbehave[1..4] : Peer[1];
Channels   misbehave[1].Peer[1] <-> misbehave[2].Peer[1];
           misbehave[3].Peer[1] <-> misbehave[4].Peer[1];
SEQUENTIAL COMPONENTS
    misbehave : args "hang";
EOS
sed 's/misbehave : args "hang";/misbehave[1] : args "crash";\n    misbehave[2..4] : args "hang";/' \
    "$work/hang.pcg" >"$work/crash.pcg"
sed 's/misbehave : args "hang";/misbehave[1] : args "exit" "3";\n    misbehave[2..4] : args "hang";/' \
    "$work/hang.pcg" >"$work/exit.pcg"
cat >"$work/rd.pcg" <<EOS
application rd;
PCG
Components readstdin : P;
Processes  readstdin[1..3] : P[0];
Channels
SEQUENTIAL COMPONENTS
    readstdin : args "$work/in.\${index}" "readstdin[\${index}]";
BEHAVIOUR
    readstdin { }
EOS
{ printf 'TOP SECRET\n'; head -c 1000000 /dev/urandom; } >"$work/input"
mkdir "$work/od" "$work/prot"
printf 'precious\n' >"$work/prot/precious"
ln -s ../prot/precious "$work/od/node.1.err"
# Another user against --stdin all: uid 65534 hammering the run's port
# (tests/intruder.py); mpirun waits for it (ENSEMBLE_MPIRUN).
py=/usr/bin/python3
users=0
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && command -v ss >/dev/null &&
    [ -x "$py" ]; then
	users=1
	chmod 711 "$work"
	mkdir -m 1777 "$work/pub"
	cp "$top_srcdir/tests/intruder.py" "$work/pub/"
	printf '#!/bin/sh\nfor i in $(seq 300); do [ -e "%s" ] && break; sleep 0.1; done\nexec "%s" "$@"\n' \
	    "$work/pub/ready" "$(command -v mpirun)" >"$work/mpirun-wait"
	chmod +x "$work/mpirun-wait"
fi

kinds="ok crash exit timeout int term kill-run kill-mpirun kill-exec kill-component kill-tidy trace
hup-group kill-group dev-full outdir-link deadlock"
[ $users = 1 ] && kinds="$kinds stdin-hammer"
# The exit statuses each kind may end with (ensemble(1), EXIT STATUS; a
# signal's is 128 + its number): a strike at a process that is not there
# yet leaves the run to the SIGINT below.
declare -A count statuses want=(
	[ok]="0" [crash]="1" [exit]="1" [timeout]="3" [int]="130" [term]="143"
	[kill-run]="137" [kill-mpirun]="1 130" [kill-exec]="1 130"
	[kill-component]="1 130" [kill-tidy]="130" [trace]="0"
	[hup-group]="129" [kill-group]="137" [dev-full]="2" [outdir-link]="2"
	[deadlock]="4" [stdin-hammer]="0")
for k in $kinds; do count[$k]=0; statuses[$k]=""; done
left=0 wrong=0
for ((i = 1; i <= runs; i++)); do
	set -- $kinds
	shift $((RANDOM % $#))
	kind=$1
	count[$kind]=$((count[$kind] + 1))
	# (Its processes wait for each other: without the deadlock watch,
	# till they are struck; with it, the kind "deadlock".)
	args=(run "$work/hang.pcg" -L "$bin" --no-verify --no-deadlock-watch)
	case $kind in
	ok)	args=(run "$top_srcdir/scripts/ring.pcg") ;;
	crash)	args=(run "$work/crash.pcg" -L "$bin" --no-verify --no-deadlock-watch) ;;
	exit)	args=(run "$work/exit.pcg" -L "$bin" --no-verify --no-deadlock-watch) ;;
	timeout) args+=(--timeout 2) ;;
	deadlock) args=(run "$work/hang.pcg" -L "$bin" --no-verify) ;;
	trace)	args=(run "$top_srcdir/scripts/ring.pcg" --trace "$work/t.mtf" --timeout 20) ;;
	dev-full) args=(run "$top_srcdir/scripts/ring.pcg") ;;
	outdir-link) args=(run "$top_srcdir/scripts/ring.pcg" --output-dir "$work/od") ;;
	stdin-hammer) args=(run "$work/rd.pcg" -L "$bin" --stdin all --timeout 30)
		rm -f "$work"/in.* "$work/pub/ready" "$work/pub/stop" ;;
	esac
	seen >"$work/seen-before"
	out=$work/out in=/dev/null mpirun=
	[ $kind = dev-full ] && out=/dev/full
	[ $kind = stdin-hammer ] && in=$work/input mpirun=$work/mpirun-wait
	# (timeout leads a process group of its own: the group's signals.)
	env ENSEMBLE_TEST_ID=$id ${mpirun:+ENSEMBLE_MPIRUN=$mpirun} \
	    timeout 60 "$ENSEMBLE" "${args[@]}" >"$out" 2>"$work/err" <"$in" &
	pid=$!
	if [ $kind = stdin-hammer ]; then
		port=
		for k in $(seq 200); do
			port=$(ss -Hltnp 2>/dev/null |
			    grep "\"ensemble\",pid=$(pgrep -P $pid -x ensemble)," |
			    awk '$4 ~ /^127/ { sub(/.*:/, "", $4); print $4 }' | head -n 1)
			[ -n "$port" ] && break
			sleep 0.05
		done
		setpriv --reuid=65534 --regid=65534 --clear-groups "$py" \
		    "$work/pub/intruder.py" hammer 127.0.0.1 "${port:-1}" "$work/pub/stop" \
		    60 "$work/pub/hammer.out" "$work/pub/ready" &
		hammer=$!
	fi
	# A signal to the group waits for timeout to lead it: sent before,
	# it reaches no one, and the run hangs to timeout's end (124).
	case $kind in
	hup-group|kill-group)
		for k in $(seq 200); do
			[ "$(awk '{ print $5 }' "/proc/$pid/stat" 2>/dev/null)" = "$pid" ] && break
			sleep 0.01
		done ;;
	esac
	# Strike at a random moment of the start or of the run.
	sleep "0.$((RANDOM % 10))$((RANDOM % 10))"
	[ $((RANDOM % 2)) = 0 ] && sleep 1
	case $kind in
	int)	kill -INT $pid 2>/dev/null ;;
	term)	kill -TERM $pid 2>/dev/null ;;
	kill-run) comm_pids ensemble | xargs -r kill -9 ;;
	kill-mpirun) comm_pids mpirun | xargs -r kill -9 ;;
	kill-exec) comm_pids ensemble-exec | shuf -n 1 | xargs -r kill -9 ;;
	kill-component) comm_pids misbehave | shuf -n 1 | xargs -r kill -9 ;;
	kill-tidy) comm_pids ensemble-tidy | xargs -r kill -9 ;;
	hup-group) kill -HUP -- -$pid 2>/dev/null ;;
	kill-group) kill -KILL -- -$pid 2>/dev/null ;;
	esac
	case $kind in
	ok|crash|exit|timeout|trace|hup-group|kill-group|dev-full|outdir-link|deadlock|stdin-hammer) ;;
	*)	# What is not stopped otherwise, --timeout-less, is stopped here.
		sleep 3
		comm_pids ensemble | xargs -r kill -INT ;;
	esac
	wait $pid 2>/dev/null
	st=$?
	case " ${statuses[$kind]} " in *" $st "*) ;; *) statuses[$kind]+=" $st" ;; esac
	case " ${want[$kind]} " in
	*" $st "*) ;;
	*)	echo "soak: run $i ($kind): exit status $st, not ${want[$kind]}"
		sed 's/^/  /' "$work/err"
		wrong=$((wrong + 1)) ;;
	esac
	bad=
	case $kind in
	outdir-link)
		[ "$(cat "$work/prot/precious")" = precious ] || bad="the link's target written" ;;
	stdin-hammer)
		touch "$work/pub/stop"
		wait $hammer
		for k in 1 2 3; do
			cmp -s "$work/input" "$work/in.$k" || bad="readstdin[$k] did not read all"
		done ;;
	esac
	if [ -n "$bad" ]; then
		echo "soak: run $i ($kind): $bad"
		wrong=$((wrong + 1))
	fi
	# Whatever is left of this run has 15 s to go.
	for ((k = 0; k < 150; k++)); do
		[ -z "$(ours)" ] && break
		sleep 0.1
	done
	if [ -n "$(ours)" ]; then
		echo "soak: run $i ($kind): processes left:"
		ours | sed 's/^/  /'
		ours | cut -d' ' -f1 | xargs -r kill -9
		left=$((left + 1))
	fi
	seen | comm -13 "$work/seen-before" - | sed "s/\$/ after run $i ($kind)/" \
	    >>"$work/made"
done

for k in $kinds; do
	printf 'soak: %-15s %3d runs, exit%s\n' "$k" "${count[$k]}" "${statuses[$k]:- -}"
done
# What is left: in our TMPDIR; in /tmp and /dev/shm, all of it when they
# are ours alone, else what appeared since the soak began.
if [ $private = 1 ]; then
	found=$( { find "$TMPDIR" -mindepth 1; find /tmp -mindepth 1 -maxdepth 1 ! -path "$work";
		find /dev/shm -mindepth 1 -maxdepth 1; } | sort)
else
	echo "soak: /dev/shm and /tmp are shared (not root): what appeared there may be another's"
	found=$( { find "$TMPDIR" -mindepth 1; find /tmp -maxdepth 1 -type p -newer "$work/shm-before" 2>/dev/null;
		ls -d /dev/shm/* 2>/dev/null | sort | comm -13 "$work/shm-before" -; } )
fi
if [ -n "$found" ] || [ "$left" -gt 0 ] || [ "$wrong" -gt 0 ]; then
	echo "soak: $runs runs, left behind:"
	printf '%s\n' "$found" | sed '/^$/d' | while read -r f; do
		w=$(awk -v f="$f" 'index($0, f " after run ") == 1 { print substr($0, length(f) + 2); exit }' "$work/made")
		echo "  $f${w:+ ($w)}"
	done
	[ "$left" -gt 0 ] && echo "  processes after $left runs (above)"
	[ "$wrong" -gt 0 ] && echo "  and $wrong runs went wrong (above)"
	exit 1
fi
echo "soak: $runs runs, nothing left$([ $private = 1 ] && echo " (/dev/shm and /tmp the soak's own)")"
