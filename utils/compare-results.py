#!/usr/bin/env python3
"""Compare two qshape-sim outputs ({"results": [...]}) within a tolerance.

    compare-results.py A.json B.json [--tol 1e-9] [--rel]

Numbers match when |a - b| <= tol (or, with --rel, <= tol * max(1, |a|, |b|));
bools, integers and the nesting of lists must match exactly ([re, im] pairs
are lists of two numbers). Either file may be '-' for stdin. Exit status 0
when they match, 1 (with the first difference on stderr) when they do not,
2 on unreadable input.
"""

import argparse
import json
import math
import sys


def load(path):
    text = sys.stdin.read() if path == "-" else open(path).read()
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise SystemExit(f"compare-results: {path}: not JSON ({e})") from None
    if not isinstance(doc, dict) or "results" not in doc:
        raise SystemExit(f'compare-results: {path}: no "results" key')
    return doc["results"]


def compare(a, b, tol, rel, where):
    """Returns None when equal, else a description of the first difference."""
    if isinstance(a, bool) or isinstance(b, bool):
        return None if a is b else f"{where}: {a!r} != {b!r}"
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if isinstance(a, int) and isinstance(b, int):
            return None if a == b else f"{where}: {a} != {b}"
        if math.isnan(a) or math.isnan(b):
            return None if math.isnan(a) and math.isnan(b) else f"{where}: {a} != {b}"
        if math.isinf(a) or math.isinf(b):
            return None if a == b else f"{where}: {a} != {b}"
        bound = tol * max(1.0, abs(a), abs(b)) if rel else tol
        diff = abs(a - b)
        return None if diff <= bound else f"{where}: {a!r} vs {b!r} (|diff| = {diff:.3g} > {bound:.3g})"
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{where}: lengths {len(a)} != {len(b)}"
        for k, (x, y) in enumerate(zip(a, b)):
            d = compare(x, y, tol, rel, f"{where}[{k}]")
            if d:
                return d
        return None
    return f"{where}: {json.dumps(a)[:60]} and {json.dumps(b)[:60]} differ in kind"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--tol", type=float, default=1e-9, help="absolute tolerance (default 1e-9)")
    ap.add_argument("--rel", action="store_true", help="scale the tolerance by max(1, |a|, |b|)")
    args = ap.parse_args(argv)
    diff = compare(load(args.a), load(args.b), args.tol, args.rel, "results")
    if diff:
        print(f"compare-results: {args.a} and {args.b} differ: {diff}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
