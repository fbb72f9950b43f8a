#!/usr/bin/env python3
"""wait.py -- a request named by ensemble.wait and by its own .wait() (a
waitall of one), a test deciding its blocks, a waitsome's blocks run over,
a choice the data make."""
import random

import ensemble

ensemble.init()
b = bytearray(4)
r = ensemble.irecv("In", 1, b)
ensemble.wait(r)
s = ensemble.isend("Out", 1, b)
s.wait()
t = ensemble.irecv("In", 1, b)
if ensemble.test(t):
    ensemble.send("Out", 1, b)
else:
    ensemble.wait(t)
u = ensemble.irecv("In", 1, b)
v = ensemble.irecv("In", 2, b)
for k in ensemble.waitsome([u, v]):
    if k == 0:
        ensemble.send("Out", 1, b)
    else:
        ensemble.send("Out", 2, b)
ensemble.waitall([u, v])
if random.random() < 0.5:
    ensemble.recv_any(None, b)
ensemble.finalize()
