#!/usr/bin/env python3
"""jacobi.py -- one slab of a 1-D heat equation on a rod whose ends are held
at 1 (left) and 0 (right), solved by Jacobi iteration, in Python with
NumPy: the same component as jacobi.c (components/jacobi.pcg), with the
same arithmetic in the same order (the sums accumulated left to right, as
C's loop does), so its output equals C's."""
import math
import sys

import numpy as np

import ensemble


def main():
    """Iterate on this process's block and print the result from process 1."""
    ensemble.init()
    if len(sys.argv) != 3:
        print("usage: jacobi cells iters", file=sys.stderr)
        sys.exit(2)
    cells = int(sys.argv[1])
    iters = int(sys.argv[2])
    me = ensemble.self()
    nprocs, i = me.nprocs, me.index
    if cells < nprocs:
        print("jacobi: %d cells cannot be split over %d processes (at least "
              "one cell each)" % (cells, nprocs), file=sys.stderr)
        sys.exit(2)

    # Block i of nprocs; the first cells % nprocs blocks get one more.
    n = cells // nprocs + (1 if i - 1 < cells % nprocs else 0)
    left = ensemble.ports("Left")
    right = ensemble.ports("Right")

    # u[1..n] are the cells, u[0] and u[n + 1] the halos: the neighbour's
    # cell, or the boundary value at the rod's end, which both arrays hold
    # so that swapping them keeps it.
    u = np.zeros(n + 2)
    unew = np.zeros(n + 2)
    if not left:
        u[0] = unew[0] = 1.0
    s = np.zeros(2)
    g = np.zeros(2)
    for _ in range(iters):
        reqs = []
        if left:
            reqs.append(ensemble.isend("Left", 1, u[1:2]))
        if right:
            reqs.append(ensemble.isend("Right", 1, u[n:n + 1]))
        if left:
            reqs.append(ensemble.irecv("Left", 1, u[0:1]))
        if right:
            reqs.append(ensemble.irecv("Right", 1, u[n + 1:n + 2]))
        ensemble.waitall(reqs)

        unew[1:n + 1] = (u[0:n] + u[2:n + 2]) / 2
        d = unew[1:n + 1] - u[1:n + 1]
        s[0] = np.cumsum(d * d)[-1]
        s[1] = np.cumsum(unew[1:n + 1])[-1]
        ensemble.allreduce(s, g, "sum")
        u, unew = unew, u

    if i == 1:
        print("jacobi: %d iterations, %d cells, residual %.15e, sum %.15e"
              % (iters, cells, math.sqrt(g[0]), g[1]), flush=True)
    ensemble.finalize()


main()
