#!/usr/bin/env python3
"""compare.py -- ensemble's model checker against the oracle (oracle.py).

Random scripts from the checker's own generator (difftest-gen, with -P:
sendrecv, named requests, wait, test, waitany, waitsome, probe, iprobe
and the receive of a probed message among the rest), each checked in
both send modes by 'ensemble verify --exact --json' and by the oracle on
'ensemble graph --pcg' of it: verdicts and violation kinds must agree,
and so must state and transition counts where the oracle's states are
the checker's (oracle.py, join_sets).  Scripts the oracle does not model
or cannot finish are counted, not compared.

usage: compare.py [-s SEED] [-n COUNT] [-f FIRST] [-j JOBS] [-k DIR]
                  [--all] [--max-states N]
  --all   the generator's every kind of script, not only -P's
Needs ENSEMBLE (the ensemble program) and GEN (difftest-gen) in the
environment.  Each disagreement is printed and kept in DIR (default
./oracle-failures): m-I.pcg, m-I.ensemble.json (verify --exact --json)
and m-I.oracle.json.  Prints a summary; exit 1 on a disagreement, 2 on
bad usage.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor

sys.dont_write_bytecode = True     # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (beside this file)

MODES = ("buffered", "synchronous")


def usage():
    sys.stderr.write("usage: compare.py [-s SEED] [-n COUNT] [-f FIRST] "
                     "[-j JOBS] [-k DIR] [--all] [--max-states N]\n")
    sys.exit(2)


def one(ens, work, i, model, max_states):
    """Check one model both ways: (i, ensemble's result, the oracle's).
    Runs in a worker process, the oracle in it."""
    m = os.path.join(work, model)
    dot = subprocess.run([ens, "graph", m, "--pcg", "-o", "-"],
                         capture_output=True, timeout=60)
    exp = subprocess.run([ens, "expand", m], capture_output=True, timeout=60)
    ver = subprocess.run([ens, "verify", "--exact", "--json", m],
                         capture_output=True, timeout=300)
    try:
        ours = json.loads(ver.stdout.decode())
    except ValueError:
        ours = {"error": ver.stderr.decode()[-500:]}
    try:
        theirs = oracle.analyse(dot.stdout.decode("utf-8", "surrogateescape"),
                                exp.stdout.decode("utf-8", "surrogateescape"),
                                max_states)
    except Exception as e:     # an oracle's fault: shown, not fatal
        theirs = {"error": "%s: %s" % (type(e).__name__, e)}
    return i, ours, theirs


def summary(res):
    """A mode's result of ensemble: (verdict or verdict/kind, states,
    transitions)."""
    v = res.get("verdict", "error")
    if v == "violated":
        v = "violated/" + res["violations"][0]["kind"]
    return v, res.get("states"), res.get("transitions")


def osummary(res):
    v = res.get("verdict", "error")
    if v == "violated":
        v = "violated/" + res["kind"]
    return v, res.get("states"), res.get("transitions")


def main(argv):
    seed, count, first, jobs, keep = 1, 100, 0, 2, "./oracle-failures"
    allkinds, max_states = False, 100000
    args = list(argv[1:])
    while args:
        a = args.pop(0)
        if a in ("-s", "-n", "-f", "-j", "-k", "--max-states") and args:
            v = args.pop(0)
            if a == "-k":
                keep = v
                continue
            try:
                v = int(v)
            except ValueError:
                usage()
            if a == "-s":
                seed = v
            elif a == "-n":
                count = v
            elif a == "-f":
                first = v
            elif a == "-j":
                jobs = max(1, v)
            else:
                max_states = v
        elif a == "--all":
            allkinds = True
        else:
            usage()
    ens, gen = os.environ.get("ENSEMBLE"), os.environ.get("GEN")
    if not ens or not gen:
        sys.stderr.write("compare.py: set ENSEMBLE and GEN\n")
        return 2
    work = tempfile.mkdtemp(prefix="oracle.")
    try:
        return run(ens, gen, work, seed, count, first, jobs, keep, allkinds,
                   max_states)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(ens, gen, work, seed, count, first, jobs, keep, allkinds,
        max_states):
    g = subprocess.run([gen, "-s", str(seed), "-f", str(first), "-n",
                        str(count), "-o", work] + ([] if allkinds else
                                                   ["-P"]),
                       capture_output=True)
    if g.returncode != 0:
        sys.stderr.write(g.stderr.decode())
        return 2
    models, skipped = [], {"static": 0, "large": 0}
    for line in g.stdout.decode().splitlines():
        f = line.split()
        if f[1] == "-":
            skipped[f[2]] = skipped.get(f[2], 0) + 1
        else:
            models.append((int(f[0]), f[1]))
    stats = {"checks": 0, "agree": 0, "kinds": {}, "counts": 0,
             "counts_agree": 0, "copies": 0, "unsupported": 0,
             "incomplete": 0, "why": {}}
    bad = []
    with ProcessPoolExecutor(max_workers=jobs) as ex:
        futs = [ex.submit(one, ens, work, i, m, max_states)
                for i, m in models]
        for fut in futs:
            i, ours, theirs = fut.result()
            wrong = []
            for mode in MODES:
                stats["checks"] += 1
                o = ours.get("modes", {}).get(mode)
                t = theirs.get(mode)
                if o is None or t is None:
                    wrong.append((mode, "error", str(ours.get("error")) +
                                  " / " + str(theirs.get("error"))))
                    continue
                ov, os_, ot = summary(o)
                tv, ts, tt = osummary(t)
                if tv == "unsupported":
                    stats["unsupported"] += 1
                    w = t.get("why", "?").split(":")[-1].strip()
                    stats["why"][w] = stats["why"].get(w, 0) + 1
                    continue
                if tv == "incomplete" or ov == "incomplete":
                    stats["incomplete"] += 1
                    continue
                if ov != tv:
                    wrong.append((mode, ov, tv))
                    continue
                stats["agree"] += 1
                stats["kinds"][ov] = stats["kinds"].get(ov, 0) + 1
                if t.get("copies"):
                    stats["copies"] += 1
                    continue
                stats["counts"] += 1
                if (os_, ot) == (ts, tt):
                    stats["counts_agree"] += 1
                else:
                    wrong.append((mode, "%s %s/%s" % (ov, os_, ot),
                                  "%s %s/%s" % (tv, ts, tt)))
            if wrong:
                bad.append(i)
                os.makedirs(keep, exist_ok=True)
                shutil.copy(os.path.join(work, "m-%d.pcg" % i), keep)
                with open(os.path.join(keep, "m-%d.ensemble.json" % i),
                          "w") as f:
                    json.dump(ours, f)
                    f.write("\n")
                with open(os.path.join(keep, "m-%d.oracle.json" % i),
                          "w") as f:
                    json.dump(theirs, f)
                    f.write("\n")
                for mode, ov, tv in wrong:
                    print("DISAGREE model %d (seed %d), %s mode: ensemble %s,"
                          " oracle %s: kept in %s/m-%d.pcg" %
                          (i, seed, mode, ov, tv, keep, i))
            sys.stdout.flush()
    print("seed %d: %d scripts, %d models (%d refused statically, %d too "
          "large), %d checks" % (seed, count, len(models), skipped["static"],
                                 skipped["large"], stats["checks"]))
    print("verdicts agree: %d (%s)" % (stats["agree"], ", ".join(
        "%s %d" % kv for kv in sorted(stats["kinds"].items()))))
    print("counts agree: %d of %d compared (%d with copies of code after "
          "a join, not compared)" % (stats["counts_agree"], stats["counts"],
                                     stats["copies"]))
    print("not compared: %d unsupported by the oracle%s, %d incomplete" % (
        stats["unsupported"], "".join(" [%s: %d]" % kv for kv in
                                      sorted(stats["why"].items())),
        stats["incomplete"]))
    print("disagreements: %d" % len(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
