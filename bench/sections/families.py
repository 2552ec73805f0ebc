"""Sections `families` and `nesting` (utils/gen/families.py).

families: per family, size and form (value, qref), the unrolled and rolled
op counts, the op count of the same program written as loops (families.py
--form loop), and the roll pass's time against the parse (qshape-opt
--mlir-timing, best of --repeat).
nesting: the time of qshape-canonicalize, qshape-roll-loops and a whole
qshape-compile on families.nested(depth), depth 1 to 64.
"""
import json
import os
import re
import subprocess
import sys

from benchlib import MLIR_PARSER, ROOT, Section

sys.path.insert(0, os.path.join(ROOT, "utils"))
from gen import families as generators  # noqa: E402  (utils/gen/families.py)

FAMILY_SIZES = [("hea", 6, 12), ("hea", 6, 120), ("qaoa", 6, 16), ("qaoa", 6, 160),
                ("feedback", 2, 10), ("feedback", 2, 100), ("grover", 5, 10), ("grover", 5, 100)]
DEPTHS = [1, 2, 4, 8, 16, 22, 32, 64]
# The value form, and the qref form of Catalyst's capture frontend, which is
# rolled by one command that converts it first.
FORMS = [("value", "first", ["--qshape-roll-loops"], ["QShapeRollLoops"]),
         ("qref", "qref", ["--qshape-to-value-semantics", "--qshape-roll-loops"],
          ["QShapeToValueSemantics", "QShapeRollLoops"])]


def pass_time(opt, path, flags, names, repeat):
    """(passes s, parse s), best of `repeat` runs; `names` are the passes'
    --mlir-timing rows, summed."""
    best = None
    for _ in range(repeat):
        p = subprocess.run([opt, path, *flags, "--mlir-timing", "-o", os.devnull],
                           capture_output=True, text=True, check=True)
        t = sum(float(re.search(r"([0-9.]+) \(\s*[0-9.]+%\)\s+" + name + "\n", p.stderr).group(1))
                for name in names)
        parse = float(MLIR_PARSER.search(p.stderr).group(1))
        best = (t, parse) if best is None or t < best[0] else best
    return best


def ops(opt, path):
    """The module's op count; of its value-semantics form for qref input
    (qshape-stats converts a copy)."""
    p = subprocess.run([opt, path, "--qshape-stats=output=-", "-o", os.devnull],
                       capture_output=True, text=True, check=True)
    return json.loads(p.stdout)["ops"]


