"""Tests of the benchmark generators: utils/gen/workloads.py and utils/gen/randcircuit.py.

Run with Debian's pytest:  python3 -m pytest python/tests/test_generators.py

What is checked:
* determinism (same options/seed -> byte-identical text and argument JSON),
  through the command line;
* every workload kind and variant emits text that is structurally sane
  (balanced delimiters, every SSA value defined once and before use, scoping
  of loop bodies) and has the expected shape;
* meaning, with the reference state-vector simulator in randcircuit.py:
  W1 unrolled == loop, W2 native == decomposed (1e-9) and W2 == the analytic
  QPE distribution for a diagonal Hamiltonian, every randcircuit rewrite
  keeps the results, the visible mutations change them;
* parsing: with qshape-opt (env QSHAPE_OPT, else build/bin/qshape-opt; the
  checks are skipped when it is absent) and with upstream mlir-opt on the
  quantum-generic form (env MLIR_OPT, else /usr/lib/llvm-22/bin/mlir-opt).
"""

from __future__ import annotations

import cmath
import io
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GEN = ROOT / "utils" / "gen"
sys.path.insert(0, str(GEN.parent))

from gen import randcircuit as rc  # noqa: E402
from gen import workloads as wl  # noqa: E402


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def qshape_opt():
    p = os.environ.get("QSHAPE_OPT")
    if p:
        return p if os.path.exists(p) else None
    cand = ROOT / "build" / "bin" / "qshape-opt"
    return str(cand) if cand.exists() else None


def mlir_opt():
    p = os.environ.get("MLIR_OPT") or "/usr/lib/llvm-22/bin/mlir-opt"
    if os.path.exists(p):
        return p
    return shutil.which("mlir-opt")


def run_cli(script, *args):
    r = subprocess.run([sys.executable, str(GEN / script), *args],
                       capture_output=True, timeout=300)
    assert r.returncode == 0, r.stderr.decode()
    return r.stdout


def parse_with(tool, text, *extra):
    r = subprocess.run([tool, *extra, "-o", os.devnull, "-"], input=text, text=True,
                       capture_output=True, timeout=300)
    return r.returncode, r.stderr


def flat(results):
    out = []
    for x in results:
        out.extend(x if isinstance(x, list) else [x])
    return out


def max_diff(a, b):
    fa, fb = flat(a), flat(b)
    assert len(fa) == len(fb)
    return max(abs(x - y) for x, y in zip(fa, fb))


_VALUE = re.compile(r"%[A-Za-z0-9_$.\-]+(?:#\d+)?")


def _strip_strings(line):
    return re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)


def check_sanity(text):
    """Balanced delimiters; every SSA value defined exactly once (per
    function), before its uses and in an enclosing scope."""
    assert text.endswith("\n")
    depth = {"(": 0, "[": 0, "{": 0}
    closing = {")": "(", "]": "[", "}": "{"}
    for line in text.split("\n"):
        if line.lstrip().startswith("//"):
            continue
        s = _strip_strings(line)
        for ch in s:
            if ch in depth:
                depth[ch] += 1
            elif ch in closing:
                depth[closing[ch]] -= 1
                assert depth[closing[ch]] >= 0, line
    assert all(v == 0 for v in depth.values()), depth

    defined_ever = set()
    scopes = [set()]
    nfuncs = 0
    for line in text.split("\n"):
        s = _strip_strings(line).strip()
        if not s or s.startswith("//") or s.startswith("#"):
            continue
        s = re.sub(r"\sloc\(.*\)$", "", s)
        if s.startswith("func.func"):
            nfuncs += 1
            defined_ever = set()
            scopes = [set()]
            sig = s[s.index("(") + 1:]
            for m in re.finditer(r"(%[A-Za-z0-9_$.\-]+):", sig.split(") ->")[0]):
                assert m.group(1) not in defined_ever, "redefinition " + m.group(1)
                defined_ever.add(m.group(1))
                scopes[-1].add(m.group(1))
            scopes.append(set())
            continue
        if s.startswith("}"):
            scopes.pop()
            continue
        if s.startswith("^bb"):
            for m in re.finditer(r"(%[A-Za-z0-9_$.\-]+):", s):
                assert m.group(1) not in defined_ever
                defined_ever.add(m.group(1))
                scopes[-1].add(m.group(1))
            continue
        defs, rhs = [], s
        m = re.match(r"^((?:%[^=\s,]+(?::\d+)?\s*,\s*)*%[^=\s,]+(?::\d+)?)\s*=\s*(.*)$", s)
        if m and not s.startswith('"'):
            rhs = m.group(2)
            for part in m.group(1).split(","):
                part = part.strip()
                if ":" in part:
                    base, n = part.split(":")
                    defs.extend("%s#%d" % (base, i) for i in range(int(n)))
                    defs.append(base)
                else:
                    defs.append(part)
        inner_defs = []
        if rhs.startswith("scf.for") or '"scf.for"' in rhs:
            fm = re.match(r"scf\.for\s+(%\S+)\s*=", rhs)
            if fm:
                inner_defs.append(fm.group(1))
                rhs = rhs[fm.end():]
            im = re.search(r"iter_args\((.*?)\)\s*->", rhs)
            if im:
                for pair in im.group(1).split(","):
                    a, b = pair.split("=")
                    inner_defs.append(a.strip())
                rhs = rhs.replace(im.group(0), " ".join(p.split("=")[1] for p in
                                                        im.group(1).split(",")) + " ->")
        visible = set().union(*scopes)
        for u in _VALUE.findall(rhs):
            base = u.split("#")[0]
            assert u in visible or base in visible, "use before def: %s in %r" % (u, line)
        for d in defs:
            assert d not in defined_ever, "redefinition " + d
            defined_ever.add(d)
            scopes[-1].add(d)
        if rhs.rstrip().endswith("{") or rhs.rstrip().endswith("({"):
            scopes.append(set())
            for d in inner_defs:
                assert d not in defined_ever, "redefinition " + d
                defined_ever.add(d)
                scopes[-1].add(d)
    assert nfuncs >= 1


