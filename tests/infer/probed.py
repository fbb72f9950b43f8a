#!/usr/bin/env python3
"""probed.py -- a probe of any port, the message received on the port
its Status names ('probe any as m; recv m;'); a probe of one type, its
index returned; an iprobe that finds one."""
import ensemble


def main():
    """The component."""
    ensemble.init()
    st = ensemble.Status()
    ensemble.probe_any(None, st)
    buf = bytearray(st.count)
    ensemble.recv(st.type, st.port, buf)
    k = ensemble.probe_any("Work", st)
    ensemble.recv("Work", k, buf)
    if ensemble.iprobe_any(None, st):
        ensemble.recv(st.type, st.port, buf)
    ensemble.finalize()


main()
