#!/usr/bin/env python3
"""oracle.py -- a second, independent model checker for ensemble scripts.

It reads the annotated PCG that 'ensemble graph SCRIPT --pcg -o -' writes
(common/pcgdot.h: each process's instantiated behaviour and ports, each
channel with its two ports), explores every interleaving of the
processes' behaviours (no reduction of any kind) in each send mode, and
prints per mode the verdict, the worst violation kind and the number of
states and transitions.

It is written from the documentation alone -- ensemble(1), VERIFICATION
(Semantics, Properties), pcg(5) (the language) and runtime/monitor.h (the
grammar of the behaviour text) -- and shares no code with the checker
(mpnet/), so that where the two agree on thousands of random scripts
each is a check of the other.  tests/oracle/README says how it reads the
documentation where that is silent.

usage: oracle.py [--max-states N] [--groups EXPANDED] [--json] [DOT]
  DOT       the annotated graph (standard input when absent or '-')
  --groups  'ensemble expand' output of the same script, for the members
            of the groups collectives run 'over' (the graph does not hold
            them); without it a collective over a group is unsupported
Output, one line a mode ("buffered", then "synchronous"):
  MODE verified STATES TRANSITIONS
  MODE violated KIND STATES TRANSITIONS
  MODE incomplete STATES
  MODE unsupported WHY
or, with --json, one object {"buffered": {...}, "synchronous": {...}}.
Exit status 0, or 2 for input it cannot read.
"""

import json
import re
import sys
from collections import deque

KINDS = ["livelock", "collective-mismatch", "deadlock", "orphan-receive",
         "unmatched-send", "unwaited-request"]     # worst first
VAIN_POLLS = 4096       # ensemble(1): "within 4096 polls"
MAX_OPEN = 16           # open rooted collectives a process may run ahead


class Unsupported(Exception):
    """A script the oracle does not model: said, and skipped."""


class BadInput(Exception):
    """Input that is not an annotated graph or a behaviour text."""


# ---- the annotated graph (common/pcgdot.h) ----

DOT_TOKEN = re.compile(r'''
    (?P<ws>\s+|//[^\n]*|/\*.*?\*/|\#[^\n]*)
  | (?P<str>"(?:[^"\\]|\\.)*")
  | (?P<id>[A-Za-z_\x80-\xff][A-Za-z_0-9\x80-\xff]*|-?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?))
  | (?P<op>--|->|[{}\[\];,=:])
''', re.X | re.S)


def dot_tokens(text):
    """The tokens of a DOT text: ('str'|'id'|'op', value)."""
    # A backslash before a newline continues a line inside a string.
    text = text.replace("\\\n", "")
    pos, out = 0, []
    while pos < len(text):
        m = DOT_TOKEN.match(text, pos)
        if m is None:
            raise BadInput("cannot read the graph at byte %d" % pos)
        pos = m.end()
        kind = m.lastgroup
        if kind == "ws":
            continue
        val = m.group(kind)
        if kind == "str":
            # cgraph escapes only the double quote.
            val = val[1:-1].replace('\\"', '"')
            kind = "id"
        out.append((kind, val))
    return out


def parse_dot(text):
    """The graph: its attributes, nodes {name: attrs} in order, and edges
    [(tail, head, attrs)]."""
    toks = dot_tokens(text)
    i = 0

    def peek(k=0):
        return toks[i + k] if i + k < len(toks) else ("eof", "")

    def attrs():
        nonlocal i
        a = {}
        while peek() == ("op", "["):
            i += 1
            while peek() != ("op", "]"):
                if peek()[0] != "id":
                    raise BadInput("bad attribute list")
                key = peek()[1]
                i += 1
                val = "true"
                if peek() == ("op", "="):
                    val = peek(1)[1]
                    i += 2
                a[key] = val
                if peek()[1] in (",", ";"):
                    i += 1
            i += 1
        return a

    while peek()[0] == "id" and peek()[1].lower() in ("strict", "graph",
                                                      "digraph"):
        i += 1
    if peek()[0] == "id":
        i += 1
    if peek() != ("op", "{"):
        raise BadInput("not a DOT graph")
    i += 1
    gattrs, nodes, edges = {}, {}, []
    while peek() != ("op", "}"):
        t = peek()
        if t[0] == "eof":
            raise BadInput("the graph does not end")
        if t == ("op", ";"):
            i += 1
            continue
        if t[0] == "id" and t[1] in ("graph", "node", "edge") and \
                peek(1) == ("op", "["):
            i += 1
            a = attrs()
            if t[1] == "graph":
                gattrs.update(a)
            continue
        if t[0] != "id":
            raise BadInput("unexpected %r in the graph" % (t[1],))
        if peek(1) == ("op", "="):
            gattrs[t[1]] = peek(2)[1]
            i += 3
            continue
        name = t[1]
        i += 1
        if peek() == ("op", ":"):       # a node port: not in ours
            i += 2
        if peek()[1] in ("--", "->"):
            i += 1
            head = peek()[1]
            i += 1
            edges.append((name, head, attrs()))
            nodes.setdefault(name, {})
            nodes.setdefault(head, {})
        else:
            nodes.setdefault(name, {}).update(attrs())
    return gattrs, nodes, edges


def pcgdot_text(s):
    """A text value decoded (%XX)."""
    def dec(m):
        if m.group(1) == "00":
            raise BadInput("%00 in a text value")
        return chr(int(m.group(1), 16))
    if re.search(r"%(?![0-9A-Fa-f]{2})", s):
        raise BadInput("a malformed %% escape in %r" % s)
    return re.sub(r"%([0-9A-Fa-f]{2})", dec, s)


# ---- the behaviour text (runtime/monitor.h) ----

SENDWORDS = ("send", "ssend", "bsend")
ISENDWORDS = ("isend", "issend", "ibsend")
UNROOTED = ("barrier", "allreduce", "allgather", "alltoall", "allgatherv",
            "alltoallv", "reducescatter")
ROOTED_FROM = ("bcast", "scatter", "scatterv")
ROOTED_TO = ("reduce", "gather", "gatherv")
PORT = re.compile(r"^([A-Za-z_][A-Za-z_0-9]*)\[([0-9]+|\*)\]$")
NAME = re.compile(r"^[A-Za-z_][A-Za-z_0-9]*$")


def behaviour_tokens(text):
    """Words and the punctuation '{', '}', ';', ','."""
    return re.findall(r"[{};,]|[^{};,\s]+", text)


