#!/usr/bin/env python3
"""relay.py -- Distribution of Maximum (Cotronis), in Python: a relay takes
the maximum of its Client ports, exchanges it on its Prop ports and sends
the global maximum back to its clients; the same component as relay.c
(components/relay.pcg), so a script may pick either per process."""
import numpy as np

import ensemble


def main():
    """Gather, exchange, scatter back."""
    ensemble.init()
    v = np.zeros(1, dtype=np.intc)
    big = np.zeros(1, dtype=np.intc)
    for i in range(1, ensemble.ports("Client") + 1):
        ensemble.recv("Client", i, v)
        if i == 1 or v[0] > big[0]:
            big[0] = v[0]
    for i in range(1, ensemble.ports("Prop") + 1):
        ensemble.send("Prop", i, big)
    for i in range(1, ensemble.ports("Prop") + 1):
        ensemble.recv("Prop", i, v)
        if v[0] > big[0]:
            big[0] = v[0]
    for i in range(1, ensemble.ports("Client") + 1):
        ensemble.send("Client", i, big)
    ensemble.finalize()


main()
