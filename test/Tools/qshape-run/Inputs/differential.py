#!/usr/bin/env python3
"""Differential test of the native path against the oracle:

    qshape-run(qshape-compile(x)) == qshape-sim(x)   (within --tol, 1e-9)

for every case, with rolling on and off (`--no-roll`) and at -O0 and -O2,
so four libraries per module. A case is (module, entry, args, run flags).
To keep the cost down, cases are batched: one module holds many QNodes (one
entry point each), compiled four times, and every case runs each of the four
libraries once (qshape-run --entry) and the oracle once (qshape-sim --entry).

Suites:
  random SEEDS     utils/gen/randcircuit.py circuits, SEEDS = "A:B" (B excluded)
  workloads        every W1-W4 kind of utils/gen/workloads.py, several forms and
                   sizes each, small enough to simulate
  features FILE..  hand-written modules; each `// CASE: ENTRY [flags]` line
                   is a case (flags: --args JSON, --seed N, --shots N)

Prints one line per disagreement and a summary; exit code 0 when everything
agrees, 1 otherwise.
"""
import argparse
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(SRC, "utils"))

from gen import randcircuit as rc  # noqa: E402
from gen import workloads as wl  # noqa: E402

compare_results = __import__("compare-results")

VARIANTS = [("roll", "0", []), ("roll", "2", []), ("no-roll", "0", ["--no-roll"]),
            ("no-roll", "2", ["--no-roll"])]


class Case:
    def __init__(self, entry, args=None, flags=(), label=None):
        self.entry = entry
        self.args = args if args is not None else []
        self.flags = list(flags)
        self.label = label or entry


class Batch:
    """One module text and the cases that run its functions."""

    def __init__(self, name, text, cases):
        self.name, self.text, self.cases = name, text, cases


def merge(modules, name):
    """One module holding the functions of `modules` (rc.Module objects)."""
    m = rc.Module(name)
    for mod in modules:
        m.funcs += mod.funcs
    return rc.print_module(m)


def random_batches(seeds, batch):
    out = []
    for lo in range(seeds[0], seeds[1], batch):
        mods, cases = [], []
        for seed in range(lo, min(lo + batch, seeds[1])):
            mod = rc.generate(seed)
            args = rc.default_args(mod, seed)
            mod.funcs[0].name = f"r{seed}"
            mods.append(mod)
            cases.append(Case(f"r{seed}", args, label=f"randcircuit --seed {seed}"))
        out.append(Batch(f"random-{lo}", merge(mods, f"random_{lo}"), cases))
    return out


def workload_batches():
    """W1-W4 at sizes a state vector simulates in milliseconds."""
    built = []  # (label, module, args)
    for form in ("unrolled", "loop"):
        for layers in (1, 2):
            for op in wl.W1_OPS:
                built.append((f"w1 --form {form} --layers {layers} --op {op}",
                              wl.build_w1(layers=layers, op=op, form=form), wl.w1_args(layers)))
    for variant in ("native", "decomposed"):
        for style in ("negate", "flag"):
            built.append((f"w2 --variant {variant} --adjoint-style {style} --n-trotter 2 --prep standard",
                          wl.build_w2(n_trotter=2, variant=variant, adjoint_style=style,
                                      prep="standard"), wl.w2_args()))
    for seed in range(12):
        built.append((f"w4 --seed {seed}", wl.build_w4(seed=seed)[0], wl.w4_args(seed)))
    mods, cases = [], []
    for k, (label, mod, args) in enumerate(built):
        mod.funcs[0].name = f"w{k}"
        mods.append(mod)
        cases.append(Case(f"w{k}", args, label=label))
    batches = [Batch("workloads", merge(mods, "workloads"), cases)]
    # W3 is streamed text (no Module object): one module per form.
    for angles in ("const", "runtime", "runtime-repeat"):
        text = subprocess.run([sys.executable, os.path.join(SRC, "utils", "gen", "workloads.py"), "w3",
                               "--ops", "300", "--wires", "5", "--angles", angles, "--args-out",
                               "/dev/stdout", "-o", "/dev/null"], capture_output=True, text=True,
                              check=True).stdout
        args = json.loads(text)
        mod = subprocess.run([sys.executable, os.path.join(SRC, "utils", "gen", "workloads.py"), "w3",
                              "--ops", "300", "--wires", "5", "--angles", angles],
                             capture_output=True, text=True, check=True).stdout
        batches.append(Batch(f"w3-{angles}", mod,
                             [Case("circuit", args, label=f"w3 --ops 300 --wires 5 --angles {angles}")]))
    return batches