class Parser:
    """The statements of one behaviour text, as nested tuples:
    ('send', word, type, idx)           word: send ssend bsend
    ('recv', type, idx)                 ('recvany', type or None)
    ('isend', word, type, idx, name)    word: isend issend ibsend
    ('irecv', type, idx, name)          ('irecvany', type or None, name)
    ('sendrecv', replace, (t, i), (t, i))
    ('wait', name)  ('test', name, A, B)  ('waitany'|'waitsome', [(n, B)])
    ('probe', type, idx|None, any, name)  ('iprobe', ..., A, B)
    ('recvm', name)  ('waitall',)  ('coll', word, root, group)
    ('loop', count or None, B)  ('choice', [B, ...])
    idx is an int, or '*' for every port of the type."""

    def __init__(self, text):
        self.t = behaviour_tokens(text)
        self.i = 0

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else None

    def take(self, want=None):
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            raise BadInput("behaviour: expected %s, found %s" %
                           (want or "a word", tok or "the end"))
        self.i += 1
        return tok

    def port(self):
        m = PORT.match(self.take())
        if not m:
            raise BadInput("behaviour: %r is not a port" % self.t[self.i - 1])
        return m.group(1), ("*" if m.group(2) == "*" else int(m.group(2)))

    def name(self):
        tok = self.take()
        if not NAME.match(tok):
            raise BadInput("behaviour: %r is not a name" % tok)
        return tok

    def block(self):
        self.take("{")
        out = []
        while self.peek() != "}":
            if self.peek() is None:
                raise BadInput("behaviour: a block does not end")
            out.append(self.stmt())
        self.take("}")
        return out

    def stmts(self):
        out = []
        while self.peek() is not None:
            out.append(self.stmt())
        return out

    def optas(self):
        if self.peek() == "as":
            self.take()
            return self.name()
        return None

    def anytype(self):
        """After 'any': a type, or None (every port)."""
        tok = self.peek()
        if tok in (";", "as", "{") or tok is None:
            return None
        return self.name()

    def over(self):
        if self.peek() == "over":
            self.take()
            return self.take()
        return None

    def stmt(self):
        w = self.take()
        if w in SENDWORDS or w in ISENDWORDS:
            t, k = self.port()
            name = self.optas()
            self.take(";")
            if w in SENDWORDS:
                if name is not None:
                    raise BadInput("behaviour: '%s ... as' has no request" % w)
                return ("send", w, t, k)
            return ("isend", w, t, k, name)
        if w in ("recv", "irecv"):
            tok = self.peek()
            if tok == "any":
                self.take()
                t = self.anytype()
                name = self.optas()
                self.take(";")
                if w == "recv":
                    if name is not None:
                        raise BadInput("behaviour: 'recv any ... as'")
                    return ("recvany", t)
                return ("irecvany", t, name)
            if tok is not None and PORT.match(tok):
                t, k = self.port()
                name = self.optas()
                self.take(";")
                if w == "recv":
                    if name is not None:
                        raise BadInput("behaviour: 'recv ... as'")
                    return ("recv", t, k)
                return ("irecv", t, k, name)
            if w == "recv":
                name = self.name()
                self.take(";")
                return ("recvm", name)
            raise BadInput("behaviour: irecv of %r" % tok)
        if w == "sendrecv":
            rep = False
            if self.peek() == "replace":
                self.take()
                rep = True
            a = self.port()
            self.take(",")
            b = self.port()
            self.take(";")
            return ("sendrecv", rep, a, b)
        if w == "wait":
            n = self.name()
            self.take(";")
            return ("wait", n)
        if w == "test":
            n = self.name()
            a = self.block()
            self.take("else")
            return ("test", n, a, self.block())
        if w in ("waitany", "waitsome"):
            self.take("{")
            ons = []
            while self.peek() == "on":
                self.take()
                n = self.name()
                ons.append((n, self.block()))
            self.take("}")
            if not ons:
                raise BadInput("behaviour: %s without 'on'" % w)
            return (w, ons)
        if w in ("probe", "iprobe"):
            if self.peek() == "any":
                self.take()
                t, k, anyp = self.anytype(), None, True
            else:
                (t, k), anyp = self.port(), False
            name = self.optas()
            if w == "probe":
                self.take(";")
                return ("probe", t, k, anyp, name)
            a = self.block()
            self.take("else")
            return ("iprobe", t, k, anyp, name, a, self.block())
        if w == "waitall":
            self.take(";")
            return ("waitall",)
        if w in UNROOTED:
            g = self.over()
            self.take(";")
            return ("coll", w, None, g)
        if w in ROOTED_FROM or w in ROOTED_TO:
            self.take("from" if w in ROOTED_FROM else "to")
            root = self.take()
            g = self.over()
            self.take(";")
            return ("coll", w, root, g)
        if w == "loop":
            n = None
            if self.peek() not in ("{", None):
                tok = self.take()
                if not tok.isdigit():
                    raise BadInput("behaviour: loop count %r" % tok)
                n = int(tok)
            return ("loop", n, self.block())
        if w == "choice":
            bs = [self.block()]
            while self.peek() == "or":
                self.take()
                bs.append(self.block())
            return ("choice", bs)
        raise BadInput("behaviour: unknown statement %r" % w)


def blocks(s):
    """The blocks a statement holds."""
    k = s[0]
    if k == "test":
        return [s[2], s[3]]
    if k == "iprobe":
        return [s[5], s[6]]
    if k in ("waitany", "waitsome"):
        return [b for _, b in s[1]]
    if k == "loop":
        return [s[2]]
    if k == "choice":
        return s[1]
    return []


def walk(stmts):
    """Every statement of a block, those inside others too."""
    for s in stmts:
        yield s
        for b in blocks(s):
            yield from walk(b)


def has_call(stmts):
    """Whether a block makes a call (anything but loops and choices of
    nothing): a counted loop that makes none is left out (monitor.h)."""
    for s in stmts:
        if s[0] == "loop":
            if has_call(s[2]):
                return True
        elif s[0] == "choice":
            if any(has_call(b) for b in s[1]):
                return True
        else:
            return True
    return False


# ---- the application ----

class App:
    """Processes, their ports and channels, and each one's program."""

    def __init__(self, dot_text, groups_text=None):
        gattrs, nodes, edges = parse_dot(dot_text)
        self.name = gattrs.get("application", "?")
        self.procs = []
        self.pindex = {}
        self.ports = []         # per process: {type: count}
        self.behav = []
        self.component = []
        for name, a in nodes.items():
            if "behaviour" not in a and "component" not in a:
                continue
            self.pindex[name] = len(self.procs)
            self.procs.append(name)
            ports = {}
            for item in a.get("ports", "").split():
                t, _, n = item.partition(":")
                ports[t] = int(n)
            self.ports.append(ports)
            self.behav.append(pcgdot_text(a.get("behaviour", "")))
            self.component.append(a.get("component", ""))
        self.components = set(self.component)
        n = len(self.procs)
        # Channel directions: (src, dst, src port, dst port); a port
        # (process, type, index) -> its outgoing and incoming direction.
        self.chans = []
        self.out_of = {}
        self.in_of = {}
        for tail, head, a in edges:
            tp = PORT.match(a.get("tail_port", ""))
            hp = PORT.match(a.get("head_port", ""))
            if not tp or not hp or tail not in self.pindex or \
                    head not in self.pindex:
                raise BadInput("an edge without its ports")
            x = (self.pindex[tail], tp.group(1), int(tp.group(2)))
            y = (self.pindex[head], hp.group(1), int(hp.group(2)))
            for s, d in ((x, y), (y, x)):
                c = len(self.chans)
                self.chans.append((s[0], d[0], s, d))
                self.out_of[s] = c
                self.in_of[d] = c
        self.groups = parse_groups(groups_text) if groups_text else None
        self.asts = [Parser(b).stmts() for b in self.behav]
        # Which pairs keep the order of one sender's messages across its
        # channels (ensemble(1): a wildcard over every port the receiver
        # has connected is MPI_ANY_SOURCE, which takes a sender's earliest
        # message): pairs of two channels or more into a receiver that has
        # such a wildcard.
        self.nproc = n
        self.incoming = [[c for c, ch in enumerate(self.chans) if ch[1] == p]
                         for p in range(n)]
        self.anysrc_user = [False] * n
        for p in range(n):
            self._scan_any(p, self.asts[p])
        self.pairs = {}         # (src, dst) -> [channel, ...]
        for c, ch in enumerate(self.chans):
            self.pairs.setdefault((ch[0], ch[1]), []).append(c)
        self.ordered = {}       # channel -> (pair number, its place)
        self.pairlist = []
        for (s, d), cs in sorted(self.pairs.items()):
            if len(cs) >= 2 and self.anysrc_user[d]:
                k = len(self.pairlist)
                self.pairlist.append((s, d, cs))
                for j, c in enumerate(cs):
                    self.ordered[c] = (k, j)

    def _scan_any(self, p, stmts):
        for s in walk(stmts):
            if (s[0] in ("recvany", "irecvany") or
                    (s[0] in ("probe", "iprobe") and s[3])) and \
                    self.any_chans(p, s[1], set_only=True) == \
                    frozenset(self.incoming[p]):
                self.anysrc_user[p] = True

    def any_chans(self, p, t, set_only=False):
        """The incoming channels of p's ports of type t (None: all)."""
        cs = [c for c in self.incoming[p]
              if t is None or self.chans[c][3][1] == t]
        return frozenset(cs) if set_only else tuple(sorted(cs))

    def in_chan(self, p, t, k):
        c = self.in_of.get((p, t, k))
        if c is None:
            raise Unsupported("%s: port %s[%d] joined by no channel" %
                              (self.procs[p], t, k))
        return c

    def out_chan(self, p, t, k):
        c = self.out_of.get((p, t, k))
        if c is None:
            raise Unsupported("%s: port %s[%d] joined by no channel" %
                              (self.procs[p], t, k))
        return c


