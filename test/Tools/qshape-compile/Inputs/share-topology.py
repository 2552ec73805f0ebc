#!/usr/bin/env python3
"""One artifact per topology, checked against the oracle.

Groups of programs that differ only in baked f64 values (angles, Hamiltonian
coefficients). For every program P of a group:

  qshape-run(qshape-compile --share-topology P) == qshape-run(qshape-compile P)
                                                == qshape-sim(P)   (1e-9)

and within a group:
  - every shared build has one key (`-v`), which is not the plain build's,
    and with the artifact cache the first program misses and the others hit,
    found by the topology index (`--timing`: no parse);
  - the shared libraries differ (each holds its own values), yet their
    `.qshape.params` sections are the only bytes that differ;
  - the programs' results differ (so the check can tell them apart).

and a sweep: every group in one `qshape-compile --share-topology P... --output-dir`
run on a fresh cache, where the first program misses, the others hit, -v names
each program, and each output gives its program's results.

Prints one line per failed check and a summary; exit code 1 on any failure.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(SRC, "utils"))
compare_results = __import__("compare-results")

WORKLOADS = os.path.join(SRC, "utils", "gen", "workloads.py")
KEY = re.compile(r"qshape-compile: (\w+) (blake3:[0-9a-f]{64})")
SUMMARY = re.compile(r"^qshape-compile: (\w+) (blake3:[0-9a-f]{64}) [0-9.]+ s (.+)$", re.M)
VIA = re.compile(r"qshape-compile: timing: hit \(([a-z ]+)\)")

failures = []
checks = 0


def check(ok, message):
    global checks
    checks += 1
    if not ok:
        failures.append(message)
        print("FAIL:", message, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def compile_(tools, src, out, flags):
    """(hit|miss|off, key, the index of a hit or None) of one qshape-compile -v --timing."""
    p = run([os.path.join(tools, "qshape-compile"), src, "-o", out, "-v", "--timing"] + flags)
    if p.returncode:
        raise SystemExit(f"qshape-compile {' '.join(flags)} {src} failed:\n{p.stderr}")
    m = KEY.search(p.stderr)
    via = VIA.search(p.stderr)
    return m.group(1), m.group(2), via.group(1) if via else None


def results(tool, target, args):
    p = run([tool, target] + (["--args", args] if args else []))
    if p.returncode:
        raise SystemExit(f"{tool} {target} failed:\n{p.stderr}")
    return json.loads(p.stdout)["results"]


def differing_bytes(a, b):
    x, y = open(a, "rb").read(), open(b, "rb").read()
    if len(x) != len(y):
        return None
    return [i for i in range(len(x)) if x[i] != y[i]]


def params_range(tools, lib):
    """File offset range of .qshape.params, from readelf (binutils-free: llvm-readelf)."""
    readelf = os.path.join(os.environ.get("LLVM_TOOLS", "/usr/lib/llvm-22/bin"), "llvm-readelf")
    out = run([readelf, "-S", "-W", lib]).stdout
    for line in out.splitlines():
        if ".qshape.params" in line:
            f = line.split("]", 1)[1].split()
            offset, size = int(f[3], 16), int(f[4], 16)
            return offset, offset + size
    return None


def workload(work, name, argv):
    path = os.path.join(work, name + ".mlir")
    args = os.path.join(work, name + ".json")
    subprocess.run([sys.executable, WORKLOADS] + argv + ["-o", path, "--args-out", args],
                   check=True)
    text = open(args).read().strip()
    return path, (None if text in ("", "[]") else text)


def angles_program(work, name, values):
    a, b, c0, c1 = values
    text = open(os.path.join(HERE, "lift-angles.mlir")).read()
    text = (text.replace("0.3 : f64", f"{a!r} : f64").replace("1.1 : f64", f"{b!r} : f64")
            .replace("[0.5, -0.25]", f"[{c0!r}, {c1!r}]"))
    path = os.path.join(work, name + ".mlir")
    open(path, "w").write(text)
    return path, None


def sweep(tools, work, group, members, wants):
    """The whole group in one run: one compile, then hits in the same process."""
    cache, outdir = os.path.join(work, group + ".sweep-cache"), os.path.join(work, group + ".sweep")
    for d in (cache, outdir):
        shutil.rmtree(d, ignore_errors=True)
    os.makedirs(outdir)
    srcs = [src for src, _ in members]
    p = run([os.path.join(tools, "qshape-compile"), "--share-topology", "-v", "--timing",
             f"--cache-dir={cache}", f"--output-dir={outdir}"] + srcs)
    check(p.returncode == 0, f"{group}: the sweep failed:\n{p.stderr}")
    lines = SUMMARY.findall(p.stderr)
    check([src for _, _, src in lines] == srcs,
          f"{group}: the sweep's -v lines name {[s for _, _, s in lines]}, not {srcs}")
    check([kind for kind, _, _ in lines] == ["miss"] + ["hit"] * (len(srcs) - 1),
          f"{group}: the sweep was {[kind for kind, _, _ in lines]}, not one miss, then hits")
    check(len({key for _, key, _ in lines}) == 1, f"{group}: the sweep's keys differ")
    vias = VIA.findall(p.stderr)
    check(vias == ["topology index"] * (len(srcs) - 1),
          f"{group}: the sweep's hits were found by {vias}, not each by the topology index")
    for (src, args), want in zip(members, wants):
        lib = os.path.join(outdir, os.path.splitext(os.path.basename(src))[0] + ".so")
        d = compare_results.compare(results(os.path.join(tools, "qshape-run"), lib, args), want,
                                    1e-9, False, "results")
        check(d is None, f"{group}: the sweep's {lib} vs qshape-sim: {d}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tools", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    cache = os.path.join(a.work, "cache")
    shutil.rmtree(cache, ignore_errors=True)
    os.makedirs(cache, mode=0o700)
    os.environ["QSHAPE_CACHE_DIR"] = cache  # never the user's cache
    sim = os.path.join(a.tools, "qshape-sim")
    qrun = os.path.join(a.tools, "qshape-run")
    w2 = ["w2", "--n-trotter", "2", "--prep", "standard", "--coeffs", "baked"]
    groups = {
        "angles": [angles_program(a.work, "angles-0", (0.3, 1.1, 0.5, -0.25)),
                   angles_program(a.work, "angles-1", (0.7, -0.4, 1.5, 0.125))],
        "w2-decomposed": [workload(a.work, f"w2d-g{g}", w2 + ["--variant", "decomposed",
                                                               "--geometry", str(g)])
                          for g in (0, 1, 7)],
        "w2-native": [workload(a.work, f"w2n-g{g}", w2 + ["--variant", "native",
                                                           "--geometry", str(g)])
                      for g in (0, 3)],
        "w3-baked": [workload(a.work, f"w3-s{s}", ["w3", "--ops", "300", "--wires", "5",
                                                    "--angles", "const", "--seed", str(s)])
                     for s in (0, 1)],
        # Runtime coefficients stay arguments; only the step factors are lifted.
        "w2-runtime": [workload(a.work, "w2r", ["w2", "--n-trotter", "2", "--prep", "standard",
                                                "--variant", "decomposed"])],
    }
    programs = 0
    for group, members in groups.items():
        keys, libs, outs = [], [], []
        for src, args in members:
            programs += 1
            base = os.path.splitext(src)[0]
            shared, plain = base + ".shared.so", base + ".plain.so"
            kind, key, via = compile_(a.tools, src, shared, ["--share-topology"])
            _, plain_key, _ = compile_(a.tools, src, plain, [])
            # The artifact cache: the first program of a topology compiles, the
            # others hit its library (and get their own values written in),
            # found by the topology index without a parse.
            want_kind = "miss" if not keys else "hit"
            check(kind == want_kind, f"{src}: --share-topology was a {kind}, expected a {want_kind}")
            check(kind != "hit" or via == "topology index",
                  f"{src}: the hit was found by the {via}, not by the topology index")
            check(key != plain_key, f"{src}: the shared key equals the plain key")
            want = results(sim, src, args)
            for label, lib in (("shared", shared), ("plain", plain)):
                d = compare_results.compare(results(qrun, lib, args), want, 1e-9, False, "results")
                check(d is None, f"{src}: {label} build vs qshape-sim: {d}")
            keys.append(key)
            libs.append(shared)
            outs.append(want)
        check(len(set(keys)) == 1, f"{group}: shared keys differ: {keys}")
        for lib, out, (src, _) in list(zip(libs, outs, members))[1:]:
            diff = differing_bytes(libs[0], lib)
            span = params_range(a.tools, lib)
            check(diff is not None and span is not None and diff and
                  all(span[0] <= i < span[1] for i in diff),
                  f"{group}: {lib} and {libs[0]} differ outside .qshape.params {span}: "
                  f"{None if diff is None else diff[:8]}")
            check(compare_results.compare(out, outs[0], 1e-6, False, "results") is not None,
                  f"{group}: {src} has the results of {members[0][0]}: the check cannot "
                  "tell the programs apart")
        sweep(a.tools, a.work, group, members, outs)
    print(f"share-topology: {len(groups)} topologies, {programs} programs, {checks} checks, "
          f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
