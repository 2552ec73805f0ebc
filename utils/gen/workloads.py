#!/usr/bin/env python3
"""Benchmark workloads W1-W4 as Catalyst-shaped MLIR (see
``bench/README.md``).

    python3 utils/gen/workloads.py KIND [options] -o out.mlir [--args-out args.json]

KIND is one of w1 (batch), w2 (qpe-h2), w3 (scale), w4 (random-repetitive).
``python3 utils/gen/workloads.py KIND --help`` lists each kind's knobs.

``--semantics qref`` (every kind) emits the program as Catalyst's capture
frontend does instead: ``qref.alloc``, a ``qref.get`` before each use of a
wire (W1's loop form: ``qref.get %a[%i]`` with an i64 index, loops without
iter_args), gates without results, ``qref.namedobs``/``qref.compbasis``
with the quantum measurement processes, ``qref.dealloc``.

Each output is one ``module @module_circuit`` holding one QNode
``func.func public @circuit(...)`` with ``quantum.device``, ``quantum.alloc``,
extract/gates/insert, measurements, ``quantum.dealloc``,
``quantum.device_release`` and ``return``; only the builtin, func, arith,
math, scf, tensor and quantum dialects are used (the ``llvm.linkage``
function attribute is the one exception, as in Catalyst's output; drop it
with ``--no-linkage``).  ``--args-out`` writes a JSON list with one entry per
function argument: a number for a 0-d tensor, a flat row-major list for a
tensor.  Output is deterministic: same options, same bytes.

Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys

if not __package__:  # run as a script: make the package importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from gen import randcircuit as rc  # noqa: E402

fmt_f64 = rc.fmt_f64

# --------------------------------------------------------------------------
# W1: many small identical-topology circuits (the batch user's report)
# --------------------------------------------------------------------------

W1_OPS = ("PauliX", "PauliY", "PauliZ", "Hadamard")


def build_w1(wires=10, layers=1, op="PauliX", form="unrolled", outer_loop="always",
             device_qubits=None, consts="hoist", semantics="value"):
    """The batch user's QNode.

    unrolled: for j in L, for i in W: extract %r[ i], op, Rot(r1), Rot(r2),
    Hadamard, insert %r[ i] (what the frontend emits without autograph).
    loop: ``scf.for`` over the wires with the register as ``iter_args`` and
    dynamic extract/insert indices (what autograph emits); the layer loop is
    an outer ``scf.for`` (outer_loop="always", as autograph does even for
    ``range(1)``), only when L > 1 ("auto"), or unrolled ("never").
    semantics="qref": the capture frontend's form (``QNodeBuilder``); the
    loops then carry nothing and read ``qref.get %a[%i]``.
    Returns expval(PauliZ(0)) as tensor<f64>."""
    if op not in W1_OPS:
        raise ValueError("op must be one of %s" % (W1_OPS,))
    nq = device_qubits if device_qubits is not None else wires + 2
    if nq < wires:
        raise ValueError("device has fewer qubits than wires")
    b = rc.QNodeBuilder(nq, ["tensor<3xf64>", "tensor<3xf64>"], consts=consts,
                        semantics=semantics)
    r1, r2 = b.args

    def rot_params(r):
        return [b.tensor_extract(r, [k]) for k in range(3)]

    if form == "unrolled":
        for _ in range(layers):
            for i in range(wires):
                b.gate(op, [], [i])
                b.gate("Rot", rot_params(r1), [i])
                b.gate("Rot", rot_params(r2), [i])
                b.gate("Hadamard", [], [i])
                b.insert(i)
    elif form == "loop":
        c0 = b.const(0, "index")
        c1 = b.const(1, "index")
        cw = b.const(wires, "index")

        def wire_loop(reg):
            def body(iv, reg):
                i64 = b.emit("arith.index_cast", [iv], ["i64"]).results[0]
                q = b.extract_at(reg, i64)
                q = b.gate_on(op, [], [q])[0]
                q = b.gate_on("Rot", rot_params(r1), [q])[0]
                q = b.gate_on("Rot", rot_params(r2), [q])[0]
                q = b.gate_on("Hadamard", [], [q])[0]
                return b.insert_at(reg, i64, q)
            return b.reg_loop(c0, cw, c1, reg, body)

        if outer_loop == "always" or (outer_loop == "auto" and layers > 1):
            cl = b.const(layers, "index")
            b.reg = b.reg_loop(c0, cl, c1, b.reg, lambda iv, reg: wire_loop(reg))
        else:
            for _ in range(layers):
                b.reg = wire_loop(b.reg)
    else:
        raise ValueError("form must be unrolled or loop")
    e = b.expval(b.namedobs(0, "PauliZ"))
    return b.finish([b.scalar_tensor(e)])


def w1_args(seed):
    rng = random.Random(seed)
    return [[rng.uniform(-math.pi, math.pi) for _ in range(3)] for _ in range(2)]


# --------------------------------------------------------------------------
# W2: Trotterized QPE with runtime coefficients (the QPE user's report)
# --------------------------------------------------------------------------

# H2, STO-3G, Jordan-Wigner, wire order 0..3 (workloads.md order).
H2_WORDS = ["IIII", "ZIII", "IZII", "IIZI", "IIIZ", "ZZII", "ZIZI", "ZIIZ", "IZZI",
            "IZIZ", "IIZZ", "YXXY", "XXYY", "YYXX", "XYYX"]
# Coefficients (Ha) of H2 at 1.3228 bohr as printed in PennyLane's docs.  They
# are runtime data: the IR does not depend on them.
H2_COEFFS = [-0.04207897647782276, 0.17771287465139946, 0.1777128746513994,
             -0.24274280513140462, -0.24274280513140462, 0.17059738328801055,
             0.12293305056183798, 0.1676831945771896, 0.1676831945771896,
             0.12293305056183798, 0.17627640804319586, 0.04475014401535161,
             -0.04475014401535161, -0.04475014401535161, 0.04475014401535161]


def synthetic_hamiltonian(terms, qubits, seed):
    """``terms`` distinct Pauli words on ``qubits`` qubits (the first is the
    identity, as in chemistry Hamiltonians) with coefficients in [-0.5, 0.5]."""
    rng = random.Random(seed)
    if terms > 4 ** qubits:
        raise ValueError("more terms than Pauli words")
    words = ["I" * qubits]
    seen = set(words)
    while len(words) < terms:
        w = "".join(rng.choice("IXYZ") for _ in range(qubits))
        if w not in seen:
            seen.add(w)
            words.append(w)
    coeffs = [rng.uniform(-0.5, 0.5) for _ in words]
    return words, coeffs


def suzuki_sequence(x, order, m):
    """PennyLane's ``_recursive_expression``: a list of (term j, y) meaning
    exp(+i y c_j P_j).  order is 1 or even."""
    if order == 1:
        return [(j, x) for j in range(m)]
    if order == 2:
        half = [(j, x / 2) for j in range(m)]
        return half + half[::-1]
    if order % 2:
        raise ValueError("Trotter order must be 1 or even")
    s1 = 1.0 / (4.0 - 4.0 ** (1.0 / (order - 1)))
    s2 = 1.0 - 4.0 * s1
    l1 = suzuki_sequence(s1 * x, order - 2, m)
    l2 = suzuki_sequence(s2 * x, order - 2, m)
    return 2 * l1 + l2 + 2 * l1


def adjoint_trotter_sequence(time, n, order, m):
    """Circuit order of adjoint(TrotterProduct(H, time, n, order)).

    PennyLane's TrotterProduct approximates exp(+iHt); its circuit is
    ``_recursive_expression(time/n, order)[::-1] * n``.  The adjoint reverses
    that and inverts each factor, so its circuit is
    ``_recursive_expression(time/n, order) * n`` with every factor
    exp(-i y c_j P_j).  Returns that list of (j, y)."""
    return suzuki_sequence(time / n, order, m) * n


def build_w2(n_trotter=10, n_est=4, order=2, variant="native", hamiltonian="h2",
             terms=15, qubits=4, seed=0, prep="none", adjoint_style="negate",
             consts="hoist", coeffs_mode="runtime", geometry=0, semantics="value"):
    """The QPE user's program.  For k in 0..n_est-1, t = 2^(n_est-1-k):
    ctrl(adjoint(TrotterProduct(H, t, n_trotter, order)), control=Q+k); then
    adjoint(QFT) on the estimation wires Q..Q+n_est-1; returns their probs.

    Every factor exp(-i a P) (a = y * c_j, c_j = ``tensor.extract
    %coeffs[j]``, y a constant) is computed per use: ``tensor.extract`` then
    ``arith.mulf`` by a constant step factor.  Conventions (PennyLane's):
    PauliRot(theta, P) = exp(-i theta/2 P), so exp(-i a P) = PauliRot(2a);
    RZ(theta) = exp(-i theta/2 Z); quantum.gphase(phi) = exp(-i phi), so the
    identity term is a controlled gphase(a).

    native: ``quantum.paulirot`` with ctrls/ctrlvals.  adjoint_style "negate"
    emits the adjoint as the reversed sequence with negated angles
    (PauliRot(+2a)); "flag" emits the forward factors PauliRot(-2a) with the
    ``adj`` flag in reversed order (same unitary).
    decomposed: basis change (H for X, RX(pi/2) for Y) on each non-identity
    wire, CNOT ladder, RZ(2a) on the last wire, ladder back, basis change back
    (H, RX(-pi/2)); every gate carries the control.

    prep: "none" is the users' program (no state preparation: the controls
    stay |0> and the result is uniform); "standard" adds the Hartree-Fock
    state (X on the first Q/2 wires) and Hadamards on the estimation wires,
    the textbook QPE; use it to compare variants in a simulator.

    coeffs_mode "baked" is the QPE user's H_fixed: no argument, every angle
    c_j * y a baked constant (the frontend folds the product), with the
    coefficients of ``geometry`` (``geometry_coeffs``)."""
    if hamiltonian == "h2":
        words, coeffs = H2_WORDS, H2_COEFFS
    else:
        words, coeffs = synthetic_hamiltonian(terms, qubits, seed)
    Q = len(words[0])
    M = len(words)
    nq = Q + n_est
    baked = coeffs_mode == "baked"
    if baked:
        coeffs = geometry_coeffs(coeffs, geometry)
    b = rc.QNodeBuilder(nq, [] if baked else ["tensor<%dxf64>" % M], consts=consts,
                        semantics=semantics)
    carg = None if baked else b.args[0]
    if prep == "standard":
        for w in range(max(1, Q // 2)):
            b.gate("PauliX", [], [w])
        for k in range(n_est):
            b.gate("Hadamard", [], [Q + k])
    elif prep != "none":
        raise ValueError("prep must be none or standard")
    half_pi = b.const(math.pi / 2, "f64") if variant == "decomposed" else None

    def angle(j, factor):
        if baked:
            return b.const(coeffs[j] * factor, "f64")
        c = b.tensor_extract(carg, [j])
        return b.binop("arith.mulf", c, b.const(factor, "f64"))

    for k in range(n_est):
        t = 2.0 ** (n_est - 1 - k)
        ctl = [Q + k]
        on = [True]
        for j, y in adjoint_trotter_sequence(t, n_trotter, order, M):
            word = words[j]
            act = [(w, p) for w, p in enumerate(word) if p != "I"]
            if not act:
                b.gphase(angle(j, y), ctl, on)
                continue
            wires = [w for w, _ in act]
            if variant == "native":
                if adjoint_style == "flag":
                    b.paulirot("".join(p for _, p in act), angle(j, -2 * y), wires, ctl, on,
                               adj=True)
                else:
                    b.paulirot("".join(p for _, p in act), angle(j, 2 * y), wires, ctl, on)
                continue
            for w, p in act:
                if p == "X":
                    b.gate("Hadamard", [], [w], ctl, on)
                elif p == "Y":
                    b.gate("RX", [half_pi], [w], ctl, on)
            for a, c in zip(wires, wires[1:]):
                b.gate("CNOT", [], [a, c], ctl, on)
            b.gate("RZ", [angle(j, 2 * y)], [wires[-1]], ctl, on)
            for a, c in reversed(list(zip(wires, wires[1:]))):
                b.gate("CNOT", [], [a, c], ctl, on)
            for w, p in act:
                if p == "X":
                    b.gate("Hadamard", [], [w], ctl, on)
                elif p == "Y":
                    if adjoint_style == "flag":
                        b.gate("RX", [half_pi], [w], ctl, on, adj=True)
                    else:
                        b.gate("RX", [b.const(-math.pi / 2, "f64")], [w], ctl, on)
    est = list(range(Q, Q + n_est))
    adjoint_qft(b, est)
    return b.finish([b.probs(est)])


def qft_ops(wires):
    """PennyLane's QFT decomposition: (name, angle or None, wires)."""
    n = len(wires)
    ops = []
    for i, w in enumerate(wires):
        ops.append(("Hadamard", None, [w]))
        for s, cw in enumerate(wires[i + 1:]):
            ops.append(("ControlledPhaseShift", math.pi / 2 ** (s + 1), [cw, w]))
    for i in range(n // 2):
        ops.append(("SWAP", None, [wires[i], wires[n - 1 - i]]))
    return ops


def adjoint_qft(b, wires):
    """adjoint(QFT): the decomposition reversed, every angle negated."""
    for name, ang, ws in reversed(qft_ops(wires)):
        params = [] if ang is None else [b.const(-ang, "f64")]
        b.gate(name, params, ws)


def geometry_coeffs(coeffs, geometry):
    """Stand-in coefficients of another molecule geometry (not chemistry):
    c * (1 + 0.03 g c). Equal coefficients stay equal and distinct ones
    distinct, so every geometry has the same shape fingerprint."""
    k = 0.03 * geometry
    return [c * (1.0 + k * c) for c in coeffs]


def w2_args(hamiltonian="h2", terms=15, qubits=4, seed=0, coeffs_mode="runtime"):
    if coeffs_mode == "baked":
        return []
    if hamiltonian == "h2":
        return [list(H2_COEFFS)]
    return [synthetic_hamiltonian(terms, qubits, seed)[1]]


# --------------------------------------------------------------------------
# W3: synthetic unrolled circuits of 1e4..1e6 ops, streamed
# --------------------------------------------------------------------------

W3_NOISE_1Q = ("Hadamard", "S", "T", "SX", "PauliX", "PauliY")
W3_NOISE_1P = ("RX", "RY", "RZ", "PhaseShift")
W3_NOISE_2Q = ("CZ", "SWAP", "CY", "ISWAP")
W3_NOISE_2P = ("IsingXX", "IsingZZ", "CRZ", "ControlledPhaseShift")


class _Stream:
    """Buffered line writer with an SSA counter."""

    def __init__(self, out):
        self.out = out
        self.buf = []
        self.k = 0
        self.nops = 0

    def new(self):
        self.k += 1
        return self.k - 1

    def line(self, s):
        self.buf.append(s)
        self.nops += 1
        if len(self.buf) >= 8192:
            self.flush()

    def flush(self):
        if self.buf:
            self.out.write("\n".join(self.buf))
            self.out.write("\n")
            self.buf = []


def w3_plan(ops=10000, wires=8, rots=("RX", "RY", "RZ")):
    per_layer = wires * len(rots) + (wires - 1)
    layers = max(1, int(round(ops / per_layer)))
    return per_layer, layers


def write_w3(out, ops=10000, wires=8, angles="const", rots=("RX", "RY", "RZ"),
             noise_layers=0, seed=0, reg_style="threaded", generic=False, linkage=True,
             semantics="value"):
    """Stream W3 to the file object ``out``; returns the argument list.

    A layer is: for each wire, each rotation in ``rots`` (RX/RY/RZ); then a
    CNOT ladder (0,1), (1,2), ..., (W-2,W-1).  The number of layers is
    round(ops / gates-per-layer); ``ops`` counts gate ops (quantum.custom).
    angles: "const" (baked, a different constant per layer, defined right
    before use), "const-repeat" (the same constants every layer, defined once
    at the top), "runtime" (``tensor.extract %arg0[%layer, %k] :
    tensor<LxPxf64>``), "runtime-repeat" (``tensor.extract %arg0[%k] :
    tensor<Pxf64>``, the same parameters every layer).  ``noise_layers``
    extra layers of random gates (never the same twice) are put at random
    positions.  reg_style "threaded": qubits are extracted once and inserted
    at the end; "per-gate": every gate is wrapped in extract/insert of its
    wires (the raw frontend trace shape).  generic=True prints quantum ops in
    the generic form (for upstream mlir-opt --allow-unregistered-dialect).
    semantics="qref": Catalyst's capture frontend's form (as
    ``rc.QNodeBuilder(semantics="qref")`` prints it): qref.alloc, a
    ``qref.get`` before each use of a wire, gates without results, no
    inserts (reg_style has no effect), qref.namedobs, qref.dealloc.
    """
    rng = random.Random(seed)
    W = wires
    if W < 2:
        raise ValueError("w3 needs at least 2 wires")
    qref = semantics == "qref"
    if qref and generic:
        raise ValueError("the qref form is printed in the pretty form only")
    R = len(rots)
    P = W * R
    per_layer, L = w3_plan(ops, W, rots)
    noise_at = sorted(rng.randrange(L + 1) for _ in range(noise_layers))
    if angles == "runtime":
        arg_type = "tensor<%dx%dxf64>" % (L, P)
    elif angles == "runtime-repeat":
        arg_type = "tensor<%dxf64>" % P
    elif angles in ("const", "const-repeat"):
        arg_type = None
    else:
        raise ValueError("bad angles mode " + angles)
    s = _Stream(out)
    B, REG, OBS_ = rc.QUBIT, rc.QREG, rc.OBS

    def custom(res, name, params, qs, nres):
        if qref:
            return '    qref.custom "%s"(%s) %s : %s' % (
                name, ", ".join(params), ", ".join(qs), ", ".join([rc.QREF_BIT] * nres))
        lhs = "%%%d" % res if nres == 1 else "%%%d:%d" % (res, nres)
        if generic:
            ops_ = ", ".join(params + qs)
            tys = ", ".join(["f64"] * len(params) + [B] * len(qs))
            outs = B if nres == 1 else "(" + ", ".join([B] * nres) + ")"
            return ('    %s = "quantum.custom"(%s) <{gate_name = "%s", operandSegmentSizes = '
                    'array<i32: %d, %d, 0, 0>, resultSegmentSizes = array<i32: %d, 0>}> : '
                    '(%s) -> %s' % (lhs, ops_, name, len(params), len(qs), nres, tys, outs))
        return '    %s = quantum.custom "%s"(%s) %s : %s' % (
            lhs, name, ", ".join(params), ", ".join(qs), ", ".join([B] * nres))

    def extract(res, reg, w):
        if generic:
            return ('    %%%d = "quantum.extract"(%s) <{idx_attr = %d : i64}> : (%s) -> %s'
                    % (res, reg, w, REG, B))
        return "    %%%d = quantum.extract %s[ %d] : %s -> %s" % (res, reg, w, REG, B)

    def insert(res, reg, w, q):
        if generic:
            return ('    %%%d = "quantum.insert"(%s, %s) <{idx_attr = %d : i64}> : (%s, %s) -> %s'
                    % (res, reg, q, w, REG, B, REG))
        return "    %%%d = quantum.insert %s[ %d], %s : %s, %s" % (res, reg, w, q, REG, B)

    nlayers_total = L + noise_layers
    gates_total = L * per_layer
    out.write("// qshape workload w3: wires=%d layers=%d noise_layers=%d angles=%s rots=%s "
              "reg_style=%s seed=%d%s\n" % (W, L, noise_layers, angles, ",".join(rots),
                                            reg_style, seed, " semantics=qref" if qref else ""))
    sig = "" if arg_type is None else "%%arg0: %s" % arg_type
    attrs = 'diff_method = "adjoint", llvm.linkage = #llvm.linkage<internal>, qnode' \
        if linkage else 'diff_method = "adjoint", qnode'
    out.write("module @module_circuit {\n")
    out.write("  func.func public @circuit(%s) -> tensor<f64> attributes {%s} {\n" % (sig, attrs))
    s.line("    %c0_i64 = arith.constant 0 : i64")
    # hoisted constants
    const_names = {}
    if angles == "const-repeat":
        for p in range(P):
            const_names[p] = "%%cst_%d" % p
            s.line("    %%cst_%d = arith.constant %s : f64" % (p, fmt_f64(
                rng.uniform(-math.pi, math.pi))))
    if angles in ("runtime", "runtime-repeat"):
        for p in range(P):
            s.line("    %%c%d = arith.constant %d : index" % (p, p))
        if angles == "runtime":
            for l_ in range(P, L):
                s.line("    %%c%d = arith.constant %d : index" % (l_, l_))
    if generic:
        s.line('    "quantum.device"(%%c0_i64) <{device_name = "%s", kwargs = "%s", lib = "%s"}> '
               ': (i64) -> ()' % (rc.DEVICE_NAME, rc.DEVICE_KWARGS, rc.LIB_PATH))
    else:
        s.line('    quantum.device shots(%%c0_i64) ["%s", "%s", "%s"]' % (
            rc.LIB_PATH, rc.DEVICE_NAME, rc.DEVICE_KWARGS))
    reg = "%%%d" % s.new()
    QREF_REG = rc.qref_reg(W)
    if qref:
        s.line("    %s = qref.alloc( %d) : %s" % (reg, W, QREF_REG))
    elif generic:
        s.line('    %s = "quantum.alloc"() <{nqubits_attr = %d : i64}> : () -> %s' % (reg, W, REG))
    else:
        s.line("    %s = quantum.alloc( %d) : %s" % (reg, W, REG))
    qs = [None] * W
    state = {"reg": reg}

    def get(w):
        if qref:  # a fresh reference before each use
            r = s.new()
            s.line("    %%%d = qref.get %s[ %d] : %s -> %s" % (r, reg, w, QREF_REG, rc.QREF_BIT))
            return "%%%d" % r
        if qs[w] is None:
            r = s.new()
            s.line(extract(r, state["reg"], w))
            qs[w] = "%%%d" % r
        return qs[w]

    def put(w):
        r = s.new()
        s.line(insert(r, state["reg"], w, qs[w]))
        state["reg"] = "%%%d" % r
        qs[w] = None

    def const_here(v):
        r = s.new()
        s.line("    %%%d = arith.constant %s : f64" % (r, fmt_f64(v)))
        return "%%%d" % r

    def apply(name, params, wires_):
        ins = [get(w) for w in wires_]
        if qref:
            s.line(custom(None, name, params, ins, len(wires_)))
            return
        r = s.new()
        s.line(custom(r, name, params, ins, len(wires_)))
        if len(wires_) == 1:
            qs[wires_[0]] = "%%%d" % r
        else:
            for k, w in enumerate(wires_):
                qs[w] = "%%%d#%d" % (r, k)
        if reg_style == "per-gate":
            for w in wires_:
                put(w)

    def noise_layer():
        for _ in range(W):
            r = rng.random()
            if r < 0.3:
                apply(rng.choice(W3_NOISE_1Q), [], [rng.randrange(W)])
            elif r < 0.6:
                apply(rng.choice(W3_NOISE_1P), [const_here(rng.uniform(-math.pi, math.pi))],
                      [rng.randrange(W)])
            elif r < 0.8:
                a, c = rng.sample(range(W), 2)
                apply(rng.choice(W3_NOISE_2Q), [], [a, c])
            else:
                a, c = rng.sample(range(W), 2)
                apply(rng.choice(W3_NOISE_2P), [const_here(rng.uniform(-math.pi, math.pi))],
                      [a, c])

    ni = 0
    targ = "%arg0"
    for layer in range(L):
        while ni < len(noise_at) and noise_at[ni] == layer:
            noise_layer()
            ni += 1
        p = 0
        for w in range(W):
            for rot in rots:
                if angles == "const":
                    a = const_here(rng.uniform(-math.pi, math.pi))
                elif angles == "const-repeat":
                    a = const_names[p]
                else:
                    r = s.new()
                    if angles == "runtime":
                        if generic:
                            s.line('    %%%d = "tensor.extract"(%s, %%c%d, %%c%d) : (%s, index, '
                                   'index) -> f64' % (r, targ, layer, p, arg_type))
                        else:
                            s.line("    %%%d = tensor.extract %s[%%c%d, %%c%d] : %s" % (
                                r, targ, layer, p, arg_type))
                    else:
                        s.line("    %%%d = tensor.extract %s[%%c%d] : %s" % (r, targ, p, arg_type))
                    a = "%%%d" % r
                apply(rot, [a], [w])
                p += 1
        for w in range(W - 1):
            apply("CNOT", [], [w, w + 1])
    while ni < len(noise_at):
        noise_layer()
        ni += 1
    # measurement: expval(PauliZ(0))
    q0 = get(0)
    o = s.new()
    e = s.new()
    t = s.new()
    if qref:
        s.line("    %%%d = qref.namedobs %s[ PauliZ] : %s" % (o, q0, OBS_))
        s.line("    %%%d = quantum.expval %%%d : f64" % (e, o))
    elif generic:
        s.line('    %%%d = "quantum.namedobs"(%s) <{type = #quantum<named_observable PauliZ>}> : '
               '(%s) -> %s' % (o, q0, B, OBS_))
        s.line('    %%%d = "quantum.expval"(%%%d) : (%s) -> f64' % (e, o, OBS_))
    else:
        s.line("    %%%d = quantum.namedobs %s[ PauliZ] : %s" % (o, q0, OBS_))
        s.line("    %%%d = quantum.expval %%%d : f64" % (e, o))
    s.line("    %%%d = tensor.from_elements %%%d : tensor<f64>" % (t, e))
    for w in range(W):
        if qs[w] is not None:
            put(w)
    if qref:
        s.line("    qref.dealloc %s : %s" % (reg, QREF_REG))
        s.line("    quantum.device_release")
    elif generic:
        s.line('    "quantum.dealloc"(%s) : (%s) -> ()' % (state["reg"], REG))
        s.line('    "quantum.device_release"() : () -> ()')
    else:
        s.line("    quantum.dealloc %s : %s" % (state["reg"], REG))
        s.line("    quantum.device_release")
    s.line("    return %%%d : tensor<f64>" % t)
    s.flush()
    out.write("  }\n}\n")
    rng_args = random.Random(seed + 1)
    if angles == "runtime":
        return [[rng_args.uniform(-math.pi, math.pi) for _ in range(L * P)]], {
            "layers": L, "gates": gates_total, "ops": s.nops, "layers_total": nlayers_total}
    if angles == "runtime-repeat":
        return [[rng_args.uniform(-math.pi, math.pi) for _ in range(P)]], {
            "layers": L, "gates": gates_total, "ops": s.nops, "layers_total": nlayers_total}
    return [], {"layers": L, "gates": gates_total, "ops": s.nops,
                "layers_total": nlayers_total}


# --------------------------------------------------------------------------
# W4: random-repetitive circuits (correctness of loop rolling)
# --------------------------------------------------------------------------

W4_PARAM_TABLE = 16   # size of the runtime parameter tensor (arg0)


class _GateT:
    """A gate template inside a repeated body: wires are affine in the loop
    indices (wire = a*i + b*j + c, i inner, j outer)."""

    __slots__ = ("kind", "name", "wmaps", "cmaps", "cvals", "adj", "params")


def _affine_ok(maps, W, k_in, k_out):
    for j in range(k_out):
        for i in range(k_in):
            ws = [a * i + bb * j + c for a, bb, c in maps]
            if any(not 0 <= w < W for w in ws) or len(set(ws)) != len(ws):
                return False
    return True


def _rand_map(rng, W, k_in, k_out, nested):
    """wire = a*i + b*j + c with a in {0, 1, 2, -1} (constant, i+c, 2i+1,
    W-1-i), b in {0, 1} for nested runs; c drawn so the wire stays in range."""
    a = rng.choice([0, 1, 1, 1, 2, -1, -1])
    bb = rng.choice([0, 1]) if nested else 0
    span_j = bb * (k_out - 1)
    if a == 0:
        lo, hi = 0, W - 1 - span_j
    elif a == 1:
        lo, hi = 0, W - k_in - span_j
    elif a == 2:
        lo, hi = 0, W - 1 - 2 * (k_in - 1) - span_j
        if lo <= 1 <= hi and rng.random() < 0.7:
            return (a, bb, 1)          # 2i+1
    else:
        lo, hi = k_in - 1, W - 1 - span_j
        if rng.random() < 0.7 and hi == W - 1:
            return (a, bb, W - 1)      # W-1-i
    if hi < lo:
        return (0, 0, rng.randrange(W))
    return (a, bb, rng.randint(lo, hi))


def _rand_param(rng, k_in, k_out):
    """A parameter template: how the angle varies across copies."""
    n = k_in * k_out
    r = rng.random()
    if r < 0.2:
        return ("const", rng.uniform(-math.pi, math.pi))
    if r < 0.35:
        return ("table", [rng.uniform(-math.pi, math.pi) for _ in range(n)])
    if r < 0.5:
        return ("affine", rng.uniform(-math.pi, math.pi), rng.choice([0.25, 0.5, -0.125, 0.1]))
    if r < 0.6:
        return ("geometric", rng.choice([math.pi, math.pi / 2, 1.0]))
    if r < 0.75:
        stride = rng.choice([0, 1, 2]) if n * 2 <= W4_PARAM_TABLE else 0
        base = rng.randrange(0, W4_PARAM_TABLE - stride * (n - 1))
        return ("runtime", base, stride)
    if r < 0.85:
        stride = rng.choice([0, 1]) if n <= W4_PARAM_TABLE else 0
        base = rng.randrange(0, W4_PARAM_TABLE - stride * (n - 1))
        return ("runtime-mul", base, stride, rng.choice([0.5, 2.0, -1.0, 0.25]))
    return ("scalar", rng.choice([1.0, 0.5, -2.0]))


def _rand_template(rng, W, k_in, k_out, nested, allow_ctrl=True):
    for _ in range(200):
        t = _GateT()
        r = rng.random()
        if r < 0.08:
            nw = rng.randint(1, min(3, W))
            t.kind, t.name = "paulirot", "".join(rng.choice("XYZ") for _ in range(nw))
            npar = 1
        elif r < 0.15:
            nw = rng.randint(1, min(3, W))
            t.kind, t.name = "multirz", None
            npar = 1
        else:
            t.kind = "custom"
            t.name = rng.choice(rc.GATE_NAMES)
            npar, nw = rc.GATES[t.name]
        nc = 0
        if allow_ctrl and W - nw >= 1 and rng.random() < 0.2:
            nc = rng.randint(1, min(2, W - nw))
        maps = [_rand_map(rng, W, k_in, k_out, nested) for _ in range(nw + nc)]
        if not _affine_ok(maps, W, k_in, k_out):
            continue
        t.wmaps = maps[:nw]
        t.cmaps = maps[nw:]
        t.cvals = [rng.random() < 0.7 for _ in range(nc)]
        t.adj = rng.random() < 0.2
        t.params = [_rand_param(rng, k_in, k_out) for _ in range(npar)]
        return t
    # fallback: a single-qubit gate on a fixed wire
    t = _GateT()
    t.kind, t.name = "custom", "Hadamard"
    t.wmaps, t.cmaps, t.cvals, t.adj, t.params = [(0, 0, rng.randrange(W))], [], [], False, []
    return t


class _W4:
    def __init__(self, rng, W, consts, reg_style, semantics="value"):
        self.rng = rng
        self.W = W
        self.reg_style = reg_style
        self.b = rc.QNodeBuilder(W, ["tensor<%dxf64>" % W4_PARAM_TABLE, "tensor<f64>"],
                                 consts=consts, semantics=semantics)
        self.gates = 0

    def param(self, p, i, j, k_in):
        b = self.b
        n = j * k_in + i
        kind = p[0]
        if kind == "const":
            return b.const(p[1], "f64")
        if kind == "table":
            return b.const(p[1][n], "f64")
        if kind == "affine":
            return b.const(p[1] + p[2] * n, "f64")
        if kind == "geometric":
            return b.const(p[1] / 2 ** n, "f64")
        if kind == "runtime":
            return b.tensor_extract(b.args[0], [p[1] + p[2] * n])
        if kind == "runtime-mul":
            x = b.tensor_extract(b.args[0], [p[1] + p[2] * n])
            return b.binop("arith.mulf", x, b.const(p[3], "f64"))
        x = b.emit("tensor.extract", [b.args[1]], ["f64"], hints=["extracted"]).results[0]
        return b.binop("arith.mulf", x, b.const(p[1], "f64"))

    def emit(self, t, i, j, k_in):
        b = self.b
        ws = [a * i + bb * j + c for a, bb, c in t.wmaps]
        cs = [a * i + bb * j + c for a, bb, c in t.cmaps]
        params = [self.param(p, i, j, k_in) for p in t.params]
        if t.kind == "custom":
            b.gate(t.name, params, ws, cs, t.cvals, t.adj)
        elif t.kind == "paulirot":
            b.paulirot(t.name, params[0], ws, cs, t.cvals, t.adj)
        else:
            b.multirz(params[0], ws, cs, t.cvals, t.adj)
        self.gates += 1

    def flush(self):
        if self.reg_style == "per-copy":
            self.b.insert_all()

    def random_gate(self):
        t = _rand_template(self.rng, self.W, 1, 1, False)
        self.emit(t, 0, 0, 1)


def build_w4(seed=0, wires=None, segments=None, consts="hoist", reg_style="threaded",
             semantics="value"):
    """A random circuit made of repeated bodies (see README): each segment is
    plain random gates, a run of k copies of a random body with wires affine
    in the copy index (i, 2i+1, W-1-i, i+c, constants), per-copy parameter
    tables (baked constants varying per copy: table, affine, geometric),
    runtime parameters (``tensor.extract`` of arg0 with an affine index,
    optionally times a constant, or the scalar arg1), nested runs (an outer
    run of an inner run), and interruptions (a different gate in the middle of
    a run).  The first segment is a run of RY(table) on every wire so that the
    state is generic.  At most 10 qubits.  reg_style "per-copy" inserts every
    live qubit back into the register after each copy (the shape of a traced
    loop body); "threaded" keeps qubits extracted (in the qref form, a
    ``qref.get`` before each use, both are the same program)."""
    rng = random.Random(seed)
    W = wires if wires is not None else rng.randint(3, 8)
    if not 2 <= W <= 10:
        raise ValueError("w4 uses 2..10 wires")
    nseg = segments if segments is not None else rng.randint(3, 6)
    g = _W4(rng, W, consts, reg_style, semantics)
    # prep run: RY(table[i]) on wire i
    prep = _GateT()
    prep.kind, prep.name, prep.wmaps, prep.cmaps, prep.cvals, prep.adj = \
        "custom", "RY", [(1, 0, 0)], [], [], False
    prep.params = [("table", [rng.uniform(-math.pi, math.pi) for _ in range(W)])]
    for i in range(W):
        g.emit(prep, i, 0, W)
        g.flush()
    for _ in range(nseg):
        r = rng.random()
        if r < 0.2:
            for _ in range(rng.randint(1, 4)):
                g.random_gate()
            continue
        nested = r > 0.75
        k_in = rng.randint(2, 6)
        k_out = rng.randint(2, 3) if nested else 1
        body = [_rand_template(rng, W, k_in, k_out, nested)
                for _ in range(rng.randint(1, 4))]
        interrupt = None
        if rng.random() < 0.4:
            interrupt = (rng.randrange(k_out), rng.randrange(1, k_in), rng.randrange(len(body)))
        for j in range(k_out):
            for i in range(k_in):
                for pos, t in enumerate(body):
                    if interrupt == (j, i, pos):
                        g.random_gate()
                    g.emit(t, i, j, k_in)
                g.flush()
    b = g.b
    results = []
    r = rng.random()
    if r < 0.35 or r >= 0.7:
        kind = rng.choice(["PauliZ", "PauliX", "PauliY", "Hadamard"])
        if W >= 2 and rng.random() < 0.3:
            w1, w2 = rng.sample(range(W), 2)
            o1 = b.namedobs(w1, kind)
            o2 = b.namedobs(w2, "PauliZ")
            obs = b.emit("quantum.tensor", [o1, o2], [rc.OBS]).results[0]
        else:
            obs = b.namedobs(rng.randrange(W), kind)
        results.append(b.scalar_tensor(b.expval(obs)))
    if r >= 0.35:
        k = rng.randint(1, min(4, W))
        results.append(b.probs(sorted(rng.sample(range(W), k))))
    m = b.finish(results)
    return m, g.gates


def w4_args(seed):
    rng = random.Random(seed * 31 + 7)
    return [[rng.uniform(-math.pi, math.pi) for _ in range(W4_PARAM_TABLE)],
            rng.uniform(-math.pi, math.pi)]


# --------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------


def _header(argv_kind, opts):
    return "qshape workload %s: %s" % (argv_kind, " ".join(
        "%s=%s" % (k, v) for k, v in opts))


def _write_module(m, path, generic, linkage):
    if not linkage:
        for f in m.funcs:
            f.attrs = [(k, v) for k, v in f.attrs if k != "llvm.linkage"]
    force = "quantum" if generic else None
    if path == "-":
        rc.print_module(m, sys.stdout, force)
    else:
        with open(path, "w") as fh:
            rc.print_module(m, fh, force)


def _write_args(path, args):
    if path:
        with open(path, "w") as fh:
            json.dump(args, fh)
            fh.write("\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description="Catalyst-shaped MLIR benchmark workloads.")
    sub = ap.add_subparsers(dest="kind", required=True)

    def common(p):
        p.add_argument("-o", "--output", default="-", help="output .mlir (default stdout)")
        p.add_argument("--args-out", default=None, help="write the argument JSON here")
        p.add_argument("--generic", action="store_true",
                       help="print quantum ops in the generic form (upstream mlir-opt "
                            "--allow-unregistered-dialect can parse it)")
        p.add_argument("--no-linkage", action="store_true",
                       help="leave out the llvm.linkage function attribute")
        p.add_argument("--semantics", choices=["value", "qref"], default="value",
                       help="value: the quantum dialect (default); qref: what Catalyst's "
                            "capture frontend emits (qref.alloc, qref.get before each use, "
                            "gates without results, qref.dealloc; not with --generic)")

    p1 = sub.add_parser("w1", help="batch: many small circuits of 4 topologies")
    common(p1)
    p1.add_argument("--wires", type=int, default=10)
    p1.add_argument("--layers", type=int, default=1)
    p1.add_argument("--op", choices=W1_OPS, default="PauliX")
    p1.add_argument("--form", choices=["unrolled", "loop"], default="unrolled")
    p1.add_argument("--outer-loop", choices=["always", "auto", "never"], default="always",
                    help="loop form: scf.for over layers always (autograph), only if L>1, "
                         "or never")
    p1.add_argument("--device-qubits", type=int, default=None, help="default wires+2")
    p1.add_argument("--consts", choices=["hoist", "inline"], default="hoist")
    p1.add_argument("--seed", type=int, default=0, help="seed of the argument values")

    p2 = sub.add_parser("w2", help="qpe-h2: Trotterized QPE of H2")
    common(p2)
    p2.add_argument("--n-trotter", type=int, default=10)
    p2.add_argument("--n-est", type=int, default=4)
    p2.add_argument("--order", type=int, default=2, help="Trotter order: 1 or even")
    p2.add_argument("--variant", choices=["native", "decomposed"], default="native")
    p2.add_argument("--hamiltonian", choices=["h2", "synthetic"], default="h2")
    p2.add_argument("--terms", type=int, default=15, help="synthetic: number of Pauli words")
    p2.add_argument("--qubits", type=int, default=4, help="synthetic: system qubits")
    p2.add_argument("--seed", type=int, default=0, help="synthetic Hamiltonian seed")
    p2.add_argument("--prep", choices=["none", "standard"], default="none",
                    help="none: the users' program; standard: HF state + Hadamards")
    p2.add_argument("--adjoint-style", choices=["negate", "flag"], default="negate")
    p2.add_argument("--consts", choices=["hoist", "inline"], default="hoist")
    p2.add_argument("--coeffs", choices=["runtime", "baked"], default="runtime",
                    help="runtime: a tensor argument (default); baked: the QPE user's H_fixed, "
                         "every angle a constant")
    p2.add_argument("--geometry", type=int, default=0,
                    help="baked: which stand-in geometry's coefficients (0: H2 at 1.3228 bohr)")

    p3 = sub.add_parser("w3", help="scale: 1e4..1e6 gate ops, streamed")
    common(p3)
    p3.add_argument("--ops", type=int, default=10000, help="approximate number of gate ops")
    p3.add_argument("--wires", type=int, default=8)
    p3.add_argument("--angles", choices=["const", "const-repeat", "runtime", "runtime-repeat"],
                    default="const")
    p3.add_argument("--rots", default="RX,RY,RZ", help="rotations per wire per layer")
    p3.add_argument("--noise-layers", type=int, default=0)
    p3.add_argument("--reg-style", choices=["threaded", "per-gate"], default="threaded")
    p3.add_argument("--seed", type=int, default=0)

    p4 = sub.add_parser("w4", help="random-repetitive (loop-rolling correctness)")
    common(p4)
    p4.add_argument("--seed", type=int, default=0)
    p4.add_argument("--wires", type=int, default=None, help="2..10 (default: random 3..8)")
    p4.add_argument("--segments", type=int, default=None)
    p4.add_argument("--reg-style", choices=["threaded", "per-copy"], default="threaded")
    p4.add_argument("--consts", choices=["hoist", "inline"], default="hoist")

    a = ap.parse_args(argv)
    linkage = not a.no_linkage
    if a.semantics == "qref" and a.generic:
        ap.error("--semantics qref is printed in the pretty form only (no --generic)")
    sem = [("semantics", "qref")] if a.semantics == "qref" else []
    if a.kind == "w1":
        m = build_w1(a.wires, a.layers, a.op, a.form, a.outer_loop, a.device_qubits, a.consts,
                     a.semantics)
        m.header.append(_header("w1", [("wires", a.wires), ("layers", a.layers), ("op", a.op),
                                       ("form", a.form), ("outer_loop", a.outer_loop)] + sem))
        _write_module(m, a.output, a.generic, linkage)
        _write_args(a.args_out, w1_args(a.seed))
    elif a.kind == "w2":
        m = build_w2(a.n_trotter, a.n_est, a.order, a.variant, a.hamiltonian, a.terms,
                     a.qubits, a.seed, a.prep, a.adjoint_style, a.consts, a.coeffs, a.geometry,
                     a.semantics)
        m.header.append(_header("w2", [("n_trotter", a.n_trotter), ("n_est", a.n_est),
                                       ("order", a.order), ("variant", a.variant),
                                       ("hamiltonian", a.hamiltonian), ("prep", a.prep),
                                       ("adjoint_style", a.adjoint_style)]
                                + ([("coeffs", "baked"), ("geometry", a.geometry)]
                                   if a.coeffs == "baked" else []) + sem))
        _write_module(m, a.output, a.generic, linkage)
        _write_args(a.args_out, w2_args(a.hamiltonian, a.terms, a.qubits, a.seed, a.coeffs))
    elif a.kind == "w3":
        rots = tuple(x for x in a.rots.split(",") if x)
        for r in rots:
            if r not in ("RX", "RY", "RZ"):
                ap.error("--rots takes RX, RY, RZ")
        kw = dict(ops=a.ops, wires=a.wires, angles=a.angles, rots=rots,
                  noise_layers=a.noise_layers, seed=a.seed, reg_style=a.reg_style,
                  generic=a.generic, linkage=linkage, semantics=a.semantics)
        if a.output == "-":
            args, _ = write_w3(sys.stdout, **kw)
        else:
            with open(a.output, "w", buffering=1 << 20) as fh:
                args, _ = write_w3(fh, **kw)
        _write_args(a.args_out, args)
    elif a.kind == "w4":
        m, ngates = build_w4(a.seed, a.wires, a.segments, a.consts, a.reg_style, a.semantics)
        m.header.append(_header("w4", [("seed", a.seed), ("wires", _nqubits(m)),
                                       ("gates", ngates), ("reg_style", a.reg_style)] + sem))
        _write_module(m, a.output, a.generic, linkage)
        _write_args(a.args_out, w4_args(a.seed))
    return 0


def _nqubits(m):
    for op in rc.func_ops(m.funcs[0]):
        if op.name in ("quantum.alloc", "qref.alloc"):
            return op.props["nqubits_attr"]
    return None


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:          # e.g. piped into head
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