def test_sanity_checker_catches_errors():
    good = module_text(wl.build_w1(form="loop", wires=3))
    check_sanity(good)
    check_sanity(module_text(wl.build_w1(form="loop", wires=3), "all"))
    bad_cases = [
        good.replace("quantum.device_release", "quantum.device_release {"),   # unbalanced
        good.replace("%c0_i64 = arith.constant 0 : i64\n", "") ,              # use before def
        good.replace("%0 = quantum.alloc", "%c1 = quantum.alloc"),             # redefinition
        # a loop-body value used after the loop
        good.replace("quantum.dealloc %", "quantum.dealloc %9, %").replace(
            "quantum.dealloc %9, %", "quantum.dealloc %8 : !quantum.reg\n    quantum.dealloc %"),
    ]
    for bad in bad_cases:
        assert bad != good
        with pytest.raises(AssertionError):
            check_sanity(bad)


def module_text(m, generic=None):
    return rc.print_module(m, force_generic=generic)


# ---------------------------------------------------------------------------
# workload configurations (small sizes: tests must stay light)
# ---------------------------------------------------------------------------

W_CONFIGS = [
    ("w1", []),
    ("w1", ["--form", "loop"]),
    ("w1", ["--form", "loop", "--outer-loop", "auto", "--layers", "3", "--op", "PauliY"]),
    ("w1", ["--form", "loop", "--outer-loop", "never", "--layers", "2", "--op", "Hadamard"]),
    ("w1", ["--layers", "2", "--op", "PauliZ", "--wires", "5", "--consts", "inline"]),
    ("w1", ["--form", "loop", "--consts", "inline", "--layers", "2"]),
    ("w2", ["--n-trotter", "2"]),
    ("w2", ["--n-trotter", "2", "--variant", "decomposed"]),
    ("w2", ["--n-trotter", "1", "--adjoint-style", "flag"]),
    ("w2", ["--n-trotter", "1", "--variant", "decomposed", "--adjoint-style", "flag",
            "--prep", "standard"]),
    ("w2", ["--n-trotter", "1", "--order", "4", "--n-est", "3"]),
    ("w2", ["--n-trotter", "1", "--order", "1", "--consts", "inline"]),
    ("w2", ["--n-trotter", "2", "--hamiltonian", "synthetic", "--terms", "9", "--qubits", "5",
            "--seed", "3"]),
    ("w2", ["--n-trotter", "1", "--hamiltonian", "synthetic", "--terms", "6", "--qubits", "3",
            "--variant", "decomposed", "--n-est", "2"]),
    ("w3", ["--ops", "2000"]),
    ("w3", ["--ops", "2000", "--angles", "const-repeat", "--noise-layers", "3"]),
    ("w3", ["--ops", "2000", "--angles", "runtime", "--reg-style", "per-gate"]),
    ("w3", ["--ops", "2000", "--angles", "runtime-repeat", "--wires", "5", "--rots", "RZ"]),
    ("w4", ["--seed", "0"]),
    ("w4", ["--seed", "1", "--reg-style", "per-copy"]),
    ("w4", ["--seed", "2", "--wires", "10", "--consts", "inline"]),
    ("w4", ["--seed", "3", "--segments", "8"]),
]


