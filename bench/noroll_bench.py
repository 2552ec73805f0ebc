"""make bench section `noroll` (bench/run.py): unrolled compiles against the
number of argument reads.

An unrolled StronglyEntanglingLayers circuit (utils/gen/families.py hea, 8 wires,
runtime angles) reads each angle with one `tensor.extract` of the weights
argument: 24 per layer. Per size, best of --repeat:
- `qshape-compile --no-roll --cache=off --timing --mlir-timing`: process wall
  time, the stages, and one-shot-bufferize's share;
- `qshape-opt --qshape-lower-to-llvm` without rolling, with and without
  `lower-argument-reads` (the pass that reads arguments through one buffer):
  the MLIR pipeline and one-shot-bufferize in it. Without the pass the
  bufferization analysis is quadratic, so that series stops at
  --noroll-off-max reads.
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "utils", "gen"))
import families  # noqa: E402

WIRES = 8
READS_PER_LAYER = 3 * WIRES
STAGE = re.compile(r"([a-z-]+) ([0-9.]+) s")


def mlir_pass(stderr, name):
    m = re.search(r"([0-9.]+) \(\s*[0-9.]+%\)\s+" + name + r"\n", stderr)
    return float(m.group(1)) if m else 0.0


def best_of(repeat, run):
    """The run (a dict with "wall") of least wall time."""
    return min((run() for _ in range(repeat)), key=lambda r: r["wall"])


def compile_run(compile_, src, out):
    p = subprocess.run(["/usr/bin/time", "-f", "@@%e %M", compile_, src, "--no-roll", "-o", out,
                        "--cache=off", "--timing", "--mlir-timing"],
                       capture_output=True, text=True, check=True)
    wall, rss = p.stderr.strip().splitlines()[-1][2:].split()
    timing = next(line for line in p.stderr.splitlines() if line.startswith("qshape-compile: timing:"))
    stages = {k: float(v) for k, v in STAGE.findall(timing)}
    return dict(wall=float(wall), rss_mb=int(rss) / 1024, stages=stages,
                bufferize=mlir_pass(p.stderr, "OneShotBufferizePass"))


def pipeline_run(opt, src, lower_reads):
    flag = "true" if lower_reads else "false"
    p = subprocess.run([opt, src, "--qshape-lower-to-llvm=roll=false canonicalize=false "
                        f"lower-argument-reads={flag}", "--mlir-timing", "-o", os.devnull],
                       capture_output=True, text=True, check=True)
    return dict(wall=mlir_pass(p.stderr, "Total"), bufferize=mlir_pass(p.stderr, "OneShotBufferizePass"))


def noroll_bench(bindir, work, args):
    opt = os.path.join(bindir, "qshape-opt")
    compile_ = os.path.join(bindir, "qshape-compile")
    cmd = f"python3 bench/run.py --build {args.build} --sections noroll --repeat {args.repeat}"
    print("## Unrolled compiles against argument reads (`--no-roll`)\n")
    print(f"Command: `{cmd}`\n")
    print("| layers | reads | qshape-compile wall (s) | mlir-passes (s) | one-shot-bufferize (s) "
          "| peak RSS (MB) | pipeline (s) | pipeline without the pass (s) "
          "| one-shot-bufferize without (s) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    rows = []
    for reads in [int(s) for s in args.noroll_reads.split(",")]:
        layers = reads // READS_PER_LAYER
        src = os.path.join(work, f"noroll-hea-{layers}.mlir")
        text, _ = families.build("hea", WIRES, layers, angles="runtime")
        with open(src, "w") as f:
            f.write(text)
        c = best_of(args.repeat, lambda: compile_run(compile_, src, os.path.join(work, "noroll.so")))
        on = best_of(args.repeat, lambda: pipeline_run(opt, src, True))
        off = (best_of(args.repeat, lambda: pipeline_run(opt, src, False))
               if reads <= args.noroll_off_max else None)
        rows.append(dict(layers=layers, reads=text.count("tensor.extract"), compile=c, pipeline=on,
                         pipeline_without=off))
        off_cells = f"{off['wall']:.2f} | {off['bufferize']:.2f}" if off else "not run | not run"
        print(f"| {layers} | {rows[-1]['reads']} | {c['wall']:.2f} | {c['stages']['mlir-passes']:.2f} "
              f"| {c['bufferize']:.3f} | {c['rss_mb']:.0f} | {on['wall']:.2f} | {off_cells} |",
              flush=True)
    print()
    if len(rows) > 1:
        a, b = rows[0], rows[-1]
        print(f"Growth: qshape-compile x{b['compile']['wall'] / a['compile']['wall']:.1f} "
              f"for x{b['reads'] / a['reads']:.0f} reads.\n")
    with open(os.path.join(work, "noroll.json"), "w") as f:
        json.dump({"command": cmd, "rows": rows}, f, indent=1)
