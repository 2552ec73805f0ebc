"""What the sections of bench/run.py share: paths, the generators, process
timing, and `Section`, the record each section fills and run.py saves as
<build>/bench/<section>.json (bench/report.py renders it, bench/plots.py
draws from its `raw` numbers).

Python 3.11, standard library only.
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WORKLOADS_PY = os.path.join(ROOT, "utils", "gen", "workloads.py")
GEN = [sys.executable, WORKLOADS_PY]

# A row of --mlir-timing: "<wall> (<pct>%)  <name>".
MLIR_PARSER = re.compile(r"([0-9.]+) \(\s*[0-9.]+%\)\s+Parser")


def mlir_pass_time(stderr, name):
    """The wall seconds of pass `name` in --mlir-timing's output, or None."""
    m = re.search(r"([0-9.]+) \(\s*[0-9.]+%\)\s+" + name, stderr)
    return float(m.group(1)) if m else None


def compare_results():
    """utils/compare-results.py as a module (its name has a dash)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "compare_results", os.path.join(ROOT, "utils", "compare-results.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def gen_w3(ops, path):
    """W3 of about `ops` gate ops with baked angles, generated once."""
    if not os.path.exists(path):
        subprocess.run(GEN + ["w3", "--ops", str(ops), "--angles", "const", "-o", path],
                       check=True)


def gen(path, args, always=False):
    """utils/gen/workloads.py ARGS -o PATH, unless PATH exists (or `always`)."""
    if always or not os.path.exists(path):
        subprocess.run(GEN + list(args) + ["-o", path], check=True)
    return path


def op_count(opt, path, passes=()):
    """Ops in `path` after `passes`, measured with qshape-stats."""
    text = subprocess.run([opt, path, *passes], capture_output=True, text=True,
                          check=True).stdout
    out = subprocess.run([opt, "-", "--qshape-stats=output=-", "-o", os.devnull], input=text,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["ops"]


def timed(cmd):
    """(wall seconds, peak RSS in MB, stderr) of one run, via /usr/bin/time."""
    out = subprocess.run(["/usr/bin/time", "-f", "@@%e %M"] + cmd, capture_output=True,
                         text=True, check=True)
    line = [l for l in out.stderr.splitlines() if l.startswith("@@")][-1]
    wall, kb = line[2:].split()
    return float(wall), int(kb) / 1024, out.stderr


def timed_with_limit(cmd, limit):
    """(wall s, peak MB, CPU s (user + sys), stderr) of one run through
    /usr/bin/time, or None when it ran longer than `limit` seconds (then the
    whole process group is killed)."""
    p = subprocess.Popen(["/usr/bin/time", "-f", "@@%e %M %U %S"] + cmd,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        _, err = p.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, 9)
        p.communicate()
        return None
    if p.returncode != 0:
        raise SystemExit(f"bench: {' '.join(cmd)} failed:\n{err}")
    wall, kb, user, sys_ = [l for l in err.splitlines() if l.startswith("@@")][-1][2:].split()
    return float(wall), int(kb) / 1024, float(user) + float(sys_), err


def plugin_host(args):
    """Upstream mlir-opt with qshape's dialect and pass plugins loaded."""
    libdir = os.path.join(args.build, "lib")
    return [args.mlir_opt,
            f"--load-dialect-plugin={os.path.join(libdir, 'QShapeQuantumDialectPlugin.so')}",
            f"--load-pass-plugin={os.path.join(libdir, 'QShapePassPlugin.so')}"]


def tool_allocator(tool):
    """Which malloc a qshape tool uses: mimalloc announces itself when asked to."""
    err = subprocess.run([tool, "--version"], capture_output=True, text=True,
                         env=dict(os.environ, MIMALLOC_VERBOSE="1")).stderr
    return "mimalloc" if "mimalloc:" in err else "system malloc"


def verdict(passed):
    """A target's status word in the JSON: met, not met, not measured."""
    return "not measured" if passed is None else "met" if passed else "not met"


class Table:
    """Columns, their alignment (l or r) and rows of already formatted cells."""

    def __init__(self, columns, align, title=None):
        assert len(align) == len(columns), (columns, align)
        self.columns, self.align, self.title = list(columns), align, title
        self.rows, self.notes = [], []

    def add(self, *cells):
        assert len(cells) == len(self.columns), (self.columns, cells)
        self.rows.append(["" if c is None else str(c) for c in cells])

    def as_json(self):
        return {"title": self.title, "columns": self.columns, "align": self.align,
                "rows": self.rows, "notes": self.notes}


class Section:
    """One section's results: what it measures, its tables, its targets.

    `workloads` names the workloads measured (W1-W4 or the other names
    bench/report.py defines), `inputs` says exactly which of them and how
    they are generated, `method` how they are measured; `raw` holds the
    numbers themselves, for bench/plots.py and for later analysis."""

    def __init__(self, workloads, inputs, method):
        self.workloads, self.inputs, self.method = list(workloads), inputs, method
        self.tables, self.targets, self.notes, self.raw = [], [], [], {}

    def table(self, columns, align, title=None):
        t = Table(columns, align, title)
        self.tables.append(t)
        return t

    def target(self, text, value, passed):
        """A target the section checks: `text` the target, `value` what was
        measured, `passed` True, False or None (not measured)."""
        self.targets.append({"target": text, "value": value, "status": verdict(passed)})

    def note(self, text):
        self.notes.append(text)

    def as_json(self):
        return {"workloads": self.workloads, "inputs": self.inputs, "method": self.method,
                "tables": [t.as_json() for t in self.tables], "targets": self.targets,
                "notes": self.notes, "raw": self.raw}
