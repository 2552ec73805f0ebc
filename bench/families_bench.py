"""make bench sections `families` and `nesting` (bench/run.py).

families: per family of utils/gen/families.py, size and form (value, qref), the unrolled and rolled
op counts, and the roll pass's time against the parse (qshape-opt
--mlir-timing, best of --repeat).
nesting: the time of qshape-canonicalize, qshape-roll-loops and a whole
qshape-compile on families.nested(depth), depth 1 to 64.
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "utils", "gen"))
import families  # noqa: E402

PARSER = re.compile(r"([0-9.]+) \(\s*[0-9.]+%\)\s+Parser")
FAMILY_SIZES = [("hea", 6, 12), ("hea", 6, 120), ("qaoa", 6, 16), ("qaoa", 6, 160),
                ("feedback", 2, 10), ("feedback", 2, 100), ("grover", 5, 10), ("grover", 5, 100)]
DEPTHS = [1, 2, 4, 8, 16, 22, 32, 64]


def pass_time(opt, path, flags, names, repeat):
    """(passes s, parse s), best of `repeat` runs; `names` are the passes'
    --mlir-timing rows, summed."""
    best = None
    for _ in range(repeat):
        p = subprocess.run([opt, path, *flags, "--mlir-timing", "-o", os.devnull],
                           capture_output=True, text=True, check=True)
        t = sum(float(re.search(r"([0-9.]+) \(\s*[0-9.]+%\)\s+" + name + "\n", p.stderr).group(1))
                for name in names)
        parse = float(PARSER.search(p.stderr).group(1))
        best = (t, parse) if best is None or t < best[0] else best
    return best


def ops(opt, path):
    """The module's op count; of its value-semantics form for qref input
    (qshape-stats converts a copy)."""
    p = subprocess.run([opt, path, "--qshape-stats=output=-", "-o", os.devnull],
                       capture_output=True, text=True, check=True)
    return json.loads(p.stdout)["ops"]


# The value form, and the qref form of Catalyst's capture frontend, which is
# rolled by one command that converts it first.
FORMS = [("value", "first", ["--qshape-roll-loops"], ["QShapeRollLoops"]),
         ("qref", "qref", ["--qshape-to-value-semantics", "--qshape-roll-loops"],
          ["QShapeToValueSemantics", "QShapeRollLoops"])]


def families_bench(bindir, work, args):
    opt = os.path.join(bindir, "qshape-opt")
    cmd = f"python3 bench/run.py --build {args.build} --sections families --repeat {args.repeat}"
    print("## Rolling the families users write (utils/gen/families.py)\n")
    print(f"Command: `{cmd}`\n")
    print("qref rows: the capture frontend's form, rolled by `qshape-opt "
          "--qshape-to-value-semantics --qshape-roll-loops` (its time is both passes'); "
          "op counts are of the value-semantics form.\n")
    print("| family | form | wires | layers | unrolled ops | rolled ops | rolled / unrolled "
          "| roll (ms) | parse (ms) | roll / parse |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    rows = []
    for fam, wires, layers in FAMILY_SIZES:
        for label, form, flags, names in FORMS:
            text, _ = families.build(fam, wires, layers, form=form)
            src = os.path.join(work, f"family-{fam}-{wires}-{layers}-{label}.mlir")
            rolled = src.replace(".mlir", ".rolled.mlir")
            with open(src, "w") as f:
                f.write(text)
            subprocess.run([opt, src, *flags, "-o", rolled], check=True)
            roll, parse = pass_time(opt, src, flags, names, args.repeat)
            before, after = ops(opt, src), ops(opt, rolled)
            rows.append(dict(family=fam, form=label, wires=wires, layers=layers, unrolled=before,
                             rolled=after, roll_s=roll, parse_s=parse))
            print(f"| {fam} | {label} | {wires} | {layers} | {before} | {after} "
                  f"| {after / before:.3f} | {roll * 1e3:.1f} | {parse * 1e3:.1f} "
                  f"| {roll / parse:.2f} |")
    print()
    with open(os.path.join(work, "families.json"), "w") as f:
        json.dump({"command": cmd, "rows": rows}, f, indent=1)


def nesting_bench(bindir, work, args):
    opt = os.path.join(bindir, "qshape-opt")
    compile_ = os.path.join(bindir, "qshape-compile")
    cmd = f"python3 bench/run.py --build {args.build} --sections nesting --repeat {args.repeat}"
    print("## Nesting depth (utils/gen/families.py nested)\n")
    print(f"Command: `{cmd}`\n")
    print("| depth | canonicalize (ms) | roll (ms) | qshape-compile, wall (ms) |")
    print("|---:|---:|---:|---:|")
    rows = []
    for depth in DEPTHS:
        src = os.path.join(work, f"nested-{depth}.mlir")
        with open(src, "w") as f:
            f.write(families.nested(depth))
        canon, _ = pass_time(opt, src, ["--qshape-canonicalize"], ["QShapeCanonicalize"], args.repeat)
        roll, _ = pass_time(opt, src, ["--qshape-roll-loops"], ["QShapeRollLoops"], args.repeat)
        walls = []
        for _ in range(args.repeat):
            p = subprocess.run(["/usr/bin/time", "-f", "@@%e", compile_, src, "-o",
                                os.path.join(work, "nested.so"), "--cache=off"],
                               capture_output=True, text=True, check=True)
            walls.append(float(p.stderr.strip().splitlines()[-1][2:]))
        wall = min(walls)
        rows.append(dict(depth=depth, canonicalize_s=canon, roll_s=roll, compile_s=wall))
        print(f"| {depth} | {canon * 1e3:.1f} | {roll * 1e3:.1f} | {wall * 1e3:.0f} |")
    print()
    with open(os.path.join(work, "nesting.json"), "w") as f:
        json.dump({"command": cmd, "rows": rows}, f, indent=1)
