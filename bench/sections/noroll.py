"""Section `noroll`: unrolled compiles against the number of argument reads.

An unrolled StronglyEntanglingLayers circuit (utils/gen/families.py hea, 8
wires, runtime angles) reads each angle with one `tensor.extract` of the
weights argument: 24 per layer. Per size, best of --repeat:
- `qshape-compile --no-roll --cache=off --timing --mlir-timing`: process wall
  time, the stages, and one-shot-bufferize's share;
- `qshape-opt --qshape-lower-to-llvm` without rolling, with and without
  `lower-argument-reads` (the pass that reads arguments through one buffer):
  the MLIR pipeline and one-shot-bufferize in it. Without the pass the
  bufferization analysis is quadratic, so that series stops at
  --noroll-off-max reads.
"""
import os
import re
import subprocess
import sys

from benchlib import ROOT, Section, mlir_pass_time

sys.path.insert(0, os.path.join(ROOT, "utils"))
from gen import families  # noqa: E402

WIRES = 8
READS_PER_LAYER = 3 * WIRES
STAGE = re.compile(r"([a-z-]+) ([0-9.]+) s")


def best_of(repeat, run):
    """The run (a dict with "wall") of least wall time."""
    return min((run() for _ in range(repeat)), key=lambda r: r["wall"])


def compile_run(compile_, src, out):
    p = subprocess.run(["/usr/bin/time", "-f", "@@%e %M", compile_, src, "--no-roll", "-o", out,
                        "--cache=off", "--timing", "--mlir-timing"],
                       capture_output=True, text=True, check=True)
    wall, rss = p.stderr.strip().splitlines()[-1][2:].split()
    timing = next(line for line in p.stderr.splitlines()
                  if line.startswith("qshape-compile: timing:"))
    stages = {k: float(v) for k, v in STAGE.findall(timing)}
    return dict(wall=float(wall), rss_mb=int(rss) / 1024, stages=stages,
                bufferize=mlir_pass_time(p.stderr, "OneShotBufferizePass\n") or 0.0)


def pipeline_run(opt, src, lower_reads):
    flag = "true" if lower_reads else "false"
    p = subprocess.run([opt, src, "--qshape-lower-to-llvm=roll=false canonicalize=false "
                        f"lower-argument-reads={flag}", "--mlir-timing", "-o", os.devnull],
                       capture_output=True, text=True, check=True)
    return dict(wall=mlir_pass_time(p.stderr, "Total\n") or 0.0,
                bufferize=mlir_pass_time(p.stderr, "OneShotBufferizePass\n") or 0.0)


def run(ctx):
    opt = os.path.join(ctx.bindir, "qshape-opt")
    compile_ = os.path.join(ctx.bindir, "qshape-compile")
    sec = Section(
        ["noroll-hea"],
        f"`utils/gen/families.py` hea on {WIRES} wires with runtime angles, unrolled: "
        f"{READS_PER_LAYER} `tensor.extract` of the weights argument per layer; layers = reads "
        f"/ {READS_PER_LAYER}, reads from --noroll-reads.",
        "`qshape-compile --no-roll --cache=off --timing --mlir-timing`: process wall time and "
        "peak memory (`/usr/bin/time`), its MLIR passes and one-shot-bufferize in them; "
        "`qshape-opt --qshape-lower-to-llvm='roll=false canonicalize=false "
        "lower-argument-reads=true|false'`: the MLIR pipeline's total and one-shot-bufferize, "
        "with and without the pass that reads arguments through one buffer (without it the "
        "bufferization analysis is quadratic: that series stops at --noroll-off-max reads). "
        "Each the best of --repeat.")
    t = sec.table(["layers", "reads", "qshape-compile wall (s)", "mlir-passes (s)",
                   "one-shot-bufferize (s)", "peak RSS (MB)", "pipeline (s)",
                   "pipeline without the pass (s)", "one-shot-bufferize without (s)"],
                  "rrrrrrrrr")
    rows = []
    for reads in [int(s) for s in ctx.args.noroll_reads.split(",")]:
        layers = reads // READS_PER_LAYER
        src = os.path.join(ctx.work, f"noroll-hea-{layers}.mlir")
        text, _ = families.build("hea", WIRES, layers, angles="runtime")
        with open(src, "w") as f:
            f.write(text)
        out = os.path.join(ctx.work, "noroll.so")
        c = best_of(ctx.args.repeat, lambda: compile_run(compile_, src, out))
        on = best_of(ctx.args.repeat, lambda: pipeline_run(opt, src, True))
        off = (best_of(ctx.args.repeat, lambda: pipeline_run(opt, src, False))
               if reads <= ctx.args.noroll_off_max else None)
        rows.append(dict(layers=layers, reads=text.count("tensor.extract"), compile=c,
                         pipeline=on, pipeline_without=off))
        t.add(layers, rows[-1]["reads"], f"{c['wall']:.2f}", f"{c['stages']['mlir-passes']:.2f}",
              f"{c['bufferize']:.3f}", f"{c['rss_mb']:.0f}", f"{on['wall']:.2f}",
              f"{off['wall']:.2f}" if off else "not run",
              f"{off['bufferize']:.2f}" if off else "not run")
    if len(rows) > 1:
        a, b = rows[0], rows[-1]
        t.notes.append(f"Growth: qshape-compile x{b['compile']['wall'] / a['compile']['wall']:.1f} "
                       f"for x{b['reads'] / a['reads']:.0f} reads.")
    sec.raw["rows"] = rows
    return sec
