# qshape-lower-to-llvm on every bundled example and on utils/gen/workloads.py's
# W1-W4 and utils/gen/randcircuit.py's circuits, rolled and as written: the
# output must translate with mlir-translate --mlir-to-llvmir, export
# Catalyst's entry points (setup, teardown, _catalyst_pyface_jit_<name>,
# _mlir_ciface_jit_<name>), and call nothing but Catalyst's runtime,
# libc's allocator and libm.
#
# RUN: %python %s --workdir %t
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
WORKLOADS = os.path.join(ROOT, "utils", "gen", "workloads.py")
RANDCIRCUIT = os.path.join(ROOT, "utils", "gen", "randcircuit.py")
LIBC = {"malloc", "free", "aligned_alloc"}
LIBM = {"cos", "sin", "tan", "acos", "asin", "atan", "atan2", "exp", "log", "pow", "sqrt",
        "cosh", "sinh", "tanh", "erf", "fmod", "round", "trunc", "floor", "ceil",
        "cabs", "carg", "cexp", "clog", "csqrt"}


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def generate(workdir):
    """(name, path) of every input: the examples, then generated ones."""
    inputs = [(os.path.basename(p)[:-5], p)
              for p in sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir")))]
    gens = {
        "w1-unrolled": [WORKLOADS, "w1"],
        "w1-unrolled-L3": [WORKLOADS, "w1", "--layers", "3"],
        "w1-loop-L3": [WORKLOADS, "w1", "--form", "loop", "--layers", "3"],
        "w2-native": [WORKLOADS, "w2", "--n-trotter", "2"],
        "w2-decomposed": [WORKLOADS, "w2", "--n-trotter", "2", "--variant", "decomposed"],
        "w2-flag": [WORKLOADS, "w2", "--n-trotter", "2", "--adjoint-style", "flag"],
        "w3-const": [WORKLOADS, "w3", "--ops", "2000"],
        "w3-runtime": [WORKLOADS, "w3", "--ops", "2000", "--angles", "runtime"],
        "w3-noise": [WORKLOADS, "w3", "--ops", "2000", "--noise-layers", "3",
                     "--reg-style", "per-gate"],
    }
    for seed in range(8):
        gens["w4-%d" % seed] = [WORKLOADS, "w4", "--seed", str(seed)]
        gens["rand-%d" % seed] = [RANDCIRCUIT, "--seed", str(seed)]
    for name, cmd in gens.items():
        path = os.path.join(workdir, name + ".mlir")
        g = run([sys.executable] + cmd + ["-o", path])
        if g.returncode != 0:
            raise SystemExit("generator failed for %s: %s" % (name, g.stderr))
        inputs.append((name, path))
    return inputs


def check(name, path, options, workdir):
    """None when the lowering is fine, else what is wrong."""
    out = os.path.join(workdir, "%s.%s.ll.mlir" % (name, options.replace("=", "").replace(" ", "")))
    r = run(["qshape-opt", path, "--qshape-lower-to-llvm=" + options, "-o", out])
    if r.returncode != 0:
        return "qshape-lower-to-llvm{%s} failed:\n%s" % (options, r.stderr.strip()[:2000])
    t = run(["mlir-translate", "--mlir-to-llvmir", out])
    if t.returncode != 0:
        return "mlir-translate failed:\n%s" % t.stderr.strip()[:2000]
    ir = t.stdout
    defined = set(re.findall(r"^define [^@]*@([\w.$]+)\(", ir, re.M))
    declared = set(re.findall(r"^declare [^@]*@([\w.$]+)\(", ir, re.M))
    for sym in ("setup", "teardown"):
        if sym not in defined:
            return "no %s()" % sym
    entries = {d[len("_mlir_ciface_"):] for d in defined if d.startswith("_mlir_ciface_")}
    if not entries:
        return "no _mlir_ciface_ entry"
    for e in entries:
        if "_catalyst_pyface_" + e not in defined:
            return "no _catalyst_pyface_%s" % e
    foreign = [d for d in declared if not (d.startswith("__catalyst__") or d in LIBC or
                                           d in LIBM or d.startswith("llvm."))]
    if foreign:
        return "calls symbols outside the runtime ABI, libc and libm: %s" % sorted(foreign)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    failures = []
    inputs = generate(args.workdir)
    for name, path in inputs:
        for options in ("roll=true", "roll=false canonicalize=false"):
            err = check(name, path, options, args.workdir)
            if err:
                failures.append("%s {%s}: %s" % (name, options, err))
    for f in failures[:10]:
        print("FAIL:", f)
    print("lower-to-llvm workloads: %d programs x 2 option sets, %d failures"
          % (len(inputs), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
