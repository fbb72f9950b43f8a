#!/usr/bin/env python3
"""noop.py -- a Python component that does nothing: bench/run.sh times
launching N of them with 'ensemble run' against 'mpirun -np N' of this
same script.  Under mpirun it is given "--mpi" and only starts and stops
MPI through mpi4py; under 'ensemble run'
it starts as every component does, with ensemble.init()."""
import sys

if len(sys.argv) > 1 and sys.argv[1] == "--mpi":
    from mpi4py import MPI  # noqa: F401  (MPI_Init, and MPI_Finalize at exit)
else:
    import ensemble
    ensemble.init()
    ensemble.finalize()