def parse_groups(text):
    """The Groups section of 'ensemble expand' output: {name: [process]}."""
    groups, on = {}, False
    for line in text.splitlines():
        s = line.strip()
        if s in ("Groups",):
            on = True
            continue
        if on:
            m = re.match(r"^([A-Za-z_][\w\[\]]*)\s*:\s*(.*);$", s)
            if not m:
                break
            groups[m.group(1)] = [x.strip() for x in m.group(2).split(",")]
    return groups


# ---- programs: each process's statements as instructions ----
#
# A process's place is (pc, counters, stack): pc an instruction, counters
# the rounds left of each counted loop it is in (None outside), stack the
# blocks of a waitsome still to run.  Instructions that are no step of
# their own (GOTO, SETC, LOOPT, DECG, RET) are followed at once.

BUFFERED, SYNCHRONOUS = "buffered", "synchronous"


class Compiler:
    """One process's program for one send mode."""

    def __init__(self, app, p, mode):
        self.app, self.p, self.mode = app, p, mode
        self.code = []
        self.nloops = 0

    def emit(self, ins):
        self.code.append(ins)
        return len(self.code) - 1

    def ports(self, t, k):
        """The indices a port operand stands for (T[*]: each, in order)."""
        if k == "*":
            return list(range(1, self.app.ports[self.p].get(t, 0) + 1))
        return [k]

    def wild(self, t):
        """A wildcard's channels, and whether it is MPI_ANY_SOURCE (over
        every port the process has connected: ensemble(1))."""
        cs = self.app.any_chans(self.p, t)
        return cs, frozenset(cs) == frozenset(self.app.incoming[self.p])

    def sendkind(self, word):
        """'b': complete at once (buffered), 's': complete when taken."""
        if word in ("bsend", "ibsend"):
            return "b"
        if word in ("ssend", "issend"):
            return "s"
        return "b" if self.mode == BUFFERED else "s"

    def block(self, stmts):
        for s in stmts:
            self.stmt(s)

    def stmt(self, s):
        app, p, k = self.app, self.p, s[0]
        if k == "send":
            for i in self.ports(s[2], s[3]):
                self.emit(("SEND", app.out_chan(p, s[2], i),
                           self.sendkind(s[1])))
        elif k == "recv":
            for i in self.ports(s[1], s[2]):
                c = app.in_chan(p, s[1], i)
                self.emit(("RECV", (c,), False))
        elif k == "recvany":
            cs, anysrc = self.wild(s[1])
            self.emit(("RECV", cs, anysrc))
        elif k == "isend":
            for i in self.ports(s[2], s[3]):
                self.emit(("ISEND", app.out_chan(p, s[2], i),
                           "b" if self.sendkind(s[1]) == "b" else "r", s[4]))
        elif k == "irecv":
            for i in self.ports(s[1], s[2]):
                self.emit(("IRECV", (app.in_chan(p, s[1], i),), False, s[3]))
        elif k == "irecvany":
            cs, anysrc = self.wild(s[1])
            self.emit(("IRECV", cs, anysrc, s[2]))
        elif k == "sendrecv":
            (t1, i1), (t2, i2) = s[2], s[3]
            if i1 == "*" or i2 == "*":
                raise Unsupported("sendrecv of T[*]")
            # ensemble(1): an isend in standard mode, an irecv, and a
            # wait on exactly those two: three steps.
            self.emit(("ISEND", app.out_chan(p, t1, i1),
                       "b" if self.mode == BUFFERED else "r", "#s"))
            self.emit(("IRECV", (app.in_chan(p, t2, i2),), False, "#r"))
            self.emit(("SRWAIT",))
        elif k == "wait":
            self.emit(("WAIT", s[1]))
        elif k == "test":
            at = self.emit(None)
            self.block(s[2])
            j = self.emit(None)
            els = len(self.code)
            self.block(s[3])
            self.code[j] = ("GOTO", len(self.code))
            self.code[at] = ("TEST", s[1], at + 1, els)
        elif k in ("waitany", "waitsome"):
            at = self.emit(None)
            ons, jumps = [], []
            for name, b in s[1]:
                ons.append((name, len(self.code)))
                self.block(b)
                jumps.append(self.emit(None))
            for j in jumps:
                self.code[j] = ("GOTO", len(self.code)) if k == "waitany" \
                    else ("RET",)
            self.code[at] = ("WAITANY" if k == "waitany" else "WAITSOME",
                             tuple(ons), len(self.code))
        elif k in ("probe", "iprobe"):
            if s[3]:
                cs, anysrc = self.wild(s[1])
            else:
                if s[2] == "*":
                    raise Unsupported("probe of T[*]")
                cs, anysrc = (app.in_chan(p, s[1], s[2]),), False
            if k == "probe":
                self.emit(("PROBE", cs, anysrc, s[4]))
            else:
                at = self.emit(None)
                self.block(s[5])
                j = self.emit(None)
                els = len(self.code)
                self.block(s[6])
                self.code[j] = ("GOTO", len(self.code))
                self.code[at] = ("IPROBE", cs, anysrc, s[4], at + 1, els)
        elif k == "recvm":
            self.emit(("RECVM", s[1]))
        elif k == "waitall":
            self.emit(("WAITALL",))
        elif k == "coll":
            self.emit(("COLL",) + self.coll(s))
        elif k == "loop":
            if s[1] is None:
                head = len(self.code)
                self.block(s[2])
                self.emit(("GOTO", head))
            elif s[1] > 0 and has_call(s[2]):
                lid = self.nloops
                self.nloops += 1
                self.emit(("SETC", lid, s[1]))
                head = self.emit(None)
                self.block(s[2])
                self.emit(("DECG", lid, head))
                self.code[head] = ("LOOPT", lid, len(self.code))
        elif k == "choice":
            at = self.emit(None)
            starts, jumps = [], []
            for b in s[1]:
                starts.append(len(self.code))
                self.block(b)
                jumps.append(self.emit(None))
            for j in jumps:
                self.code[j] = ("GOTO", len(self.code))
            self.code[at] = ("CHOICE", tuple(starts))
        else:
            raise Unsupported("statement %s" % k)

    def coll(self, s):
        """(word, root process, communicator number)."""
        app = self.app
        word, root, group = s[1], s[2], s[3]
        comm = app.comm(group, self.p)
        r = None
        if root is not None:
            if root not in app.pindex:
                raise Unsupported("root %s is no process" % root)
            r = app.pindex[root]
        return (word, r, comm)

    def compile(self, stmts):
        self.block(stmts)
        self.emit(("END",))
        return self.code


