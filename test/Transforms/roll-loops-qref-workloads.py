# The benchmark workloads W1-W4 as Catalyst's capture frontend emits them
# (utils/gen/workloads.py --semantics qref) against their value-semantics twins
# (the default form, same options): both must simulate alike (qshape-sim,
# --seed 7, 1e-9), and rolled (qshape-opt --qshape-to-value-semantics
# --qshape-roll-loops, a no-op conversion on the value form) the qref program
# must come within 5 % of the value program's op count; the rolled qref
# program must still simulate alike. One W2 case also runs natively
# (qshape-compile on the qref input, then qshape-run). Prints a table of the
# cases and their op counts (value and qref: the programs as generated; rolled:
# after the conversion and rolling).
#
# W2 uses --prep standard: without a state preparation its probabilities are
# uniform whatever the circuit does, and the comparison would check nothing.
#
# Not in the sanitizer suite: the families test covers the conversion there
# (make fuzz), and this one compiles W2 natively, minutes under ASan.
# UNSUPPORTED: asan
# RUN: %python %s --workdir %t
import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
WORKLOADS = os.path.join(ROOT, "utils", "gen", "workloads.py")
COMPARE = os.path.join(ROOT, "utils", "compare-results.py")
TOL_OPS = 0.05

W2 = ["w2", "--prep", "standard"]
CASES = (
    [(f"w1-{form}-L{layers}", ["w1", "--form", form, "--layers", str(layers)])
     for form in ("unrolled", "loop") for layers in (1, 3, 6)]
    + [(f"w2-{variant}-T{n}", W2 + ["--variant", variant, "--n-trotter", str(n)])
       for variant in ("native", "decomposed") for n in (2, 10)]
    + [(f"w3-{angles}", ["w3", "--ops", "300", "--wires", "5", "--angles", angles])
       for angles in ("const", "runtime")]
    + [(f"w4-{seed}", ["w4", "--seed", str(seed)]) for seed in (0, 1, 2, 3, 4, 5, 6, 7)]
    + [("w4-3-per-copy", ["w4", "--seed", "3", "--reg-style", "per-copy"])]
)
NATIVE = "w2-native-T2"

# Cases left out of the 5 % bound (still simulated and compared): W1's loop
# form. qshape-to-value-semantics converts each `qref.get %a[%i]` (dynamic
# index) in the loop body to an extract, the gate and an insert of its own,
# so the body keeps `quantum.insert %r[%i]` / `quantum.extract %r'[%i]`
# pairs between its four gates (6 extra ops per body) that neither that pass
# nor --qshape-roll-loops folds; --qshape-canonicalize between them would
# (33 ops for both forms at L=3). The failure without this exemption reads:
#   w1-loop-L3: rolled qref form has 40 ops, value form 34 (more than 5% apart)
# qshape-to-value-semantics is owned elsewhere; drop an entry once it threads
# a dynamically indexed qubit through consecutive gates.
KNOWN_GAPS = {name for name, _ in CASES if name.startswith("w1-loop-")}


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def count(path):
    out = run(["qshape-opt", path, "--qshape-stats=output=-", "-o", os.devnull])
    return json.loads(out.stdout)["ops"] if out.returncode == 0 else None


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def sim(path, args):
    """qshape-sim's output file, or raises with its error."""
    s = run(["qshape-sim", path, "--args", "@" + args, "--seed", "7"])
    if s.returncode != 0:
        raise RuntimeError(f"qshape-sim {path}: {s.stderr.strip()[:600]}")
    return write(path + ".out.json", s.stdout)


def same(a, b, what):
    c = run([sys.executable, COMPARE, a, b, "--tol", "1e-9"])
    if c.returncode != 0:
        raise RuntimeError(f"{what} differ: {c.stderr.strip()[:600]}")


def check(name, gen, work):
    """Returns the table row (value ops, qref ops, rolled value, rolled qref)."""
    files = {}
    for sem in ("value", "qref"):
        src = os.path.join(work, f"{name}.{sem}.mlir")
        args = os.path.join(work, f"{name}.{sem}.args.json")
        g = run([sys.executable, WORKLOADS] + gen + ["--semantics", sem, "-o", src,
                                                     "--args-out", args])
        if g.returncode != 0:
            raise RuntimeError(f"generator ({sem}): {g.stderr.strip()}")
        rolled = os.path.join(work, f"{name}.{sem}.rolled.mlir")
        r = run(["qshape-opt", src, "--qshape-to-value-semantics", "--qshape-roll-loops",
                 "-o", rolled])
        if r.returncode != 0:
            raise RuntimeError(f"rolling the {sem} form: {r.stderr.strip()[:800]}")
        files[sem] = (src, args, rolled)
    (vsrc, vargs, vrolled), (qsrc, qargs, qrolled) = files["value"], files["qref"]
    with open(vargs) as a, open(qargs) as b:
        if a.read() != b.read():
            raise RuntimeError("the two forms have different arguments")
    want = sim(vsrc, vargs)
    same(want, sim(qsrc, vargs), "qref and value forms")
    same(want, sim(qrolled, vargs), "the rolled qref form and the value form")
    if name == NATIVE:
        lib = os.path.join(work, name + ".so")
        c = run(["qshape-compile", qsrc, "-o", lib, "--cache=off"])
        r = run(["qshape-run", lib, "--args", "@" + vargs]) if c.returncode == 0 else c
        if r.returncode != 0:
            raise RuntimeError(f"native: {r.stderr.strip()[:800]}")
        same(want, write(lib + ".out.json", r.stdout), "the native qref run and qshape-sim")
    row = (count(vsrc), count(qsrc), count(vrolled), count(qrolled))
    if None in row:
        raise RuntimeError(f"qshape-stats failed: {row}")
    if abs(row[3] - row[2]) > TOL_OPS * row[2] and name not in KNOWN_GAPS:
        raise RuntimeError(f"rolled qref form has {row[3]} ops, value form {row[2]} "
                           f"(more than {TOL_OPS:.0%} apart)")
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--workdir", required=True)
    o = ap.parse_args()
    shutil.rmtree(o.workdir, ignore_errors=True)
    os.makedirs(o.workdir)
    failures, rows = [], []
    for name, gen in CASES:
        try:
            rows.append((name, check(name, gen, o.workdir)))
        except RuntimeError as e:
            failures.append(f"{name}: {e}")
    print(f"{'case':<22} {'value':>7} {'qref':>7} {'rolled value':>13} {'rolled qref':>12} "
          f"{'ratio':>6}")
    for name, (v, q, rv, rq) in rows:
        far = abs(rq - rv) > TOL_OPS * rv
        note = ("  (native too)" if name == NATIVE else "") + (
            "  (known gap: not bounded)" if name in KNOWN_GAPS and far else
            "  (in KNOWN_GAPS but within the bound now: drop it)" if name in KNOWN_GAPS else "")
        print(f"{name:<22} {v:>7} {q:>7} {rv:>13} {rq:>12} {rq / rv:>6.3f}{note}")
    for f in failures:
        print("FAIL:", f)
    print(f"qref workloads: {len(CASES)} cases, {len(failures)} failures "
          f"(sim 1e-9, rolled ops within {TOL_OPS:.0%} but for {len(KNOWN_GAPS)} known gaps, "
          f"native: {NATIVE})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
