# The oracle check for qshape-roll-loops: for seeded W4 random-repetitive
# circuits (affine wires, parameter tables, nesting, interruptions) and for
# W1/W2, the rolled program must simulate to the same results as the input
# (qshape-sim, 1e-9), rolling runs with verify-roundtrip on (unroll the
# new loops, canonicalize, compare exact fingerprints), and the rolled
# program passes qshape-check-linearity.
#
# RUN: %python %s %if asan %{--seeds 60%} %else %{--seeds 300%} --workdir %t
import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
WORKLOADS = os.path.join(ROOT, "utils", "gen", "workloads.py")
COMPARE = os.path.join(ROOT, "utils", "compare-results.py")


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def count_ops(path):
    out = run(["qshape-opt", path, "--qshape-stats=output=-", "-o", os.devnull])
    return json.loads(out.stdout)["ops"] if out.returncode == 0 else None


def check(name, gen_args, workdir, failures, stats):
    src = os.path.join(workdir, f"{name}.mlir")
    args = os.path.join(workdir, f"{name}.args.json")
    rolled = os.path.join(workdir, f"{name}.rolled.mlir")
    g = run([sys.executable, WORKLOADS] + gen_args + ["-o", src, "--args-out", args])
    if g.returncode != 0:
        failures.append(f"{name}: generator failed: {g.stderr.strip()}")
        return
    r = run(["qshape-opt", src, "--qshape-roll-loops=verify-roundtrip", "-o", rolled])
    if r.returncode != 0:
        failures.append(f"{name}: qshape-roll-loops failed:\n{r.stderr.strip()}")
        return
    # Catalyst's value semantics: the rolled program uses qubits and
    # registers linearly (loop bodies read the carried register).
    lin = run(["qshape-opt", rolled, "--qshape-check-linearity", "-o", os.devnull])
    if lin.returncode != 0:
        failures.append(f"{name}: rolled output is not linear:\n{lin.stderr.strip()[:600]}")
        return
    results = []
    for f in (src, rolled):
        s = run(["qshape-sim", f, "--args", "@" + args, "--seed", "7"])
        if s.returncode != 0:
            failures.append(f"{name}: qshape-sim failed on {f}:\n{s.stderr.strip()}")
            return
        path = f + ".out.json"
        with open(path, "w") as out:
            out.write(s.stdout)
        results.append(path)
    c = run([sys.executable, COMPARE, results[0], results[1], "--tol", "1e-9"])
    if c.returncode != 0:
        failures.append(f"{name}: results differ after rolling: {c.stderr.strip()}")
        return
    before, after = count_ops(src), count_ops(rolled)
    stats.append((name, before, after))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=300)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    failures, stats = [], []
    for seed in range(args.seeds):
        check(f"w4-{seed}", ["w4", "--seed", str(seed)], args.workdir, failures, stats)
    for form in ("unrolled", "loop"):
        for layers in ("1", "3"):
            check(f"w1-{form}-L{layers}", ["w1", "--form", form, "--layers", layers],
                  args.workdir, failures, stats)
    for variant in ("native", "decomposed"):
        check(f"w2-{variant}", ["w2", "--variant", variant, "--n-trotter", "2", "--prep", "standard"],
              args.workdir, failures, stats)
    for f in failures[:15]:
        print("FAIL:", f)
    rolled = sum(1 for _, b, a in stats if a < b)
    print(f"roll-loops semantics: {len(stats) + len(failures)} programs, {len(failures)} failures, "
          f"{rolled} got smaller")
    # The suite must actually roll something, or it proves nothing.
    return 1 if failures or rolled < args.seeds // 3 else 0


if __name__ == "__main__":
    sys.exit(main())
