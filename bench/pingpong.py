#!/usr/bin/env python3
"""pingpong.py -- the cost of a port from Python: ping-pong latency between
two processes through ensemble.send/ensemble.recv against mpi4py's raw
comm.Send/comm.Recv on the same port (ensemble.port), NumPy buffers, in the
same run (bench/run.sh, bench/pingpong.pcg with exec "pingpong.py").  After
WARMUP round trips, the binding and mpi4py alternate in BLOCKS blocks of
reps / BLOCKS round trips; process 1 prints the median block of each as
half a round trip in microseconds."""
import sys
import time

import numpy as np

import ensemble

WARMUP = 1000
BLOCKS = 5


def trips(raw, first, buf, n):
    """Make n round trips on Peer[1], through ensemble or raw mpi4py; the
    first process sends first.  Returns the seconds they took."""
    p = ensemble.port("Peer", 1)
    comm, rank, tag, rtag = p.comm, p.rank, p.tag, p.recv_tag
    send, recv = ensemble.send, ensemble.recv
    t0 = time.perf_counter()
    if raw:
        if first:
            for _ in range(n):
                comm.Send(buf, rank, tag)
                comm.Recv(buf, rank, rtag)
        else:
            for _ in range(n):
                comm.Recv(buf, rank, rtag)
                comm.Send(buf, rank, tag)
    else:
        if first:
            for _ in range(n):
                send("Peer", 1, buf)
                recv("Peer", 1, buf)
        else:
            for _ in range(n):
                recv("Peer", 1, buf)
                send("Peer", 1, buf)
    return time.perf_counter() - t0


def main():
    """Time both ways and print the medians from process 1."""
    ensemble.init()
    if len(sys.argv) != 3 or int(sys.argv[1]) < 0 or int(sys.argv[2]) < BLOCKS:
        print("usage: pingpong.py bytes reps (reps >= %d)" % BLOCKS,
              file=sys.stderr)
        sys.exit(2)
    nbytes, reps = int(sys.argv[1]), int(sys.argv[2])
    buf = np.zeros(nbytes, dtype=np.uint8)
    first = ensemble.self().index == 1
    n = reps // BLOCKS

    trips(False, first, buf, WARMUP)
    ens, mpi = [], []
    for _ in range(BLOCKS):
        ens.append(trips(False, first, buf, n))
        mpi.append(trips(True, first, buf, n))
    if first:
        ens.sort()
        mpi.sort()
        print("pingpong ens %d bytes: %.3f us"
              % (nbytes, ens[BLOCKS // 2] / n / 2 * 1e6))
        print("pingpong mpi %d bytes: %.3f us"
              % (nbytes, mpi[BLOCKS // 2] / n / 2 * 1e6), flush=True)
    ensemble.finalize()


main()
