#!/usr/bin/env python3
"""own.py -- a function of a module of the program's own (more/ownmod.py):
not followed, said."""
import ensemble
import more.ownmod


def main():
    """The component."""
    ensemble.init()
    more.ownmod.exchange(3)
    ensemble.finalize()


main()
