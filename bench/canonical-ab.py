#!/usr/bin/env python3
"""Canonical form and fingerprint time of two builds, interleaved.

Runs qshape-fingerprint --timing and qshape-opt --qshape-canonicalize
--mlir-timing of build A and build B in turns (A B, then B A, ...) on the same
W3 modules, so that both see the same load on a shared machine, and prints
per build the median parse time, pass time and the median of the per-run
pass/parse ratios (each ratio taken within one process). For comparing a
branch with main:

  python3 bench/canonical-ab.py --a build --b /work/main/build --sizes 10000,100000 --reps 6

Modules are generated (utils/gen/workloads.py w3) into --work, shared with
bench/run.py (<build A>/bench) unless given. Nothing is written into build B.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PARSER = re.compile(r"([0-9.]+) \(\s*[0-9.]+%\)\s+Parser")
CANON = re.compile(r"([0-9.]+) \([ 0-9.]+%\)\s+QShapeCanonicalize")
FPRINT = re.compile(r"parse ([0-9.e+-]+) s, fingerprint ([0-9.e+-]+) s")


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True, help="build directory A (its bin/ is used)")
    ap.add_argument("--b", required=True, help="build directory B (its bin/ is used, read only)")
    ap.add_argument("--sizes", default="10000,100000", help="W3 op counts, comma-separated")
    ap.add_argument("--reps", type=int, default=6, help="runs per build and size")
    ap.add_argument("--work", help="where the W3 modules are (default <A>/bench)")
    args = ap.parse_args()
    work = args.work or os.path.join(args.a, "bench")
    os.makedirs(work, exist_ok=True)
    builds = {"A": os.path.join(args.a, "bin"), "B": os.path.join(args.b, "bin")}
    print(f"A = {args.a}, B = {args.b}; median of {args.reps} interleaved runs\n")
    print("| ops | build | parse (s) | fingerprint (s) | fingerprint / parse "
          "| parse (s) | qshape-canonicalize (s) | canonicalize / parse |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    for n in [int(x) for x in args.sizes.split(",")]:
        path = os.path.join(work, f"w3-{n}.mlir")
        if not os.path.exists(path):
            subprocess.run([sys.executable, os.path.join(HERE, "..", "utils", "gen", "workloads.py"), "w3", "--ops", str(n),
                            "--angles", "const", "-o", path], check=True)
        res = {b: {"fp": [], "fpparse": [], "can": [], "canparse": []} for b in builds}
        for r in range(args.reps):
            for b in (list(builds) if r % 2 == 0 else list(builds)[::-1]):
                m = FPRINT.search(run([os.path.join(builds[b], "qshape-fingerprint"), "--timing", path]))
                res[b]["fpparse"].append(float(m.group(1)))
                res[b]["fp"].append(float(m.group(2)))
                err = run([os.path.join(builds[b], "qshape-opt"), path, "--qshape-canonicalize",
                           "--mlir-timing", "--verify-each=0", "-o", os.devnull])
                res[b]["can"].append(float(CANON.search(err).group(1)))
                res[b]["canparse"].append(float(PARSER.search(err).group(1)))
        for b, d in res.items():
            med = lambda xs: statistics.median(xs)
            fr = med([f / p for f, p in zip(d["fp"], d["fpparse"])])
            cr = med([c / p for c, p in zip(d["can"], d["canparse"])])
            print(f"| {n} | {b} | {med(d['fpparse']):.3f} | {med(d['fp']):.3f} | {fr:.3f} "
                  f"| {med(d['canparse']):.3f} | {med(d['can']):.3f} | {cr:.3f} |", flush=True)


if __name__ == "__main__":
    main()
