#!/usr/bin/env python3
"""`make bench`: qshape's benchmarks.

Runs the sections named by --sections (bench/sections/*.py; `all` for every
one) and saves each as <build>/bench/<section>.json: the command that
reproduces it, the date, the machine and its load average, the workloads,
the tables and the targets checked, and the raw numbers. bench/report.py
renders those files as docs/benchmarks.md and bench/plots.py draws
docs/images/*.png from them. Each section is also printed as Markdown as it
finishes, and its wall time goes to stderr.

Ratios are taken within one run (the machine is noisy); timings are the best
of --repeat runs, or medians where a section says so.
"""
import argparse
import json
import os
import platform
import shlex
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from benchlib import ROOT  # noqa: E402
from sections import BY_NAME, SECTIONS, entry  # noqa: E402
import report  # noqa: E402

SECTION_HELP = {
    "fingerprint": "qshape-fingerprint vs parse on W3 and wide W1",
    "canonicalize": "qshape-canonicalize vs parse on W3",
    "roll": "rolled op counts of W1 and W2; W3 roll time and memory in two hosts",
    "roll-scale": "roll vs parse on W2 with 15-1000 terms, W1, W3 (--roll-terms, "
                  "--roll-trotter, --roll-max-ops)",
    "allocators": "W3 rolling in mlir-opt under each malloc installed",
    "families": "utils/gen/families.py rolled: ops and roll / parse",
    "nesting": "canonicalize, roll and compile against region depth",
    "qref": "W1-W4 in the capture frontend's qref form beside the value form",
    "native": "qshape-compile unrolled vs rolled on W2, W1, W3; a native run vs qshape-sim",
    "noroll": "--no-roll compiles against argument reads",
    "cache": "the MLIR cache's miss vs hit on W2",
    "remote": "the same with a Redis server on loopback",
    "catalyst-cache": "the MLIR cache in a Catalyst-shaped pipeline",
    "catalyst-native": "a Catalyst-shaped compile whose hit skips LLVM (native mode)",
    "artifact": "qshape-compile's artifact cache: miss vs hit, single flight",
    "topology": "one artifact for 20 geometries (--share-topology)",
    "session": "the batch user's 140 jobs through qshape.compile and Artifact.run",
    "sim": "state-vector simulator throughput (qshape-sim-bench)",
}


def parser():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--sections", default=",".join(s.name for s in SECTIONS if s.default),
                    help="comma-separated sections, or `all`; the default leaves out "
                         + ", ".join(s.name for s in SECTIONS if not s.default) + ". Sections: "
                         + "; ".join(f"{s.name}: {SECTION_HELP[s.name]}" for s in SECTIONS))
    ap.add_argument("--roll-terms", default="15,100,400,1000",
                    help="roll-scale: term counts of the synthetic W2 Hamiltonians")
    ap.add_argument("--roll-trotter", default="10,40",
                    help="roll-scale: n_trotter values of the W2 rows")
    ap.add_argument("--roll-max-ops", type=int, default=3_000_000,
                    help="roll-scale: W2 rows estimated above this many ops are left out (and "
                         "listed as such)")
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt",
                    help="upstream mlir-opt, the second host of the roll benchmarks")
    ap.add_argument("--cache-rounds", type=int, default=200,
                    help="rounds of cleanup passes in the cache benchmark's nested pipeline")
    ap.add_argument("--native-trotter", default="10,20,40,80",
                    help="n_trotter values of the native section's W2 rows")
    ap.add_argument("--topology-flags", default="",
                    help="topology: more qshape-compile options for every build of the sweep, "
                         "e.g. --no-roll (where one compile is expensive)")
    ap.add_argument("--native-limit", type=float, default=300,
                    help="seconds after which a native compile is stopped (and reported so)")
    ap.add_argument("--noroll-reads", default="1500,3000,6000,12000,24000",
                    help="noroll: tensor.extract counts of the unrolled HEA programs")
    ap.add_argument("--noroll-off-max", type=int, default=12000,
                    help="noroll: the pipeline without qshape-lower-argument-reads runs up to "
                         "this many reads (it is quadratic)")
    ap.add_argument("--artifact-trotter", default="10,40",
                    help="n_trotter values of the artifact section's W2 rows")
    return ap


def shown_build(build):
    """The build directory as a command names it: relative to the source
    tree when inside it."""
    path = os.path.abspath(build)
    rel = os.path.relpath(path, ROOT)
    return path if rel.startswith("..") else rel


