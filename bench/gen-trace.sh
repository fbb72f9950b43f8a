#!/bin/sh
# gen-trace.sh -- write a synthetic MTF trace (man/ensemble-trace.5) of
# EVENTS events (default 10,000,000) on stdout, for 'make bench-trace':
#
#   bench/gen-trace.sh [EVENTS [NPROCS]] >big.mtf
#
# NPROCS processes (default 64) in a ring pass messages round after round,
# as scripts/ring.pcg does: in each round every process sends 64 bytes
# (8 MPI_DOUBLEs) to the next and the next receives them, a send and a
# receive line per message, each 1 us after the last; an init and a fin
# per process frame them.  So 'ensemble trace stats' must count, per
# process, (EVENTS - 2 NPROCS) / (2 NPROCS) sends and as many receives
# (rounded down; the last round may be partial).
set -eu
events=${1:-10000000}
nprocs=${2:-64}
exec awk -v events="$events" -v nprocs="$nprocs" '
function t(us) { return sprintf("%d.%06d000", us / 1000000, us % 1000000) }
BEGIN {
	print "MTF 1"
	print "scenario bench/gen-trace.sh ring 2026-01-01T00:00:00Z"
	print "param N " nprocs
	print "trace 2026-01-01T00:00:00Z " nprocs
	print "processor 0 localhost"
	print "comm 0 world " nprocs
	print "comm 1 other 0"
	for (r = 0; r < nprocs; r++)
		print "process " r " node[" r + 1 "] node 0"
	for (r = 0; r < nprocs; r++) {
		print "port " r " Left 1 " (r + nprocs - 1) % nprocs
		print "port " r " Right 1 " (r + 1) % nprocs
	}
	print "events"
	us = 1
	for (r = 0; r < nprocs; r++) {
		print "init " r " " t(us) " " t(us) " 0 - - - - - - 0 0 - - port"
		us++
	}
	n = nprocs
	for (k = 1; n + 2 + nprocs <= events; k++)
		for (r = 0; r < nprocs && n + 2 + nprocs <= events; r++) {
			q = (r + 1) % nprocs
			print "send " r " " t(us) " " t(us + 1) " 0 std Right[1] " q " " r + 1 " MPI_DOUBLE 8 64 0 - " k " port"
			print "recv " q " " t(us + 1) " " t(us + 2) " 0 - Left[1] " r " " r + 1 " MPI_DOUBLE 8 0 64 - " k " port"
			us += 2
			n += 2
		}
	for (r = 0; r < nprocs; r++) {
		print "fin " r " " t(us) " " t(us) " 0 - - - - - - 0 0 - - port"
		n++
		us++
	}
	print "end " n
}'
