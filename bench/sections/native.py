"""Section `native`: qshape-compile end to end, unrolled (--no-roll) against
rolled, at -O2, on W2, W1 and W3; and W3's compiled library against
qshape-sim."""
import json
import os
import re
import subprocess

from benchlib import Section, compare_results, gen, gen_w3, timed, timed_with_limit

NATIVE_TIMING = re.compile(
    r"qshape-compile: timing: parse ([0-9.]+) s, facts ([0-9.]+) s, mlir-passes ([0-9.]+) s, "
    r"translate ([0-9.]+) s, llvm-opt ([0-9.]+) s, codegen ([0-9.]+) s, link ([0-9.]+) s, "
    r"total ([0-9.]+) s")
NATIVE_SIZES = re.compile(r"qshape-compile: sizes: (\d+) MLIR ops after lowering, (\d+) LLVM "
                          r"functions, (\d+) LLVM instructions, object (\d+) bytes, output (\d+) "
                          r"bytes")
STAGES = ["parse", "facts", "mlir-passes", "translate", "llvm-opt", "codegen", "link", "total"]
# The figures, measured outside the project: Catalyst's own default
# lowering stages (built from its sources against LLVM 22), then LLVM 22
# `opt -O2` and `llc -O2`, on W2 decomposed at n_trotter=40.
CATALYST_W2_40 = {"unrolled": {"lowering": 17.9, "opt": 8.5, "llc": 76.0, "peak_mb": 922},
                  "rolled": {"lowering": 0.55, "opt": 0.17, "llc": 0.40, "peak_mb": 120,
                             "roll": 12.9}}
# W2 decomposed, rolled / unrolled: (n_trotter, time target); memory <= 0.3x.
TARGETS = ((10, 0.2), (40, 0.1))
MEMORY = 0.3


def native_compile(tool, src, out, flags, limit):
    """One qshape-compile process at -O2: wall, peak MB, CPU, stage times,
    sizes, the roll and canonicalize pass times (--mlir-timing); None when it
    took longer than `limit` seconds."""
    # --cache=off: every row is a compile (the artifact section measures hits).
    run = timed_with_limit([tool, src, "-o", out, "--opt-level=2", "--timing", "--mlir-timing",
                            "--cache=off"] + flags, limit)
    if run is None:
        return None
    wall, mb, cpu, err = run
    t = NATIVE_TIMING.search(err)
    z = NATIVE_SIZES.search(err)
    r = {"wall": wall, "peak_mb": mb, "cpu": cpu,
         "stages": dict(zip(STAGES, map(float, t.groups()))), "mlir_ops": int(z.group(1)),
         "llvm_functions": int(z.group(2)), "llvm_instructions": int(z.group(3)),
         "object_bytes": int(z.group(4)), "library_bytes": int(z.group(5))}
    for name, pass_ in (("roll", "QShapeRollLoops"), ("canonicalize", "QShapeCanonicalize")):
        m = re.search(r"([0-9.]+) \([ 0-9.]+%\)\s+" + pass_, err)
        r[name] = float(m.group(1)) if m else 0.0
    # The LLVM IR's size as text, after optimisation (a second process that
    # stops before code generation; not part of the timings above).
    ll = out + ".ll"
    subprocess.run([tool, src, "--emit=llvm", "-o", ll, "--opt-level=2"] + flags, check=True,
                   capture_output=True)
    r["llvm_ir_bytes"] = os.path.getsize(ll)
    os.remove(ll)
    return r


def plan(args):
    """(label, file name, workloads.py arguments or None for W3)."""
    rows = []
    for variant in ("decomposed", "native"):
        for n in [int(x) for x in args.native_trotter.split(",")]:
            rows.append((f"W2 {variant} n_trotter={n}", f"w2-{variant}-n{n}.mlir",
                         ["w2", "--variant", variant, "--n-trotter", str(n)]))
    for layers in (1, 2, 3, 4):
        rows.append((f"W1 unrolled L={layers}", f"w1-unrolled-L{layers}.mlir",
                     ["w1", "--layers", str(layers), "--form", "unrolled"]))
    for n in (10**4, 10**5):
        rows.append((f"W3 {n} ops", f"w3-{n}.mlir", None))
    return rows


def compile_rows(ctx):
    tool = os.path.join(ctx.bindir, "qshape-compile")
    for old in os.listdir(ctx.work):  # libraries of an earlier run
        if old.startswith("native-") and old.endswith(".so"):
            os.remove(os.path.join(ctx.work, old))
    rows = []
    for label, name, genargs in plan(ctx.args):
        src = os.path.join(ctx.work, name)
        if genargs is None:
            gen_w3(int(name.split("-")[1].split(".")[0]), src)
        else:
            gen(src, genargs)
        base = os.path.join(ctx.work, "native-" + os.path.splitext(name)[0])
        u = native_compile(tool, src, base + ".unrolled.so", ["--no-roll"], ctx.args.native_limit)
        r = native_compile(tool, src, base + ".rolled.so", [], ctx.args.native_limit)
        rows.append({"workload": label, "input": name, "unrolled": u, "rolled": r,
                     "limit": ctx.args.native_limit})
    return rows


