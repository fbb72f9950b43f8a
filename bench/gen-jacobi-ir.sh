#!/bin/sh
# gen-jacobi-ir.sh -- the Jacobi model of Krabbe's thesis as CPN IR
# (ensemble(1), IR MODELS), for any number of processes.
#   bench/gen-jacobi-ir.sh N [forever|once] [bsend|ssend|send] > jacobi.ir
# Each rank below N-1 sends up with tag 0, each rank above 0 receives from
# below, sends down with tag 1, each rank below N-1 receives from above,
# then all call MPI_Allreduce; then each starts over (forever, the
# default) or calls MPI_Finalize (once).
set -eu
n=${1:?usage: gen-jacobi-ir.sh N [forever|once] [bsend|ssend|send]}
loop=${2:-forever}
mode=${3:-bsend}
case $n in ''|*[!0-9]*) echo "gen-jacobi-ir.sh: N must be a number" >&2; exit 2;; esac
[ "$n" -ge 1 ] || { echo "gen-jacobi-ir.sh: N must be at least 1" >&2; exit 2; }
case $loop in forever|once) ;; *) echo "gen-jacobi-ir.sh: forever or once, not '$loop'" >&2; exit 2;; esac
case $mode in
bsend) send=MPI_Bsend;; ssend) send=MPI_Ssend;; send) send=MPI_Send;;
*) echo "gen-jacobi-ir.sh: bsend, ssend or send, not '$mode'" >&2; exit 2;;
esac
awk -v n="$n" -v loop="$loop" -v send="$send" '
function id(k) { return sprintf("0x%04x", k) }
BEGIN {
	print "# Jacobi, " n " processes, " send ", " loop " (bench/gen-jacobi-ir.sh)"
	print "0x0000 MPI_Init()"
	k = 1
	# Ids: each rank its operations in turn, MPI_Finalize last.
	for (r = 0; r < n; r++) {
		c = 0
		if (r < n - 1) c++
		if (r > 0) c += 2
		if (r < n - 1) c++
		first[r] = k; cnt[r] = c + 1; k += c + 1
	}
	fin = k
	for (r = 0; r < n; r++) {
		k = first[r]; last = first[r] + cnt[r] - 1
		if (r < n - 1) { printf "%s %s(process=%d, to=%d, type=\"MPI_DOUBLE\", tag=0, next=%s)\n", id(k), send, r, r + 1, id(k + 1); k++ }
		if (r > 0) {
			printf "%s MPI_Recv(process=%d, from=%d, type=\"MPI_DOUBLE\", tag=0, next=%s)\n", id(k), r, r - 1, id(k + 1); k++
			printf "%s %s(process=%d, to=%d, type=\"MPI_DOUBLE\", tag=1, next=%s)\n", id(k), send, r, r - 1, id(k + 1); k++
		}
		if (r < n - 1) { printf "%s MPI_Recv(process=%d, from=%d, type=\"MPI_DOUBLE\", tag=1, next=%s)\n", id(k), r, r + 1, id(k + 1); k++ }
		printf "%s MPI_Allreduce(process=%d, type=\"MPI_DOUBLE\", op=\"MPI_MAX\", next=%s)\n", id(k), r, loop == "once" ? id(fin) : id(first[r])
	}
	if (loop == "once")
		print id(fin) " MPI_Finalize()"
}'
