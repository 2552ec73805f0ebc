"""make bench section `qref` (bench/run.py): W1-W4 in the form Catalyst's
capture frontend emits (utils/gen/workloads.py --semantics qref) beside their
value form.

Per workload and form: the op count before and after rolling
(`qshape-opt --qshape-to-value-semantics --qshape-canonicalize
--qshape-roll-loops`; counts of the value-semantics form), whether
qshape-sim gives the two forms the same results (to 1e-9), whether the
rolled library gives them too (qshape-run), and one
qshape-compile at -O2 unrolled (--no-roll) and rolled, with the rolled /
unrolled wall time.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "utils"))
import importlib.util  # noqa: E402

_spec = importlib.util.spec_from_file_location("compare_results",
                                               os.path.join(ROOT, "utils", "compare-results.py"))
compare_results = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compare_results)

# (name, workloads.py arguments)
WORKLOADS = [("W1 unrolled, L=4", ["w1", "--form", "unrolled", "--layers", "4"]),
             ("W1 loop, L=4", ["w1", "--form", "loop", "--layers", "4"]),
             ("W2 decomposed, n_trotter=10", ["w2", "--variant", "decomposed", "--n-trotter", "10"]),
             ("W3, 10^4 ops", ["w3", "--ops", "10000"]),
             ("W4, seed 0", ["w4", "--seed", "0"])]
ROLL = ["--qshape-canonicalize", "--qshape-roll-loops"]


def ops(opt, path, passes=()):
    text = subprocess.run([opt, path, *passes], capture_output=True, text=True, check=True).stdout
    p = subprocess.run([opt, "-", "--qshape-stats=output=-", "-o", os.devnull], input=text,
                       capture_output=True, text=True, check=True)
    return json.loads(p.stdout)["ops"]


def sim(bindir, path, args_path):
    p = subprocess.run([os.path.join(bindir, "qshape-sim"), path, "--args", "@" + args_path],
                       capture_output=True, text=True, check=True)
    return json.loads(p.stdout)["results"]


def run(bindir, lib, args_path):
    p = subprocess.run([os.path.join(bindir, "qshape-run"), lib, "--args", "@" + args_path],
                       capture_output=True, text=True, check=True)
    return json.loads(p.stdout)["results"]


def agree(a, b):
    return "same" if compare_results.compare(a, b, 1e-9, False, "results") is None else "DIFFERENT"


def qref_bench(bindir, work, args, native_compile):
    opt = os.path.join(bindir, "qshape-opt")
    tool = os.path.join(bindir, "qshape-compile")
    gen = [sys.executable, os.path.join(HERE, "..", "utils", "gen", "workloads.py")]
    cmd = f"python3 bench/run.py --build {args.build} --sections qref"
    print("## W1-W4 in the capture frontend's qref form\n")
    print(f"Command: `{cmd}`\n")
    print("Rolled by `qshape-opt --qshape-to-value-semantics --qshape-canonicalize "
          "--qshape-roll-loops` (value rows without the conversion); op counts of the "
          "value-semantics form. `sim`: qshape-sim gives the qref program the value program's "
          "results to 1e-9; `native`: so does the rolled library under qshape-run. Compiles: one `qshape-compile --opt-level=2 --cache=off` each, "
          "unrolled (`--no-roll`) and rolled.\n")
    print("| workload | form | ops | rolled ops | rolled / unrolled | sim | native | "
          "compile unrolled (s) | compile rolled (s) | rolled / unrolled wall |")
    print("|---|---|---:|---:|---:|---|---|---:|---:|---:|")
    rows = []
    for name, wargs in WORKLOADS:
        results = {}
        for form in ("value", "qref"):
            stem = os.path.join(work, "qref-" + "-".join(wargs) + "-" + form)
            src, args_path = stem + ".mlir", stem + ".json"
            subprocess.run(gen + wargs + ["--semantics", form, "-o", src, "--args-out", args_path],
                           check=True)
            passes = (["--qshape-to-value-semantics"] if form == "qref" else []) + ROLL
            before, after = ops(opt, src), ops(opt, src, passes)
            results[form] = sim(bindir, src, args_path)
            same = "" if form == "value" else agree(results["qref"], results["value"])
            unrolled = native_compile(tool, src, stem + ".so", ["--no-roll"], args.native_limit)
            rolled = native_compile(tool, src, stem + ".so", [], args.native_limit)
            native = agree(run(bindir, stem + ".so", args_path), results["value"]) if rolled else "-"
            wall = lambda r: f"{r['wall']:.2f}" if r else "stopped"  # noqa: E731
            ratio = f"{rolled['wall'] / unrolled['wall']:.2f}" if rolled and unrolled else "-"
            rows.append(dict(workload=name, form=form, ops=before, rolled_ops=after, sim=same,
                             native=native,
                             compile_unrolled_s=unrolled and unrolled["wall"],
                             compile_rolled_s=rolled and rolled["wall"]))
            print(f"| {name} | {form} | {before} | {after} | {after / before:.3f} | {same} "
                  f"| {native} | {wall(unrolled)} | {wall(rolled)} | {ratio} |", flush=True)
    print()
    with open(os.path.join(work, "qref.json"), "w") as f:
        json.dump({"command": cmd, "rows": rows}, f, indent=1)
