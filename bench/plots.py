#!/usr/bin/env python3
"""Draw docs/images/*.png from the raw numbers `bench/run.py` leaves in <build>/bench/
(the `raw` part of each section's JSON).

  roll-fingerprint-vs-ops.png  roll (roll-scale) and fingerprint time vs op count
                               (log-log), with MLIR's parser on the same files
  compile-vs-ntrotter.png      qshape-compile wall time, unrolled vs rolled, vs n_trotter
  cache.png                    a miss vs a local hit vs a remote hit (MLIR cache),
                               and the artifact cache's miss vs hit
  nesting.png                  canonicalize, roll and compile time vs nesting depth
  noroll.png                   --no-roll compiles vs argument reads, with and
                               without qshape-lower-argument-reads

Each plot is drawn from the sections that ran; a plot whose numbers are missing
is left as it was, and the script says which section to run. Uses Debian's
python3-matplotlib (`make deps` installs it).
"""
import argparse
import json
import os
import statistics
import sys

import matplotlib

matplotlib.use("Agg")  # no display: write files only
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def load(work, section):
    """The raw numbers of a section that ran (bench/run.py's JSON), or None."""
    path = os.path.join(work, f"{section}.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        doc = json.load(f)
    return doc["raw"] if doc.get("status") == "ok" else None


def save(fig, out, name):
    path = os.path.join(out, name)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(f"plots: wrote {path}", flush=True)


def missing(name, sections):
    print(f"plots: {name} not drawn: run `python3 bench/run.py --sections {sections}` first",
          file=sys.stderr)


def roll_fingerprint_plot(work, out):
    fp, roll = load(work, "fingerprint"), load(work, "roll-scale")
    if fp is None and roll is None:
        return missing("roll-fingerprint-vs-ops.png", "fingerprint,roll-scale")
    # One panel per host (the roll section's series are "<family>, <host>"),
    # a colour per workload family: the roll solid, the parser dotted.
    series = (roll or {}).get("series", [])
    hosts = list(dict.fromkeys(sr["label"].rsplit(", ", 1)[-1] for sr in series)) or ["qshape-opt"]
    fig, axes = plt.subplots(1, len(hosts), figsize=(5.2 * len(hosts), 4.8), sharey=True, squeeze=False)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, host in zip(axes[0], hosts):
        mine = [sr for sr in series if sr["label"].rsplit(", ", 1)[-1] == host]
        for k, sr in enumerate(mine):
            c = colors[k % len(colors)]
            pts = sorted(sr["points"], key=lambda p: p["ops"])
            family = sr["label"].rsplit(", ", 1)[0]
            ax.plot([p["ops"] for p in pts], [p["roll"] for p in pts], "^-", color=c,
                    label=f"roll: {family}")
            if all("parse" in p for p in pts):
                ax.plot([p["ops"] for p in pts], [p["parse"] for p in pts], ":", marker=".", color=c,
                        label=f"parse: {family}")
        if fp and host == hosts[0]:
            ops = [r["ops"] for r in fp["rows"]]
            ax.plot(ops, [r["fingerprint"] for r in fp["rows"]], "o-", color="black",
                    label="fingerprint: W3")
            ax.plot(ops, [r["parse"] for r in fp["rows"]], "s:", color="black", label="parse: W3")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("ops in the module")
        ax.set_title(host)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=6)
    axes[0][0].set_ylabel("seconds")
    fig.suptitle("qshape-roll-loops and qshape-fingerprint vs size, MLIR's parser for reference")
    save(fig, out, "roll-fingerprint-vs-ops.png")


def compile_plot(work, out):
    native = load(work, "native")
    if native is None:
        return missing("compile-vs-ntrotter.png", "native")
    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    limit = None
    for variant, color in (("decomposed", "tab:blue"), ("native", "tab:orange")):
        rows = [r for r in native["compile"] if r["workload"].startswith(f"W2 {variant} n_trotter=")]
        for form, style in (("unrolled", "o-"), ("rolled", "s--")):
            pts = [(int(r["workload"].split("=")[1]), r[form]["wall"]) for r in rows if r[form]]
            if pts:
                ax.plot(*zip(*pts), style, color=color, label=f"W2 {variant}, {form}")
            stopped = [int(r["workload"].split("=")[1]) for r in rows if not r[form]]
            if stopped:
                limit = rows[0]["limit"]
                ax.plot(stopped, [limit] * len(stopped), "x", color="red", markersize=9)
    if limit:
        ax.axhline(limit, color="red", alpha=0.3, linestyle=":")
        ax.text(ax.get_xlim()[0], limit, f" stopped after {limit:.0f} s (x)", color="red",
                fontsize=7, va="bottom")
    ax.set_yscale("log")
    ax.set_xlabel("n_trotter")
    ax.set_ylabel("qshape-compile wall time at -O2 (s)")
    ax.set_title("Native compile time, unrolled (--no-roll) vs rolled")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    save(fig, out, "compile-vs-ntrotter.png")