def _id(cfg):
    return cfg[0] + ":" + " ".join(cfg[1])


def gen(kind, opts, tmp_path, extra=()):
    out = tmp_path / "out.mlir"
    args = tmp_path / "args.json"
    run_cli("workloads.py", kind, *opts, *extra, "-o", str(out), "--args-out", str(args))
    return out.read_text(), json.loads(args.read_text())


# ---------------------------------------------------------------------------
# determinism
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("cfg", W_CONFIGS[::3] + [W_CONFIGS[-1]], ids=_id)
def test_workload_cli_is_deterministic(cfg, tmp_path):
    kind, opts = cfg
    a = run_cli("workloads.py", kind, *opts, "--args-out", str(tmp_path / "a.json"))
    b = run_cli("workloads.py", kind, *opts, "--args-out", str(tmp_path / "b.json"))
    assert a == b and len(a) > 0
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


def test_randcircuit_cli_is_deterministic(tmp_path):
    for extra in ([], ["--rewrite", "all"], ["--mutate", "wiring"], ["--rewrite", "reorder",
                                                                      "--rewrite", "locs"]):
        a = run_cli("randcircuit.py", "--seed", "11", *extra)
        b = run_cli("randcircuit.py", "--seed", "11", *extra)
        assert a == b and a
    assert run_cli("randcircuit.py", "--seed", "11") != run_cli("randcircuit.py", "--seed", "12")


def test_library_matches_cli(tmp_path):
    text = run_cli("workloads.py", "w1").decode()
    m = wl.build_w1()
    m.header.append("qshape workload w1: wires=10 layers=1 op=PauliX form=unrolled "
                    "outer_loop=always")
    assert text == module_text(m)
    assert run_cli("randcircuit.py", "--seed", "5").decode() == module_text(rc.generate(5))


def test_w4_seeds_differ():
    texts = {module_text(wl.build_w4(s)[0]) for s in range(6)}
    assert len(texts) == 6


# ---------------------------------------------------------------------------
# every kind / variant emits sane text of the expected shape
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("cfg", W_CONFIGS, ids=_id)
def test_workload_emits_sane_text(cfg, tmp_path):
    kind, opts = cfg
    text, args = gen(kind, opts, tmp_path)
    check_sanity(text)
    assert "func.func public @circuit(" in text
    assert 'attributes {diff_method = "adjoint", llvm.linkage = #llvm.linkage<internal>, qnode}' \
        in text
    assert 'quantum.device shots(%c0_i64) ["/path/liblightning_qubit_catalyst.so", ' \
        '"LightningSimulator", "{\'mcmc\': False}"]' in text
    for needle in ("quantum.alloc( ", "quantum.dealloc", "quantum.device_release", "return "):
        assert needle in text
    assert not re.search(r"(^|\s)(catalyst|stablehlo)\.", text, re.M)
    dialects = set(re.findall(r"\b([a-z_]+)\.[a-z_]+(?=[ (\"])", re.sub(r'"[^"]*"', "", text)))
    assert dialects <= {"func", "arith", "math", "scf", "tensor", "quantum", "llvm"}, dialects
    sig = re.search(r"@circuit\((.*?)\) ->", text).group(1)
    nargs = 0 if not sig else sig.count("%arg")
    assert isinstance(args, list) and len(args) == nargs
    # simulate the small ones (at most 10 qubits)
    nq = int(re.search(r"quantum\.alloc\( (\d+)\)", text).group(1))
    if nq <= 10 and not (kind == "w2" and "--order" in opts):
        res = rc.simulate_text(text, args)
        for x in flat(res):
            assert math.isfinite(x)