def families(ctx):
    opt = os.path.join(ctx.bindir, "qshape-opt")
    sec = Section(
        ["families"],
        "`utils/gen/families.py`: StronglyEntanglingLayers (hea), QAOA on a ring, measurement "
        "feedback and Grover, with runtime angles, unrolled as a Python loop traced without "
        "autograph emits them; sizes (wires, layers): "
        + ", ".join(f"{f} {w}x{l}" for f, w, l in FAMILY_SIZES) + ".",
        "Value rows: `qshape-opt --qshape-roll-loops`. qref rows: the same program in the form "
        "Catalyst's capture frontend emits, rolled by `qshape-opt --qshape-to-value-semantics "
        "--qshape-roll-loops` (its time is both passes'); op counts are of the value-semantics "
        "form (`qshape-stats` converts a copy of qref input). Loop form: the same program "
        "written as loops over layers and wires, as autograph traces them "
        "(`utils/gen/families.py FAMILY --form loop`). Times from `--mlir-timing`, the run with "
        "the least pass time of --repeat.")
    t = sec.table(["family", "form", "wires", "layers", "unrolled ops", "rolled ops",
                   "rolled / unrolled", "loop form ops", "rolled / loop form", "roll (ms)",
                   "parse (ms)", "roll / parse"], "llrrrrrrrrrr")
    rows = []
    for fam, wires, layers in FAMILY_SIZES:
        looped = os.path.join(ctx.work, f"family-{fam}-{wires}-{layers}-loop.mlir")
        with open(looped, "w") as f:
            f.write(generators.build(fam, wires, layers, form="loop")[0])
        loop_ops = ops(opt, looped)
        for label, form, flags, names in FORMS:
            text, _ = generators.build(fam, wires, layers, form=form)
            src = os.path.join(ctx.work, f"family-{fam}-{wires}-{layers}-{label}.mlir")
            rolled = src.replace(".mlir", ".rolled.mlir")
            with open(src, "w") as f:
                f.write(text)
            subprocess.run([opt, src, *flags, "-o", rolled], check=True)
            roll, parse = pass_time(opt, src, flags, names, ctx.args.repeat)
            before, after = ops(opt, src), ops(opt, rolled)
            rows.append(dict(family=fam, form=label, wires=wires, layers=layers,
                             unrolled=before, rolled=after, loop_form=loop_ops, roll_s=roll,
                             parse_s=parse))
            t.add(fam, label, wires, layers, before, after, f"{after / before:.3f}", loop_ops,
                  f"{after / loop_ops:.2f}", f"{roll * 1e3:.1f}", f"{parse * 1e3:.1f}",
                  f"{roll / parse:.2f}")
    sec.raw["rows"] = rows
    deep = [r for r in rows if r["layers"] >= 100]
    worst = max(deep, key=lambda r: r["rolled"] / r["loop_form"])
    sec.target("at >= 100 layers, rolled <= 1.5x the loop form's ops, every family and form",
               f"worst {worst['family']} ({worst['form']}) {worst['rolled']} ops against "
               f"{worst['loop_form']}, {worst['rolled'] / worst['loop_form']:.2f}x",
               worst["rolled"] <= 1.5 * worst["loop_form"])
    # The issue's own figures for the loop forms (42 and 49 ops) are smaller
    # than the generated ones: its targets are checked as written too.
    for fam, layers, limit in (("hea", 120, 63), ("qaoa", 160, 75)):
        got = max(r["rolled"] for r in rows if r["family"] == fam and r["layers"] == layers)
        sec.target(f"{fam} at {layers} layers rolled <= {limit} ops (issue #32's figure)",
                   f"{got} ops", got <= limit)
    slow = max(rows, key=lambda r: r["roll_s"] / r["parse_s"])
    sec.target("roll <= 1x parse, every family, size and form",
               f"worst {slow['family']} {slow['wires']}x{slow['layers']} ({slow['form']}) "
               f"{slow['roll_s'] / slow['parse_s']:.2f}x", slow["roll_s"] <= slow["parse_s"])
    return sec


def nesting(ctx):
    opt = os.path.join(ctx.bindir, "qshape-opt")
    compile_ = os.path.join(ctx.bindir, "qshape-compile")
    sec = Section(
        ["nested"],
        "`utils/gen/families.py` nested(depth): six gates inside `depth` regions, alternately "
        "`scf.for` (one iteration) and `scf.if`, threading one qubit; depth "
        + ", ".join(map(str, DEPTHS)) + ".",
        "`qshape-opt --qshape-canonicalize` and `--qshape-roll-loops` (pass times from "
        "`--mlir-timing`) and `qshape-compile --cache=off` (process wall time from "
        "`/usr/bin/time`), each the best of --repeat.")
    t = sec.table(["depth", "canonicalize (ms)", "roll (ms)", "qshape-compile, wall (ms)"],
                  "rrrr")
    rows = []
    for depth in DEPTHS:
        src = os.path.join(ctx.work, f"nested-{depth}.mlir")
        with open(src, "w") as f:
            f.write(generators.nested(depth))
        canon, _ = pass_time(opt, src, ["--qshape-canonicalize"], ["QShapeCanonicalize"],
                             ctx.args.repeat)
        roll, _ = pass_time(opt, src, ["--qshape-roll-loops"], ["QShapeRollLoops"],
                            ctx.args.repeat)
        walls = []
        for _ in range(ctx.args.repeat):
            p = subprocess.run(["/usr/bin/time", "-f", "@@%e", compile_, src, "-o",
                                os.path.join(ctx.work, "nested.so"), "--cache=off"],
                               capture_output=True, text=True, check=True)
            walls.append(float(p.stderr.strip().splitlines()[-1][2:]))
        wall = min(walls)
        rows.append(dict(depth=depth, canonicalize_s=canon, roll_s=roll, compile_s=wall))
        t.add(depth, f"{canon * 1e3:.1f}", f"{roll * 1e3:.1f}", f"{wall * 1e3:.0f}")
    sec.raw["rows"] = rows
    first, last = rows[0], rows[-1]
    for key, name in (("canonicalize_s", "qshape-canonicalize"), ("roll_s", "qshape-roll-loops")):
        ratio = last[key] / first[key]
        sec.target(f"{name} at depth {last['depth']} <= 2x depth {first['depth']}",
                   f"{ratio:.2f}x", ratio <= 2.0)
    return sec
