#!/usr/bin/env python3
"""Prints the longest function defined in lib/ (issue 35 asks for <= 120
lines), one line:

    longest function in lib/: NAME (FILE:LINE), N lines; M over LIMIT

A definition is what clang-format's LLVM style writes at namespace scope: a
line at column 0 that ends with '{' and is not a namespace, class, struct,
enum, union or extern block, up to the next line that is '}' alone. Its
length counts both braces' lines. Methods defined inside a class body are not
seen. `--list N` prints the N longest, one per line, after the summary;
`--limit L` (default 120) sets the length counted as over. `--check` (CI)
ends with `N passed, M failed` (functions within the limit, over it) and
exits 1 if any is over.
"""
import argparse
import os
import re
import sys

NOT_FUNCTION = re.compile(r"^(namespace|class|struct|enum|union|extern|template\s*<[^>]*>\s*(class|struct))\b")
NAME = re.compile(r"([A-Za-z_~][\w:~<>]*(?:operator\S*)?)\s*\(")


def functions(path):
    lines = open(path, errors="replace").read().split("\n")
    start = None
    for k, line in enumerate(lines):
        if start is None:
            if line[:1].strip() and line.rstrip().endswith("{") and not NOT_FUNCTION.match(line) \
                    and "(" in "".join(lines[max(0, k - 4):k + 1]):
                start = k
        elif line == "}":
            head = " ".join(l.strip() for l in lines[max(0, start - 4):start + 1])
            names = NAME.findall(head)
            yield (names[-1] if names else "?", start + 1, k - start + 1)
            start = None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--limit", type=int, default=120)
    ap.add_argument("--list", type=int, default=0)
    ap.add_argument("--check", action="store_true", help="fail if a function is over the limit")
    args = ap.parse_args()
    lib = os.path.join(args.root, "lib")
    found = []
    for dirpath, _, names in os.walk(lib):
        for name in sorted(names):
            if name.endswith((".cpp", ".h")):
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, args.root)
                found += [(n, name_, rel, line) for name_, line, n in functions(path)]
    found.sort(reverse=True)
    if not found:
        print("longest function in lib/: none found")
        return 1
    n, name, rel, line = found[0]
    over = sum(1 for f in found if f[0] > args.limit)
    print(f"longest function in lib/: {name} ({rel}:{line}), {n} lines; {over} over {args.limit}")
    for n, name, rel, line in found[1:args.list]:
        print(f"  {n:4d}  {name} ({rel}:{line})")
    if not args.check:
        return 0
    for n, name, rel, line in (f for f in found if f[0] > args.limit):
        print(f"over {args.limit}: {name} ({rel}:{line}), {n} lines: split it into named steps")
    print(f"{len(found) - over} passed, {over} failed")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