def app_comm(app, group, p):
    """The number of the communicator a collective runs over (0: the
    application's), its members registered in app.comms."""
    if not hasattr(app, "comms"):
        app.comms = [tuple(range(app.nproc))]
        app.commnames = [None]
    if group is None:
        return 0
    if group in app.commnames:
        return app.commnames.index(group)
    members = None
    if app.groups is not None and group in app.groups:
        members = app.groups[group]
    elif group in app.components:
        members = [n for n in app.procs if app.component[app.pindex[n]]
                   == group]
    if members is None:
        raise Unsupported("collective over group %s, whose members the "
                          "graph does not say (give --groups)" % group)
    idx = []
    for m in members:
        if m not in app.pindex:
            raise Unsupported("group %s: no process %s" % (group, m))
        idx.append(app.pindex[m])
    app.comms.append(tuple(sorted(idx)))
    app.commnames.append(group)
    return len(app.comms) - 1


App.comm = app_comm


# ---- the state graph ----
#
# A state is (procs, chans, orders, colls):
#   procs[p] = (pc, counters, stack, requests, bindings)
#     requests, in the order posted: ('S', name, channel, sync, done) for a
#     send ('sync': completes when its message is taken), ('R', name,
#     channels, anysrc, done) for a receive; done: complete, not yet
#     completed by a wait, test or waitall (which remove it)
#     bindings: ((name, channel), ...) of probes' 'as' names
#   chans[c] = the messages in channel direction c, oldest first, one
#     letter each: 'b' buffered, 's' of a blocking synchronous send (its
#     sender is inside it), 'r' of a synchronous request
#   orders[k] = the order of one sender's messages over its channels into
#     a receiver with an MPI_ANY_SOURCE wildcard (App.pairlist)
#   colls[g] = buffered mode: the rooted collectives of communicator g
#     some process left and not all, in order: (word, root, left-mask)

FROM_ROOT = ("bcast", "scatter", "scatterv")


