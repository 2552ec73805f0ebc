"""Benchmarks of the MLIR cache in a Catalyst-shaped pipeline and of one
artifact per topology (bench/run.py --sections catalyst-cache,topology).

catalyst-cache: W2 decomposed (n_trotter=10, runtime coefficients) through
bench/catalyst_standin.py's pipeline (Catalyst's default stages, upstream
passes in place, qshape's for Catalyst's own), in qshape-opt, fresh
processes: the wrapper `qshape-cache{pipeline=...}` and the staged pair
(lookup ... 40 passes ... store), miss and hit.

topology: 20 stand-in geometries of W2 decomposed with baked coefficients
(workloads.py w2 --coeffs baked --geometry G), each compiled by
`qshape-compile --share-topology` with one fresh artifact cache: one miss,
19 hits, against one plain compile.
"""
import os
import re
import resource
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import catalyst_standin  # noqa: E402

# A top-level row of --mlir-timing's tree display: [user (pct)] wall (pct) name. The
# wall column is the last number; a nested row is indented further than the name column.
TIMING_ROW = re.compile(r"^  (?:\s*[0-9.-]+ \(\s*[0-9.-]+%\)\s+)?\s*([0-9.-]+) \(\s*[0-9.-]+%\)  (\S.*)$")
TOTAL = re.compile(r"Total Execution Time: ([0-9.]+) seconds")
KIND = re.compile(r"qshape-cache: (hit|miss) blake3:")


def _mlir_timing(stderr):
    """Top-level rows of --mlir-timing (tree display): name -> wall seconds."""
    rows = {}
    for line in stderr.splitlines():
        m = TIMING_ROW.match(line)
        if m:
            rows[m.group(2).strip()] = rows.get(m.group(2).strip(), 0.0) + float(m.group(1))
    total = TOTAL.search(stderr)
    return rows, float(total.group(1)) if total else None


def _opt_run(opt, module, pipeline, out):
    cmd = [opt, module, f"--pass-pipeline={pipeline}", "--mlir-timing", "-o", out]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode:
        raise RuntimeError(f"qshape-opt failed:\n{p.stderr[-2000:]}")
    rows, total = _mlir_timing(p.stderr)
    kind = KIND.search(p.stderr)
    parse, output = rows.get("Parser", 0.0), rows.get("Output", 0.0)
    # The top-level passes. The wrapper's nested pipeline is also listed at the top
    # level, and its time is already in the wrapper's row.
    pm = sum(t for name, t in rows.items()
             if name not in ("Parser", "Output", "Rest", "Total", "'builtin.module' Pipeline"))
    return {"wall": wall, "passes": total - parse - output, "pm": pm, "parse": parse,
            "output": output, "kind": kind.group(1) if kind else "off"}


