# The canonical form has one engine: the rules run on the canonical view,
# fingerprints encode the view, and qshape-canonicalize writes it back to the
# IR. This suite checks the two ends against each other on every input:
#
#  1. the written-back IR has the digests of the input (module and every
#     function): what was written is what was encoded;
#  2. canonicalizing the written-back IR again prints the same text (the
#     form is a fixpoint of the rules, and the write-back loses nothing);
#  3. every linear module stays linear (qshape-check-linearity: no qubit or
#     register value read after its consumer or consumed twice);
#
# on seeded random circuits with their rewrites and mutations
# (utils/gen/randcircuit.py), the W1-W4 workloads (loops, nested regions,
# register styles, runtime angles) and every .mlir file of the test suite.
#
# RUN: %python %s %if asan %{--cases 30 --w4 8%} %else %{--cases 150%} --workdir %t
import argparse
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "utils"))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
import linearity  # noqa: E402
from gen import randcircuit as rc  # noqa: E402

SPLIT = "\n// -----\n"
REMARK = re.compile(r"remark: qshape-fingerprint (\S+): (blake3:[0-9a-f]+) shape (blake3:[0-9a-f]+)")


def corpus(args):
    """(name, path, names of the modules) of the inputs; generated modules are
    batched into files of modules separated by `// -----` (one qshape-opt
    run per batch), and the other files are split the same way."""
    files, batch, batch_names = [], [], []

    def flush():
        if batch:
            path = os.path.join(args.workdir, f"batch{len(files)}.mlir")
            with open(path, "w") as f:
                f.write(SPLIT.join(batch))
            files.append((batch_names[0] + ",...", path, list(batch_names)))
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

    gen = [sys.executable, os.path.join(ROOT, "utils", "gen", "workloads.py")]
    workloads = []
    for layers in (1, 3):
        for form in ("loop", "unrolled"):
            workloads.append((f"w1-{form}-L{layers}", ["w1", "--layers", str(layers), "--form", form]))
    for variant in ("native", "decomposed"):
        workloads.append((f"w2-{variant}", ["w2", "--variant", variant, "--n-trotter", "2"]))
    workloads.append(("w2-flag-inline", ["w2", "--variant", "decomposed", "--adjoint-style", "flag",
                                         "--consts", "inline"]))
    workloads.append(("w3-per-gate-runtime", ["w3", "--ops", "600", "--reg-style", "per-gate",
                                              "--angles", "runtime-repeat"]))
    workloads.append(("w3-noise", ["w3", "--ops", "600", "--angles", "const-repeat",
                                   "--noise-layers", "2"]))
    for seed in range(args.w4):
        style = ["--reg-style", "per-copy", "--consts", "inline"] if seed % 2 else []
        workloads.append((f"w4-{seed}", ["w4", "--seed", str(seed)] + style))
    for name, cmd in workloads:
        path = os.path.join(args.workdir, name + ".mlir")
        subprocess.run(gen + cmd + ["-o", path], check=True)
        files.append((name, path, None))

    for path in sorted(glob.glob(os.path.join(ROOT, "test", "**", "*.mlir"), recursive=True)):
        files.append((os.path.relpath(path, ROOT), path, None))
    for path in sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir"))):
        files.append((os.path.relpath(path, ROOT), path, None))
    return files


def opt(tool, path, args):
    cmd = [tool, path, "--allow-unregistered-dialect", "--split-input-file"] + args
    return subprocess.run(cmd, capture_output=True, text=True)


def digests(tool, path):
    """Per split module, the (name, exact, shape) of the module and of every
    function, or None if the file does not fingerprint."""
    p = opt(tool, path, ["--qshape-fingerprint=annotate=false emit-remarks", "-o", os.devnull])
    if p.returncode != 0:
        return None
    return REMARK.findall(p.stderr)


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

    failures, runs, modules, linear_checked = 0, 0, 0, 0
    unprintable = []
    for name, path, batch_names in corpus(args):
        before = digests(args.tool, path)
        if before is None:
            continue  # an input the tools reject on purpose (invalid.mlir, ...)
        printed = os.path.join(args.workdir, "printed.mlir")
        with open(printed, "w") as f:
            f.write(opt(args.tool, path, []).stdout)
        if digests(args.tool, printed) is None:
            # The dialect prints a form it cannot parse back (a bug of the
            # printer, not of the canonical form): nothing to compare.
            unprintable.append(name)
            continue
        first = opt(args.tool, path, ["--qshape-canonicalize"])
        runs += 1
        modules += sum(1 for entry in before if entry[0] == "module")
        if first.returncode != 0:
            failures += 1
            print(f"FAIL {name}: qshape-canonicalize exited {first.returncode}:\n{first.stderr}")
            continue
        canon = os.path.join(args.workdir, "canon.mlir")
        with open(canon, "w") as f:
            f.write(first.stdout)
        # MLIR prints split outputs separated by `// -----`, so they split
        # the same way again.
        after = digests(args.tool, canon)
        if after != before:
            failures += 1
            where = name
            if batch_names and after is not None:
                # Each module's remarks end with its own: name the first
                # module that differs.
                k = 0
                for a, b in zip(before, after):
                    if a != b:
                        where = batch_names[min(k, len(batch_names) - 1)]
                        break
                    k += a[0] == "module"
            print(f"FAIL {where}: the written-back canonical form has other digests than the input")
            continue
        second = opt(args.tool, canon, ["--qshape-canonicalize"])
        if second.returncode != 0 or second.stdout != first.stdout:
            failures += 1
            print(f"FAIL {name}: a second qshape-canonicalize changed the text")
            for i, (a, b) in enumerate(zip(first.stdout.splitlines(), second.stdout.splitlines())):
                if a != b:
                    print(f"  line {i + 1}:\n    first:  {a}\n    second: {b}")
                    break
            continue
        linear_checked += 1
        for index, report in linearity.created(args.tool, path, args.workdir):
            failures += 1
            where = batch_names[index] if batch_names and 0 <= index < len(batch_names) else name
            print(f"FAIL {where}: the canonical form is not linear: {report}")
    if unprintable:
        print("skipped, printed IR does not parse back: " + ", ".join(unprintable))
    print(f"differential: {runs} files ({modules} modules), {failures} failures, "
          f"{len(unprintable)} skipped, linearity checked on {linear_checked} files, "
          f"{time.time() - start:.1f} s")
    return 1 if failures or runs == 0 or linear_checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
