#!/usr/bin/env python3
"""pyapi.py -- a test component in Python (tests/bind-python.test), told by
its first argument what to do.  'hub' and 'w' exercise the package beyond
the Distribution of Maximum: self(), param(), collectives rooted by name,
the v-collectives with counts and displacements, isend/irecv with
waitall's statuses, recv_any with a Status, irecv_any,
bsend, comm_component() and port() with mpi4py; each prints what it got.
'group' (x[1..3], all in the group back = x[3], x[2], x[1]) makes every
collective over it, as tests/components/ports-cxx.cpp's group() does, and
prints the same lines (and a barrier with group None, over the
application, after the first).
The others misbehave for the failure tests: 'send', 'recv', 'ok', 'hang'
(waits for a message that never comes), 'protocol' (sends where its
behaviour receives), 'wrong-type', 'raise', 'exit3', and 'mpi4py-first'
(imports mpi4py.MPI before ensemble, then does as 'ok').  'p2p' makes
the calls of issue 26 with its Peer[1] (p2p() says its behaviour)."""
import sys

if sys.argv[1:2] == ["mpi4py-first"]:
    from mpi4py import MPI  # noqa: F401

import numpy as np  # noqa: E402

import ensemble  # noqa: E402


def say(*words):
    """Print one line, prefixed by this process's name."""
    print("%s: %s" % (ensemble.self().name, " ".join(str(w) for w in words)),
          flush=True)


def collectives(me):
    """bcast from hub, reduce to w[2], allgather, scatter from w[3], alltoall."""
    b = np.array([7, 8], dtype=np.int32) if me.name == "hub" else \
        np.zeros(2, dtype=np.int32)
    ensemble.bcast(b, "hub")
    r = np.zeros(1) if me.name == "w[2]" else None
    ensemble.reduce(np.array([me.rank + 1.0]), r, "sum", "w[2]")
    ag = np.zeros(me.nprocs, dtype=np.int64)
    ensemble.allgather(np.array([me.index * 10], dtype=np.int64), ag)
    sc = np.arange(me.nprocs, dtype=np.intc) * 100 if me.name == "w[3]" else None
    got = np.zeros(1, dtype=np.intc)
    ensemble.scatter(sc, got, "w[3]")
    a2 = np.zeros(me.nprocs, dtype=np.int16)
    ensemble.alltoall(np.arange(me.nprocs, dtype=np.int16) + 10 * me.rank, a2)
    say("bcast", *b, "; reduce", *(r if r is not None else ["-"]),
        "; allgather", *ag, "; scatter", got[0], "; alltoall", *a2)


def vforms(me):
    """allgatherv, gatherv to w[1], scatterv from hub, alltoallv,
    reduce_scatter: rank r's block is r + 1 elements; displacements in
    reverse rank order show one taken from the wrong place."""
    n, r = me.nprocs, me.rank
    counts = [k + 1 for k in range(n)]
    total = sum(counts)
    rev = [total - sum(counts[:k + 1]) for k in range(n)]
    mine = np.full(r + 1, r, dtype=np.int32)
    ag = np.zeros(total, dtype=np.int32)
    ensemble.allgatherv(mine, ag, counts, None)
    gv = np.zeros(total, dtype=np.int32) if me.name == "w[1]" else None
    ensemble.gatherv(mine, gv, counts if gv is not None else None,
                     rev if gv is not None else None, "w[1]")
    sv = np.arange(total, dtype=np.float64) if me.name == "hub" else None
    got = np.zeros(r + 1)
    ensemble.scatterv(sv, got, counts, None, "hub")
    send = np.array([100 * r + j for j in reversed(range(n))], dtype=np.int64)
    a2 = np.zeros(n, dtype=np.int64)
    ensemble.alltoallv(send, a2, [1] * n, list(reversed(range(n))),
                       [1] * n, None)
    rs = np.zeros(r + 1, dtype=np.int32)
    ensemble.reduce_scatter(np.arange(total, dtype=np.int32) + r, rs, counts,
                            "sum")
    say("allgatherv", *ag, "; gatherv", *(gv if gv is not None else ["-"]),
        "; scatterv", *got, "; alltoallv", *a2, "; reduce_scatter", *rs)
    # Refused before any process calls MPI: a block past the buffer's
    # end, counts of another length.
    try:
        ensemble.allgatherv(mine, np.zeros(total - 1, dtype=np.int32),
                            counts, None)
    except ValueError as e:
        say("ValueError:", e)
    try:
        ensemble.reduce_scatter(np.zeros(total, dtype=np.int32), rs,
                                counts[1:], "sum")
    except ValueError as e:
        say("ValueError:", e)