def test_w1_shapes(tmp_path):
    text, args = gen("w1", [], tmp_path)
    assert re.search(r"quantum\.alloc\( 12\)", text)
    assert text.count('quantum.custom "Rot"') == 20
    assert text.count("tensor.extract %arg0[%c") == 30 and text.count("tensor.extract %arg1[%c") == 30
    assert len(re.findall(r"quantum\.extract %\w+\[ \d+\]", text)) == 11
    assert "scf.for" not in text
    assert len(args) == 2 and all(len(a) == 3 for a in args)
    text, _ = gen("w1", ["--form", "loop", "--layers", "3"], tmp_path)
    assert text.count("scf.for") == 2 and "iter_args(" in text
    assert "arith.index_cast" in text and re.search(r"quantum\.extract %\w+\[%\w+\]", text)
    assert re.search(r"quantum\.insert %\w+\[%\w+\], %\w+", text)
    assert "%c3 = arith.constant 3 : index" in text
    text, _ = gen("w1", ["--form", "loop", "--layers", "1", "--outer-loop", "auto"], tmp_path)
    assert text.count("scf.for") == 1


@pytest.mark.parametrize("op", wl.W1_OPS)
@pytest.mark.parametrize("layers", [1, 2])
def test_w1_unrolled_equals_loop(op, layers):
    args = wl.w1_args(7)
    ref = rc.simulate_text(module_text(wl.build_w1(wires=6, layers=layers, op=op)), args)
    for outer in ("always", "auto", "never"):
        m = wl.build_w1(wires=6, layers=layers, op=op, form="loop", outer_loop=outer)
        assert max_diff(ref, rc.simulate_text(module_text(m), args)) < 1e-12


def test_w2_shapes():
    n, n_est = 2, 4
    text = module_text(wl.build_w2(n_trotter=n))
    factors = n_est * n * 2
    assert text.count("quantum.paulirot") == factors * 14
    assert text.count("quantum.gphase") == factors
    assert text.count("tensor.extract %arg0[") == factors * 15
    assert text.count("arith.mulf") == factors * 15
    assert re.search(r'quantum\.paulirot \["Y", "X", "X", "Y"\]\(%\w+\) %\S+, %\S+, %\S+, %\S+ '
                     r'ctrls\(%\S+\) ctrlvals\(%true\) : !quantum\.bit, !quantum\.bit, '
                     r'!quantum\.bit, !quantum\.bit ctrls !quantum\.bit', text)
    assert re.search(r"quantum\.gphase\(%\w+\) ctrls\(%\S+\) ctrlvals\(%true\) : ctrls "
                     r"!quantum\.bit", text)
    assert re.search(r"quantum\.compbasis qubits (%\S+, ){3}%\S+ : !quantum\.obs", text)
    assert "quantum.probs" in text and "tensor<16xf64>" in text
    assert "tensor<15xf64>" in text
    assert text.count('"ControlledPhaseShift"') == 6 and text.count('"SWAP"') == 2
    # decomposed: every gate of the Trotter part is controlled
    d = module_text(wl.build_w2(n_trotter=1, variant="decomposed"))
    assert "quantum.paulirot" not in d
    gates = [ln for ln in d.split("\n") if "quantum.custom" in ln]
    qft = [ln for ln in gates if re.search(r'"(ControlledPhaseShift|SWAP)"', ln)]
    trotter = [ln for ln in gates if "ctrls(" in ln]
    assert len(trotter) + len(qft) + 4 == len(gates)   # + 4 Hadamards of adjoint(QFT)
    assert all("ctrlvals(%true)" in ln for ln in trotter)


def test_trotter_sequence():
    m = 3
    seq = wl.adjoint_trotter_sequence(2.0, 2, 2, m)
    assert [j for j, _ in seq] == [0, 1, 2, 2, 1, 0] * 2
    assert all(y == 0.5 for _, y in seq)
    assert [j for j, _ in wl.adjoint_trotter_sequence(1.0, 1, 1, m)] == [0, 1, 2]
    s4 = wl.suzuki_sequence(1.0, 4, m)
    assert len(s4) == 5 * 2 * m
    assert abs(sum(y for j, y in s4 if j == 0) - 1.0) < 1e-12   # total time per term


@pytest.mark.parametrize("ham,order", [("h2", 2), ("h2", 1), ("synthetic", 2), ("synthetic", 4)])
def test_w2_native_equals_decomposed(ham, order):
    kw = dict(n_trotter=1, n_est=2 if order == 4 else 3, order=order, prep="standard",
              hamiltonian=ham, terms=7, qubits=3, seed=2)
    args = wl.w2_args(ham, 7, 3, 2)
    ref = rc.simulate_text(module_text(wl.build_w2(variant="native", **kw)), args)
    assert max(flat(ref)) > 1.5 / len(flat(ref))   # not the uniform distribution
    for var, style in (("native", "flag"), ("decomposed", "negate"), ("decomposed", "flag")):
        m = wl.build_w2(variant=var, adjoint_style=style, **kw)
        assert max_diff(ref, rc.simulate_text(module_text(m), args)) < 1e-9, (var, style)