class Model:
    """The processes of an application in one send mode, as a successor
    function."""

    def __init__(self, app, mode):
        self.app, self.mode = app, mode
        self.code = []
        self.nloops = []
        for p in range(app.nproc):
            c = Compiler(app, p, mode)
            self.code.append(c.compile(app.asts[p]))
            self.nloops.append(c.nloops)
        if not hasattr(app, "comms"):
            app.comms = [tuple(range(app.nproc))]
            app.commnames = [None]
        self.comms = app.comms
        self.cmask = [sum(1 << m for m in ms) for ms in self.comms]
        self.src = [ch[0] for ch in app.chans]
        self.dst = [ch[1] for ch in app.chans]

    # -- the working copy of a state --

    def initial(self):
        w = Work(((None,) * self.app.nproc, ("",) * len(self.app.chans),
                  ("",) * len(self.app.pairlist), ((),) * len(self.comms)))
        for p in range(self.app.nproc):
            self.goto(w, p, 0, (None,) * self.nloops[p], (), (), ())
        return w.freeze()

    def ended(self, proc, p):
        return self.code[p][proc[0]][0] == "END"

    def goto(self, w, p, pc, cnts, stack, reqs, binds):
        """Process p comes to pc: through the instructions that are no
        step, to a statement or its end; at a synchronous blocking send it
        is inside the send, its message offered (ensemble(1))."""
        pc, cnts, stack = settle(self.code[p], pc, cnts, stack)
        ins = self.code[p][pc]
        w.procs[p] = (pc, cnts, stack, reqs, binds)
        if ins[0] == "SEND" and ins[2] == "s":
            self.put(w, ins[1], "s")

    def advance(self, w, p, pc=None, reqs=None, binds=None, stack=None):
        """p goes on to pc (the next instruction by default)."""
        cur = w.procs[p]
        self.goto(w, p, cur[0] + 1 if pc is None else pc, cur[1],
                  cur[2] if stack is None else stack,
                  cur[3] if reqs is None else reqs,
                  cur[4] if binds is None else binds)

    def put(self, w, c, flag):
        w.chans[c] = w.chans[c] + flag
        o = self.app.ordered.get(c)
        if o is not None:
            w.orders[o[0]] = w.orders[o[0]] + chr(48 + o[1])

    def earliest(self, st_orders, c):
        """Whether c's oldest message is its sender's oldest to the
        receiver (always, unless the pair's order is kept)."""
        o = self.app.ordered.get(c)
        return o is None or st_orders[o[0]][:1] == chr(48 + o[1])

    def take(self, w, c):
        """The oldest message of c is taken: its sender learns it.  The
        processes that went on."""
        flag = w.chans[c][0]
        w.chans[c] = w.chans[c][1:]
        o = self.app.ordered.get(c)
        if o is not None:
            s = w.orders[o[0]]
            i = s.index(chr(48 + o[1]))
            w.orders[o[0]] = s[:i] + s[i + 1:]
        q = self.src[c]
        if flag == "s":
            self.advance(w, q)
            return 1 << q
        if flag == "r":
            pr = w.procs[q]
            reqs = list(pr[3])
            for i, r in enumerate(reqs):
                if r[0] == "S" and r[2] == c and r[3] and not r[4]:
                    reqs[i] = r[:4] + (True,)
                    break
            else:
                raise AssertionError("a request's message without it")
            w.procs[q] = pr[:3] + (tuple(reqs),) + pr[4:]
        return 0

    @staticmethod
    def blocked(reqs, c):
        """Whether a pending receive request accepts a message of c, and
        so takes it before any later receive or probe (ensemble(1))."""
        for r in reqs:
            if r[0] == "R" and not r[4] and c in r[2]:
                return True
        return False

    def seen(self, st, p, chans, anysrc):
        """The channels whose oldest message p's receive or probe over
        chans can take now."""
        reqs = st[0][p][3]
        out = []
        for c in chans:
            if st[1][c] and not self.blocked(reqs, c) and \
                    (not anysrc or self.earliest(st[2], c)):
                out.append(c)
        return out

    # -- the steps --

    def successors(self, st):
        """[(label, advanced-mask, vain, next state)] of st."""
        out = []
        for p in range(self.app.nproc):
            self.proc_steps(st, p, out)
            self.matches(st, p, out)
        self.joint_colls(st, out)
        return out

    def matches(self, st, p, out):
        """A message goes to p's earliest-posted pending receive request
        that accepts it."""
        reqs = st[0][p][3]
        if not reqs:
            return
        for c in self.app.incoming[p]:
            if not st[1][c]:
                continue
            for i, r in enumerate(reqs):
                if r[0] == "R" and not r[4] and c in r[2]:
                    break
            else:
                continue
            if r[3] and not self.earliest(st[2], c):
                continue
            w = Work(st)
            pr = w.procs[p]
            nr = list(pr[3])
            nr[i] = r[:4] + (True,)
            w.procs[p] = pr[:3] + (tuple(nr),) + pr[4:]
            adv = self.take(w, c)
            out.append(("match %d %d" % (p, c), adv, False, w.freeze()))

    def proc_steps(self, st, p, out):
        proc = st[0][p]
        pc, cnts, stack, reqs, binds = proc
        ins = self.code[p][pc]
        op = ins[0]
        me = 1 << p

        def step(label, w, adv=0, vain=False):
            out.append(("%d:%d %s" % (p, pc, label), me | adv, vain,
                        w.freeze()))

        if op == "END":
            return
        if op == "SEND":
            if ins[2] == "b":
                w = Work(st)
                self.put(w, ins[1], "b")
                self.advance(w, p)
                step("send", w)
            return
        if op in ("RECV", "RECVM"):
            if op == "RECVM":
                b = dict(binds)
                if ins[1] not in b:
                    raise Unsupported("recv %s with no probe before" % ins[1])
                chans, anysrc = (b[ins[1]],), False
                nb = tuple((n, c) for n, c in binds if n != ins[1])
            else:
                chans, anysrc, nb = ins[1], ins[2], binds
            for c in self.seen(st, p, chans, anysrc):
                w = Work(st)
                adv = self.take(w, c)
                self.advance(w, p, binds=nb)
                step("recv %d" % c, w, adv)
            return
        # A probe that names what it finds has one way on per port where
        # a message is seen; one that does not, one way (ensemble(1)).
        if op == "PROBE":
            found = self.seen(st, p, ins[1], ins[2])
            for c in found if ins[3] is not None else found[:1]:
                w = Work(st)
                self.advance(w, p, binds=bind(binds, ins[3], c))
                step("probe %d" % c, w)
            return
        if op == "IPROBE":
            found = self.seen(st, p, ins[1], ins[2])
            for c in found if ins[3] is not None else found[:1]:
                w = Work(st)
                self.advance(w, p, ins[4], binds=bind(binds, ins[3], c))
                step("iprobe %d" % c, w)
            w = Work(st)
            self.advance(w, p, ins[5])
            step("iprobe no", w, vain=not found)
            return
        if op == "ISEND":
            w = Work(st)
            self.put(w, ins[1], ins[2])
            r = ("S", ins[3], ins[1], ins[2] == "r", ins[2] == "b")
            self.advance(w, p, reqs=reqs + (r,))
            step("isend", w)
            return
        if op == "IRECV":
            w = Work(st)
            r = ("R", ins[3], frozenset(ins[1]), ins[2], False)
            self.advance(w, p, reqs=reqs + (r,))
            step("irecv", w)
            return
        if op == "WAIT":
            i = find(reqs, ins[1])
            if i is None:       # completed before: MPI's null request
                w = Work(st)
                self.advance(w, p)
                step("wait null", w, vain=True)
            elif reqs[i][4]:
                w = Work(st)
                self.advance(w, p, reqs=reqs[:i] + reqs[i + 1:])
                step("wait", w)
            return
        if op == "TEST":
            i = find(reqs, ins[1])
            if i is None:
                w = Work(st)
                self.advance(w, p, ins[2])
                step("test null", w, vain=True)
                return
            if reqs[i][4]:
                w = Work(st)
                self.advance(w, p, ins[2], reqs=reqs[:i] + reqs[i + 1:])
                step("test yes", w)
            w = Work(st)
            self.advance(w, p, ins[3])
            step("test no", w, vain=not reqs[i][4])
            return
        if op == "WAITANY":
            for name, start in ins[1]:
                i = find(reqs, name)
                if i is not None and reqs[i][4]:
                    w = Work(st)
                    self.advance(w, p, start, reqs=reqs[:i] + reqs[i + 1:])
                    step("waitany %s" % name, w)
            return
        if op == "WAITSOME":
            done = []           # (posted place, block start)
            for name, start in ins[1]:
                i = find(reqs, name)
                if i is not None and reqs[i][4]:
                    done.append((i, start))
            done.sort()
            for m in range(1, 1 << len(done)):
                pick = [done[j] for j in range(len(done)) if m >> j & 1]
                gone = {i for i, _ in pick}
                nr = tuple(r for i, r in enumerate(reqs) if i not in gone)
                starts = [s for _, s in pick]
                # The blocks one after the other, then what follows.
                ns = stack + (ins[2],) + tuple(reversed(starts[1:]))
                w = Work(st)
                self.advance(w, p, starts[0], reqs=nr, stack=ns)
                step("waitsome %s" % m, w)
            return
        if op == "WAITALL":
            if all(r[4] for r in reqs):
                w = Work(st)
                self.advance(w, p, reqs=())
                step("waitall", w)
            return
        if op == "SRWAIT":
            i, j = find(reqs, "#s"), find(reqs, "#r")
            if reqs[i][4] and reqs[j][4]:
                w = Work(st)
                self.advance(w, p, reqs=tuple(r for k, r in enumerate(reqs)
                                              if k not in (i, j)))
                step("sendrecv", w)
            return
        if op == "CHOICE":
            for k, start in enumerate(ins[1]):
                w = Work(st)
                self.advance(w, p, start)
                # (a choice changes nothing but p's place: a livelock's
                # poller may choose between its ways, README, 9)
                step("choice %d" % k, w, vain=True)
            return
        if op == "COLL":
            self.coll_leave(st, p, ins, step)
            return
        raise AssertionError(op)

    # -- collectives --

    def point(self, st, g, p):
        """How many of communicator g's open collectives p has left."""
        n = 0
        for e in st[3][g]:
            if e[2] >> p & 1:
                n += 1
        return n

    def may_leave(self, word, root, p, left, full):
        """Whether p may leave a rooted collective (buffered mode), those
        in left having left it: the root of bcast, scatter, scatterv at
        once, the others when the root has; the others of reduce, gather,
        gatherv at once, the root when all others have."""
        if word in FROM_ROOT:
            return p == root or bool(left >> root & 1)
        return p != root or (left | (1 << p)) == full

    def coll_leave(self, st, p, ins, step):
        """Buffered mode: p leaves a rooted collective alone, where it
        need not wait."""
        word, root, g = ins[1], ins[2], ins[3]
        if self.mode != BUFFERED or root is None:
            return
        L = st[3][g]
        j = self.point(st, g, p)
        full = self.cmask[g]
        if j < len(L):
            e = L[j]
            if (e[0], e[1]) != (word, root):
                return          # a mismatch: p never goes on
            left = e[2]
        elif len(L) >= MAX_OPEN:
            return              # would open more than MAX_OPEN
        else:
            left = 0
        if not self.may_leave(word, root, p, left, full):
            return
        left |= 1 << p
        NL = list(L)
        if j == len(L):
            NL.append((word, root, left))
        else:
            NL[j] = (word, root, left)
        if left == full:
            assert j == 0
            del NL[0]
        w = Work(st)
        w.colls[g] = tuple(NL)
        self.advance(w, p)
        step("leaves %s" % word, w)

    def joint_colls(self, st, out):
        """Collectives all members take together: every one in
        synchronous mode, those without a root in buffered mode (when
        none of the communicator's is open)."""
        for g, members in enumerate(self.comms):
            if st[3][g]:
                continue
            kind = None
            for m in members:
                ins = self.code[m][st[0][m][0]]
                if ins[0] != "COLL" or ins[3] != g:
                    break
                if kind is None:
                    kind = ins[1:3]
                elif ins[1:3] != kind:
                    break
            else:
                if kind is None:
                    continue
                if self.mode == BUFFERED and kind[1] is not None:
                    continue
                w = Work(st)
                adv = 0
                for m in members:
                    self.advance(w, m)
                    adv |= 1 << m
                out.append(("all %d %s" % (g, kind[0]), adv, False,
                            w.freeze()))


