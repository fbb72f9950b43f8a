#!/usr/bin/env python3
"""terminal.py -- Distribution of Maximum (Cotronis), in Python: a terminal
holds a value, its first argument, sends it to its relay on Server[1] and
prints the global maximum the relay sends back; the same component as
terminal.c (components/terminal.pcg)."""
import sys

import numpy as np

import ensemble


def main():
    """Send our value, receive and print the global maximum."""
    ensemble.init()
    if len(sys.argv) != 2:
        print("usage: terminal value", file=sys.stderr)
        sys.exit(2)
    v = np.array([int(sys.argv[1])], dtype=np.intc)
    gm = np.zeros(1, dtype=np.intc)
    ensemble.send("Server", 1, v)
    ensemble.recv("Server", 1, gm)
    print("%s: received %d" % (ensemble.self().name, gm[0]), flush=True)
    ensemble.finalize()


main()