def test_w2_matches_analytic_qpe():
    """With the XY terms' coefficients zeroed (runtime data), H2 is diagonal,
    Trotterization is exact and |1100> is an eigenstate: the probabilities
    must be the textbook QPE distribution for phase -E/(2 pi)."""
    n = 3
    coeffs = list(wl.H2_COEFFS)
    coeffs[11:] = [0.0] * 4
    E = 0.0
    for word, c in zip(wl.H2_WORDS, coeffs):
        z = 1
        for q, p in enumerate(word):
            if p == "Z" and q < 2:
                z = -z
        E += c * z
    phi = (-E / (2 * math.pi)) % 1.0
    N = 2 ** n
    expect = [abs(sum(cmath.exp(2j * math.pi * x * (phi - k / N)) for x in range(N)) / N) ** 2
              for k in range(N)]
    for var in ("native", "decomposed"):
        m = wl.build_w2(n_trotter=1, n_est=n, variant=var, prep="standard")
        got = rc.simulate_text(module_text(m), [coeffs])[0]
        assert max(abs(a - b) for a, b in zip(got, expect)) < 1e-9


def test_w2_default_prep_is_the_users_program():
    # no state preparation: controls stay |0>, the result is uniform
    m = wl.build_w2(n_trotter=1, n_est=2)
    got = rc.simulate_text(module_text(m), wl.w2_args())[0]
    assert max(abs(x - 0.25) for x in got) < 1e-12


def test_w3_counts_and_modes():
    for angles in ("const", "const-repeat", "runtime", "runtime-repeat"):
        buf = io.StringIO()
        args, info = wl.write_w3(buf, ops=5000, wires=6, angles=angles, noise_layers=2, seed=1)
        text = buf.getvalue()
        per_layer, layers = wl.w3_plan(5000, 6)
        assert info["layers"] == layers and per_layer == 6 * 3 + 5
        regular = len(re.findall(r'quantum\.custom "(RX|RY|RZ|CNOT)"', text))
        assert regular >= layers * per_layer
        total = len(re.findall(r"quantum\.custom", text))
        assert total <= layers * per_layer + 2 * 6
        if angles == "runtime":
            assert "tensor<%dx18xf64>" % layers in text and len(args[0]) == layers * 18
        elif angles == "runtime-repeat":
            assert "tensor<18xf64>" in text and len(args[0]) == 18
        else:
            assert args == []
        check_sanity(text)


def test_w3_noise_layers_do_not_repeat():
    buf = io.StringIO()
    wl.write_w3(buf, ops=3000, wires=5, angles="const-repeat", noise_layers=4, seed=9)
    body = [re.sub(r"%[\w#]+", "%", ln).strip() for ln in buf.getvalue().split("\n")
            if "quantum.custom" in ln and not re.search(r'"(RX|RY|RZ|CNOT)"', ln)]
    assert len(body) >= 4 * 5 * 0.5


def test_w3_streams_fast(tmp_path):
    t0 = time.time()
    out = tmp_path / "w3.mlir"
    run_cli("workloads.py", "w3", "--ops", "100000", "-o", str(out))
    dt = time.time() - t0
    n = sum(1 for ln in out.open() if "quantum.custom" in ln)
    assert 95000 <= n <= 105000
    assert dt < 30, dt   # ~0.5 s on a laptop core; generous for a loaded CI machine


@pytest.mark.parametrize("seed", range(6))
def test_w4_properties(seed):
    m, ngates = wl.build_w4(seed, reg_style="per-copy" if seed % 2 else "threaded")
    text = module_text(m)
    check_sanity(text)
    nq = int(re.search(r"quantum\.alloc\( (\d+)\)", text).group(1))
    assert 2 <= nq <= 10
    assert ngates >= nq
    res = rc.simulate_text(text, wl.w4_args(seed))   # raises if a gate repeats a wire
    assert all(math.isfinite(x) for x in flat(res))


