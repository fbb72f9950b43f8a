#!/usr/bin/python3
# intruder.py -- another local user against 'ensemble run --stdin all'
# (loader/fan.c), for tests/stdin.test, tests/multihost.test and
# tests/soak.sh, run as a second uid (setpriv).  Each mode runs until the
# file STOP exists or SECONDS pass, then writes what it achieved to OUT as
# "WORD N" lines; READY, when given, is made once it is in place.  The
# tests' input starts with TOP SECRET: "stolen N" counts the answers that
# held it.
#
#   hold HOST PORT N STOP SECONDS OUT [READY]
#       hold N connections to HOST:PORT that say the first byte of a
#       trampoline's first message and nothing more (as one whose message
#       is on its way), opening a new one for each that is closed ("opened
#       N", "closed N": the run dropped them);
#   flood HOST PORT N STOP SECONDS OUT [READY]
#       the same with N connections (hundreds) opened at once, by 4
#       processes, each saying nothing, one byte, or most of a first
#       message (100 hex digits), in turn; READY once they are opening;
#   hammer HOST PORT STOP SECONDS OUT [READY]
#       open connections as fast as it can, each sending junk or a wrong
#       handshake or nothing, keeping the last 200 open ("opened N");
#   steal HOST PORT STOP SECONDS OUT [READY]
#       open 4 connections to HOST:PORT, then read every command line and
#       environment this user can, take each string of 32 hex digits in
#       them for the run's secret or key, and ask for the run's input with
#       it, as the trampolines did (the secret and a newline, on one of
#       those connections and on a new one; the first handshake) and do
#       (the first message, loader/auth.h) ("candidates N", "stolen N");
#   impostor ADDR PORT HOST STOP SECONDS OUT [READY]
#       listen on ADDR:PORT, where a trampoline may try to reach 'ensemble
#       run', and take whatever a trampoline says there for the secret or
#       key, then ask the real HOST:PORT for the input with it
#       ("connected N", "stolen N").
import errno
import hashlib
import hmac
import os
import re
import select
import socket
import sys
import time

HEX = re.compile(rb'(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])')


def done(stop, until):
    return os.path.exists(stop) or time.time() > until


def report(out, **counts):
    with open(out, 'w') as f:
        for k, v in counts.items():
            f.write('%s %d\n' % (k, v))


def connect(host, port, timeout=1.0):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(timeout)
    try:
        s.connect((host, port))
    except OSError:
        s.close()
        return None
    return s


def drain(s, seconds=1.0):
    """What s sends within seconds (it ends it sooner by closing)."""
    got = b''
    end = time.time() + seconds
    while time.time() < end:
        s.settimeout(max(0.05, end - time.time()))
        try:
            b = s.recv(65536)
        except OSError:
            break
        if not b:
            break
        got += b
    return got


def stolen(got):
    """1 if got holds the run's input, else 0."""
    return 1 if b'TOP SECRET' in got else 0


def ask(host, port, talk):
    """1 if the input comes on a connection to host:port after talk(s)."""
    s = connect(host, port)
    if s is None:
        return 0
    try:
        return stolen(talk(s))
    except OSError:
        return 0
    finally:
        s.close()


def ask_old(host, port, cand):
    """The input, asked for as the trampolines did: the secret, a newline."""
    def talk(s):
        s.sendall(cand + b'\n')
        s.shutdown(socket.SHUT_WR)
        return drain(s)
    return ask(host, port, talk)


def proof(key, side, cn, sn, client, server, version=1):
    msg = ('ensemble-stdin/%d %s %s %s %s:%d>%s:%d' % (
        version, side, cn.decode(), sn.decode(), client[0], client[1],
        server[0], server[1])).encode()
    return hmac.new(key, msg, hashlib.sha256).hexdigest().encode()


