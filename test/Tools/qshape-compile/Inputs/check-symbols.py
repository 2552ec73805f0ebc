#!/usr/bin/env python3
"""Checks the dynamic symbols of a library compiled by qshape-compile.

    check-symbols.py LIB.so RUNTIME.so

- it exports setup, teardown, and for each _catalyst_pyface_<name> the
  _mlir_ciface_<name> it calls;
- every undefined symbol is exported by the runtime (Catalyst's ABI as
  libqshape-runtime.so implements it) or by libc/libm (the libraries the
  library needs, resolved with ldd); nothing else;
- it needs no library but libc and libm.
Prints the exports and the undefined symbols by origin (for FileCheck) and
exits 1 with the offending names otherwise.
"""
import re
import subprocess
import sys


def nm(path, *flags):
    out = subprocess.run(["nm", "-D", *flags, path], capture_output=True, text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            syms[parts[-1].split("@")[0]] = parts[-2]
    return syms


def main():
    lib, runtime = sys.argv[1], sys.argv[2]
    defined = nm(lib, "--defined-only")
    undefined = nm(lib, "--undefined-only")
    needed = re.findall(r"\(NEEDED\).*\[(.*)\]", subprocess.run(
        ["readelf", "-d", lib], capture_output=True, text=True, check=True).stdout)
    paths = dict(re.findall(r"^\s*(\S+) => (\S+)", subprocess.run(
        ["ldd", lib], capture_output=True, text=True, check=True).stdout, re.M))
    system = {}
    for name in needed:
        for sym in nm(paths[name], "--defined-only"):
            system.setdefault(sym, name)
    rt = nm(runtime, "--defined-only")
    problems = []
    for name in sorted(set(needed) - {"libc.so.6", "libm.so.6"}):
        problems.append(f"needs {name}")
    pyfaces = sorted(s for s in defined if s.startswith("_catalyst_pyface_"))
    if not pyfaces:
        problems.append("no _catalyst_pyface_* entry point")
    for s in ["setup", "teardown"] + ["_mlir_ciface_" + p[len("_catalyst_pyface_"):] for p in pyfaces]:
        if defined.get(s) != "T":
            problems.append(f"does not export {s}")
    for s in sorted(defined):
        if s in ("setup", "teardown") or s.startswith(("_catalyst_pyface_", "_mlir_ciface_",
                                                         "_catalyst_ciface_")):
            print(f"export {s}")
    for s in sorted(undefined):
        if s in rt:
            print(f"undefined {s} from the runtime")
        elif s in system:
            print(f"undefined {s} from {system[s]}")
        else:
            problems.append(f"undefined symbol {s} is neither the runtime's nor libc's/libm's")
    print("needed " + " ".join(sorted(needed)))
    for p in problems:
        print("check-symbols: error: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