def hub(me):
    """The hub's side."""
    n = ensemble.ports("W")
    outs = [np.array([i * 10], dtype=np.intc) for i in range(1, n + 1)]
    ins = [np.zeros(1, dtype=np.intc) for _ in range(n)]
    reqs = [ensemble.isend("W", i, outs[i - 1]) for i in range(1, n + 1)]
    reqs += [ensemble.irecv("W", i, ins[i - 1]) for i in range(1, n + 1)]
    sts = []
    ensemble.waitall(reqs, sts)
    say("waitall", " ".join("%s%s:%d" % (s.type, "[%d]" % s.port if s.port
                                         else "", s.count) for s in sts),
        "got", *(v[0] for v in ins), "done", all(r.done for r in reqs))
    buf = np.zeros(8, dtype=np.intc)
    st = ensemble.Status()
    for _ in range(n):
        k = ensemble.recv_any("W", buf, st)
        say("recv_any W[%d] status %s[%d] count %d:" % (k, st.type, st.port,
                                                        st.count),
            *buf[:st.count])
    ensemble.barrier()
    bufs = [bytearray(4) for _ in range(n)]
    reqs = [ensemble.irecv_any(None, b) for b in bufs]
    ensemble.waitall(reqs, sts)
    for s, b in zip(sts, bufs):
        say("irecv_any %s[%d] count %d: %s" % (s.type, s.port, s.count,
                                               bytes(b[:s.count]).decode()))
    p = ensemble.port("W", 1)
    p.comm.Send(np.array([42], dtype=np.intc), p.rank, p.tag)


def worker(me):
    """A worker's side, on its one port H[1]."""
    v = np.zeros(1, dtype=np.intc)
    st = ensemble.Status()
    ensemble.recv("H", 1, v, st)
    say("recv H[1] count %d port %d type %s: %d" % (st.count, st.port, st.type,
                                                     v[0]))
    ensemble.send("H", 1, v + 1000 * me.index)
    ensemble.send("H", 1, np.arange(me.index, dtype=np.intc) + 100 * me.index)
    ensemble.barrier()
    ensemble.bsend("H", 1, bytearray(b"w%d" % me.index))
    c = ensemble.comm_component()
    say("component", c.Get_rank(), "of", c.Get_size(), "indices sum to",
        c.allreduce(me.index))
    if me.index == 1:
        p = ensemble.port("H", 1)
        raw = np.zeros(1, dtype=np.intc)
        p.comm.Recv(raw, p.rank, p.recv_tag)
        say("raw", raw[0])


def group(me):
    """Every collective over back (group rank r is x[3 - r]), printing what
    each gave, in the order and words of ports-cxx.cpp's group()."""
    back = "back"
    comm = ensemble.comm_group(back)
    r, n = comm.Get_rank(), comm.Get_size()
    say("rank %d of %d in back" % (r, n))
    ensemble.barrier(back)
    ensemble.barrier(None)  # None: over the application
    b = np.array([7, 8], dtype=np.intc) if r == 0 else np.zeros(2, np.intc)
    ensemble.bcast(b, "x[3]", back)
    say("bcast", *b)
    rr = np.zeros(2, dtype=np.intc) if r == 2 else None
    ensemble.reduce(np.array([r, 1], dtype=np.intc), rr, "sum", "x[1]", back)
    if r == 2:
        say("reduce", *rr)
    total = np.zeros(1, dtype=np.intc)
    ensemble.allreduce(np.array([r + 1], dtype=np.intc), total, "sum", back)
    say("allreduce", total[0])
    g = np.zeros(3, dtype=np.intc) if r == 0 else None
    ensemble.gather(np.array([me.rank], dtype=np.intc), g, "x[3]", back)
    if r == 0:
        say("gather", *g)
    ag = np.zeros(3, dtype=np.intc)
    ensemble.allgather(np.array([me.index], dtype=np.intc), ag, back)
    say("allgather", *ag)
    sc = np.array([7, 8, 9], dtype=np.intc) if me.name == "x[2]" else None
    piece = np.zeros(1, dtype=np.intc)
    ensemble.scatter(sc, piece, "x[2]", back)
    say("scatter", piece[0])
    frm = np.zeros(3, dtype=np.intc)
    ensemble.alltoall(np.array([10 * r + i for i in range(3)], dtype=np.intc),
                      frm, back)
    say("alltoall", *frm)
    cnt, fwd, rev = [1, 2, 3], [0, 1, 3], [5, 3, 0]
    mine = np.full(r + 1, r, dtype=np.intc)
    six = np.zeros(6, dtype=np.intc)
    ensemble.allgatherv(mine, six, cnt, fwd, back)
    say("allgatherv", *six)
    at_root = np.zeros(6, dtype=np.intc) if r == 0 else None
    ensemble.gatherv(mine, at_root, cnt, rev, "x[3]", back)
    if r == 0:
        say("gatherv", *at_root)
    sv = np.array([10, 20, 21, 30, 31, 32], dtype=np.intc) \
        if me.name == "x[1]" else None
    got = np.zeros(r + 1, dtype=np.intc)
    ensemble.scatterv(sv, got, cnt, fwd, "x[1]", back)
    say("scatterv", *got)
    vfrom = np.zeros(3, dtype=np.intc)
    ensemble.alltoallv(np.array([10 * r + 2, 10 * r + 1, 10 * r], np.intc),
                       vfrom, [1, 1, 1], [2, 1, 0], [1, 1, 1], [0, 1, 2], back)
    say("alltoallv", *vfrom)
    rgot = np.zeros(r + 1, dtype=np.intc)
    ensemble.reduce_scatter(np.array([10 * r + k for k in range(6)], np.intc),
                            rgot, cnt, "sum", back)
    say("reduce_scatter", *rgot)


