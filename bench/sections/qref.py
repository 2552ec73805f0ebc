"""Section `qref`: W1-W4 in the form Catalyst's capture frontend emits
(utils/gen/workloads.py --semantics qref) beside their value form.

Per workload and form: the op count before and after rolling
(`qshape-opt --qshape-to-value-semantics --qshape-canonicalize
--qshape-roll-loops`; counts of the value-semantics form), whether
qshape-sim gives the two forms the same results (to 1e-9), whether the
rolled library gives them too (qshape-run), and one qshape-compile at -O2
unrolled (--no-roll) and rolled, with the rolled / unrolled wall time.
"""
import json
import os
import subprocess

from benchlib import GEN, Section, compare_results
from sections.native import native_compile

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


def results(tool, path, args_path):
    """The "results" of qshape-sim or qshape-run on `path` with the arguments."""
    p = subprocess.run([tool, path, "--args", "@" + args_path], capture_output=True, text=True,
                       check=True)
    return json.loads(p.stdout)["results"]


def agree(a, b):
    same = compare_results().compare(a, b, 1e-9, False, "results") is None
    return "same" if same else "DIFFERENT"


def measure(ctx, wargs, form, value_results):
    """One workload in one form: its row (without the name) and its
    qshape-sim results."""
    opt = os.path.join(ctx.bindir, "qshape-opt")
    tool = os.path.join(ctx.bindir, "qshape-compile")
    stem = os.path.join(ctx.work, "qref-" + "-".join(wargs) + "-" + form)
    src, args_path = stem + ".mlir", stem + ".json"
    subprocess.run(GEN + wargs + ["--semantics", form, "-o", src, "--args-out", args_path],
                   check=True)
    passes = (["--qshape-to-value-semantics"] if form == "qref" else []) + ROLL
    before, after = ops(opt, src), ops(opt, src, passes)
    mine = results(os.path.join(ctx.bindir, "qshape-sim"), src, args_path)
    reference = value_results if form == "qref" else mine
    same = "" if form == "value" else agree(mine, reference)
    unrolled = native_compile(tool, src, stem + ".so", ["--no-roll"], ctx.args.native_limit)
    rolled = native_compile(tool, src, stem + ".so", [], ctx.args.native_limit)
    native = (agree(results(os.path.join(ctx.bindir, "qshape-run"), stem + ".so", args_path),
                    reference) if rolled else "-")
    return dict(form=form, ops=before, rolled_ops=after, sim=same, native=native,
                compile_unrolled_s=unrolled and unrolled["wall"],
                compile_rolled_s=rolled and rolled["wall"]), mine


def run(ctx):
    sec = Section(
        ["W1", "W2", "W3", "W4"],
        "`utils/gen/workloads.py ARGS --semantics value|qref` for: "
        + "; ".join(f"{name} (`{' '.join(w)}`)" for name, w in WORKLOADS) + ".",
        "Rolled by `qshape-opt --qshape-to-value-semantics --qshape-canonicalize "
        "--qshape-roll-loops` (value rows without the conversion); op counts of the "
        "value-semantics form. `sim`: qshape-sim gives the qref program the value program's "
        "results to 1e-9; `native`: so does the rolled library under qshape-run. Compiles: one "
        "`qshape-compile --opt-level=2 --cache=off` each, unrolled (`--no-roll`) and rolled; a "
        "compile longer than --native-limit seconds is stopped.")
    t = sec.table(["workload", "form", "ops", "rolled ops", "rolled / unrolled", "sim", "native",
                   "compile unrolled (s)", "compile rolled (s)", "rolled / unrolled wall"],
                  "llrrrllrrr")
    rows = []
    for name, wargs in WORKLOADS:
        value_results = None
        for form in ("value", "qref"):
            row, mine = measure(ctx, wargs, form, value_results)
            if form == "value":
                value_results = mine
            rows.append(dict(workload=name, **row))
            u, r = row["compile_unrolled_s"], row["compile_rolled_s"]
            t.add(name, form, row["ops"], row["rolled_ops"], f"{row['rolled_ops'] / row['ops']:.3f}",
                  row["sim"], row["native"], f"{u:.2f}" if u else "stopped",
                  f"{r:.2f}" if r else "stopped", f"{r / u:.2f}" if u and r else "-")
    bad = [f"{r['workload']} {r['form']}" for r in rows
           if "DIFFERENT" in (r["sim"], r["native"])]
    sec.target("the qref form gives the value form's results (qshape-sim and the rolled "
               "library, to 1e-9)", "same on every row" if not bad else "not on " + ", ".join(bad),
               not bad)
    sec.raw["rows"] = rows
    return sec
