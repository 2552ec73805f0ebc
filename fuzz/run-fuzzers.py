#!/usr/bin/env python3
"""`make fuzz`: runs every libFuzzer target of fuzz/ for N seconds, then the
differential harness (fuzz/differential.py), then the roller's family test
with --family-seeds random bodies, and prints per target the
executions, the coverage libFuzzer reports (cov: edges, ft: features), the
corpus size, the CPU time and what it found, with the input's bytes (a CI
log alone reproduces a finding).

Corpora live in BUILD/fuzz/corpus/<target> and grow from run to run; they are
seeded each run from the lit inputs (test/**/*.mlir, split at `// -----`),
examples/, utils/gen/randcircuit.py and utils/gen/workloads.py circuits, cache entries
that qshape-opt writes, and the examples' argument files. Findings are written
to BUILD/fuzz/findings/ (crash-*, leak-*, timeout-*, oom-*), logs to
BUILD/fuzz/logs/. A target that finds something is restarted for the rest of
its time (at most 3 findings each). The last line is `N passed, N failed`:
one test per target and per differential property.

    run-fuzzers.py --build build-sanitize --seconds 20 [--target NAME]...
"""
import argparse
import glob
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "utils"))
from gen import randcircuit as rc  # noqa: E402

# name -> (binary, extra flags, seed kind)
TARGETS = {
    "parse": ("qshape-parse-fuzzer", [], "mlir"),
    "canonicalize": ("qshape-pass-fuzzer", ["-pass=canonicalize"], "mlir"),
    "fingerprint": ("qshape-pass-fuzzer", ["-pass=fingerprint"], "mlir"),
    "roll-loops": ("qshape-pass-fuzzer", ["-pass=roll-loops"], "mlir"),
    "stats": ("qshape-pass-fuzzer", ["-pass=stats"], "mlir"),
    "check-linearity": ("qshape-pass-fuzzer", ["-pass=check-linearity"], "mlir"),
    "lower-to-llvm": ("qshape-pass-fuzzer", ["-pass=lower-to-llvm"], "mlir"),
    "cache-entry": ("qshape-cache-entry-fuzzer", [], "cache"),
    "args": ("qshape-args-fuzzer", [], "args"),
    "topology-index": ("qshape-topology-index-fuzzer", [], "mlir"),
    "float-literal": ("qshape-float-literal-fuzzer", [], "floats"),
}
MAX_LEN = 32768
FINDING = re.compile(r"Test unit written to (\S+)")
STATUS = re.compile(r"^#(\d+)\s+\S+\s+cov: (\d+) ft: (\d+) corp: (\d+)/")


def seed_mlir(out):
    n = 0
    files = sorted(glob.glob(os.path.join(ROOT, "test", "**", "*.mlir"), recursive=True))
    files += sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir")))
    for path in files:
        text = open(path, errors="replace").read()
        for k, part in enumerate(re.split(r"(?m)^// -----\s*$", text)):
            part = "\n".join(l for l in part.splitlines() if not l.lstrip().startswith("//"))
            if part.strip() and len(part) <= MAX_LEN:
                rel = os.path.relpath(path, ROOT).replace(os.sep, "_")
                with open(os.path.join(out, f"{rel}.{k}"), "w") as f:
                    f.write(part + "\n")
                n += 1
    for seed in range(24):
        m = rc.generate(seed, wires=2 + seed % 6, gates=4 + 3 * seed)
        with open(os.path.join(out, f"randcircuit-{seed}.mlir"), "w") as f:
            f.write(rc.print_module(m, force_generic=(seed % 4 == 3)))
        n += 1
    for seed in range(8):
        path = os.path.join(out, f"w4-{seed}.mlir")
        subprocess.run([sys.executable, os.path.join(ROOT, "utils", "gen", "workloads.py"), "w4",
                        "--seed", str(seed), "-o", path], check=True)
        if os.path.getsize(path) > MAX_LEN:
            os.remove(path)
        else:
            n += 1
    return n


def seed_cache(out, build):
    """Real entries: what qshape-opt's cache pass writes for a few inputs."""
    n = 0
    with tempfile.TemporaryDirectory() as cache:
        for ex in ("w1-loop.mlir", "random3.mlir", "bell-shots.mlir"):
            subprocess.run([os.path.join(build, "bin", "qshape-opt"), os.path.join(ROOT, "examples", ex),
                            f"--qshape-cache=pipeline=canonicalize dir={cache}", "-o", os.devnull],
                           check=True, capture_output=True)
        for dirpath, _, names in os.walk(cache):
            for name in names:
                shutil.copy(os.path.join(dirpath, name), os.path.join(out, f"entry-{n}-{name}"))
                n += 1
    with open(os.path.join(out, "empty"), "wb"):
        n += 1
    return n


