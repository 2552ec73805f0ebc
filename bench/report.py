#!/usr/bin/env python3
"""Write docs/benchmarks.md from the JSON files bench/run.py leaves in
<build>/bench/: an introduction (the machine, how to reproduce), the
workloads, a summary of every section and its targets, then per section its
command, inputs, method, tables, targets and plots.

The page depends on those files, and on the page it replaces: a section
without a file keeps its text and summary row from that page (so rerunning
one section on a fresh build does not drop the others' numbers, each of
which names its run), or is listed as not run, with the command that runs it.

    python3 bench/report.py --build build [--out docs/benchmarks.md] [--check]

Python 3.11, standard library only.
"""
import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from sections import SECTIONS  # noqa: E402

ROOT = os.path.dirname(HERE)

# The workloads, in the words of the README; each section says which it uses.
WORKLOADS = [
    ("W1", "batch", "`utils/gen/workloads.py w1`",
     "the batch user's job: a 12-qubit QNode; on each of 10 wires a gate G, two `Rot` and a "
     "`Hadamard`, then `expval(PauliZ(0))`. The user runs it as 140 jobs where G cycles through "
     "`PauliX`, `PauliY`, `PauliZ` and `Hadamard` (4 topologies). Two forms: unrolled (traced "
     "without autograph) and a loop (autograph); `--layers L` repeats the layer, `--wires W` "
     "widens it."),
    ("W2", "qpe-h2", "`utils/gen/workloads.py w2`",
     "the QPE user's program: Trotterized quantum phase estimation of H2 (4 system and 4 "
     "estimation qubits, 15 Pauli terms, second-order Trotter steps, `--n-trotter` of them; the "
     "coefficients are a runtime argument). Variants: native (`quantum.paulirot` with controls) "
     "and decomposed (basis changes, CNOT ladders and RZ, every gate controlled); synthetic "
     "Hamiltonians of up to 1000 terms on up to 12 qubits for scale."),
    ("W3", "scale", "`utils/gen/workloads.py w3`",
     "synthetic unrolled circuits on 8 wires: per layer RX, RY and RZ on each wire, then a CNOT "
     "ladder; `--ops N` gate ops (10^4 to 10^6 here)."),
    ("W4", "random-repetitive", "`utils/gen/workloads.py w4`",
     "seeded random circuits on 2-10 qubits built from repeated bodies of random gates (runs, "
     "nested runs, interruptions), for the correctness of loop rolling."),
    ("families", "", "`utils/gen/families.py`",
     "circuits users write as Python loops, unrolled as tracing without autograph emits them: "
     "StronglyEntanglingLayers (`hea`), QAOA on a ring, measurement feedback, Grover."),
    ("nested", "", "`utils/gen/families.py` (`nested(depth)`)",
     "six gates inside `depth` nested regions, alternately `scf.for` and `scf.if`."),
    ("noroll-hea", "", "`utils/gen/families.py` (`hea`, runtime angles)",
     "unrolled StronglyEntanglingLayers on 8 wires whose angles are 24 argument reads per "
     "layer."),
    ("sim-bench", "", "`bench/sim_bench.cpp`",
     "a 20-qubit circuit of 10 layers of RX/RY on every wire and a CNOT ladder."),
]
WORKLOAD_NAMES = {name for name, *_ in WORKLOADS}

# (file in docs/images, alt text, the sections it is drawn from: it is shown
# under the first of them that ran)
PLOTS = [
    ("roll-fingerprint-vs-ops.png", "roll and fingerprint time against size",
     ["roll-scale", "fingerprint"]),
    ("compile-vs-ntrotter.png", "native compile time against n_trotter", ["native"]),
    ("nesting.png", "time against nesting depth", ["nesting"]),
    ("noroll.png", "unrolled compiles against argument reads", ["noroll"]),
    ("cache.png", "cache: a miss against a hit", ["artifact", "remote"]),
]


def load(work):
    """{section: its JSON document} for the sections with a file."""
    docs = {}
    for spec in SECTIONS:
        path = os.path.join(work, f"{spec.name}.json")
        if os.path.exists(path):
            with open(path) as f:
                docs[spec.name] = json.load(f)
    return docs


def slug(title):
    """GitHub's anchor for a heading."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def cell(text):
    return str(text).replace("|", "\\|")


def render_table(t):
    out = []
    if t.get("title"):
        out += [f"{t['title']}:", ""]
    out.append("| " + " | ".join(cell(c) for c in t["columns"]) + " |")
    out.append("|" + "|".join("---:" if a == "r" else "---" for a in t["align"]) + "|")
    out += ["| " + " | ".join(cell(c) for c in row) + " |" for row in t["rows"]]
    out.append("")
    for note in t.get("notes", []):
        out += [note, ""]
    return out


def verdict(status):
    return {"met": "met", "not met": "**NOT met**"}.get(status, status)


def load_text(doc):
    la = doc.get("load_average", {})
    start, end = la.get("start"), la.get("end")
    if not start:
        return ""
    return f"{start[0]:.2f}" + (f" -> {end[0]:.2f}" if end else "")


def run_line(doc):
    return (f"Run: {doc['date']}, {doc['seconds']:.0f} s; load average (1 min) "
            f"{load_text(doc)} on {doc['machine']['cores']} cores; tree {doc['machine']['tree']}.")


def render_section(doc, plots=()):
    """One section's Markdown (heading included) from its JSON document."""
    out = [f"## {doc['title']}", "", f"Command: `{doc['command']}`", ""]
    if doc.get("status") != "ok":
        return "\n".join(out + [f"**Failed**: {doc.get('error', '')}. {run_line(doc)}", ""])
    names = ", ".join(f"[{w}](#workloads)" if w in WORKLOAD_NAMES else w
                      for w in doc["workloads"])
    out += [f"Workloads: {names}. {doc['inputs']}", "", doc["method"], "", run_line(doc), ""]
    for t in doc["tables"]:
        out += render_table(t)
    if doc["targets"]:
        out += ["Targets:", ""]
        out += [f"- {verdict(t['status'])}: {t['target']}: {t['value']}" for t in doc["targets"]]
        out.append("")
    out += [n for note in doc["notes"] for n in (note, "")]
    for name, alt in plots:
        out += [f"![{alt}](images/{name})", ""]
    return "\n".join(out)


