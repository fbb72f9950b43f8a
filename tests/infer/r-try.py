#!/usr/bin/env python3
"""r-try.py -- a try with except around communication: refused."""
import ensemble

ensemble.init()
b = bytearray(4)
try:
    ensemble.recv("In", 1, b)
    ensemble.send("Out", 1, b)
except ValueError:
    pass
ensemble.finalize()
