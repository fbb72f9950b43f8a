#!/usr/bin/env python3
"""component.py -- the Python binding: counts from the arguments, an if on
the index, requests in a list waited for together, a root made by an
f-string, a group as a (name, index) tuple, a loop over the ports."""
import sys

import numpy as np

import ensemble


def main():
    """The component."""
    ensemble.init()
    steps = int(sys.argv[1])
    me = ensemble.self()
    buf = np.zeros(1)
    for _ in range(steps):
        reqs = []
        for k in range(1, ensemble.ports("Peer") + 1):
            reqs.append(ensemble.irecv("Peer", k, buf))
        ensemble.send("Out", 1, buf)
        ensemble.waitall(reqs)
    if me.index == 1:
        ensemble.gather(buf, buf, f"head[{me.index}]", ("rows", me.index))
    else:
        ensemble.barrier("all")
    ensemble.finalize()


main()
