#!/usr/bin/env python3
"""gridhead.py -- the head of a row of an H x W grid (scripts/grid.pcg),
in Python: a member of its row's group, rows[r], with the row's cells
(components/gridcell.c).  It adds nothing to the row's sums but prints
each step's, then gathers the row's numbers and prints them."""
import sys

import numpy as np

import ensemble


def main():
    """Take part in the row's sums and gather, printing what they give."""
    ensemble.init()
    if len(sys.argv) != 3:
        print("usage: gridhead W steps", file=sys.stderr)
        sys.exit(2)
    w, steps = int(sys.argv[1]), int(sys.argv[2])
    me = ensemble.self()
    row = ("rows", me.index)
    zero = np.zeros(1, dtype=np.int_)
    total = np.zeros(1, dtype=np.int_)
    for step in range(1, steps + 1):
        ensemble.allreduce(zero, total, "sum", row)
        print("%s: step %d: row sum %d" % (me.name, step, total[0]), flush=True)
    # The head is the group's rank 0: its own number first, then the cells'.
    got = np.zeros(w + 1, dtype=np.int_)
    ensemble.gather(zero, got, me.name, row)
    print("%s: row %d: %s" % (me.name, me.index,
                              " ".join(str(v) for v in got[1:])), flush=True)
    ensemble.finalize()


main()
