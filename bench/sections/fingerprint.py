"""Section `fingerprint`: qshape-fingerprint against MLIR's parser, on W3 of
10^4-10^6 ops and on W1 with wide registers."""
import os
import re
import subprocess

from benchlib import GEN, Section, gen_w3, op_count

TARGET_RATIO = 0.3  # fingerprint <= 0.3x parse at 10^5 ops
TARGET_OPS = 100000
WIDE_WIRES = (100, 300, 1000)


def fingerprint_times(tool, path, repeat):
    """(parse s, fingerprint s) of the run with the least fingerprint time."""
    best = None
    for _ in range(repeat):
        out = subprocess.run([tool, "--timing", path], capture_output=True, text=True, check=True)
        m = re.search(r"parse ([0-9.e+-]+) s, fingerprint ([0-9.e+-]+) s", out.stderr)
        t = (float(m.group(1)), float(m.group(2)))
        best = t if best is None or t[1] < best[1] else best
    return best


def w3_table(ctx, sec, tool):
    t = sec.table(["ops", "parse (s)", "fingerprint (s)", "fingerprint / parse"], "rrrr",
                  "W3, baked angles")
    rows = []
    for n in [int(s) for s in ctx.args.sizes.split(",")]:
        path = os.path.join(ctx.work, f"w3-{n}.mlir")
        gen_w3(n, path)
        parse, fp = fingerprint_times(tool, path, 1 if n >= 10**6 else ctx.args.repeat)
        rows.append({"ops": n, "parse": parse, "fingerprint": fp})
        t.add(n, f"{parse:.3f}", f"{fp:.3f}", f"{fp / parse:.2f}")
    if len(rows) > 1:
        a, b = rows[0], rows[-1]
        t.notes.append(f"Growth: fingerprint time x{b['fingerprint'] / a['fingerprint']:.1f}, "
                       f"parse x{b['parse'] / a['parse']:.1f}, for x{b['ops'] // a['ops']} ops.")
    at = next((r for r in rows if r["ops"] == TARGET_OPS), None)
    sec.target(f"fingerprint <= {TARGET_RATIO}x parse at 10^5 ops (W3)",
               f"{at['fingerprint'] / at['parse']:.2f}x" if at else "10^5 not in --sizes",
               at["fingerprint"] <= TARGET_RATIO * at["parse"] if at else None)
    return rows


def wide_table(ctx, sec, tool):
    """W1 unrolled, 20 layers: every layer stores each wire in turn, so one
    register chain is wires x layers long (the chain walks of the canonical
    form were quadratic in the wires)."""
    t = sec.table(["wires", "ops", "parse (s)", "fingerprint (s)", "fingerprint / parse"],
                  "rrrrr", "W1 unrolled, 20 layers (wide registers)")
    wide = []
    for wires in WIDE_WIRES:
        path = os.path.join(ctx.work, f"w1-wide-{wires}.mlir")
        subprocess.run(GEN + ["w1", "--wires", str(wires), "--layers", "20", "--form",
                              "unrolled", "-o", path], check=True)
        ops = op_count(os.path.join(ctx.bindir, "qshape-opt"), path)
        parse, fp = fingerprint_times(tool, path, ctx.args.repeat)
        wide.append({"wires": wires, "ops": ops, "parse": parse, "fingerprint": fp})
        t.add(wires, ops, f"{parse:.3f}", f"{fp:.3f}", f"{fp / parse:.2f}")
    a, b = wide[0], wide[-1]
    t.notes.append(f"Growth: fingerprint time x{b['fingerprint'] / a['fingerprint']:.1f}, "
                   f"parse x{b['parse'] / a['parse']:.1f}, for x{b['ops'] / a['ops']:.1f} ops.")
    return wide


def run(ctx):
    sec = Section(
        ["W3", "W1"],
        "W3: `utils/gen/workloads.py w3 --ops N --angles const`, N from --sizes. W1: "
        "`workloads.py w1 --wires W --layers 20 --form unrolled`, W = "
        + ", ".join(map(str, WIDE_WIRES)) + ".",
        "`qshape-fingerprint --timing FILE` prints its parse and fingerprint times; the run "
        "with the least fingerprint time of --repeat (one run at 10^6 ops).")
    tool = os.path.join(ctx.bindir, "qshape-fingerprint")
    sec.raw["rows"] = w3_table(ctx, sec, tool)
    sec.raw["w1_wide"] = wide_table(ctx, sec, tool)
    return sec
