"""ensemble -- the ports of an ensemble component, in Python.

A component is an MPI program that knows only its ports: typed, and
numbered from 1 within each type, as the script names them (Prop[1]).
'ensemble run' starts it and hands it its ports; this package talks
through them.  Each function calls the C function of libensemble of the
same name (ensemble.init() is ens_init, ensemble.send() ens_send, ...; see
libensemble(3)), so the protocol, 'ensemble run --check-protocol' and
'--timeout' are the same as for a component in C.

The relay of the Distribution of Maximum:

    import numpy as np
    import ensemble

    ensemble.init()
    v = np.zeros(1, dtype=np.intc)
    big = np.zeros(1, dtype=np.intc)
    for i in range(1, ensemble.ports("Client") + 1):
        ensemble.recv("Client", i, v)
        big[0] = v[0] if i == 1 else max(big[0], v[0])
    for i in range(1, ensemble.ports("Prop") + 1):
        ensemble.send("Prop", i, big)
    for i in range(1, ensemble.ports("Prop") + 1):
        ensemble.recv("Prop", i, v)
        big[0] = max(big[0], v[0])
    for i in range(1, ensemble.ports("Client") + 1):
        ensemble.send("Client", i, big)
    ensemble.finalize()

Buffers are anything with the buffer protocol, contiguous: NumPy arrays,
bytes (to send), bytearray, array.array, memoryview.  The buffer's format
gives the MPI datatype (NumPy int32 or 'i': MPI_INT, float64 or 'd':
MPI_DOUBLE, bytearray: MPI_UNSIGNED_CHAR, ...) and its length the count;
a pair (buf, datatype) with an mpi4py Datatype says the type instead.  A
receive takes at most the buffer's length; a Status says how much came.

Roots of collectives are process names as in the script ('master',
'relay[1]'); reduction operations are names ('sum', 'max', ...) or mpi4py
Ops.  port(), comm_component() and comm_group() give mpi4py communicators
for MPI called directly.

Every collective takes a group of the script as its last argument, as the
script writes 'allreduce over rows[2];': a name ('workers', or a
component's name) or a (name, index) tuple,

    ensemble.allreduce(mine, total, "sum", ("rows", 2))

is ens_allreduce_over; ranks, sizes, counts and roots are then the
group's (its members in the order the script lists them).

Errors: misuse the C library sees (an unknown port type, an index out of
range, a root that names no process) and MPI errors stop the application
with a message naming the process and the call, which 'ensemble run'
reports; they raise nothing.  What only Python sees (an object that is
not a buffer, a read-only buffer to receive into, a format MPI has no
type for, a call before init()) raises TypeError, ValueError or
RuntimeError.  A component that ends by an uncaught exception, or by
sys.exit() with a non-zero status, is not finalized, and the run names it
as failed with the last lines of its stderr.

Started by 'ensemble run', a component finds this package on PYTHONPATH
(the build tree's bindings/python, or the directory it is installed in).
The interpreter that runs it must have mpi4py and NumPy (Debian:
python3-mpi4py, python3-numpy); the components installed with ensemble
name that interpreter in their #! line.
"""

import atexit as _atexit
import sys as _sys

try:
    import mpi4py as _mpi4py
except ImportError as _e:
    raise ImportError(
        "ensemble: this Python (%s) has no mpi4py; a component's interpreter "
        "needs mpi4py and NumPy (Debian: python3-mpi4py python3-numpy)"
        % _sys.executable) from _e

# ens_init initialises MPI and ens_finalize finalises it: mpi4py, imported
# here first, does neither.  When the program imported mpi4py.MPI before
# this package, mpi4py has initialised MPI and will finalise it itself.
if "mpi4py.MPI" not in _sys.modules:
    _mpi4py.rc.initialize = False
    _mpi4py.rc.finalize = False
from mpi4py import MPI as _MPI  # noqa: E402

