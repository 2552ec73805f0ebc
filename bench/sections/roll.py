"""Sections `roll` (qshape-roll-loops on W1, W2 and W3) and `allocators`
(W3 rolled in upstream mlir-opt under each malloc installed)."""
import os
import statistics
import subprocess

from benchlib import (GEN, MLIR_PARSER, Section, gen_w3, mlir_pass_time, op_count, plugin_host,
                      timed, tool_allocator)

W1_RATIO = 1.10  # W1 unrolled and rolled within 10 % of the loop form
W2_RATIO = 1 / 8  # W2 rolled to at most 1/8 of unrolled
W3_GROWTH = 1.5  # roll time grows at most 1.5x as fast as the ops (x150 for x100)
W3_MEMORY = 2.5  # peak memory at most 2.5x parsing and printing alone
ROLL = ["--qshape-canonicalize", "--qshape-roll-loops"]


def w1_table(ctx, sec, opt):
    t = sec.table(["layers L", "unrolled input", "unrolled, rolled", "loop form, same passes",
                   "ratio"], "rrrrr", "W1: the unrolled trace against the autograph loop form "
                  "(both with `--qshape-canonicalize --qshape-roll-loops`)")
    rows = []
    for layers in (1, 2, 3, 4):
        u = os.path.join(ctx.work, f"w1-unrolled-L{layers}.mlir")
        l = os.path.join(ctx.work, f"w1-loop-L{layers}.mlir")
        subprocess.run(GEN + ["w1", "--layers", str(layers), "--form", "unrolled", "-o", u],
                       check=True)
        subprocess.run(GEN + ["w1", "--layers", str(layers), "--form", "loop", "-o", l],
                       check=True)
        before, a, b = op_count(opt, u), op_count(opt, u, ROLL), op_count(opt, l, ROLL)
        rows.append({"layers": layers, "unrolled": before, "rolled": a, "loop_form": b})
        t.add(layers, before, a, b, f"{a / b:.2f}")
    worst = max(r["rolled"] / r["loop_form"] for r in rows)
    sec.target(f"W1 rolled <= {W1_RATIO:.2f}x the loop form's ops", f"worst {worst:.2f}x",
               worst <= W1_RATIO)
    return rows


def w2_table(ctx, sec, opt):
    t = sec.table(["variant", "unrolled", "rolled", "rolled / unrolled"], "lrrr",
                  "W2: QPE of H2, n_trotter = 10 (`--qshape-roll-loops`)")
    rows = []
    for variant in ("native", "decomposed"):
        f = os.path.join(ctx.work, f"w2-{variant}-n10.mlir")
        subprocess.run(GEN + ["w2", "--variant", variant, "--n-trotter", "10", "-o", f],
                       check=True)
        before, after = op_count(opt, f), op_count(opt, f, ["--qshape-roll-loops"])
        rows.append({"variant": variant, "unrolled": before, "rolled": after})
        t.add(variant, before, after, f"{after / before:.4f} (1/{before / after:.2f})")
    worst = max(r["rolled"] / r["unrolled"] for r in rows)
    sec.target("W2 rolled <= 1/8 of unrolled", f"worst 1/{1 / worst:.2f}", worst <= W2_RATIO)
    return rows


def w3_runs(ctx, tool, passes, path, n):
    """Median (roll s, parse s, wall s, peak MB) of 21, 7 or 5 runs, and the
    fastest roll."""
    rolled = path[:-5] + ".rolled.mlir"
    runs = []
    for _ in range(21 if n <= 10**4 else 7 if n <= 10**5 else 5):
        wall, mb, err = timed(tool + [path] + passes + ["--mlir-timing", "-o", rolled])
        runs.append((mlir_pass_time(err, "QShapeRollLoops"),
                     float(MLIR_PARSER.search(err).group(1)), wall, mb))
    return [statistics.median(r[i] for r in runs) for i in range(4)], min(r[0] for r in runs), rolled


def w3_host(ctx, sec, opt, host, tool, passes):
    t = sec.table(["ops", "roll pass (s)", "parser (s)", "process wall (s)", "roll peak (MB)",
                   "parse+print peak (MB)", "memory ratio", "ops after"], "rrrrrrrr",
                  f"W3 in {host}")
    rows = []
    for n in [int(x) for x in ctx.args.sizes.split(",")]:
        path = os.path.join(ctx.work, f"w3-{n}.mlir")
        gen_w3(n, path)
        _, pp_mb, _ = timed(tool + [path, "-o", os.devnull])
        med, fastest, rolled = w3_runs(ctx, tool, passes, path, n)
        after = op_count(opt, rolled)
        rows.append({"ops": n, "roll": med[0], "fastest_roll": fastest, "parse": med[1],
                     "wall": med[2], "peak_mb": med[3], "parse_print_peak_mb": pp_mb,
                     "ops_after": after})
        t.add(n, f"{med[0]:.4f} ({fastest:.4f})", f"{med[1]:.3f}", f"{med[2]:.2f}",
              f"{med[3]:.0f}", f"{pp_mb:.0f}", f"{med[3] / pp_mb:.2f}", after)
    if len(rows) > 1:
        a, b = rows[0], rows[-1]
        x = b["ops"] / a["ops"]
        growth = b["roll"] / a["roll"]
        t.notes.append(f"Growth for x{x:.0f} ops: roll pass x{growth:.0f} (fastest runs: "
                       f"x{b['fastest_roll'] / a['fastest_roll']:.0f}); MLIR's parser on the "
                       f"same files x{b['parse'] / a['parse']:.0f}; process wall time "
                       f"x{b['wall'] / a['wall']:.0f}.")
        sec.target(f"{host}: W3 roll time grows at most x{W3_GROWTH * x:.0f} from {a['ops']} "
                   f"to {b['ops']} ops (1.5x linear)", f"x{growth:.0f}", growth <= W3_GROWTH * x)
    else:
        sec.target(f"{host}: W3 roll time grows at most {W3_GROWTH}x as fast as the ops",
                   "one size only", None)
    big = rows[-1]
    mem = big["peak_mb"] / big["parse_print_peak_mb"]
    sec.target(f"{host}: W3 peak memory <= {W3_MEMORY}x parse-and-print at {big['ops']} ops",
               f"{mem:.2f}x", mem <= W3_MEMORY)
    return rows