def test_w4_has_the_promised_features():
    texts = [module_text(wl.build_w4(s)[0]) for s in range(12)]
    joined = "\n".join(texts)
    for needle in (" adj", "ctrls(", "quantum.paulirot", "quantum.multirz", "tensor.extract %arg0",
                   "tensor.extract %arg1[]", "arith.mulf", "quantum.probs", "quantum.expval"):
        assert needle in joined, needle
    assert max(len(t) for t in texts) < 200000


def test_w4_reg_styles_agree():
    for seed in range(3):
        a = rc.simulate_text(module_text(wl.build_w4(seed, reg_style="threaded")[0]),
                             wl.w4_args(seed))
        b = rc.simulate_text(module_text(wl.build_w4(seed, reg_style="per-copy")[0]),
                             wl.w4_args(seed))
        c = rc.simulate_text(module_text(wl.build_w4(seed, consts="inline")[0]),
                             wl.w4_args(seed))
        assert max_diff(a, b) < 1e-12 and max_diff(a, c) < 1e-12


# ---------------------------------------------------------------------------
# randcircuit: rewrites keep the meaning, mutations change it
# ---------------------------------------------------------------------------

SEEDS = range(8)


@pytest.mark.parametrize("rewrite", list(rc.REWRITES) + ["all"])
def test_rewrite_changes_text_keeps_meaning(rewrite):
    for seed in SEEDS:
        m = rc.generate(seed)
        args = rc.default_args(m, seed)
        t0 = module_text(m)
        r0 = rc.simulate_text(t0, args)
        m2 = rc.apply_rewrite(m, rewrite, random.Random(seed))
        t = module_text(m2)
        assert t != t0
        assert module_text(m) == t0          # the input module is left alone
        check_sanity(t)
        assert max_diff(r0, rc.simulate_text(t, args)) < 1e-9
        # the generic-form printing of the rewritten module means the same too
        assert max_diff(r0, rc.simulate_text(module_text(m2, "all"), args)) < 1e-9


def test_rewrite_details():
    m = rc.generate(3)
    t = module_text(rc.apply_rewrite(m, "generic", random.Random(1)))
    assert re.search(r'"quantum\.custom"\(.*\) <\{.*gate_name = "\w+", operandSegmentSizes = '
                     r'array<i32: \d+, \d+, \d+, \d+>, resultSegmentSizes = array<i32: \d+, '
                     r'\d+>\}> : \(.*\) -> ', t)
    t = module_text(rc.apply_rewrite(m, "locs", random.Random(1)))
    assert re.search(r' loc\("[^"]+":\d+:\d+\)$', t, re.M)
    t = module_text(rc.apply_rewrite(m, "const-index", random.Random(1)))
    assert re.search(r"= arith\.constant \d+ : i64\n", t)
    assert re.search(r"quantum\.extract %\w+\[%c\d+_i64\w*\]", t)
    t = module_text(rc.apply_rewrite(m, "attr-order", random.Random(1)))
    assert "attributes {" in t and 'attributes {diff_method = "adjoint", llvm' not in t
    t0 = module_text(m)
    t = module_text(rc.apply_rewrite(m, "dup-const", random.Random(1)))
    assert t.count("arith.constant") > t0.count("arith.constant")
    t = module_text(rc.apply_rewrite(m, "float-format", random.Random(1)))
    assert re.search(r"arith\.constant 0x[0-9A-F]{16} : f64", t) or \
        re.search(r"arith\.constant -?\d\.\d{16}(e[-+]\d+)? : f64", t)


def test_reorder_keeps_side_effect_order():
    order = ("quantum.device", "quantum.alloc", "quantum.expval", "quantum.probs",
             "quantum.dealloc", "quantum.device_release", "return")
    for seed in SEEDS:
        m = rc.generate(seed)
        t = module_text(rc.apply_rewrite(m, "reorder", random.Random(seed)))
        seen = [w for ln in t.split("\n") for w in order
                if re.search(r"(^|\s|= )" + re.escape(w) + r"\b", ln.strip())]
        base = [w for ln in module_text(m).split("\n") for w in order
                if re.search(r"(^|\s|= )" + re.escape(w) + r"\b", ln.strip())]
        assert seen == base
        assert t.rstrip().split("\n")[-3].strip().startswith("return")


