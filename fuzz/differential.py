#!/usr/bin/env python3
"""Differential fuzzing of qshape: random programs, for a set time, checked
against an independent answer.

Each property takes a fresh random seed per case, builds its program(s) and
returns None (the property holds) or what went wrong. The harness runs every
property for its share of --seconds and prints one line each:

  fingerprint   fingerprint(x) == fingerprint(rewrite(x)) for every meaning-
                keeping rewrite of utils/gen/randcircuit.py (and of qshape-
                canonicalize), and the exact digest changes under each of its
                meaning-changing mutations;
  roll          sim(roll(x)) == sim(x) (qshape-sim, 1e-9) for W4 random-
                repetitive circuits (utils/gen/workloads.py) and randcircuit
                circuits, rolled with verify-roundtrip;
  compile-run   run(compile(x)) == sim(x) (qshape-compile, qshape-run): one
                more entry of the table; skipped while the build has no such
                tools.

A failing case is kept under BUILD/fuzz/differential/<property>-<seed>/ and
can be replayed with `--property NAME --seed SEED --cases 1`.

    differential.py --build build-sanitize --seconds 60 [--property NAME]...
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "utils"))
from gen import randcircuit as rc  # noqa: E402

WORKLOADS = os.path.join(ROOT, "utils", "gen", "workloads.py")
COMPARE = os.path.join(ROOT, "utils", "compare-results.py")
SHAPE_PRESERVING = {"angle-only", "param-ulp", "neg-zero"}


class Case:
    def __init__(self, build, workdir, seed):
        self.build, self.workdir, self.seed = build, workdir, seed
        self.bin = os.path.join(build, "bin")
        os.makedirs(workdir, exist_ok=True)

    def path(self, name):
        return os.path.join(self.workdir, name)

    def write(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return self.path(name)

    def run(self, tool, *args, timeout=120):
        exe = os.path.join(self.bin, tool) if not os.path.isabs(tool) else tool
        try:
            return subprocess.run([exe, *args], capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return subprocess.CompletedProcess([exe, *args], -1, "", f"timed out after {timeout}s")

    def tool(self, tool, *args):
        """stdout of a tool that must succeed (else the property fails)."""
        r = self.run(tool, *args)
        if r.returncode != 0:
            raise Failure(f"{tool} {' '.join(args)} exited {r.returncode}:\n{r.stderr.strip()[-3000:]}")
        return r.stdout


class Failure(Exception):
    pass


def fingerprints(case, paths):
    out = case.tool("qshape-fingerprint", *paths)
    digests = {}
    for line in out.splitlines():
        exact, shape, path = line.split(" ", 2)
        digests[path] = (exact, shape)
    return digests


def prop_fingerprint(case):
    rng = random.Random(case.seed)
    base = rc.generate(case.seed, wires=rng.randint(2, 9), gates=rng.randint(1, 60))
    files = {"base": case.write("base.mlir", rc.print_module(base))}
    for name in sorted(rc.REWRITES) + ["all"]:
        files["rewrite:" + name] = case.write(f"rewrite-{name}.mlir",
                                              rc.print_module(rc.apply_rewrite(base, name, rng)))
    for name in sorted(rc.MUTATIONS):
        try:
            files["mutate:" + name] = case.write(f"mutate-{name}.mlir",
                                                 rc.print_module(rc.apply_mutation(base, name, rng)))
        except rc.MutationError:
            pass
    canon = case.path("rewrite-all.canonical.mlir")
    case.tool("qshape-opt", files["rewrite:all"], "--qshape-canonicalize", "-o", canon)
    files["rewrite:canonicalize"] = canon
    d = fingerprints(case, list(files.values()))
    want = d[files["base"]]
    for role, path in files.items():
        kind, _, name = role.partition(":")
        got = d[path]
        if kind == "rewrite" and got != want:
            return f"rewrite '{name}' changed the digests: {want} -> {got} ({path})"
        if kind == "mutate":
            if got[0] == want[0]:
                return f"mutation '{name}' kept the exact digest ({path})"
            if (name in SHAPE_PRESERVING) != (got[1] == want[1]):
                return f"mutation '{name}': shape digest {'changed' if got[1] != want[1] else 'kept'} ({path})"
    return None


def roll_and_compare(case, src, args):
    rolled = case.path("rolled.mlir")
    case.tool("qshape-opt", src, "--qshape-roll-loops=verify-roundtrip", "-o", rolled)
    outs = []
    for f in (src, rolled):
        out = case.write(os.path.basename(f) + ".out.json",
                         case.tool("qshape-sim", f, "--args", "@" + args, "--seed", "7"))
        outs.append(out)
    c = subprocess.run([sys.executable, COMPARE, *outs, "--tol", "1e-9"],
                       capture_output=True, text=True)
    if c.returncode != 0:
        return f"sim(roll(x)) != sim(x): {c.stderr.strip()} ({src})"
    return None


def prop_roll(case):
    rng = random.Random(case.seed)
    src, args = case.path("input.mlir"), case.path("args.json")
    if rng.random() < 0.7:
        gen = [sys.executable, WORKLOADS, "w4", "--seed", str(case.seed), "-o", src,
               "--args-out", args, "--reg-style", rng.choice(["threaded", "per-copy"]),
               "--consts", rng.choice(["hoist", "inline"])]
        g = subprocess.run(gen, capture_output=True, text=True)
        if g.returncode != 0:
            raise Failure(f"workloads.py failed: {g.stderr.strip()}")
    else:
        m = rc.generate(case.seed, wires=rng.randint(2, 8), gates=rng.randint(1, 80))
        case.write("input.mlir", rc.print_module(m))
        case.write("args.json", json.dumps(rc.default_args(m, case.seed)))
    return roll_and_compare(case, src, args)


def prop_compile_run(case):
    rng = random.Random(case.seed)
    m = rc.generate(case.seed, wires=rng.randint(2, 8), gates=rng.randint(1, 80))
    src = case.write("input.mlir", rc.print_module(m))
    args = case.write("args.json", json.dumps(rc.default_args(m, case.seed)))
    lib = case.path("input.so")
    case.tool("qshape-compile", src, "-o", lib, "--cache=off")  # every case compiles
    sim = case.write("sim.json", case.tool("qshape-sim", src, "--args", "@" + args, "--seed", "7"))
    run = case.write("run.json", case.tool("qshape-run", lib, "--args", "@" + args, "--seed", "7"))
    c = subprocess.run([sys.executable, COMPARE, sim, run, "--tol", "1e-9"],
                       capture_output=True, text=True)
    if c.returncode != 0:
        return f"run(compile(x)) != sim(x): {c.stderr.strip()} ({src})"
    return None


# name -> (check, tools it needs besides qshape-opt, -sim and -fingerprint)
PROPERTIES = {
    "fingerprint": (prop_fingerprint, []),
    "roll": (prop_roll, []),
    "compile-run": (prop_compile_run, ["qshape-compile", "qshape-run"]),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build-sanitize", help="build directory whose bin/ has the tools")
    ap.add_argument("--seconds", type=float, default=60, help="total time, shared by the properties")
    ap.add_argument("--property", action="append", choices=sorted(PROPERTIES),
                    help="run only these (default: all)")
    ap.add_argument("--seed", type=int, help="first seed (default: random); cases use seed, seed+1, ...")
    ap.add_argument("--cases", type=int, help="stop after this many cases per property")
    ap.add_argument("--workdir", help="default: BUILD/fuzz/differential")
    args = ap.parse_args()
    names = []
    for name in args.property or list(PROPERTIES):
        missing = [t for t in PROPERTIES[name][1]
                   if not os.path.exists(os.path.join(args.build, "bin", t))]
        if missing:
            print(f"differential {name:12s} skipped: {', '.join(missing)} not in {args.build}/bin")
        else:
            names.append(name)
    workdir = args.workdir or os.path.join(args.build, "fuzz", "differential")
    first = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    share = args.seconds / max(1, len(names))
    failed = passed = 0
    for name in names:
        start, cases, failures = time.time(), 0, []
        seed = first
        while (args.cases is None or cases < args.cases) and (
                cases == 0 or time.time() - start < share):
            d = os.path.join(workdir, f"{name}-{seed}")
            shutil.rmtree(d, ignore_errors=True)
            try:
                problem = PROPERTIES[name][0](Case(args.build, d, seed))
            except Failure as e:
                problem = str(e)
            cases += 1
            if problem:
                failures.append((seed, problem))
                print(f"differential {name}: FAIL seed {seed}: {problem}\n  replay: {sys.argv[0]} "
                      f"--build {args.build} --property {name} --seed {seed} --cases 1", flush=True)
                if len(failures) >= 5:
                    break
            else:
                shutil.rmtree(d, ignore_errors=True)
            seed += 1
        took = time.time() - start
        print(f"differential {name:12s} {cases:6d} cases  seeds {first}..{seed - 1}  "
              f"{len(failures)} failures  {took:.0f} s", flush=True)
        failed += bool(failures)
        passed += not failures
    if not names:
        failed = 1
        print("differential: no property can run on this build", file=sys.stderr)
    print(f"differential: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