def compile_table(sec, rows):
    t = sec.table(["workload", "form", "wall (s)", "CPU (s)", "peak (MB)", "parse", "facts",
                   "MLIR passes (roll)", "translate", "LLVM -O2", "codegen", "link",
                   "LLVM instrs", "LLVM IR (MB)", "rolled/unrolled wall", "CPU", "memory"],
                  "llrrrrrrrrrrrrrrr")
    for row in rows:
        u = row["unrolled"]
        for form in ("unrolled", "rolled"):
            x = row[form]
            label = row["workload"] if form == "unrolled" else ""
            if x is None:
                t.add(label, form, f"> {row['limit']:.0f} (stopped)", *[""] * 14)
                continue
            s = x["stages"]
            if form == "rolled" and u is not None:
                ratio = (f"{x['wall'] / u['wall']:.3f}", f"{x['cpu'] / u['cpu']:.3f}",
                         f"{x['peak_mb'] / u['peak_mb']:.2f}")
            elif form == "rolled":
                ratio = (f"< {x['wall'] / row['limit']:.3f}", "", "")
            else:
                ratio = ("", "", "")
            t.add(label, form, f"{x['wall']:.2f}", f"{x['cpu']:.2f}", f"{x['peak_mb']:.0f}",
                  f"{s['parse']:.3f}", f"{s['facts']:.3f}",
                  f"{s['mlir-passes']:.3f} ({x['roll']:.3f})", f"{s['translate']:.3f}",
                  f"{s['llvm-opt']:.3f}", f"{s['codegen']:.3f}", f"{s['link']:.3f}",
                  x["llvm_instructions"], f"{x['llvm_ir_bytes'] / 1e6:.2f}", *ratio)


def check_targets(sec, rows, trotter):
    def row_of(label):
        return next((r for r in rows if r["workload"] == label), None)

    for n, target in TARGETS:
        r = row_of(f"W2 decomposed n_trotter={n}")
        what = f"W2 decomposed n_trotter={n}, rolled / unrolled"
        if not r or not r["rolled"]:
            sec.target(f"{what}: time <= {target}x", "not compiled", None)
            continue
        if r["unrolled"]:
            t = r["rolled"]["wall"] / r["unrolled"]["wall"]
            c = r["rolled"]["cpu"] / r["unrolled"]["cpu"]
            m = r["rolled"]["peak_mb"] / r["unrolled"]["peak_mb"]
            sec.target(f"{what}: time <= {target}x", f"{t:.3f}x (CPU {c:.3f}x)", t <= target)
            sec.target(f"{what}: peak memory <= {MEMORY}x", f"{m:.2f}x", m <= MEMORY)
        else:  # the unrolled compile was stopped: the ratio is a bound
            t = r["rolled"]["wall"] / r["limit"]
            sec.target(f"{what}: time <= {target}x",
                       f"< {t:.3f}x (unrolled stopped after {r['limit']:.0f} s)", t <= target)
            sec.target(f"{what}: peak memory <= {MEMORY}x", "unrolled stopped", None)
    dec = [(n, row_of(f"W2 decomposed n_trotter={n}")) for n in trotter]
    dec = [(n, r["rolled"]) for n, r in dec if r and r["rolled"]]
    if len(dec) > 1:
        (n0, a), (n1, b) = dec[0], dec[-1]
        sec.note(f"Rolled compile of W2 decomposed from n_trotter={n0} to {n1} (x{n1 // n0} ops): "
                 f"{a['wall']:.2f} s -> {b['wall']:.2f} s (x{b['wall'] / a['wall']:.2f}), of "
                 f"which qshape-roll-loops {a['roll']:.2f} s -> {b['roll']:.2f} s; all but the "
                 f"roll {a['wall'] - a['roll']:.2f} s -> {b['wall'] - b['roll']:.2f} s.")


def catalyst_table(sec, rows):
    r40 = next((r for r in rows if r["workload"] == "W2 decomposed n_trotter=40"), None)
    c = CATALYST_W2_40
    t = sec.table(["", "MLIR lowering (s)", "LLVM opt (s)", "codegen (s)", "peak (MB)",
                   "roll (s)"], "lrrrrr",
                  "Beside the issue's outside figures: W2 decomposed, n_trotter=40; Catalyst's "
                  "default lowering stages, then LLVM 22 `opt -O2` and `llc -O2`, measured "
                  "outside the project (constants in bench/sections/native.py)")
    t.add("Catalyst, unrolled", c["unrolled"]["lowering"], c["unrolled"]["opt"],
          c["unrolled"]["llc"], c["unrolled"]["peak_mb"], "")
    t.add("Catalyst after qshape's roll", c["rolled"]["lowering"], c["rolled"]["opt"],
          c["rolled"]["llc"], c["rolled"]["peak_mb"], c["rolled"]["roll"])
    if not r40:
        return
    for form in ("unrolled", "rolled"):
        x = r40[form]
        if x is None:
            t.add(f"qshape-compile --opt-level=2, {form}", f"stopped after {r40['limit']:.0f} s",
                  "", "", "", "")
            continue
        s = x["stages"]
        lowering = s["mlir-passes"] - x["roll"] - x["canonicalize"]
        t.add(f"qshape-compile --opt-level=2, {form}", f"{lowering:.2f}", f"{s['llvm-opt']:.2f}",
              f"{s['codegen']:.2f}", f"{x['peak_mb']:.0f}", f"{x['roll'] + x['canonicalize']:.2f}")
    t.notes.append("qshape's lowering column is its MLIR passes without qshape-canonicalize and "
                   "qshape-roll-loops, which are the roll column.")


