#!/usr/bin/env python3
"""Digests of what a refactoring must keep: for W1-W4 (utils/gen/workloads.py),
in value and qref form, the fingerprints and the SHA-256 of the rolled and
canonical outputs. Run it on a build before and after a change and diff:

    utils/keep-digests.py --build build > before.txt
    ... change, rebuild ...
    utils/keep-digests.py --build build > after.txt && diff before.txt after.txt

Prints one line per program and output; nothing else.
"""

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (name, workloads.py arguments)
PROGRAMS = [
    ("w1-unrolled", ["w1", "--wires", "12", "--layers", "3", "--op", "PauliY"]),
    ("w1-loop", ["w1", "--wires", "12", "--layers", "3", "--form", "loop"]),
    ("w2-native", ["w2", "--n-trotter", "10"]),
    ("w2-decomposed", ["w2", "--n-trotter", "10", "--variant", "decomposed"]),
    ("w3", ["w3", "--ops", "10000"]),
] + [(f"w4-seed{s}", ["w4", "--seed", str(s)]) for s in range(8)]


def run(cmd):
    p = subprocess.run(cmd, capture_output=True)
    if p.returncode != 0:
        sys.exit(f"keep-digests: {' '.join(cmd)} failed ({p.returncode}):\n"
                 + p.stderr.decode(errors="replace"))
    return p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(SRC, "build"), help="the build directory")
    args = ap.parse_args()
    opt = os.path.join(args.build, "bin", "qshape-opt")
    fingerprint = os.path.join(args.build, "bin", "qshape-fingerprint")
    with tempfile.TemporaryDirectory() as work:
        for name, gen in PROGRAMS:
            for semantics in ("value", "qref"):
                path = os.path.join(work, f"{name}-{semantics}.mlir")
                run([sys.executable, os.path.join(SRC, "utils", "gen", "workloads.py"), *gen,
                     "--semantics", semantics, "-o", path])
                label = f"{name} {semantics}"
                print(f"{label} fingerprint " + " ".join(run([fingerprint, path]).decode().split()[0:2]))
                for stage in ("roll-loops", "canonicalize"):
                    out = run([opt, path, f"--qshape-{stage}"])
                    print(f"{label} {stage} sha256:{hashlib.sha256(out).hexdigest()}")


if __name__ == "__main__":
    main()