@pytest.mark.parametrize("mutation", list(rc.MUTATIONS))
def test_mutation_changes_text(mutation):
    visible = 0
    for seed in SEEDS:
        m = rc.generate(seed)
        t0 = module_text(m)
        m2 = rc.apply_mutation(m, mutation, random.Random(seed))
        t = module_text(m2)
        assert t != t0
        check_sanity(t)
        if mutation in rc.SIMULATION_VISIBLE:
            args = rc.default_args(m, seed)
            if max_diff(rc.simulate_text(t0, args), rc.simulate_text(t, args)) > 1e-9:
                visible += 1
    if mutation in rc.SIMULATION_VISIBLE:
        assert visible >= 0.75 * len(SEEDS), visible


def _floats(text):
    return re.findall(r"arith\.constant (\S+) : f64", text)


def test_mutation_details():
    for seed in SEEDS:
        m = rc.generate(seed)
        t0 = module_text(m)
        t = module_text(rc.apply_mutation(m, "param-ulp", random.Random(seed)))
        a, b = _floats(t0), _floats(t)
        diff = [(x, y) for x, y in zip(a, b) if x != y]
        assert len(a) == len(b) and len(diff) == 1
        x, y = diff[0]
        assert abs(rc.f64_bits(float(x)) - rc.f64_bits(float(y))) == 1
        assert float(y) == float(y) and rc.fmt_f64(float(y)) == y
        t = module_text(rc.apply_mutation(m, "neg-zero", random.Random(seed)))
        assert "arith.constant -0.0 : f64" in t and "arith.constant -0.0 : f64" not in t0
        t = module_text(rc.apply_mutation(m, "angle-only", random.Random(seed)))
        strip = lambda s: re.sub(r"arith\.constant \S+ : f64", "F", s)  # noqa: E731
        assert strip(t) == strip(t0) and t != t0
        t = module_text(rc.apply_mutation(m, "symbol-name", random.Random(seed)))
        assert "@circuit(" not in t
        t = module_text(rc.apply_mutation(m, "signature", random.Random(seed)))
        assert re.search(r"@circuit\(.*%arg1: ", t)


def test_float_literals_round_trip():
    rng = random.Random(0)
    vals = [0.0, -0.0, 1.0, -1.5, 1e-5, 5e-324, 1.7976931348623157e308, math.pi,
            0.78539816339744828] + [rng.uniform(-10, 10) for _ in range(200)]
    for v in vals:
        for form in (None, "17g", "hex"):
            s = rc.fmt_f64(v, form)
            if form == "hex":
                back = rc.bits_f64(int(s, 16))
            else:
                assert "." in s
                back = float(s)
            assert rc.f64_bits(back) == rc.f64_bits(v), (v, form, s)


def test_simulator_gate_conventions():
    """Spot checks of the reference simulator against PennyLane facts."""
    sv = rc.StateVector(2)
    sv.apply(rc.gate_matrix("Hadamard", []), [0])
    sv.apply(rc.gate_matrix("CNOT", []), [0, 1])
    assert abs(sv.probs([0, 1])[0] - 0.5) < 1e-12 and abs(sv.probs([0, 1])[3] - 0.5) < 1e-12
    # RX(pi) |0> = -i |1>; PauliRot("X", pi) is the same unitary
    for u in (rc.gate_matrix("RX", [math.pi]), rc.paulirot_matrix("X", math.pi)):
        assert abs(u[1][0] - (-1j)) < 1e-12
    # MultiRZ(theta) on one qubit == RZ(theta)
    a, b = rc.multirz_matrix(1, 0.3), rc.gate_matrix("RZ", [0.3])
    assert all(abs(a[i][j] - b[i][j]) < 1e-12 for i in range(2) for j in range(2))
    # Rot(phi, theta, omega) = RZ(omega) RY(theta) RZ(phi)
    r = rc.gate_matrix("Rot", [0.1, 0.2, 0.3])
    assert abs(abs(r[0][0]) - math.cos(0.1)) < 1e-12
    # gphase(phi) multiplies by exp(-i phi)
    sv = rc.StateVector(1)
    sv.phase(0.7)
    assert abs(sv.amp[0] - cmath.exp(-0.7j)) < 1e-12


# ---------------------------------------------------------------------------
# parsing with qshape-opt and upstream mlir-opt
# ---------------------------------------------------------------------------


