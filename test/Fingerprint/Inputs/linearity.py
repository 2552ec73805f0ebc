"""Linear register use of canonical forms, for the suites of test/Fingerprint.

qshape-check-linearity reports a qubit or register value read after its
consumer or consumed twice. The canonical form must not create such uses:
every module that is linear must stay linear under qshape-canonicalize.
Modules are checked in batches (`// -----`-separated, one process per
batch and step); the reports are mapped back to modules by their line in a
printed copy (printing drops the inputs' own locations, which may point
anywhere).
"""
import os
import re
import subprocess

SPLIT = "\n// -----\n"
ERROR = re.compile(r"^(.*?):(\d+):\d+: error: qshape-check-linearity: (.*)$", re.M)


def _run(tool, path, args):
    return subprocess.run([tool, path, "--allow-unregistered-dialect", "--split-input-file"] + args,
                          capture_output=True, text=True)


def _module_of_line(text):
    """Line number (1-based) -> module index, by the split markers."""
    starts = [0]
    for i, line in enumerate(text.split("\n"), 1):
        if line == "// -----":
            starts.append(i)
    return lambda n: sum(1 for s in starts[1:] if s < n)


def nonlinear(tool, path):
    """Module index -> first report, for the modules of `path` that are not
    linear (path is a printed file: its lines are the ops' locations)."""
    with open(path) as f:
        module_of = _module_of_line(f.read())
    p = _run(tool, path, ["--qshape-check-linearity", "-o", os.devnull])
    found = {}
    for file, line, message in ERROR.findall(p.stderr):
        found.setdefault(module_of(int(line)), message)
    return found


def created(tool, path, workdir):
    """(index, report) of the modules of `path` that are linear but whose
    canonical form is not."""
    printed = os.path.join(workdir, "lin-printed.mlir")
    canon = os.path.join(workdir, "lin-canon.mlir")
    with open(printed, "w") as f:
        f.write(_run(tool, path, []).stdout)
    before = nonlinear(tool, printed)
    p = _run(tool, printed, ["--qshape-canonicalize"])
    if p.returncode != 0:
        return [(-1, "qshape-canonicalize failed: " + p.stderr.strip()[:300])]
    with open(canon, "w") as f:
        f.write(p.stdout)
    after = nonlinear(tool, canon)
    return sorted((i, m) for i, m in after.items() if i not in before)
