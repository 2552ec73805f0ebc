# qshape-canonicalize computes the canonical form on the fingerprint's
# canonical view and writes it back to the IR; option `reference` applies the
# rules one by one instead. Both must print the same text on every input:
# seeded random circuits with their rewrites and mutations
# (bench/randcircuit.py), the W1/W2/W4 workloads (loops, nested regions,
# register styles) and every .mlir file of the test suite.
#
# RUN: %python %s --cases 150 --workdir %t
import argparse
import glob
import os
import random
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench"))
import randcircuit as rc  # noqa: E402

SPLIT = "\n// -----\n"


def corpus(args):
    """(name, path) of the inputs; generated modules are batched into files
    of modules separated by `// -----` (one qshape-opt run per batch)."""
    files, batch, batch_names = [], [], []

    def flush():
        if batch:
            path = os.path.join(args.workdir, f"batch{len(files)}.mlir")
            with open(path, "w") as f:
                f.write(SPLIT.join(batch))
            files.append((",".join(batch_names[:1] + ["..."]), path, list(batch_names)))
            batch.clear()
            batch_names.clear()

    def add(name, text):
        batch.append(text)
        batch_names.append(name)
        if len(batch) >= 100:
            flush()

    for case in range(args.cases):
        seed = args.seed + case
        rng = random.Random(seed)
        base = rc.generate(seed, consts=rng.choice(["hoist", "inline"]))
        add(f"rc{seed}-base", rc.print_module(base))
        add(f"rc{seed}-all", rc.print_module(rc.apply_rewrite(base, "all", rng)))
        for name in rng.sample(sorted(rc.REWRITES), 2):
            add(f"rc{seed}-{name}", rc.print_module(rc.apply_rewrite(base, name, rng)))
        name = rng.choice(sorted(rc.MUTATIONS))
        try:
            add(f"rc{seed}-mut-{name}", rc.print_module(rc.apply_mutation(base, name, rng)))
        except rc.MutationError:
            pass
    flush()

    gen = [sys.executable, os.path.join(ROOT, "bench", "workloads.py")]
    workloads = []
    for layers in (1, 3):
        for form in ("loop", "unrolled"):
            workloads.append((f"w1-{form}-L{layers}", ["w1", "--layers", str(layers), "--form", form]))
    for variant in ("native", "decomposed"):
        workloads.append((f"w2-{variant}", ["w2", "--variant", variant, "--n-trotter", "2"]))
    for seed in range(args.w4):
        style = ["--reg-style", "per-copy", "--consts", "inline"] if seed % 2 else []
        workloads.append((f"w4-{seed}", ["w4", "--seed", str(seed)] + style))
    for name, cmd in workloads:
        path = os.path.join(args.workdir, name + ".mlir")
        subprocess.run(gen + cmd + ["-o", path], check=True)
        files.append((name, path, None))

    for path in sorted(glob.glob(os.path.join(ROOT, "test", "**", "*.mlir"), recursive=True)):
        files.append((os.path.relpath(path, ROOT), path, None))
    return files


def run(tool, path, options, split):
    cmd = [tool, path, "--allow-unregistered-dialect", f"--qshape-canonicalize={options}"]
    if split:
        cmd.append("--split-input-file")
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=150)
    ap.add_argument("--w4", type=int, default=40)
    ap.add_argument("--seed", type=int, default=777000)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--tool", default="qshape-opt")
    args = ap.parse_args()
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    start = time.time()

    failures, compared, modules = 0, 0, 0
    for name, path, batch_names in corpus(args):
        split = batch_names is not None
        for options in ("", "strip-locations"):
            fast = run(args.tool, path, options, split)
            ref = run(args.tool, path, options + " reference", split)
            compared += 1
            modules += len(batch_names) if split else 1
            if fast == ref:
                continue
            # Name the first module that differs.
            where = name
            if split and fast[0] == ref[0] == 0:
                for i, (a, b) in enumerate(zip(fast[1].split("// -----"), ref[1].split("// -----"))):
                    if a != b:
                        where = batch_names[i]
                        break
            failures += 1
            print(f"FAIL {where} [{options or 'default'}]: exit {fast[0]} vs reference {ref[0]}")
            fl, rl = fast[1].splitlines(), ref[1].splitlines()
            for i, (a, b) in enumerate(zip(fl, rl)):
                if a != b:
                    print(f"  line {i + 1}:\n    view:      {a}\n    reference: {b}")
                    break
    print(f"differential: {compared} runs ({modules} modules), {failures} differences, "
          f"{time.time() - start:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