def feature_batches(files):
    out = []
    for path in files:
        text = open(path).read()
        cases = []
        for line in text.splitlines():
            if line.startswith("// CASE:"):
                words = shlex.split(line[len("// CASE:"):])
                entry, rest = words[0], words[1:]
                args, flags = [], []
                k = 0
                while k < len(rest):
                    if rest[k] == "--args":
                        args = json.loads(rest[k + 1])
                    else:
                        flags += rest[k:k + 2]
                    k += 2
                cases.append(Case(entry, args, flags, label=f"{os.path.basename(path)} {' '.join(words)}"))
        if not cases:
            raise SystemExit(f"differential: {path} has no // CASE: lines")
        out.append(Batch(os.path.splitext(os.path.basename(path))[0], text, cases))
    return out


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check_batch(batch, tools, work, tol, variants):
    """Compiles `batch` four times and compares every case; returns
    (number of comparisons, list of failure messages)."""
    src = os.path.join(work, batch.name + ".mlir")
    with open(src, "w") as f:
        f.write(batch.text)
    failures, compared = [], 0
    libs = []
    for roll, opt, flags in variants:
        lib = os.path.join(work, f"{batch.name}.{roll}.O{opt}.so")
        rc_, _, err = run([tools["compile"], src, "-o", lib, f"--opt-level={opt}"] + flags)
        if rc_ != 0:
            failures.append(f"{batch.name}: qshape-compile {roll} -O{opt} failed:\n{err.strip()}")
            continue
        libs.append((f"{roll} -O{opt}", lib))
    for case in batch.cases:
        common = ["--entry", case.entry, "--args", json.dumps(case.args)] + case.flags
        rc_, want, err = run([tools["sim"], src] + common)
        if rc_ != 0:
            failures.append(f"{case.label}: qshape-sim failed: {err.strip()}")
            continue
        expected = json.loads(want)["results"]
        for variant, lib in libs:
            rc_, got, err = run([tools["run"], lib] + common)
            compared += 1
            if rc_ != 0:
                failures.append(f"{case.label} [{variant}]: qshape-run failed: {err.strip()}")
                continue
            diff = compare_results.compare(expected, json.loads(got)["results"], tol, False,
                                           "results")
            if diff:
                failures.append(f"{case.label} [{variant}]: differs from qshape-sim: {diff}")
    return compared, failures


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tools", required=True, help="directory of qshape-compile, qshape-run, qshape-sim")
    ap.add_argument("--work", required=True, help="scratch directory (created)")
    ap.add_argument("--tol", type=float, default=1e-9)
    ap.add_argument("--batch", type=int, default=10, help="random circuits per module")
    ap.add_argument("--jobs", type=int, default=1, help="batches checked at once")
    ap.add_argument("--builds", default="all", help="'all', or 'no-roll' for the --no-roll builds only")
    ap.add_argument("suite", choices=["random", "workloads", "features"])
    ap.add_argument("what", nargs="*", help="random: A:B; features: files")
    a = ap.parse_args()
    tools = {k: os.path.join(a.tools, f"qshape-{k}") for k in ("compile", "run", "sim")}
    os.makedirs(a.work, exist_ok=True)
    if a.suite == "random":
        lo, hi = (int(x) for x in a.what[0].split(":"))
        batches = random_batches((lo, hi), a.batch)
    elif a.suite == "workloads":
        batches = workload_batches()
    else:
        batches = feature_batches(a.what)
    variants = VARIANTS if a.builds == "all" else [v for v in VARIANTS if v[0] == a.builds]
    start = time.time()
    compared, failures, cases = 0, [], 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for n, f in pool.map(lambda b: check_batch(b, tools, a.work, a.tol, variants), batches):
            compared += n
            failures += f
    cases = sum(len(b.cases) for b in batches)
    for f in failures:
        print("FAIL:", f)
    print(f"differential {a.suite}: {cases} cases in {len(batches)} modules, {compared} native runs "
          f"compared with qshape-sim ({len(variants)} builds each: "
          f"{'roll/no-roll' if len(variants) == 4 else a.builds} x -O0/-O2), "
          f"{len(failures)} failures, {time.time() - start:.1f} s")
    return 1 if failures or compared == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
