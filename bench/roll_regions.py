#!/usr/bin/env python3
"""Where the ops of a rolled W2 program are: counts by region, for the
roll-scale analysis in docs/benchmarks-log.md.

    python3 bench/roll_regions.py ROLLED.mlir [...]

Reads qshape-opt's printed form of a W2 module rolled into its loop of
loops (four controlled blocks over an inner loop of Trotter steps): the
indentation tells the function body (4 spaces), the outer loop's body (6)
and the inner loop's body (8 or more, one Trotter step and its yield).
Function-level ops are split into constants, parameter reads
(`tensor.extract` of the argument), the prologue before the loop (device,
alloc, extracts), and after it the QFT (extracts and gates) and the
epilogue (observable, inserts, measurement, dealloc, release, return). The
total leaves out the module and the function (qshape-stats counts them).
Python 3.11 standard library only.
"""
import collections
import re
import sys

OP = re.compile(r'(?:%[\w#:, %]+ = )?"?([a-z_]+\.[a-z_]+)')


def regions(path):
    counts = collections.Counter()
    after_loop = False
    with open(path) as f:
        for line in f:
            text = line.strip()
            if not text or text == "}" or text.startswith(("module", "func.func")):
                continue
            m = OP.match(text)
            if not m:
                continue
            name, indent = m.group(1), len(line) - len(line.lstrip(" "))
            if indent >= 8:
                region = "inner loop body (one Trotter step and its yield)"
            elif indent == 6:
                region = "outer loop body (wire index, control read and write-back, " \
                         "table reads, angle products, the inner scf.for, yield)"
            elif name == "scf.for":
                region, after_loop = "outer scf.for", True
            elif name == "arith.constant":
                region = "constants (indices, tables, QFT angles, shots)"
            elif name in ("tensor.extract", "arith.mulf", "tensor.from_elements"):
                region = "parameter reads and products before the loop"
            elif not after_loop:
                region = "prologue (device, alloc, extracts)"
            elif name in ("quantum.custom", "quantum.extract"):
                region = "QFT (extracts and gates)"
            else:
                region = "epilogue (observable, inserts, probs, dealloc, release, return)"
            counts[region] += 1
    return counts


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        counts = regions(path)
        print(f"{path}: {sum(counts.values())} ops (module and function left out)")
        for region, n in counts.items():
            print(f"  {n:6d}  {region}")


if __name__ == "__main__":
    main()
