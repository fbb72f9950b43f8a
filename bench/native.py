#!/usr/bin/env python3
"""native.py -- bench/native.c in Python (mpi4py, NumPy buffers): the same
MPI program under a plain mpirun and under 'ensemble run'
(bench/native.sh).  One script, two ways: given --mpi first it is a plain
mpi4py program ('mpirun -np N python3 native.py --mpi ...': mpi4py's own
MPI_Init); otherwise it joins with ensemble.init() (bench/native.pcg with
-D prog=native.py).  As native.c: on MPI_COMM_WORLD, with comm.Send,
comm.Recv and comm.Allreduce, pingpong8 and pingpong1M (ranks 0 and 1,
half a round trip) and allreduce8 (every rank, one float64), each the
median of BLOCKS blocks of SMALL or LARGE operations after one to warm up,
a barrier before each; rank 0 prints one line per figure.

    native.py [--mpi] [SMALL [LARGE [SECONDS]]]    (default 20000 200 0)

With SECONDS above 0 it only bounces 8 bytes between ranks 0 and 1 for
that long, and rank 0 prints the round trips."""
import sys

if len(sys.argv) > 1 and sys.argv[1] == "--mpi":
    ensemble = None
    ARGS = sys.argv[2:]
else:
    import ensemble
    ensemble.init()
    ARGS = sys.argv[1:]
from mpi4py import MPI  # noqa: E402  (initialised by now either way)
import numpy as np  # noqa: E402

BLOCKS = 7
LARGE_BYTES = 1 << 20
CHUNK = 1000  # round trips between looks at the clock


def block(comm, op, buf, n):
    """Do n operations ('pingpong' of buf, or 'allreduce'); returns the
    seconds they took (ranks above 1 take no part in a ping-pong)."""
    rank = comm.Get_rank()
    x = np.ones(1, dtype=np.float64)
    y = np.zeros(1, dtype=np.float64)
    t0 = MPI.Wtime()
    if op == "allreduce":
        for _ in range(n):
            comm.Allreduce(x, y, MPI.SUM)
    elif rank == 0:
        for _ in range(n):
            comm.Send(buf, 1, 0)
            comm.Recv(buf, 1, 0)
    elif rank == 1:
        for _ in range(n):
            comm.Recv(buf, 0, 0)
            comm.Send(buf, 0, 0)
    return MPI.Wtime() - t0


def median(comm, op, buf, n):
    """The median of BLOCKS timed blocks of n operations, after one to warm
    up, in microseconds per operation (per half round trip)."""
    t = []
    for b in range(BLOCKS + 1):
        comm.Barrier()
        x = block(comm, op, buf, n)
        if b > 0:
            t.append(x)
    t.sort()
    return t[BLOCKS // 2] / n / (2 if op == "pingpong" else 1) * 1e6


def spin(comm, buf, seconds):
    """Bounce 8 bytes between ranks 0 and 1 for about 'seconds' seconds:
    rank 0 looks at the clock every CHUNK round trips and, once the time
    is up, marks its next message as the last.  Returns the round trips."""
    rank = comm.Get_rank()
    end = MPI.Wtime() + seconds
    n = 0
    buf[0] = 0
    if rank > 1:
        return 0
    while True:
        if rank == 0:
            if n % CHUNK == 0 and MPI.Wtime() >= end:
                buf[0] = 1
            comm.Send(buf, 1, 0)
            comm.Recv(buf, 1, 0)
        else:
            comm.Recv(buf, 0, 0)
            comm.Send(buf, 0, 0)
        n += 1
        if buf[0] != 0:
            return n


def main():
    """Read the counts, time, and print the figures from rank 0."""
    comm = MPI.COMM_WORLD
    try:
        if len(ARGS) > 3:
            raise ValueError
        small = int(ARGS[0]) if len(ARGS) > 0 else 20000
        large = int(ARGS[1]) if len(ARGS) > 1 else 200
        seconds = float(ARGS[2]) if len(ARGS) > 2 else 0.0
        if small < 1 or large < 1 or seconds < 0:
            raise ValueError
    except ValueError:
        print("usage: native.py [--mpi] [SMALL [LARGE [SECONDS]]]",
              file=sys.stderr)
        sys.exit(2)
    if comm.Get_size() < 2:
        print("native.py: needs at least 2 processes", file=sys.stderr)
        sys.exit(2)
    rank = comm.Get_rank()
    big = np.zeros(LARGE_BYTES, dtype=np.uint8)
    small_buf = big[:8]

    if seconds > 0:
        n = spin(comm, small_buf, seconds)
        if rank == 0:
            print("pingpong8 round trips in %g s: %d" % (seconds, n))
    else:
        p8 = median(comm, "pingpong", small_buf, small)
        a8 = median(comm, "allreduce", small_buf, small)
        p1 = median(comm, "pingpong", big, large)
        if rank == 0:
            print("pingpong8 %.3f us" % p8)
            print("allreduce8 %.3f us" % a8)
            print("pingpong1M %.3f us" % p1)
    sys.stdout.flush()
    comm.Barrier()
    if ensemble is not None:
        ensemble.finalize()


main()