def bind(binds, name, c):
    """The bindings with a probe's 'as name' on channel c."""
    if name is None:
        return binds
    return tuple(sorted([(n, x) for n, x in binds if n != name] + [(name, c)]))


def find(reqs, name):
    """The place of the pending request named so, or None."""
    for i, r in enumerate(reqs):
        if r[1] == name:
            return i
    return None


class Work:
    """A state being changed into the next."""
    __slots__ = ("procs", "chans", "orders", "colls")

    def __init__(self, st):
        self.procs = list(st[0])
        self.chans = list(st[1])
        self.orders = list(st[2])
        self.colls = list(st[3])

    def freeze(self):
        return (tuple(self.procs), tuple(self.chans), tuple(self.orders),
                tuple(self.colls))


def settle(code, pc, cnts, stack, visit=None):
    """Follow the instructions that are no step from pc: (pc, counters,
    stack) of the statement (or the end) it comes to; visit(pc, ...) is
    called at each place passed."""
    cnts = list(cnts)
    for _ in range(1 << 20):
        if visit is not None:
            visit(pc)
        ins = code[pc]
        op = ins[0]
        if op == "GOTO":
            pc = ins[1]
        elif op == "SETC":
            cnts[ins[1]] = ins[2]
            pc += 1
        elif op == "LOOPT":
            if cnts[ins[1]] == 0:
                cnts[ins[1]] = None
                pc = ins[2]
            else:
                pc += 1
        elif op == "DECG":
            cnts[ins[1]] -= 1
            pc = ins[2]
        elif op == "RET":
            pc = stack[-1]
            stack = stack[:-1]
        else:
            return pc, tuple(cnts), stack
    raise Unsupported("a loop that makes no step")


def alone(ins, pc, stack, reqs):
    """The ways on from a statement of a process followed alone, every
    branch and wait possible: [(pc, stack, requests)], requests as
    (name, posting statement) pairs."""
    op = ins[0]

    def drop(names):
        return tuple(r for r in reqs if r[0] not in names)

    if op in ("ISEND", "IRECV"):
        return [(pc + 1, stack, reqs + ((ins[-1], pc),))]
    if op == "WAIT":
        return [(pc + 1, stack, drop({ins[1]}))]
    if op == "SRWAIT":
        return [(pc + 1, stack, drop({"#s", "#r"}))]
    if op == "WAITALL":
        return [(pc + 1, stack, ())]
    if op == "TEST":
        return [(ins[2], stack, drop({ins[1]})), (ins[3], stack, reqs)]
    if op == "IPROBE":
        return [(ins[4], stack, reqs), (ins[5], stack, reqs)]
    if op == "CHOICE":
        return [(t, stack, reqs) for t in ins[1]]
    if op == "WAITANY":
        return [(t, stack, drop({nm})) for nm, t in ins[1]]
    if op == "WAITSOME":
        ons = ins[1]
        names = [r[0] for r in reqs]
        out = []
        for m in range(1, 1 << len(ons)):
            pick = [ons[j] for j in range(len(ons)) if m >> j & 1]
            pick.sort(key=lambda o: names.index(o[0]) if o[0] in names
                      else 0)
            starts = [t for _, t in pick]
            out.append((starts[0], stack + (ins[2],) +
                        tuple(reversed(starts[1:])),
                        drop({nm for nm, _ in pick})))
        return out
    if op == "END":
        return []
    return [(pc + 1, stack, reqs)]


def join_sets(code, nloops):
    """The statements where ways with different pending requests meet:
    each process's program followed alone (alone()); at each place ways
    join (a loop's head, the end of a choice, test, iprobe, waitany or
    waitsome), the lists of requests posted and not completed that arrive
    there, a request known by its name, or by the statement that posted
    it when it has none.  ensemble(1) says the checker compiles what
    follows such a place once for each list, so its states may tell
    apart what ours do not: the places with more than one list."""
    joins = set()
    for pc, ins in enumerate(code):
        if ins[0] == "GOTO":
            joins.add(ins[1])
        elif ins[0] == "LOOPT":
            joins.add(pc)
        elif ins[0] in ("WAITANY", "WAITSOME"):
            joins.add(ins[2])
    seen = {}
    start = (0, (None,) * nloops, (), ())
    todo, visited = [start], {start}
    while todo and len(visited) < 100000:
        pc, cnts, stack, reqs = todo.pop()

        def visit(at):
            if at in joins:
                seen.setdefault(at, set()).add(reqs)
        pc, cnts, stack = settle(code, pc, cnts, stack, visit)
        ins = code[pc]
        for npc, nstack, nreqs in alone(ins, pc, stack, reqs):
            # A named request by its name, one without by its statement.
            nreqs = tuple((n, None) if n else (n, at) for n, at in nreqs)
            k = (npc, cnts, nstack, nreqs)
            if k not in visited:
                visited.add(k)
                todo.append(k)
    return {pc for pc, sets in seen.items() if len(sets) > 1}


class Reach:
    """What a process can still do from where it is, on any path of its
    program (ensemble(1): "from where they are": a counted loop goes
    round only as often as its counter says): the channels it can send
    on and receive from, and the communicators of the collectives it can
    come to."""

    def __init__(self, model, p):
        self.m, self.p = model, p
        self.code = model.code[p]
        self.memo = {}
        # 'recv m' receives from a channel some probe naming m found.
        self.probed = {}
        for ins in self.code:
            if ins[0] in ("PROBE", "IPROBE") and ins[3] is not None:
                self.probed.setdefault(ins[3], set()).update(ins[1])

    def of(self, proc):
        pc, cnts, stack, reqs, binds = proc
        key = (pc, cnts, stack, binds)
        r = self.memo.get(key)
        if r is None:
            r = self.memo[key] = self.walk(pc, cnts, stack, binds)
        sends, recvs, comms = r
        # Its pending receive requests may still take messages.
        extra = set()
        for q in reqs:
            if q[0] == "R" and not q[4]:
                extra |= q[2]
        if extra:
            recvs = recvs | extra
        return sends, recvs, comms

    def walk(self, pc, cnts, stack, binds):
        sends, recvs, comms = set(), set(), set()
        b = dict(binds)
        todo, seen = [(pc, cnts, stack)], {(pc, cnts, stack)}
        while todo:
            pc, cnts, stack = todo.pop()
            pc, cnts, stack = settle(self.code, pc, cnts, stack)
            ins = self.code[pc]
            op = ins[0]
            if op in ("SEND", "ISEND"):
                sends.add(ins[1])
            elif op in ("RECV", "IRECV"):
                recvs.update(ins[1])
            elif op == "RECVM":
                if ins[1] in b:
                    recvs.add(b[ins[1]])
                recvs.update(self.probed.get(ins[1], ()))
            elif op == "COLL":
                comms.add(ins[3])
                comms.add(tuple(ins[1:4]))  # the collective itself
            for npc, nstack, _ in alone(ins, pc, stack, ()):
                k = (npc, cnts, nstack)
                if k not in seen:
                    seen.add(k)
                    todo.append(k)
        return frozenset(sends), frozenset(recvs), frozenset(comms)