def ask_v1(host, port, cand):
    """The input, asked for with the first handshake, cand taken for the
    key."""
    def talk(s):
        me, peer = s.getsockname(), s.getpeername()
        cn = os.urandom(16).hex().encode()
        s.sendall(cn + b'\n')
        ch = b''
        while len(ch) < 97:
            b = s.recv(97 - len(ch))
            if not b:
                return b''
            ch += b
        s.sendall(proof(cand, 'client', cn, ch[:32], me, peer) + b'\n')
        s.shutdown(socket.SHUT_WR)
        return drain(s)
    return ask(host, port, talk)


def ask_new(host, port, cand):
    """The input, asked for with a trampoline's first message (auth.h),
    cand taken for the key, for each of a few names of processes."""
    def talk(name):
        def say(s):
            me, peer = s.getsockname(), s.getpeername()
            cn = os.urandom(16).hex().encode()
            h = hashlib.sha256(name).hexdigest()
            pid = hmac.new(cand, b'ensemble-stdin/2 process ' + h.encode(),
                           hashlib.sha256).hexdigest().encode()
            s.sendall(cn + pid +
                      proof(cand, 'client', cn, pid, me, peer, 2) + b'\n')
            s.shutdown(socket.SHUT_WR)
            return drain(s)
        return say
    return sum(ask(host, port, talk(b'readstdin[%d]' % i)) for i in (1, 2, 3))


def candidates():
    """Every 32-hex-digit string in what this user can read of /proc, those
    of ensemble's processes first."""
    found, first = set(), []
    for pid in os.listdir('/proc'):
        if not pid.isdigit():
            continue
        try:
            with open('/proc/%s/comm' % pid) as f:
                ours = f.read().startswith('ensemble')
        except OSError:
            continue
        for what in ('cmdline', 'environ'):
            try:
                with open('/proc/%s/%s' % (pid, what), 'rb') as f:
                    data = f.read()
            except OSError:
                continue
            # Tokens are %XX-encoded in appfile words: decode them too.
            data += b'\0' + re.sub(rb'%([0-9A-F]{2})',
                                   lambda m: bytes([int(m.group(1), 16)]), data)
            for c in HEX.findall(data):
                if ours and c not in first:
                    first.append(c)
                found.add(c)
    return first + sorted(found - set(first))


def hold(host, port, n, stop, until, out, ready):
    socks, opened, closed = [], 0, 0
    while not done(stop, until):
        for s in list(socks):
            s.setblocking(False)
            try:
                if s.recv(1, socket.MSG_PEEK) == b'':
                    raise OSError
            except BlockingIOError:
                continue
            except OSError:
                pass
            socks.remove(s)
            s.close()
            closed += 1
        while len(socks) < n:
            s = connect(host, port)
            if s is None:
                break
            try:
                s.sendall(b'0')
            except OSError:
                pass
            socks.append(s)
            opened += 1
        if ready and len(socks) >= n and not os.path.exists(ready):
            open(ready, 'w').close()
        time.sleep(0.01)
    report(out, opened=opened, closed=closed)


def flood(host, port, n, stop, until, out, ready):
    # In 4 processes, each with a quarter: one is too slow to open more
    # than 64 within a trampoline's round trip (the first handshake's).
    kids = []
    for k in range(4):
        pid = os.fork()
        if pid == 0:
            try:
                flood1(host, port, n // 4, stop, until, '%s.%d' % (out, k),
                       ready)
            finally:
                os._exit(0)
        kids.append(pid)
    for pid in kids:
        os.waitpid(pid, 0)
    total = {}
    for k in range(4):
        try:
            with open('%s.%d' % (out, k)) as f:
                for line in f:
                    w, v = line.split()
                    total[w] = total.get(w, 0) + int(v)
        except OSError:
            pass
    report(out, **total)