def catalyst_cache_bench(bindir, work, repeat):
    opt = os.path.join(bindir, "qshape-opt")
    module = os.path.join(work, "w2-decomposed-trotter10.mlir")
    if not os.path.exists(module):
        subprocess.run([sys.executable, os.path.join(HERE, "..", "utils", "gen", "workloads.py"), "w2", "--n-trotter",
                        "10", "--variant", "decomposed", "-o", module], check=True)
    cache_dir = os.path.join(work, "catalyst-cache")
    out = os.path.join(work, "catalyst-cache-out.mlir")
    forms = {
        "plain (no cache)": catalyst_standin.pipeline("plain"),
        "wrapper": catalyst_standin.pipeline("wrapped", f"dir={cache_dir} emit-remarks"),
        "staged pair": catalyst_standin.pipeline("staged", f"dir={cache_dir} emit-remarks"),
    }
    runs = {}
    for name, pipe in forms.items():
        misses, hits = [], []
        for _ in range(repeat):
            shutil.rmtree(cache_dir, ignore_errors=True)
            misses.append(_opt_run(opt, module, pipe, out))
            if name != "plain (no cache)":
                hits += [_opt_run(opt, module, pipe, out) for _ in range(2)]
        runs[name] = (misses, hits)
    out_bytes = os.path.getsize(out)
    shutil.rmtree(cache_dir, ignore_errors=True)

    print("## MLIR cache in a Catalyst-shaped pipeline (W2 decomposed, n_trotter=10)\n")
    print(f"Command: `python3 bench/run.py --build <build> --sections catalyst-cache --repeat {repeat}`\n")
    print(f"Module: `python3 utils/gen/workloads.py w2 --n-trotter 10 --variant decomposed` "
          f"({os.path.getsize(module)} bytes). Pipeline: `bench/catalyst_standin.py` "
          f"({len(catalyst_standin.passes())} passes: Catalyst's default stages with upstream passes "
          "in place and qshape's for Catalyst's own), in qshape-opt, fresh processes, `-o` a text "
          f"file ({out_bytes} bytes: the lowered module). \"passes\" is `--mlir-timing`'s total "
          "without Parser and Output (the cache passes, the passes that ran, the verifier, and "
          "`Rest`: destroying the final module at exit); \"pass manager\" is the same without "
          "`Rest`, the time of the top-level passes: what an in-process driver such as Catalyst "
          "pays for its pipeline; wall is the process. Best of the runs.\n")
    print("| form | | wall (s) | passes (s) | pass manager (s) | parse (s) | output (s) | "
          "passes / miss | pass manager / miss | wall / miss |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, (misses, hits) in runs.items():
        assert all(r["kind"] in ("miss", "off") for r in misses), misses
        assert all(r["kind"] == "hit" for r in hits), hits
        miss = min(misses, key=lambda r: r["passes"])
        miss_pm = min(r["pm"] for r in misses)
        miss_wall = min(r["wall"] for r in misses)
        label = "run" if name.startswith("plain") else "miss"
        print(f"| {name} | {label} | {miss_wall:.3f} | {miss['passes']:.3f} | {miss_pm:.3f} | "
              f"{miss['parse']:.3f} | {miss['output']:.3f} | | | |")
        if hits:
            hit = min(hits, key=lambda r: r["passes"])
            hit_pm = min(r["pm"] for r in hits)
            hit_wall = min(r["wall"] for r in hits)
            print(f"| {name} | hit | {hit_wall:.3f} | {hit['passes']:.3f} | {hit_pm:.3f} | "
                  f"{hit['parse']:.3f} | {hit['output']:.3f} | "
                  f"{hit['passes'] / miss['passes'] * 100:.1f} % | "
                  f"{hit_pm / miss_pm * 100:.1f} % | {hit_wall / miss_wall * 100:.1f} % |")
    print(flush=True)


def _timed(cmd):
    """(the finished process, its wall time, its CPU time: user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return p, wall, cpu


def _compile(bindir, src, out, flags, cache_dir):
    cmd = [os.path.join(bindir, "qshape-compile"), src, "-o", out, "-v", "--timing",
           f"--cache-dir={cache_dir}"] + flags
    p, wall, cpu = _timed(cmd)
    if p.returncode:
        raise RuntimeError(p.stderr)
    m = re.search(r"qshape-compile: (\w+) (blake3:[0-9a-f]+)", p.stderr)
    t = dict((k, float(v)) for k, v in re.findall(r"(\w[\w-]*) ([0-9.]+) s", p.stderr.split("sizes:")[0]))
    return {"wall": wall, "cpu": cpu, "kind": m.group(1), "key": m.group(2),
            "pre_key": t.get("parse", 0) + t.get("facts", 0), "total": t.get("total", 0)}


def topology_bench(bindir, work, geometries=20, flags=(), rounds=5):
    d = os.path.join(work, "topology")
    os.makedirs(d, exist_ok=True)
    srcs = []
    for g in range(geometries):
        src = os.path.join(d, f"w2-baked-g{g}.mlir")
        if not os.path.exists(src):
            subprocess.run([sys.executable, os.path.join(HERE, "..", "utils", "gen", "workloads.py"), "w2", "--n-trotter",
                            "10", "--variant", "decomposed", "--coeffs", "baked", "--geometry",
                            str(g), "-o", src], check=True)
        srcs.append(src)
    cache = os.path.join(d, "cache")
    outdir = os.path.join(d, "sweep")
    flags = list(flags)

    def fresh():
        for path in (cache, outdir):
            shutil.rmtree(path, ignore_errors=True)
        os.makedirs(cache, mode=0o700)
        os.makedirs(outdir)

    # Rounds, interleaved so that the machine's drift hits all three
    # alike: a plain compile, the sweep one process per program, the sweep
    # in one run (--output-dir: one compile, then hits in its process).
    plain, sweeps, one_runs = [], [], []
    for r in range(rounds):
        fresh()
        plain.append(_compile(bindir, srcs[r], srcs[r][:-5] + ".plain.so", ["--cache=off"] + flags,
                              cache))
        fresh()
        sweeps.append([_compile(bindir, s, s[:-5] + ".shared.so", ["--share-topology"] + flags,
                                cache) for s in srcs])
        fresh()
        p, wall, cpu = _timed([os.path.join(bindir, "qshape-compile"), "-v", "--share-topology",
                               f"--cache-dir={cache}", f"--output-dir={outdir}"] + flags + srcs)
        if p.returncode:
            raise RuntimeError(p.stderr)
        kinds = re.findall(r"^qshape-compile: (\w+) blake3:", p.stderr, re.M)
        assert kinds == ["miss"] + ["hit"] * (geometries - 1), kinds
        one_runs.append((wall, cpu))
    shutil.rmtree(cache, ignore_errors=True)
    one = min(r["wall"] for r in plain)
    one_cpu = min(r["cpu"] for r in plain)
    one_run_wall = min(w for w, _ in one_runs)
    one_run_cpu = min(c for _, c in one_runs)
    for shared in sweeps:
        kinds = [r["kind"] for r in shared]
        assert kinds[0] == "miss" and all(k == "hit" for k in kinds[1:]), kinds
    shared = min(sweeps, key=lambda sweep: sum(r["wall"] for r in sweep))
    miss = shared[0]["wall"]
    hits = sorted(r["wall"] for r in shared[1:])
    total = sum(r["wall"] for r in shared)
    keys = {r["key"] for r in shared}
    plain_keys = {r["key"] for r in plain}
    print("## One artifact per topology (W2 decomposed, n_trotter=10, 20 baked geometries)\n")
    extra = f" --topology-flags='{' '.join(flags)}'" if flags else ""
    print(f"Command: `python3 bench/run.py --build <build> --sections topology{extra}`\n")
    print(f"Programs: `python3 utils/gen/workloads.py w2 --n-trotter 10 --variant decomposed --coeffs baked "
          f"--geometry G`, G = 0..{geometries - 1} (stand-in geometries: other coefficients, same "
          "shape fingerprint), one after the other, each by `qshape-compile --share-topology -v` in a "
          "fresh process, and all in one run (`qshape-compile --share-topology --output-dir=D "
          "G0.mlir ... G19.mlir`), each sweep on a fresh artifact cache directory; \"one "
          f"compile\" is the plain build (`--cache=off`) of G = 0..{rounds - 1}. {rounds} rounds of "
          "the three, interleaved; each figure is the best round's (the sweep one process per "
          "program: the round with the least total), and the last row compares the medians. "
          "Process wall times; CPU is user + system.\n")
    print("| | value |")
    print("|---|---:|")
    print(f"| distinct keys: `--share-topology` ({geometries} programs) / plain "
          f"({len(plain)} programs) | {len(keys)} / {len(plain_keys)} |")
    print(f"| one plain compile (s) | {one:.3f} |")
    print(f"| the sweep's first program, a miss (s) | {miss:.3f} |")
    print(f"| the other {geometries - 1}, hits: median, max (s) | {hits[len(hits) // 2]:.3f}, "
          f"{hits[-1]:.3f} |")
    print(f"| the whole sweep (s) | {total:.3f} |")
    print(f"| sweep / one compile (target <= 1.1) | {total / one:.2f} |")
    print(f"| the whole sweep in one run, `--output-dir` (s) | {one_run_wall:.3f} |")
    print(f"| one run / one compile, wall (target <= 1.1) | {one_run_wall / one:.2f} |")
    print(f"| one run / one compile, CPU ({one_run_cpu:.3f} s / {one_cpu:.3f} s) | "
          f"{one_run_cpu / one_cpu:.2f} |")
    def median(xs):
        return sorted(xs)[len(xs) // 2]
    print(f"| one run / one compile, wall, medians of the {rounds} rounds | "
          f"{median([w for w, _ in one_runs]) / median([r['wall'] for r in plain]):.2f} |")
    print(flush=True)