def fastest_run(cmd, stats):
    """The fastest of 3 runs of `cmd`: (wall s, the match of regex `stats` in its stderr)."""
    runs = []
    for _ in range(3):
        wall, _, err = timed(cmd)
        runs.append((wall, re.search(stats, err)))
    return min(runs, key=lambda r: r[0])


def execution(ctx, sec):
    """W3 at 10^5 ops: the compiled library (rolled and unrolled, -O2) against
    qshape-sim, same module, same arguments."""
    src = os.path.join(ctx.work, "w3-100000.mlir")
    gen_w3(10**5, src)
    t = sec.table(["runner", "process wall (s)", "entry (ms)", "gates"], "lrrr",
                  "Execution: W3, 10^5 gate ops on 8 wires (process wall time from "
                  "`/usr/bin/time`, best of 3; the entry's own time from `qshape-run "
                  "--run-stats` and `qshape-sim --sim-stats`)")
    out = {}
    sim = [os.path.join(ctx.bindir, "qshape-sim"), src, "--sim-stats"]
    best = fastest_run(sim, r"(\d+) ops \((\d+) gates\).* in ([0-9.]+) ms")
    ref = subprocess.run(sim[:2], capture_output=True, text=True, check=True).stdout
    out["qshape-sim"] = {"wall": best[0], "entry_ms": float(best[1].group(3)),
                         "gates": int(best[1].group(2))}
    t.add("qshape-sim (interpreter)", f"{best[0]:.3f}", f"{float(best[1].group(3)):.1f}",
          best[1].group(2))
    compare = compare_results().compare
    agree_all = True
    for form in ("unrolled", "rolled"):
        lib = os.path.join(ctx.work, f"native-w3-100000.{form}.so")  # the compile table's
        if not os.path.exists(lib):
            t.add(f"qshape-run, library compiled {form} at -O2", "(not compiled: stopped)", "",
                  "")
            continue
        run = [os.path.join(ctx.bindir, "qshape-run"), lib, "--run-stats"]
        best = fastest_run(run, r"(\d+) gates on up to \d+ wires in ([0-9.]+) ms")
        got = subprocess.run(run[:2], capture_output=True, text=True, check=True).stdout
        agree = compare(json.loads(ref)["results"], json.loads(got)["results"], 1e-9, False,
                        "results") is None
        agree_all &= agree
        out[f"native-{form}"] = {"wall": best[0], "entry_ms": float(best[1].group(2)),
                                 "gates": int(best[1].group(1)), "agrees": agree}
        t.add(f"qshape-run, library compiled {form} at -O2", f"{best[0]:.3f}",
              f"{float(best[1].group(2)):.1f}", best[1].group(1) + ("" if agree else " DIFFERS"))
    sec.target("the compiled W3 libraries give qshape-sim's results (to 1e-9)",
               "same" if agree_all else "DIFFERENT", agree_all)
    return out


def run(ctx):
    trotter = [int(x) for x in ctx.args.native_trotter.split(",")]
    sec = Section(
        ["W2", "W1", "W3"],
        "W2: `utils/gen/workloads.py w2 --variant decomposed|native --n-trotter N`, N from "
        "--native-trotter. W1: `workloads.py w1 --layers L --form unrolled`, L = 1-4. W3: "
        "`workloads.py w3 --ops N --angles const`, N = 10^4, 10^5.",
        "Each row is two `qshape-compile IN -o OUT.so --opt-level=2 --timing --mlir-timing "
        "--cache=off` processes, unrolled (`--no-roll`) and rolled (the default): wall time and "
        "peak memory from `/usr/bin/time`, CPU is user + system time; the stages (seconds) from "
        "`--timing`, the roll pass from `--mlir-timing`; LLVM instructions after `-O2` from "
        "`--timing`, the LLVM IR's bytes of text from a separate `--emit=llvm` run. One run per "
        f"row; a compile that takes longer than {ctx.args.native_limit:.0f} s (--native-limit) "
        "is stopped.")
    rows = compile_rows(ctx)
    compile_table(sec, rows)
    check_targets(sec, rows, trotter)
    catalyst_table(sec, rows)
    sec.raw = {"compile": rows, "catalyst_w2_decomposed_n40": CATALYST_W2_40,
               "execution": execution(ctx, sec)}
    return sec
