#!/usr/bin/env python3
"""Counts the pass executions in `--mlir-print-ir-after-all` output, and those
that ran on the program: whose dump holds a quantum gate, at any level of
lowering (`quantum.` ops, or calls of Catalyst's `__catalyst__qis__` runtime).

    count-pass-runs.py MISS.err HIT.err [--old HIT-NO-DEFER.err]

Asserts that the hit ran fewer passes than the miss, and that none of the
hit's passes after qshape-cache-lookup and before qshape-cache-store saw the
program (with --old: that the undeferred hit's passes all did, up to the
store or to the pass that failed). Prints one
summary line; exit code 1 if an assertion fails.
"""
import re
import sys

DUMP = re.compile(r"^// -----// IR Dump After (\S+)(?: Failed)? \((\S+)\)", re.M)
PROGRAM = re.compile(r"quantum\.(custom|paulirot|multirz|gphase)|@__catalyst__qis__")


def runs(path):
    text = open(path).read()
    marks = list(DUMP.finditer(text))
    out = []
    for i, m in enumerate(marks):
        body = text[m.end():marks[i + 1].start() if i + 1 < len(marks) else len(text)]
        out.append((m.group(2), bool(PROGRAM.search(body))))
    return out


def middle(rs):
    """The passes strictly between the lookup and the store."""
    names = [n for n, _ in rs]
    lo = names.index("qshape-cache-lookup")
    hi = names.index("qshape-cache-store") if "qshape-cache-store" in names else len(rs)
    return rs[lo + 1:hi]


def main(argv):
    miss, hit = runs(argv[1]), runs(argv[2])
    old = runs(argv[4]) if len(argv) > 4 and argv[3] == "--old" else None
    failures = []
    if not len(hit) < len(miss):
        failures.append(f"the hit ran {len(hit)} passes, the miss {len(miss)}")
    on_program = [n for n, p in middle(hit) if p]
    if on_program:
        failures.append(f"hit: passes ran on the program: {on_program}")
    if not all(p for _, p in middle(miss)):
        failures.append("miss: a pass in between did not see the program (the check is blind)")
    line = (f"miss: {len(miss)} pass runs, {sum(p for _, p in middle(miss))} between lookup and store "
            f"on the program; hit: {len(hit)} pass runs, {len(on_program)} on the program")
    if old is not None:
        old_on = sum(p for _, p in middle(old))
        if old_on != len(middle(old)):
            failures.append("defer-install=false: expected every pass in between on the program")
        line += (f"; hit with defer-install=false: {len(old)} pass runs, {old_on} on the program"
                 f"{', the last one failed' if 'qshape-cache-store' not in [n for n, _ in old] else ''}")
    for f in failures:
        print("FAIL:", f)
    print(line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