def cache_plot(work, out):
    remote, artifact = load(work, "remote"), load(work, "artifact")
    if remote is None and artifact is None:
        return missing("cache.png", "remote,artifact")
    bars = []  # (group, label, seconds)
    if remote:
        for name in ("miss", "local hit", "remote hit"):
            if remote["wall"].get(name):
                bars.append(("MLIR cache (qshape-opt --qshape-cache)", name,
                             statistics.median(remote["wall"][name])))
    for row in (artifact or {}).get("rows", []):  # qshape-compile in a new process
        for name in ("miss", "hit"):
            if row.get(f"{name}_s"):
                bars.append((f"artifact cache, {row['workload']}", name,
                             statistics.median(row[f"{name}_s"])))
    fig, ax = plt.subplots(figsize=(7.2, 0.42 * len(bars) + 1.6))
    labels = [f"{g}: {n}" for g, n, _ in bars]
    secs = [s for _, _, s in bars]
    colors = ["tab:red" if n == "miss" else "tab:green" if "local" in n or n == "hit" else "tab:blue"
              for _, n, _ in bars]
    ax.barh(range(len(bars)), secs, color=colors)
    for i, s in enumerate(secs):
        ax.text(s, i, f" {s:.3f} s", va="center", fontsize=7)
    ax.set_yticks(range(len(bars)))
    ax.set_yticklabels(labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("process wall time (s, median)")
    ax.set_title("Cache: a miss vs a hit")
    ax.grid(True, axis="x", which="both", alpha=0.3)
    save(fig, out, "cache.png")


def nesting_plot(work, out):
    data = load(work, "nesting")
    if not data:
        return missing("nesting.png", "nesting")
    rows = data["rows"]
    depth = [r["depth"] for r in rows]
    fig, ax = plt.subplots(figsize=(6, 3.6))
    for key, label in (("canonicalize_s", "qshape-canonicalize"), ("roll_s", "qshape-roll-loops"),
                       ("compile_s", "qshape-compile (wall)")):
        ax.plot(depth, [r[key] * 1e3 for r in rows], marker="o", label=label)
    ax.set_xlabel("regions nested (scf.for / scf.if)")
    ax.set_ylabel("ms")
    ax.set_yscale("log")
    ax.set_title("Time against nesting depth")
    ax.legend()
    save(fig, out, "nesting.png")


def noroll_plot(work, out):
    data = load(work, "noroll")
    if not data:
        return missing("noroll.png", "noroll")
    rows = data["rows"]
    fig, ax = plt.subplots(figsize=(6, 4))
    series = (("qshape-compile --no-roll (wall)", lambda r: r["compile"]["wall"]),
              ("MLIR pipeline", lambda r: r["pipeline"]["wall"]),
              ("MLIR pipeline without qshape-lower-argument-reads",
               lambda r: r["pipeline_without"] and r["pipeline_without"]["wall"]),
              ("one-shot-bufferize, without the pass",
               lambda r: r["pipeline_without"] and r["pipeline_without"]["bufferize"]))
    for label, value in series:
        points = [(r["reads"], value(r)) for r in rows if value(r)]
        dashed = "without" in label
        ax.plot(*zip(*points), marker="o", label=label, linestyle="--" if dashed else "-")
    # Linear growth through the first compile, for reference.
    first = rows[0]
    ax.plot([r["reads"] for r in rows], [first["compile"]["wall"] * r["reads"] / first["reads"] for r in rows],
            color="grey", linewidth=0.8, linestyle=":", label="linear")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("tensor.extract of the argument (unrolled HEA, 8 wires)")
    ax.set_ylabel("s")
    ax.set_title("Unrolled compiles against argument reads")
    ax.legend(fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    save(fig, out, "noroll.png")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build", help="the build directory whose bench/ holds the numbers")
    ap.add_argument("--out", default=os.path.relpath(os.path.join(HERE, "..", "docs", "images")),
                    help="where the PNG files go (default: docs/images)")
    args = ap.parse_args()
    work = os.path.join(args.build, "bench")
    os.makedirs(args.out, exist_ok=True)
    roll_fingerprint_plot(work, args.out)
    compile_plot(work, args.out)
    cache_plot(work, args.out)
    nesting_plot(work, args.out)
    noroll_plot(work, args.out)


if __name__ == "__main__":
    main()