# ---- the search and the judge ----

class Graph:
    """Every reachable state of a model, and its transitions."""

    def __init__(self, model, max_states):
        self.model = model
        init = model.initial()
        self.states = [init]
        index = {init: 0}
        self.succ = []          # per state: [(dst, adv, vain, label)]
        self.complete = True
        i = 0
        while i < len(self.states):
            st = self.states[i]
            row = []
            for label, adv, vain, nxt in model.successors(st):
                j = index.get(nxt)
                if j is None:
                    if len(self.states) >= max_states:
                        self.complete = False
                        return
                    j = len(self.states)
                    index[nxt] = j
                    self.states.append(nxt)
                row.append((j, adv, vain, label))
            self.succ.append(row)
            i += 1
        self.ntrans = sum(len(r) for r in self.succ)
        self.pred = [[] for _ in self.states]
        for s, row in enumerate(self.succ):
            for d, _, _, _ in row:
                self.pred[d].append(s)

    def backward(self, targets):
        """The states from which one of targets can be reached."""
        seen = bytearray(len(self.states))
        todo = []
        for t in targets:
            if not seen[t]:
                seen[t] = 1
                todo.append(t)
        while todo:
            t = todo.pop()
            for s in self.pred[t]:
                if not seen[s]:
                    seen[s] = 1
                    todo.append(s)
        return seen


class Judge:
    """ensemble(1), Properties: the worst kind each state shows."""

    def __init__(self, g):
        self.g = g
        self.m = g.model
        n = self.m.app.nproc
        self.n = n
        # p can still go on from s: a state where a step moves p is
        # reachable.  Stuck: not ended, and it cannot.
        self.cango = []
        for p in range(n):
            bit = 1 << p
            adv = [s for s, row in enumerate(g.succ)
                   if any(a & bit for _, a, _, _ in row)]
            self.cango.append(g.backward(adv))
        self.reqdone = {}
        self.reach = [Reach(self.m, p) for p in range(n)]

    def ended(self, st, p):
        return self.m.ended(st[0][p], p)

    def stuck(self, s, st):
        return [p for p in range(self.n)
                if not self.ended(st, p) and not self.cango[p][s]]

    def can_complete(self, p, i, s):
        """Whether p's i-th request can still complete from s (p is stuck
        there: its requests keep their places)."""
        key = (p, i)
        if key not in self.reqdone:
            tg = []
            for t, st in enumerate(self.g.states):
                reqs = st[0][p][3]
                if len(reqs) > i and reqs[i][4]:
                    tg.append(t)
            self.reqdone[key] = self.g.backward(tg)
        return self.reqdone[key][s]

    def req_need(self, r):
        if r[0] == "R":
            return ("R", tuple(sorted(r[2])))
        return ("S", (r[2],))

    def needs(self, s, st, p):
        """What stuck p waits for: [('R', channels)] a message on one of
        them, [('S', (channel,))] its message taken, [('C', (comm,))] the
        others at its collective."""
        m = self.m
        pc, _, _, reqs, binds = st[0][p]
        ins = m.code[p][pc]
        op = ins[0]
        if op in ("RECV", "PROBE"):
            return [("R", ins[1])]
        if op == "RECVM":
            return [("R", (dict(binds)[ins[1]],))]
        if op == "SEND":
            return [("S", (ins[1],))]
        if op == "COLL":
            return [("C", (ins[3],))]
        if op == "WAIT":
            idx = [find(reqs, ins[1])]
        elif op in ("WAITANY", "WAITSOME"):
            idx = [find(reqs, nm) for nm, _ in ins[1]]
        elif op == "SRWAIT":
            idx = [find(reqs, "#s"), find(reqs, "#r")]
        elif op == "WAITALL":
            idx = list(range(len(reqs)))
        else:
            return []
        idx = [i for i in idx if i is not None and not reqs[i][4]]
        hopeless = [i for i in idx if not self.can_complete(p, i, s)]
        return [self.req_need(reqs[i]) for i in (hopeless or idx)]

    def peers(self, st, p, need):
        """The processes a need of p waits for."""
        m = self.m
        kind, what = need
        if kind == "R":
            return {m.src[c] for c in what}
        if kind == "S":
            return {m.dst[what[0]]}
        return set(self.coll_waits(st, p, m.code[p][st[0][p][0]]))

    def releasers(self, st, p, need):
        """The processes that could still meet a need of p, from where
        they are on any path of their programs ("from where they are"):
        senders on its channels, the receiver of its message, the
        members that can come to a collective of its communicator, and
        whether any process could (an ended one never does)."""
        m = self.m
        kind, what = need
        out = set()
        if kind == "R":
            for c in what:
                q = m.src[c]
                if not self.ended(st, q) and \
                        c in self.reach[q].of(st[0][q])[0]:
                    out.add(q)
        elif kind == "S":
            c = what[0]
            q = m.dst[c]
            if not self.ended(st, q) and c in self.reach[q].of(st[0][q])[1]:
                out.add(q)
        else:
            ins = m.code[p][st[0][p][0]]
            for q in self.coll_waits(st, p, ins):
                if not self.ended(st, q) and \
                        what[0] in self.reach[q].of(st[0][q])[2]:
                    out.add(q)
        return out

    def log_full(self, st, p, ins):
        """Whether p, at a rooted collective in buffered mode, would open
        one more than MAX_OPEN: it waits for all to leave the oldest."""
        m = self.m
        word, root, g = ins[1:]
        L = st[3][g]
        return m.mode == BUFFERED and root is not None and \
            m.point(st, g, p) == len(L) >= MAX_OPEN and \
            m.may_leave(word, root, p, 0, m.cmask[g])

    def coll_waits(self, st, p, ins):
        """The members a process at a collective waits for."""
        m = self.m
        word, root, g = ins[1:]
        members = m.comms[g]
        L = st[3][g]
        j = m.point(st, g, p)
        if m.mode == BUFFERED and root is not None:
            left = L[j][2] if j < len(L) else 0
            if j == len(L) >= MAX_OPEN and \
                    m.may_leave(word, root, p, 0, m.cmask[g]):
                # It would open one more: it waits until all have left
                # the oldest.
                return frozenset(q for q in members
                                 if not L[0][2] >> q & 1)
            if word in FROM_ROOT:
                return frozenset([root]) - {p}
            return frozenset(q for q in members
                             if q != p and not left >> q & 1)
        if L:
            return frozenset(q for q in members
                             if m.point(st, g, q) < len(L))
        out = set()
        for q in members:
            qi = m.code[q][st[0][q][0]]
            if q != p and (qi[0] != "COLL" or qi[1:] != ins[1:]):
                out.add(q)
        return frozenset(out)

    def mismatch(self, st, stuck):
        """collective-mismatch (ensemble(1))."""
        m = self.m
        for g, members in enumerate(m.comms):
            L = st[3][g]
            pts = {q: m.point(st, g, q) for q in members}
            for q in members:
                if self.ended(st, q):
                    for e in L:
                        if not e[2] >> q & 1:
                            return True
            for p in stuck:
                ins = m.code[p][st[0][p][0]]
                if ins[0] != "COLL" or ins[3] != g:
                    continue
                j = pts[p]
                if j < len(L) and (L[j][0], L[j][1]) != ins[1:3]:
                    return True
                for q in members:
                    if self.ended(st, q) and pts[q] <= j:
                        return True
                    if q in stuck and q != p:
                        qi = m.code[q][st[0][q][0]]
                        if qi[0] == "COLL" and qi[3] == g and \
                                pts[q] == j and qi[1:3] != ins[1:3]:
                            return True
                # It waits for a member that never comes to this
                # collective from where it is (README, 10), unless it
                # waits for all to leave the oldest open one.
                if self.log_full(st, p, ins):
                    continue
                for q in self.coll_waits(st, p, ins):
                    if not self.ended(st, q) and tuple(ins[1:4]) not in \
                            self.reach[q].of(st[0][q])[2]:
                        return True
        return False

    def polls_in_vain(self, s, p):
        """All p can ever do alone from s is polls in vain and choices:
        in every state its steps reach, it has steps and each is one of
        those, and they reach at most VAIN_POLLS states."""
        bit = 1 << p
        seen, todo = {s}, [s]
        while todo:
            t = todo.pop()
            mine = [e for e in self.g.succ[t] if e[1] & bit]
            if not mine or not all(e[2] for e in mine):
                return False
            for e in mine:
                if e[0] not in seen:
                    if len(seen) >= VAIN_POLLS:
                        return False
                    seen.add(e[0])
                    todo.append(e[0])
        return True

    def livelock(self, s):
        row = self.g.succ[s]
        if not row or not all(v for _, _, v, _ in row):
            return False
        movers = set()
        for _, a, _, _ in row:
            movers.add(a.bit_length() - 1)
        return all(self.polls_in_vain(s, p) for p in movers)

    def kind(self, s):
        """The worst kind state s shows, as an index in KINDS, or None."""
        st = self.g.states[s]
        m = self.m
        if self.livelock(s):
            return 0
        stuck = self.stuck(s, st)
        sset = set(stuck)
        if stuck and self.mismatch(st, sset):
            return 1
        if any(st[3][g] for g in range(len(m.comms))) and \
                self.mismatch(st, sset):
            return 1
        needs = {p: self.needs(s, st, p) for p in stuck}
        rel = {p: [self.releasers(st, p, n) for n in needs[p]]
               for p in stuck}
        # deadlock: stuck processes wait for each other in a cycle
        edges = {p: set() for p in stuck}
        for p in stuck:
            for n in needs[p]:
                edges[p] |= self.peers(st, p, n) & sset
        if has_cycle(edges):
            return 2
        # orphan-receive, unmatched-send: a stuck process waits only for
        # processes that ended or never release it from where they are
        # (else it waits behind one that could, which shows its own)
        orphan = unmatched = False
        for p in stuck:
            if not needs[p] or any(rel[p]) or \
                    any(k == "C" for k, _ in needs[p]):
                continue
            if any(k == "R" for k, _ in needs[p]):
                orphan = True
            else:
                unmatched = True
        if orphan:
            return 3
        if unmatched:
            return 4
        # Messages wait in a channel to a process that ended, and none of
        # its pending requests takes them.
        for c, q in enumerate(st[1]):
            d = m.dst[c]
            if q and self.ended(st, d) and not m.blocked(st[0][d][3], c):
                return 4
        for p in range(self.n):
            if self.ended(st, p) and st[0][p][3]:
                return 5
        return None