def roll(ctx):
    opt = os.path.join(ctx.bindir, "qshape-opt")
    hosts = [(f"qshape-opt ({tool_allocator(opt)})", [opt], ["--qshape-roll-loops"])]
    if os.path.exists(ctx.args.mlir_opt):
        hosts.append(("mlir-opt + plugins (system malloc)", plugin_host(ctx.args),
                      ["--pass-pipeline=builtin.module(qshape-roll-loops)"]))
    sec = Section(
        ["W1", "W2", "W3"],
        "W1: `utils/gen/workloads.py w1 --layers L --form unrolled|loop`, L = 1-4. W2: "
        "`workloads.py w2 --variant native|decomposed --n-trotter 10`. W3: `workloads.py w3 "
        "--ops N --angles const`, N from --sizes.",
        "Op counts from `qshape-opt --qshape-stats`. W3: the pass alone after parsing; pass and "
        "parser times from `--mlir-timing`, process wall time and peak memory from "
        "`/usr/bin/time`, medians of 21, 7 and 5 runs at up to 10^4, 10^5 and more ops (the "
        "fastest run in brackets); peak memory against parsing and printing alone in the same "
        "host. Two hosts run the same pass code: qshape-opt, which links mimalloc (CMake option "
        "`QSHAPE_USE_MIMALLOC`), and upstream mlir-opt with qshape's plugins, on the system's "
        "malloc (glibc here), as most hosts are."
        + ("" if len(hosts) > 1 else f" ({ctx.args.mlir_opt} not found: no mlir-opt rows.)"))
    sec.raw["w1"] = w1_table(ctx, sec, opt)
    sec.raw["w2"] = w2_table(ctx, sec, opt)
    sec.raw["w3"] = {host: w3_host(ctx, sec, opt, host, tool, passes)
                     for host, tool, passes in hosts}
    return sec


# Allocators the `allocators` section preloads into mlir-opt, when installed
# (Debian: libmimalloc2.0, libjemalloc2, libtcmalloc-minimal4).
PRELOADS = [("mimalloc", "/usr/lib/x86_64-linux-gnu/libmimalloc.so.2"),
            ("jemalloc", "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"),
            ("tcmalloc", "/usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4")]
SMALL, LARGE = 10**4, 10**6


def allocator_medians(ctx, tool, lib):
    """{ops: [median roll s, median parse s]} at 10^4 (11 runs) and 10^6 (3)."""
    env = dict(os.environ)
    if lib:
        env["LD_PRELOAD"] = lib
    med = {}
    for n, reps in ((SMALL, 11), (LARGE, 3)):
        runs = []
        for _ in range(reps):
            err = subprocess.run(tool + [os.path.join(ctx.work, f"w3-{n}.mlir")], env=env,
                                 capture_output=True, text=True, check=True).stderr
            runs.append((mlir_pass_time(err, "QShapeRollLoops"),
                         float(MLIR_PARSER.search(err).group(1))))
        med[n] = [statistics.median(r[i] for r in runs) for i in range(2)]
    return med


def allocators(ctx):
    found = [p for p in PRELOADS if os.path.exists(p[1])]
    sec = Section(
        ["W3"], "W3: `utils/gen/workloads.py w3 --ops N --angles const`, N = 10^4 and 10^6.",
        "One binary, upstream mlir-opt with qshape's plugins "
        "(`--pass-pipeline=builtin.module(qshape-roll-loops)`), with the system's malloc or "
        "another one preloaded (`LD_PRELOAD`; those installed: "
        + (", ".join(name for name, _ in found) or "none") + "); pass and parser times from "
        "`--mlir-timing`, medians of 11 runs at 10^4 ops and 3 at 10^6.")
    if not os.path.exists(ctx.args.mlir_opt):
        sec.note(f"{ctx.args.mlir_opt} not found: nothing measured.")
        return sec
    tool = plugin_host(ctx.args) + ["--pass-pipeline=builtin.module(qshape-roll-loops)",
                                    "--mlir-timing", "-o", os.devnull]
    for n in (SMALL, LARGE):
        gen_w3(n, os.path.join(ctx.work, f"w3-{n}.mlir"))
    t = sec.table(["malloc", "roll 10^4 (s)", "roll 10^6 (s)", "roll growth", "parse 10^4 (s)",
                   "parse 10^6 (s)", "parse growth"], "lrrrrrr")
    for name, lib in [("system", None)] + found:
        med = allocator_medians(ctx, tool, lib)
        (r0, p0), (r1, p1) = med[SMALL], med[LARGE]
        sec.raw[name] = {"roll": [r0, r1], "parse": [p0, p1]}
        t.add(name, f"{r0:.4f}", f"{r1:.3f}", f"x{r1 / r0:.0f}", f"{p0:.3f}", f"{p1:.2f}",
              f"x{p1 / p0:.0f}")
    return sec