# fuzz/float-literal-fuzzer.cpp's alphabet: a byte is the character at its
# value modulo the length; 255 separates two spellings; the first byte picks
# the form (0 scalar, 1 splat, 2 list).
FLOAT_ALPHABET = "0123456789.eE+-xabcdefABCDEF infa.0-"
FLOAT_SPELLINGS = ["1.5", "-0.0", "0.0", "1.e5", "1.0e-999", "1.0e999", "00001.5", "1.5e+3",
                   "-2.5E-3", "0x3FF8000000000000", "0x3FF8", "0x7FF8000000000001", "-1.5e",
                   "3.14159265358979323846264338327950288", "2.2250738585072014e-308", "inf",
                   "4.9e-324", "1.7976931348623157e308"]


def float_seed(form, spellings):
    data = bytes([form])
    for k, s in enumerate(spellings):
        if k:
            data += bytes([255])
        data += bytes(FLOAT_ALPHABET.index(c) for c in s)
    return data


def seed_floats(out):
    """Each spelling in each form, and pairs of them in a list."""
    n = 0
    seeds = [float_seed(form, [s]) for form in (0, 1) for s in FLOAT_SPELLINGS]
    seeds += [float_seed(2, [a, b]) for a, b in zip(FLOAT_SPELLINGS, reversed(FLOAT_SPELLINGS))]
    for data in seeds:
        with open(os.path.join(out, f"float-{n}"), "wb") as f:
            f.write(data)
        n += 1
    return n


def seed_args(out):
    """The examples' argument files, each after its entry's function type."""
    n = 0
    for args in sorted(glob.glob(os.path.join(ROOT, "examples", "*.json"))):
        base = re.sub(r"(\.args)?\.json$", "", args)
        if not os.path.exists(base + ".mlir"):
            continue
        m = re.search(r"func\.func public @\w+\((.*?)\)\s*(->|attributes|\{)", open(base + ".mlir").read())
        if not m:
            continue
        types = [a.split(":", 1)[1].strip() for a in re.split(r",\s*(?=%)", m.group(1)) if ":" in a]
        with open(os.path.join(out, os.path.basename(args)), "w") as f:
            f.write(f"({', '.join(types)}) -> ()\n" + open(args).read())
        n += 1
    handmade = [
        "(i1, i64, f32, f64, complex<f64>) -> ()\n[true, -3, 0.5, 1e-300, [1.0, -2.5]]",
        "(tensor<2x3xf64>, tensor<f64>, tensor<4xi64>) -> ()\n[[[1, 2, 3], [4, 5, 6]], 7.0, [1, 2, 3, 4]]",
        "(tensor<2x2xcomplex<f64>>, tensor<3xi1>) -> ()\n[[[[1, 0], [0, 1]], [[0, 0], [1, 1]]], [true, false, 1]]",
        "(tensor<?xf64>, index, i8) -> ()\n[[1, 2], 3, 127]",
    ]
    for k, text in enumerate(handmade):
        with open(os.path.join(out, f"handmade-{k}"), "w") as f:
            f.write(text + "\n")
        n += 1
    return n


def quoted_input(path, limit=MAX_LEN):
    """The finding's bytes, indented, so that a CI log alone reproduces it:
    text as it is, anything else as hex; at most `limit` bytes (an input
    is at most MAX_LEN)."""
    try:
        data = open(path, "rb").read()
    except OSError:
        return "      (no input file)"
    shown = data[:limit]
    try:
        body = shown.decode("utf-8")
        kind = "text"
    except UnicodeDecodeError:
        body, kind = shown.hex(), "hex"
    more = f", first {limit} of {len(data)} bytes" if len(data) > limit else ""
    lines = body.splitlines() if kind == "text" else [body[i:i + 96] for i in range(0, len(body), 96)]
    return f"      --- input ({kind}{more}) ---\n" + "\n".join("      | " + l for l in lines) + \
        "\n      --- end of input ---"