try:
    from ._ensemble import (  # noqa: E402
        Port, Request, Self, Status, _init, _launch, _running, allgather,
        allgatherv,
        allreduce, alltoall, alltoallv, barrier, bcast, bsend, comm_component,
        comm_group, finalize, gather, gatherv, ibsend, irecv, irecv_any, isend, issend,
        param, port, ports, recv, recv_any, reduce, reduce_scatter, scatter,
        scatterv, self, send, ssend, waitall, wait, test, waitany, waitsome,
        sendrecv, sendrecv_replace, probe, probe_any, iprobe, iprobe_any)
except ImportError as _e:
    raise ImportError(
        "ensemble: cannot load its extension into this Python (%s %d.%d): %s"
        % (_sys.executable, _sys.version_info[0], _sys.version_info[1], _e)
    ) from _e

__all__ = [
    "init", "finalize", "ports", "self", "param", "port", "comm_component",
    "comm_group",
    "send", "ssend", "bsend", "recv", "recv_any",
    "isend", "issend", "ibsend", "irecv", "irecv_any", "waitall",
    "wait", "test", "waitany", "waitsome", "sendrecv", "sendrecv_replace",
    "probe", "probe_any", "iprobe", "iprobe_any",
    "barrier", "bcast", "reduce", "allreduce", "gather", "allgather",
    "scatter", "alltoall", "allgatherv", "gatherv", "scatterv", "alltoallv",
    "reduce_scatter",
    "Status", "Request", "Self", "Port", "launch",
]

_failed = False


def _excepthook(kind, value, tb, _hook=_sys.excepthook):
    """Note an uncaught exception, then report it as before."""
    global _failed
    _failed = True
    _hook(kind, value, tb)


def _finalize_at_exit():
    """finalize() at exit, unless the program ended by an exception."""
    if _running() and not _failed:
        finalize()


def init():
    """Join the application: MPI_Init (unless mpi4py initialised MPI
    already), then receive this process's ports, which 'ensemble run' made
    (ens_init).  Call it before anything else of this package.

    The process's 'args' from the script are sys.argv[1:].  A program not
    started by 'ensemble run' is told so and exits with status 2.

    At exit, a process that has not called finalize() is finalized when it
    exits with status 0; one that ends by an uncaught exception or a
    non-zero sys.exit() is not (finalize waits for every other process),
    and the run reports it.  When the program imported mpi4py.MPI before
    this package, mpi4py finalizes MPI at exit, so the package finalizes
    just before it, unless an exception ended the program (a non-zero
    sys.exit() is finalized then: import ensemble first to avoid it).
    """
    if _MPI.Is_initialized() and _mpi4py.rc.finalize is not False:
        _init(_sys.argv, False)
        _sys.excepthook = _excepthook
        _atexit.register(_finalize_at_exit)
    else:
        _init(_sys.argv, True)


def launch(script, *options):
    """For a running MPI program (a workflow driver, a notebook), not a
    component: verify and run the application of script inside this
    program's own MPI job, as 'ensemble run --launcher spawn script
    options...' would, its processes started with MPI_Comm_spawn_multiple,
    and wait for it (ens_launch, libensemble(3)).

    options are the arguments of 'ensemble run' after the script, as
    strings ("-np", "4", "--timeout", "60").  Returns (status, report):
    the exit status of 'ensemble run' (0 every process succeeded, 1 the
    run failed, 2 refused, 3 --timeout, 4 a deadlock) and what it wrote on
    its standard error (bytes: the summary or the failure's report, and
    the processes' standard error); their standard output is this
    program's.  Raises RuntimeError, with why, when it cannot run it: MPI
    not initialized (import mpi4py.MPI before ensemble, which then leaves
    MPI to mpi4py), finalized, no MPI_Comm_spawn here (srun without
    mpirun, an MPICH build), a caller's mpirun that would end its job
    when a process fails (start it with '--mca
    orte_abort_on_non_zero_status 0 --mca orte_allowed_exit_without_sync
    1'), no ensemble program, a failed spawn.
    """
    return _launch(script, [str(o) for o in options])
