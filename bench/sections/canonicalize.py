"""Section `canonicalize`: qshape-canonicalize against MLIR's parser on W3."""
import os
import statistics
import subprocess

from benchlib import MLIR_PARSER, Section, gen_w3, mlir_pass_time


def run(ctx):
    opt = os.path.join(ctx.bindir, "qshape-opt")
    sec = Section(
        ["W3"], "W3: `utils/gen/workloads.py w3 --ops N --angles const`, N from --sizes.",
        "`qshape-opt FILE --qshape-canonicalize --mlir-timing --verify-each=0`: the pass "
        "against MLIR's parser in the same run (MLIR's verifier after the pass would add about "
        "as much again at 10^6 ops, hence --verify-each=0); medians of 5 runs (3 at 10^6).")
    t = sec.table(["ops", "parser (s)", "qshape-canonicalize (s)", "canonicalize / parse"],
                  "rrrr")
    rows = []
    for n in [int(x) for x in ctx.args.sizes.split(",")]:
        path = os.path.join(ctx.work, f"w3-{n}.mlir")
        gen_w3(n, path)
        samples = []
        for _ in range(3 if n >= 10**6 else 5):
            err = subprocess.run([opt, path, "--qshape-canonicalize", "--mlir-timing",
                                  "--verify-each=0", "-o", os.devnull], capture_output=True,
                                 text=True, check=True).stderr
            samples.append((mlir_pass_time(err, "QShapeCanonicalize"),
                            float(MLIR_PARSER.search(err).group(1))))
        canon = statistics.median(x[0] for x in samples)
        parse = statistics.median(x[1] for x in samples)
        rows.append({"ops": n, "parse": parse, "canonicalize": canon})
        t.add(n, f"{parse:.3f}", f"{canon:.3f}", f"{canon / parse:.2f}")
    sec.raw["rows"] = rows
    return sec