def _parse_corpus():
    """(name, text) pairs: every workload kind and variant (small), random
    circuits with every rewrite (pretty and all-generic) and mutation."""
    out = []
    for kind, opts in W_CONFIGS:
        if kind == "w3":
            buf = io.StringIO()
            a = dict(ops=2000)
            if "--angles" in opts:
                a["angles"] = opts[opts.index("--angles") + 1]
            if "--reg-style" in opts:
                a["reg_style"] = opts[opts.index("--reg-style") + 1]
            wl.write_w3(buf, **a)
            out.append((_id((kind, opts)), buf.getvalue()))
            continue
        if kind == "w1":
            m = wl.build_w1(form="loop" if "loop" in opts else "unrolled",
                            layers=2 if "2" in opts else 1)
        elif kind == "w2":
            m = wl.build_w2(n_trotter=1,
                            variant="decomposed" if "decomposed" in opts else "native",
                            adjoint_style="flag" if "flag" in opts else "negate",
                            hamiltonian="synthetic" if "synthetic" in opts else "h2")
        else:
            m = wl.build_w4(int(opts[1]))[0]
        out.append((_id((kind, opts)), module_text(m)))
    for seed in range(4):
        m = rc.generate(seed)
        out.append(("rand%d" % seed, module_text(m)))
        for rw in list(rc.REWRITES) + ["all"]:
            m2 = rc.apply_rewrite(m, rw, random.Random(seed))
            out.append(("rand%d-%s" % (seed, rw), module_text(m2)))
            out.append(("rand%d-%s-generic" % (seed, rw), module_text(m2, "all")))
        for mu in rc.MUTATIONS:
            out.append(("rand%d-%s" % (seed, mu),
                        module_text(rc.apply_mutation(m, mu, random.Random(seed)))))
    return out


def test_outputs_parse_with_qshape_opt():
    tool = qshape_opt()
    if tool is None:
        pytest.skip("qshape-opt not built (set QSHAPE_OPT or build build/bin/qshape-opt)")
    failures = []
    for name, text in _parse_corpus():
        rcode, err = parse_with(tool, text)
        if rcode:
            failures.append((name, err[:600]))
    assert not failures, failures[:5]


def test_generic_quantum_form_parses_with_upstream_mlir_opt():
    tool = mlir_opt()
    if tool is None:
        pytest.skip("upstream mlir-opt not found")
    failures = []
    for seed in range(3):
        m = rc.generate(seed)
        for rw in list(rc.REWRITES) + ["all"]:
            m2 = rc.apply_rewrite(m, rw, random.Random(seed))
            for force in ("quantum", "all"):
                rcode, err = parse_with(tool, module_text(m2, force), "--allow-unregistered-dialect")
                if rcode:
                    failures.append(("rand%d-%s-%s" % (seed, rw, force), err[:600]))
    for m in (wl.build_w1(form="loop", layers=2), wl.build_w2(n_trotter=1),
              wl.build_w2(n_trotter=1, variant="decomposed"), wl.build_w4(5)[0]):
        for force in ("quantum", "all"):
            rcode, err = parse_with(tool, module_text(m, force), "--allow-unregistered-dialect")
            if rcode:
                failures.append(("workload-" + force, err[:600]))
    buf = io.StringIO()
    wl.write_w3(buf, ops=2000, angles="runtime", generic=True)
    rcode, err = parse_with(tool, buf.getvalue(), "--allow-unregistered-dialect")
    if rcode:
        failures.append(("w3", err[:600]))
    assert not failures, failures[:5]


def test_qshape_opt_round_trip_keeps_meaning():
    """Print through qshape-opt (pretty, generic, with debug locations) and
    simulate the result: the meaning must survive qshape's parser/printer."""
    tool = qshape_opt()
    if tool is None:
        pytest.skip("qshape-opt not built (set QSHAPE_OPT or build build/bin/qshape-opt)")
    cases = []
    for seed in range(3):
        m = rc.generate(seed)
        cases.append((module_text(rc.apply_rewrite(m, "all", random.Random(seed))),
                      rc.default_args(m, seed)))
    cases.append((module_text(wl.build_w1(form="loop", layers=2, wires=4)), wl.w1_args(0)))
    cases.append((module_text(wl.build_w2(n_trotter=1, n_est=2, variant="decomposed",
                                          prep="standard")), wl.w2_args()))
    cases.append((module_text(wl.build_w4(2)[0]), wl.w4_args(2)))
    for text, args in cases:
        ref = rc.simulate_text(text, args)
        for extra in ([], ["--mlir-print-op-generic"], ["--mlir-print-debuginfo"]):
            r = subprocess.run([tool, *extra, "-"], input=text, text=True, capture_output=True,
                               timeout=300)
            assert r.returncode == 0, r.stderr
            assert max_diff(ref, rc.simulate_text(r.stdout, args)) < 1e-9, extra