def section_command(ap, args, spec):
    """The command that reproduces one section: its options that differ from
    their defaults."""
    parts = ["python3", "bench/run.py", "--build", shown_build(args.build), "--sections",
             spec.name]
    for dest in spec.options:
        value = getattr(args, dest)
        if value == ap.get_default(dest):
            continue
        flag = "--" + dest.replace("_", "-")
        value = f"{value:g}" if isinstance(value, float) else str(value)
        parts += [f"{flag}={value}"] if value.startswith("-") else [flag, value]
    return " ".join(shlex.quote(p) for p in parts)


def first_line(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
    except OSError:
        return ""
    return out.splitlines()[0].strip() if out else ""


def machine(build):
    """What the numbers were measured on: CPU, memory, OS, build, tree."""
    info = {"cores": os.cpu_count(), "python": platform.python_version(),
            "kernel": platform.release()}
    with open("/proc/cpuinfo") as f:
        info["cpu"] = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")),
                           platform.processor())
    with open("/proc/meminfo") as f:
        kb = next(int(l.split()[1]) for l in f if l.startswith("MemTotal:"))
    info["memory_gb"] = round(kb / 2**20)
    if os.path.exists("/etc/os-release"):
        with open("/etc/os-release") as f:
            info["os"] = next((l.split("=", 1)[1].strip().strip('"') for l in f
                               if l.startswith("PRETTY_NAME=")), "")
    cache = {}
    if os.path.exists(os.path.join(build, "CMakeCache.txt")):
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for l in f:
                if ":" in l and "=" in l and not l.startswith(("//", "#")):
                    key, value = l.split("=", 1)
                    cache[key.split(":")[0]] = value.strip()
    info["build_type"] = cache.get("CMAKE_BUILD_TYPE", "")
    info["compiler"] = first_line([cache["CMAKE_CXX_COMPILER"], "--version"]) \
        if cache.get("CMAKE_CXX_COMPILER") else ""
    head = first_line(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"])
    dirty = first_line(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"])
    info["tree"] = head + (" with local changes" if dirty else "")
    return info


class Context:
    """What a section reads: the options, the build's bin/ and the work
    directory <build>/bench."""

    def __init__(self, args):
        self.args = args
        self.bindir = os.path.join(args.build, "bin")
        self.work = os.path.join(args.build, "bench")


def run_section(ctx, spec, command, host):
    """Runs one section; returns its JSON document (status ok or failed)."""
    doc = {"section": spec.name, "title": spec.title, "command": command,
           "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "machine": host,
           "load_average": {"start": [round(x, 2) for x in os.getloadavg()]}}
    print(f"bench: {spec.name}: {command}", file=sys.stderr, flush=True)
    start = time.monotonic()
    try:
        doc.update(entry(spec)(ctx).as_json())
        doc["status"] = "ok"
    except (Exception, SystemExit) as e:  # recorded; the other sections still run
        traceback.print_exc()
        doc["status"] = "failed"
        doc["error"] = f"{type(e).__name__}: {e}".splitlines()[0][:300]
    doc["seconds"] = round(time.monotonic() - start, 1)
    doc["load_average"]["end"] = [round(x, 2) for x in os.getloadavg()]
    print(f"bench: {spec.name}: {doc['status']} in {doc['seconds']:.1f} s", file=sys.stderr,
          flush=True)
    return doc


def main():
    ap = parser()
    args = ap.parse_args()
    names = [s.name for s in SECTIONS] if args.sections == "all" else args.sections.split(",")
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        ap.error(f"unknown sections: {', '.join(unknown)} (known: "
                 f"{', '.join(s.name for s in SECTIONS)}, all)")
    ctx = Context(args)
    os.makedirs(ctx.work, exist_ok=True)
    host = machine(args.build)
    times = []
    for spec in [s for s in SECTIONS if s.name in names]:
        doc = run_section(ctx, spec, section_command(ap, args, spec), host)
        with open(os.path.join(ctx.work, f"{spec.name}.json"), "w") as f:
            json.dump(doc, f, indent=1)
        print(report.render_section(doc), flush=True)
        times.append((spec.name, doc["seconds"], doc["status"]))
    print("bench: wall time per section: " + ", ".join(f"{n} {s:.0f} s" + ("" if st == "ok" else
                                                                            f" ({st})")
                                                      for n, s, st in times)
          + f"; total {sum(s for _, s, _ in times):.0f} s", file=sys.stderr)
    return 1 if any(st != "ok" for _, _, st in times) else 0


if __name__ == "__main__":
    sys.exit(main())
