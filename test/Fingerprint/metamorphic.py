# Metamorphic fingerprint suite: seeded random circuits (utils/gen/randcircuit.py),
# rewritten in ways that keep their meaning (digests must stay equal) and
# mutated in ways that change it (the exact digest must change; the shape
# digest must stay equal for angle-only changes and change otherwise). The
# canonical form of every one of them that is linear must be linear too
# (qshape-check-linearity).
#
# RUN: %python %s %if asan %{--cases 100%} %else %{--cases 500%} --workdir %t
import argparse
import os
import random
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "utils"))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
import linearity  # noqa: E402
from gen import randcircuit as rc  # noqa: E402

# Mutations that keep the shape (only float constant values change).
SHAPE_PRESERVING = {"angle-only", "param-ulp", "neg-zero"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=500)
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--tool", default="qshape-fingerprint")
    ap.add_argument("--opt", default="qshape-opt")
    args = ap.parse_args()
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    start = time.time()

    files = []  # (case, role, name, path)
    skipped_mutations = 0
    for case in range(args.cases):
        seed = args.seed + case
        rng = random.Random(seed)
        base = rc.generate(seed)

        def emit(role, name, module):
            path = os.path.join(args.workdir, f"c{case}-{role}-{name}.mlir")
            with open(path, "w") as f:
                f.write(rc.print_module(module))
            files.append((case, role, name, path))

        emit("base", "base", base)
        emit("rewrite", "all", rc.apply_rewrite(base, "all", rng))
        for name in rng.sample(sorted(rc.REWRITES), 2):
            emit("rewrite", name, rc.apply_rewrite(base, name, rng))
        for name in sorted(rc.MUTATIONS):
            try:
                emit("mutate", name, rc.apply_mutation(base, name, rng))
            except rc.MutationError:
                skipped_mutations += 1

    digests = {}
    for i in range(0, len(files), 400):
        chunk = [f[3] for f in files[i:i + 400]]
        out = subprocess.run([args.tool] + chunk, capture_output=True, text=True)
        if out.returncode != 0:
            print(out.stderr, file=sys.stderr)
            print(f"FAIL: {args.tool} exited {out.returncode}")
            return 1
        for line in out.stdout.splitlines():
            exact, shape, path = line.split(" ", 2)
            digests[path] = (exact, shape)

    failures = []
    checks = 0
    by_case = {}
    for case, role, name, path in files:
        by_case.setdefault(case, []).append((role, name, path))
    for case, entries in by_case.items():
        base_exact, base_shape = digests[entries[0][2]]
        for role, name, path in entries[1:]:
            exact, shape = digests[path]
            checks += 1
            if role == "rewrite":
                if (exact, shape) != (base_exact, base_shape):
                    failures.append(f"case {case}: rewrite '{name}' changed the digest ({path})")
            else:
                if exact == base_exact:
                    failures.append(f"case {case}: mutation '{name}' kept the exact digest ({path})")
                if name in SHAPE_PRESERVING and shape != base_shape:
                    failures.append(f"case {case}: mutation '{name}' changed the shape digest ({path})")
                if name not in SHAPE_PRESERVING and shape == base_shape:
                    failures.append(f"case {case}: mutation '{name}' kept the shape digest ({path})")
    # Linearity of the canonical forms, in batches of modules.
    linear_checked = 0
    for i in range(0, len(files), 200):
        chunk = files[i:i + 200]
        batch = os.path.join(args.workdir, "linearity-batch.mlir")
        with open(batch, "w") as out:
            texts = []
            for f in chunk:
                with open(f[3]) as inp:
                    texts.append(inp.read())
            out.write(linearity.SPLIT.join(texts))
        for index, report in linearity.created(args.opt, batch, args.workdir):
            path = chunk[index][3] if 0 <= index < len(chunk) else batch
            failures.append(f"the canonical form of {path} is not linear: {report}")
        linear_checked += len(chunk)
    for f in failures[:20]:
        print("FAIL:", f)
    print(f"metamorphic: {args.cases} cases, {checks} checks, {len(failures)} failures, "
          f"{skipped_mutations} mutations not applicable, linearity checked on "
          f"{linear_checked} modules, {time.time() - start:.1f}s")
    return 1 if failures or checks < args.cases * 10 else 0


if __name__ == "__main__":
    sys.exit(main())