def flood1(host, port, n, stop, until, out, ready):
    says = [b'', b'0', b'0' * 100]
    socks, opened, closed, k = {}, 0, 0, 0
    while not done(stop, until):
        while len(socks) < n:
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setblocking(False)
            e = s.connect_ex((host, port))
            if e not in (0, errno.EINPROGRESS):
                s.close()
                break
            socks[s] = [says[k % len(says)], False]
            k += 1
            opened += 1
        if ready and not os.path.exists(ready):
            open(ready, 'w').close()
        rd = list(socks)
        wr = [s for s, v in socks.items() if not v[1]]
        r, w, _ = select.select(rd, wr, [], 0.05)
        for s in w:
            if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0:
                socks[s][1] = True
                try:
                    s.send(socks[s][0])
                except OSError:
                    pass
        for s in r:
            try:
                if s.recv(1, socket.MSG_PEEK) != b'':
                    continue
            except BlockingIOError:
                continue
            except OSError:
                pass
            del socks[s]
            s.close()
            closed += 1
    for s in socks:
        s.close()
    report(out, opened=opened, closed=closed)


def hammer(host, port, stop, until, out, ready):
    socks, opened, k = [], 0, 0
    junk = [b'', b'x' * 33, b'0' * 32 + b'\n', b'\n' * 200, b'0' * 32 + b'\n' +
            b'f' * 64 + b'\n']
    while not done(stop, until):
        s = connect(host, port, 0.2)
        if s is None:
            time.sleep(0.01)
            continue
        opened += 1
        try:
            s.sendall(junk[k % len(junk)])
        except OSError:
            pass
        k += 1
        socks.append(s)
        if ready and not os.path.exists(ready):
            open(ready, 'w').close()
        if len(socks) > 200:
            socks.pop(0).close()
    for s in socks:
        s.close()
    report(out, opened=opened)


def steal(host, port, stop, until, out, ready):
    # Connections opened first, before any trampoline's, to say a
    # candidate on when it appears (as the trampolines did).
    held = [s for s in (connect(host, port) for k in range(4)) if s]
    tried, thefts = set(), 0
    if ready:
        open(ready, 'w').close()
    while not done(stop, until):
        for c in candidates():
            if c in tried:
                continue
            tried.add(c)
            if held:
                s = held.pop(0)
                try:
                    s.sendall(c + b'\n')
                    s.shutdown(socket.SHUT_WR)
                    thefts += stolen(drain(s))
                except OSError:
                    pass
                s.close()
            thefts += (ask_old(host, port, c) + ask_v1(host, port, c) +
                       ask_new(host, port, c))
        time.sleep(0.02)
    report(out, candidates=len(tried), stolen=thefts)


def impostor(addr, port, host, stop, until, out, ready):
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((addr, port))
    ls.listen(64)
    ls.settimeout(0.1)
    if ready:
        open(ready, 'w').close()
    connected, thefts = 0, 0
    while not done(stop, until):
        try:
            s, _ = ls.accept()
        except OSError:
            continue
        connected += 1
        said = drain(s, 0.5)
        s.close()
        for c in set(HEX.findall(said)):
            thefts += (ask_old(host, port, c) + ask_v1(host, port, c) +
                       ask_new(host, port, c))
    report(out, connected=connected, stolen=thefts)


def main(a):
    mode = a[0]
    if mode == 'hold':
        hold(a[1], int(a[2]), int(a[3]), a[4], time.time() + float(a[5]), a[6],
             a[7] if len(a) > 7 else None)
    elif mode == 'flood':
        flood(a[1], int(a[2]), int(a[3]), a[4], time.time() + float(a[5]),
              a[6], a[7] if len(a) > 7 else None)
    elif mode == 'hammer':
        hammer(a[1], int(a[2]), a[3], time.time() + float(a[4]), a[5],
               a[6] if len(a) > 6 else None)
    elif mode == 'steal':
        steal(a[1], int(a[2]), a[3], time.time() + float(a[4]), a[5],
              a[6] if len(a) > 6 else None)
    elif mode == 'impostor':
        impostor(a[1], int(a[2]), a[3], a[4], time.time() + float(a[5]), a[6],
                 a[7] if len(a) > 7 else None)
    else:
        sys.exit('intruder.py: unknown mode ' + mode)


main(sys.argv[1:])