def misbehave(mode):
    """The failure tests' modes, on the one port Peer[1]."""
    v = np.zeros(1, dtype=np.intc)
    if mode in ("send", "protocol"):
        ensemble.send("Peer", 1, v)
    elif mode in ("recv", "hang"):
        ensemble.recv("Peer", 1, v)
    elif mode == "wrong-type":
        ensemble.send("Nope", 1, v)
    elif mode == "raise":
        print("pyapi: about to raise", file=sys.stderr, flush=True)
        raise ValueError("pyapi: giving up")
    elif mode == "exit3":
        print("pyapi: giving up with status 3", file=sys.stderr, flush=True)
        sys.exit(3)


def p2p(me):
    """sendrecv, sendrecv_replace, test, waitany, waitsome, probe and
    iprobe_any with Peer[1], process i sending values made of i; the
    behaviour:
        sendrecv Peer[1], Peer[1]; sendrecv replace Peer[1], Peer[1];
        irecv Peer[1] as s; isend Peer[1] as r;
        test s { } else { wait s; } wait r;
        irecv Peer[1] as s; isend Peer[1] as r;
        waitany { on r { wait s; } on s { wait r; } }
        irecv Peer[1] as s; isend Peer[1] as r;
        waitsome { on r { } on s { } } waitall;
        isend Peer[1] as r; probe Peer[1]; recv Peer[1]; wait r;
        isend Peer[1] as r;
        iprobe any as m { recv m; } else { probe any as m; recv m; } wait r;
    (the last receive on the port and type the probe's status names)."""
    i = me.index
    got = np.zeros(2, dtype=np.intc)
    st = ensemble.Status()
    ensemble.sendrecv("Peer", 1, np.array([i, i + 10], dtype=np.intc),
                      "Peer", 1, got, st)
    say("sendrecv", got[0], got[1], "count", st.count, "port", st.type,
        st.port)
    v = np.array([100.0 * i])
    ensemble.sendrecv_replace("Peer", 1, "Peer", 1, v)
    say("sendrecv_replace", v[0])
    for k in (200, 300, 400):
        inb = np.zeros(1, dtype=np.int64)
        out = np.array([k * i], dtype=np.int64)
        s = ensemble.irecv("Peer", 1, inb)
        r = ensemble.isend("Peer", 1, out)
        if k == 200:
            if not ensemble.test(s, st):
                ensemble.wait(s, st)
            ensemble.wait(r)
            say("test", inb[0], "count", st.count, "done", s.done, r.done)
        elif k == 300:
            j = ensemble.waitany([r, s])
            ensemble.wait([r, s][1 - j])
            say("waitany", inb[0], "index 0 or 1:", j in (0, 1), r.done, s.done)
        else:
            sts = []
            done = ensemble.waitsome([r, s], sts)
            ensemble.waitall([r, s])
            say("waitsome", inb[0], "one or both:",
                len(done) == len(sts) and sorted(done) in ([0], [1], [0, 1]))
    out = np.array([500 * i, 500 * i + 1], dtype=np.intc)
    r = ensemble.isend("Peer", 1, out)
    ensemble.probe("Peer", 1, st)
    ensemble.recv("Peer", 1, got)
    ensemble.wait(r)
    say("probe", st.count, "bytes:", got[0], got[1])
    out = np.array([600 * i], dtype=np.intc)
    r = ensemble.isend("Peer", 1, out)
    p = ensemble.iprobe_any(None, st)
    if p == 0:
        p = ensemble.probe_any(None, st)
    one = np.zeros(1, dtype=np.intc)
    ensemble.recv(st.type, st.port, one)
    ensemble.wait(r)
    say("iprobe_any", st.type, p, st.port, one[0])


def main():
    """Do as the first argument says."""
    ensemble.init()
    mode = sys.argv[1]
    me = ensemble.self()
    if mode in ("hub", "w"):
        say("self", me.name, me.component, me.index, me.rank, me.nprocs,
            me.indexed, "; param", ensemble.param("greeting"),
            ensemble.param("1"), ensemble.param("2"), ensemble.param("nope"))
        collectives(me)
        vforms(me)
        if mode == "hub":
            hub(me)
        else:
            worker(me)
    elif mode == "group":
        group(me)
    elif mode == "p2p":
        p2p(me)
    else:
        misbehave(mode)
    # No finalize(): a process ending well is finalized at exit.


main()