def run_target(name, build, seconds, fuzzdir):
    binary, extra, kind = TARGETS[name]
    exe = os.path.join(build, "fuzz", "bin", binary)
    corpus = os.path.join(fuzzdir, "corpus", name)
    findings = os.path.join(fuzzdir, "findings")
    logs = os.path.join(fuzzdir, "logs")
    for d in (corpus, findings, logs):
        os.makedirs(d, exist_ok=True)
    seeds = os.path.join(fuzzdir, "seeds", kind)
    res = {"name": name, "execs": 0, "cov": 0, "ft": 0, "corpus": 0, "findings": [], "cpu": 0.0,
           "rss": 0}
    deadline = time.time() + seconds
    run = 0
    while True:
        left = int(deadline - time.time())
        if left < 1 or (run and len(res["findings"]) >= 3):
            break
        log = os.path.join(logs, f"{name}.{run}.log")
        cmd = [exe, corpus, seeds, f"-max_total_time={left}", "-print_final_stats=1",
               "-timeout=30", "-rss_limit_mb=3072", f"-max_len={MAX_LEN}",
               f"-artifact_prefix={findings}/{name}-", "-ignore_remaining_args=1", *extra]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        with open(log, "w") as f:
            p = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        res["cpu"] += (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        text = open(log, errors="replace").read()
        for line in text.splitlines():
            m = STATUS.match(line)
            if m:
                res["cov"], res["ft"], res["corpus"] = int(m[2]), int(m[3]), int(m[4])
        m = re.search(r"stat::number_of_executed_units:\s+(\d+)", text)
        res["execs"] += int(m[1]) if m else 0
        m = re.search(r"stat::peak_rss_mb:\s+(\d+)", text)
        res["rss"] = max(res["rss"], int(m[1]) if m else 0)
        found = [f for f in FINDING.findall(text) if "/slow-unit-" not in f]
        if p.returncode != 0:
            why = next((l.strip() for l in text.splitlines()
                        if re.search(r"ERROR: |runtime error:|property violated|deadly signal|"
                                     r"out-of-memory|timeout after", l)), f"exit code {p.returncode}")
            res["findings"].append((found[-1] if found else log, why, bool(found)))
            if not found and not STATUS.search(text):
                break  # did not even start: no point in retrying
        else:
            break
        run += 1
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build-sanitize")
    ap.add_argument("--seconds", type=int, default=20, help="per target")
    ap.add_argument("--target", action="append", choices=sorted(TARGETS), help="default: all")
    ap.add_argument("--family-seeds", type=int, default=40,
                    help="random bodies of test/Transforms/roll-loops-families.py (0 skips it)")
    ap.add_argument("--differential-seconds", type=int, default=None,
                    help="time of fuzz/differential.py (default: --seconds; 0 skips it)")
    args = ap.parse_args()
    fuzzdir = os.path.join(args.build, "fuzz")
    names = args.target or list(TARGETS)

    start = time.time()
    for kind, make in (("mlir", seed_mlir), ("cache", lambda d: seed_cache(d, args.build)),
                       ("args", seed_args), ("floats", seed_floats)):
        if not any(TARGETS[n][2] == kind for n in names):
            continue
        d = os.path.join(fuzzdir, "seeds", kind)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        print(f"fuzz: {make(d)} {kind} seeds in {d}", flush=True)
    print(f"fuzz: seeding took {time.time() - start:.0f} s; {args.seconds} s per target", flush=True)

    results = []
    for name in names:
        r = run_target(name, args.build, args.seconds, fuzzdir)
        results.append(r)
        print(f"  {name:16s} {r['execs']:9d} execs {r['execs'] / max(1, args.seconds):7.0f}/s  "
              f"cov {r['cov']:5d}  ft {r['ft']:6d}  corpus {r['corpus']:5d}  "
              f"cpu {r['cpu']:6.1f} s  rss {r['rss']:4d} MB  findings {len(r['findings'])}",
              flush=True)
        for path, why, is_input in r["findings"]:
            print(f"      {why}\n      {'input' if is_input else 'log'}: {path}", flush=True)
            if is_input:
                print(quoted_input(path), flush=True)

    passed = sum(1 for r in results if not r["findings"])
    failed = len(results) - passed
    print(f"fuzz: {len(results)} targets, {sum(r['execs'] for r in results)} execs, "
          f"{sum(r['cpu'] for r in results):.0f} s CPU, "
          f"{sum(len(r['findings']) for r in results)} findings")

    diff = args.seconds if args.differential_seconds is None else args.differential_seconds
    if diff > 0:
        p = subprocess.run([sys.executable, os.path.join(HERE, "differential.py"), "--build", args.build,
                            "--seconds", str(diff)], capture_output=True, text=True)
        sys.stdout.write(p.stdout)
        sys.stderr.write(p.stderr)
        m = re.search(r"differential: (\d+) passed, (\d+) failed", p.stdout)
        if m:
            passed, failed = passed + int(m[1]), failed + int(m[2])
        else:
            failed += 1
    if args.family_seeds > 0:
        # The roller's differential test of the families, with more random
        # bodies than make check runs, on the sanitizer build's tools.
        env = dict(os.environ, PATH=os.path.join(args.build, "bin") + os.pathsep + os.environ["PATH"])
        p = subprocess.run([sys.executable, os.path.join(ROOT, "test", "Transforms",
                                                         "roll-loops-families.py"),
                            "--workdir", os.path.join(args.build, "fuzz", "families"),
                            "--random-seeds", str(args.family_seeds)],
                           capture_output=True, text=True, env=env)
        print(f"families: {p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ''}")
        sys.stderr.write(p.stderr)
        passed, failed = passed + (p.returncode == 0), failed + (p.returncode != 0)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