def has_cycle(edges):
    """Whether a directed graph {node: {node}} has a cycle."""
    colour = {}

    def visit(v):
        colour[v] = 1
        for u in edges.get(v, ()):
            c = colour.get(u, 0)
            if c == 1 or (c == 0 and visit(u)):
                return True
        colour[v] = 2
        return False

    return any(colour.get(v, 0) == 0 and visit(v) for v in edges)


def check(app, mode, max_states):
    """One mode's result: a dict."""
    model = Model(app, mode)
    g = Graph(model, max_states)
    if not g.complete:
        return {"verdict": "incomplete", "states": len(g.states)}
    j = Judge(g)
    copies = any(join_sets(c, n) for c, n in zip(model.code, model.nloops))
    worst = None
    for s in range(len(g.states)):
        k = j.kind(s)
        if k is None and not g.succ[s] and not all(
                model.ended(pr, p) for p, pr in enumerate(g.states[s][0])):
            raise AssertionError("oracle: an end state where a process "
                                 "waits shows no kind")
        if k is not None and (worst is None or k < worst):
            worst = k
            if k == 0:
                break
    res = {"verdict": "verified" if worst is None else "violated",
           "states": len(g.states), "transitions": g.ntrans}
    if worst is not None:
        res["kind"] = KINDS[worst]
    if copies:
        # The checker's states tell apart copies of the code that follows
        # a join of different pending requests: its counts are not ours.
        res["copies"] = True
    return res


def analyse(text, groups=None, max_states=200000):
    """Both modes' results of an annotated graph (and 'ensemble expand'
    output for its groups): {mode: result}.  BadInput when the text is
    not one."""
    try:
        app = App(text, groups)
    except Unsupported as e:
        return {m: {"verdict": "unsupported", "why": str(e)}
                for m in (BUFFERED, SYNCHRONOUS)}
    out = {}
    for mode in (BUFFERED, SYNCHRONOUS):
        try:
            out[mode] = check(app, mode, max_states)
        except Unsupported as e:
            out[mode] = {"verdict": "unsupported", "why": str(e)}
    return out


def main(argv):
    max_states = 200000
    groups = None
    as_json = False
    path = "-"
    args = list(argv[1:])
    while args:
        a = args.pop(0)
        if a == "--max-states" and args:
            max_states = int(args.pop(0))
        elif a == "--groups" and args:
            with open(args.pop(0), encoding="utf-8",
                      errors="surrogateescape") as f:
                groups = f.read()
        elif a == "--json":
            as_json = True
        elif a.startswith("-") and a != "-":
            sys.stderr.write("usage: oracle.py [--max-states N] "
                             "[--groups EXPANDED] [--json] [DOT]\n")
            return 2
        else:
            path = a
    try:
        if path == "-":
            text = sys.stdin.buffer.read().decode("utf-8", "surrogateescape")
        else:
            with open(path, encoding="utf-8", errors="surrogateescape") as f:
                text = f.read()
    except OSError as e:
        sys.stderr.write("oracle: %s\n" % e)
        return 2
    try:
        out = analyse(text, groups, max_states)
    except BadInput as e:
        sys.stderr.write("oracle: %s\n" % e)
        return 2
    if as_json:
        print(json.dumps(out, sort_keys=True))
    else:
        for mode in (BUFFERED, SYNCHRONOUS):
            r = out[mode]
            v = r["verdict"]
            if v == "verified":
                print(mode, v, r["states"], r["transitions"])
            elif v == "violated":
                print(mode, v, r["kind"], r["states"], r["transitions"])
            elif v == "incomplete":
                print(mode, v, r["states"])
            else:
                print(mode, v, r["why"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
