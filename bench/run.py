#!/usr/bin/env python3
"""`make bench`: qshape's benchmarks, printed as Markdown for docs/benchmarks.md.

1. Fingerprint cost vs parse cost on W3 modules of 10^4, 10^5, 10^6 ops
   (target: fingerprint <= 0.3x parse at 10^5, linear growth).
2. State-vector simulator throughput on a 20-qubit circuit.
Ratios are taken within one run (the machine is noisy); each timing is the
best of --repeat runs.
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def gen_w3(ops, path):
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(HERE, "workloads.py"), "w3", "--ops", str(ops),
                        "--angles", "const", "-o", path], check=True)


def fingerprint_times(tool, path, repeat):
    best = None
    for _ in range(repeat):
        out = subprocess.run([tool, "--timing", path], capture_output=True, text=True, check=True)
        m = re.search(r"parse ([0-9.e+-]+) s, fingerprint ([0-9.e+-]+) s", out.stderr)
        t = (float(m.group(1)), float(m.group(2)))
        best = t if best is None or t[1] < best[1] else best
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--build", default="build")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sizes", default="10000,100000,1000000")
    args = ap.parse_args()
    bindir = os.path.join(args.build, "bin")
    work = os.path.join(args.build, "bench")
    os.makedirs(work, exist_ok=True)

    print("## Fingerprint vs parse (W3, baked angles)\n")
    print(f"Command: `python3 bench/run.py --build {args.build} --repeat {args.repeat}`\n")
    print("| ops | parse (s) | fingerprint (s) | fingerprint / parse |")
    print("|---:|---:|---:|---:|")
    rows = []
    for n in [int(s) for s in args.sizes.split(",")]:
        path = os.path.join(work, f"w3-{n}.mlir")
        gen_w3(n, path)
        parse, fp = fingerprint_times(os.path.join(bindir, "qshape-fingerprint"), path,
                                      1 if n >= 10**6 else args.repeat)
        rows.append((n, parse, fp))
        print(f"| {n} | {parse:.3f} | {fp:.3f} | {fp / parse:.2f} |", flush=True)
    if len(rows) > 1:
        (n0, _, f0), (n1, _, f1) = rows[0], rows[-1]
        print(f"\nGrowth: fingerprint time x{f1 / f0:.1f} for x{n1 // n0} ops.\n")

    print("## Simulator throughput\n")
    print(f"Command: `{bindir}/qshape-sim-bench`\n")
    out = subprocess.run([os.path.join(bindir, "qshape-sim-bench")], capture_output=True, text=True)
    print("```\n" + out.stdout.strip() + "\n```")


if __name__ == "__main__":
    sys.exit(main())