def render_missing(spec):
    return "\n".join([f"## {spec.title}", "", "Not run. Command: "
                      f"`python3 bench/run.py --build build --sections {spec.name}`", ""])


def machines(docs):
    """Distinct machine descriptions (the tree is in each section's run
    line), with the sections measured on each."""
    seen = {}
    for name, doc in docs.items():
        m = doc["machine"]
        text = (f"{m['cpu']}, {m['cores']} cores, {m['memory_gb']} GB, {m.get('os', '')}; "
                f"{m['build_type']} build, {m['compiler']}")
        seen.setdefault(text, []).append(name)
    return seen


def intro(docs):
    out = ["# Benchmarks", "",
           "<!-- Generated by bench/report.py from <build>/bench/*.json: edit those scripts, "
           "not this file. -->", "",
           "Reference numbers for qshape's benchmarks: one section per benchmark, each with the "
           "command that reproduces it, its tables and the targets it checks. `make bench` runs "
           "every section (`python3 bench/run.py --build build --sections all`), then draws the "
           "plots (`python3 bench/plots.py --build build`) and writes this page (`python3 "
           "bench/report.py --build build`). To rerun one section, run its command, then "
           "`make bench-report`. The dated history of these measurements, with the analyses "
           "behind them, is in [benchmarks-log.md](benchmarks-log.md).", ""]
    found = machines(docs)
    if len(found) == 1:
        out += [f"Machine: {next(iter(found))}.", ""]
    for text, names in (found.items() if len(found) > 1 else []):
        out += [f"- Machine of {', '.join(names)}: {text}.", ""]
    out += ["The machine is shared and noisy: compare ratios taken within one run rather than "
            "seconds across runs.", ""]
    return out


def workloads_table():
    out = ["## Workloads", "", "| name | generator | what |", "|---|---|---|"]
    for name, alias, gen, what in WORKLOADS:
        label = f"**{name}** ({alias})" if alias else f"**{name}**"
        out.append(f"| {label} | {gen} | {what} |")
    return out + [""]


def summary(docs):
    out = ["## Summary", "", "| section | workloads | date | run time (s) | targets |",
           "|---|---|---|---:|---|"]
    for spec in SECTIONS:
        doc = docs.get(spec.name)
        link = f"[{spec.title}](#{slug(spec.title)})"
        if doc is None:
            out.append(f"| {link} | | not run | | |")
            continue
        if doc.get("status") != "ok":
            out.append(f"| {link} | | {doc['date']}: failed | {doc['seconds']:.0f} | |")
            continue
        counts = {}
        for t in doc["targets"]:
            counts[t["status"]] = counts.get(t["status"], 0) + 1
        targets = ", ".join(f"{counts[s]} {verdict(s)}" for s in ("met", "not met", "not measured")
                            if s in counts)
        out.append(f"| {link} | {', '.join(doc['workloads'])} | {doc['date']} | "
                   f"{doc['seconds']:.0f} | {targets} |")
    return out + [""]


def plots_of(docs):
    """{section: [(file, alt)]}: each plot under the first of its sources that ran."""
    placed = {}
    for name, alt, sources in PLOTS:
        home = next((s for s in sources if docs.get(s, {}).get("status") == "ok"), None)
        if home:
            placed.setdefault(home, []).append((name, alt))
    return placed


def previous_page(path):
    """{title: (summary row, section text)} of the measured sections of the
    page at `path` (none when it does not exist)."""
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        text = f.read()
    kept = {}
    for spec in SECTIONS:
        head = f"## {spec.title}\n"
        at = text.find(head)
        if at < 0 or text.startswith("Not run.", at + len(head) + 1):
            continue
        end = text.find("\n## ", at + len(head))
        body = text[at:] if end < 0 else text[at:end + 1]
        row = re.search(r"^\| \[" + re.escape(spec.title) + r"\]\(#.*$", text, re.M)
        if row:
            kept[spec.title] = (row.group(0), body.rstrip("\n") + "\n")
    return kept


def render(docs, previous=None):
    previous = previous or {}
    out = intro(docs) + workloads_table()
    rows = summary(docs)
    sections = []
    placed = plots_of(docs)
    for spec in SECTIONS:
        doc = docs.get(spec.name)
        if doc is None and spec.title in previous:
            row, text = previous[spec.title]
            rows = [row if r.startswith(f"| [{spec.title}](") else r for r in rows]
            sections.append(text)
            continue
        sections.append(render_missing(spec) if doc is None else
                        render_section(doc, placed.get(spec.name, ())))
    return "\n".join(out + rows + sections).rstrip("\n") + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build", help="the build directory whose bench/ holds "
                    "the JSON files")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "benchmarks.md"))
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 when --out differs from what would be written")
    args = ap.parse_args()
    text = render(load(os.path.join(args.build, "bench")), previous_page(args.out))
    if args.check:
        with open(args.out) as f:
            same = f.read() == text
        print(f"report: {args.out} is {'up to date' if same else 'out of date'}")
        return 0 if same else 1
    with open(args.out, "w") as f:
        f.write(text)
    print(f"report: wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
