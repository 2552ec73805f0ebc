#!/usr/bin/env python3
"""Circuit families users write, unrolled, for the roller's differential test
(test/Transforms/roll-loops-families.py) and `make fuzz`'s longer run.

    python3 utils/gen/families.py FAMILY [options] -o out.mlir --args-out args.json

Families (each as a Python loop traced without autograph would emit it):
  hea       StronglyEntanglingLayers: per layer Rot(w[l,i,0..2]) on every wire,
            then CNOT(i, (i+r) mod n) with a range r = l mod (n-1) + 1
  qaoa      per layer IsingZZ(2*gamma[l]) on each ring edge, RX(2*beta[l]) on
            each wire; gamma and beta are runtime tensor<pxf64>
  feedback  rounds of H, CNOT, a mid-circuit measurement and an scf.if
            correction steered by it
  grover    H on every wire, then per iteration a multi-controlled-Z oracle
            and the diffusion operator
  random    a random repeated body aimed at the roller's weak points: one value
            in several slots, wires affine or modular in the iteration
            ((i+r) mod n, n-1-i), slots that vary in only some iterations,
            measurements that steer later gates, quantum.adjoint regions

Every family takes --form first (extract every wire from the first register,
insert at the end, as W1's generator does), chained (each gate extracts its
wires from the register the previous insert made and inserts them back) or
qref (Catalyst's capture frontend: qref.alloc, a qref.get before each use,
gates without results, qref.adjoint regions without terminators), and
--angles runtime (tensor.extract of an argument) or static (constants).
--form loop writes the same program as the loops a user writes, traced with
autograph (utils/gen/loopform.py): the yardstick of the roller's size target.
Output is deterministic: same options, same bytes. Python 3.11 stdlib only.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import struct
import sys

try:  # as the package utils/gen, or run as a script from its folder
    from . import loopform
except ImportError:
    import loopform


def fmt_f64(v: float) -> str:
    """An f64 literal MLIR reads back to the same bits."""
    if v == 0.0 and math.copysign(1.0, v) < 0:
        return "-0.000000e+00"
    r = repr(float(v))
    return r if ("e" in r or "." in r) else r + ".0"


class Circuit:
    """Text emitter of one QNode in Catalyst's value-semantics form."""

    def __init__(self, wires: int, form: str, args: list[tuple[str, str]]):
        assert form in ("first", "chained", "qref")
        self.wires, self.form, self.args = wires, form, args
        self.qref = form == "qref"
        self.body: list[str] = []
        self.consts: dict[tuple[str, str], str] = {}
        self.n = 0
        self.live: dict[int, str] = {}  # wire -> qubit value not yet inserted
        self.emit('%shots = arith.constant 0 : i64')
        self.emit('quantum.device shots(%shots) ["liblightning_qubit_catalyst.so", '
                  '"LightningSimulator", "{}"]')
        self.reg = self.fresh("r")
        if self.qref:
            self.emit(f"{self.reg} = qref.alloc({wires:3d}) : !qref.reg<{wires}>")
        else:
            self.emit(f"{self.reg} = quantum.alloc({wires:3d}) : !quantum.reg")

    def fresh(self, stem="v") -> str:
        self.n += 1
        return f"%{stem}{self.n}"

    def emit(self, line: str, indent: int = 2):
        self.body.append(" " * indent + line)

    def const(self, value, type_: str) -> str:
        text = fmt_f64(value) if type_ == "f64" else str(int(value))
        key = (text, type_)
        if key not in self.consts:
            self.consts[key] = f"%k{len(self.consts)}"
        return self.consts[key]

    def extract(self, tensor: str, shape: str, idx: list[int]) -> str:
        v = self.fresh("x")
        ids = ", ".join(self.const(i, "index") for i in idx)
        self.emit(f"{v} = tensor.extract {tensor}[{ids}] : {shape}")
        return v

    def mulf(self, a: str, b: str) -> str:
        v = self.fresh("m")
        self.emit(f"{v} = arith.mulf {a}, {b} : f64")
        return v

    # qubits ------------------------------------------------------------------
    def qubit(self, w: int) -> str:
        if self.qref:  # a qref.get before each use, as the capture frontend emits
            q = self.fresh("q")
            self.emit(f"{q} = qref.get {self.reg}[{w}] : !qref.reg<{self.wires}> -> !qref.bit")
            return q
        if w not in self.live:
            q = self.fresh("q")
            self.emit(f"{q} = quantum.extract {self.reg}[{w:3d}] : !quantum.reg -> !quantum.bit")
            self.live[w] = q
        return self.live[w]

    def insert(self, w: int):
        q = self.live.pop(w)
        r = self.fresh("r")
        self.emit(f"{r} = quantum.insert {self.reg}[{w:3d}], {q} : !quantum.reg, !quantum.bit")
        self.reg = r

    def settle(self, wires):
        """In the chained form every gate puts its wires back at once."""
        if self.qref:
            for w in wires:
                self.live.pop(w, None)
        elif self.form == "chained":
            for w in wires:
                self.insert(w)

    def gate(self, name: str, params: list[str], wires: list[int], ctrls=(), adjoint=False):
        qs = [self.qubit(w) for w in wires]
        cs = [self.qubit(w) for w in ctrls]
        res = self.fresh("o")
        n = len(qs) + len(cs)
        lhs = f"{res}:{n}" if n > 1 else res
        p = f"({', '.join(params)})"
        d = "qref" if self.qref else "quantum"
        text = f'{d}.custom "{name}"{p} {", ".join(qs)}'
        if not self.qref:
            text = f"{lhs} = {text}"
        if adjoint:
            text += " adj"
        types = ", ".join([f"!{d}.bit"] * len(qs))
        if cs:
            true = self.const(1, "i1")
            text += f" ctrls({', '.join(cs)}) ctrlvals({', '.join([true] * len(cs))})"
            types += " ctrls " + ", ".join([f"!{d}.bit"] * len(cs))
        self.emit(f"{text} : {types}")
        for i, w in enumerate(list(wires) + list(ctrls)):
            self.live[w] = f"{res}#{i}" if n > 1 else res
        self.settle(list(wires) + list(ctrls))

    def measure(self, w: int) -> str:
        q = self.qubit(w)
        if self.qref:
            m = self.fresh("b")
            self.emit(f"{m} = qref.measure {q} : i1")
            return m
        m, out = self.fresh("b"), self.fresh("q")
        self.emit(f"{m}, {out} = quantum.measure {q} : i1, !quantum.bit")
        self.live[w] = out
        self.settle([w])
        return m

    def if_gate(self, cond: str, name: str, w: int):
        """scf.if cond { name on w } on the qubit of wire w."""
        if self.qref:
            self.emit(f"scf.if {cond} {{")
            q = self.qubit(w)
            self.body[-1] = "  " + self.body[-1]
            self.emit(f'qref.custom "{name}"() {q} : !qref.bit', 4)
            self.emit("}")
            return
        q = self.qubit(w)
        out, g = self.fresh("q"), self.fresh("g")
        self.emit(f"{out} = scf.if {cond} -> (!quantum.bit) {{")
        self.emit(f'{g} = quantum.custom "{name}"() {q} : !quantum.bit', 4)
        self.emit(f"scf.yield {g} : !quantum.bit", 4)
        self.emit("} else {")
        self.emit(f"scf.yield {q} : !quantum.bit", 4)
        self.emit("}")
        self.live[w] = out
        self.settle([w])

    def adjoint_block(self, emit_body):
        """quantum.adjoint over the register: emit_body(c) emits gates on c,
        a Circuit view whose register is the region's argument."""
        if self.qref:
            self.emit("qref.adjoint {")
            outer_body = self.body
            self.body = []
            emit_body(self)
            inner = self.body
            self.body = outer_body
            self.body.extend("  " + line for line in inner)
            self.emit("}")
            return
        for w in sorted(self.live):
            self.insert(w)
        arg, res = self.fresh("a"), self.fresh("r")
        self.emit(f"{res} = quantum.adjoint({self.reg}) : !quantum.reg {{")
        self.emit(f"^bb0({arg}: !quantum.reg):")
        outer_body, outer_reg = self.body, self.reg
        self.body, self.reg = [], arg
        emit_body(self)
        for w in sorted(self.live):
            self.insert(w)
        inner = self.body
        self.emit(f"quantum.yield {self.reg} : !quantum.reg")
        inner = self.body
        self.body, self.reg = outer_body, res
        self.body.extend("  " + line for line in inner)
        self.emit("}")

    def finish(self, observe: list[int], name="circuit", kind="PauliZ") -> str:
        results = []
        for w in observe:
            o, e = self.fresh("obs"), self.fresh("e")
            d = "qref" if self.qref else "quantum"
            self.emit(f"{o} = {d}.namedobs {self.qubit(w)}[ {kind}] : !quantum.obs")
            self.emit(f"{e} = quantum.expval {o} : f64")
            results.append(e)
        if self.qref:
            self.emit(f"qref.dealloc {self.reg} : !qref.reg<{self.wires}>")
        for w in sorted(self.live):
            self.insert(w)
        if not self.qref:
            self.emit(f"quantum.dealloc {self.reg} : !quantum.reg")
        self.emit("quantum.device_release")
        self.emit(f"return {', '.join(results)} : {', '.join(['f64'] * len(results))}")
        consts = [f"  {v} = arith.constant true" if t == "i1" else f"  {v} = arith.constant {k} : {t}"
                  for (k, t), v in self.consts.items()]
        sig = ", ".join(f"%{n}: {t}" for n, t in self.args)
        rtypes = ", ".join(["f64"] * len(results))
        return "\n".join([
            "module @module_circuit {",
            f"  func.func public @{name}({sig}) -> ({rtypes}) attributes {{qnode}} {{",
            *("  " + c for c in consts),
            *("  " + line for line in self.body),
            "  }",
            "}",
            "",
        ])


class Angles:
    """Angle w[idx] of an argument tensor, or a constant (--angles static)."""

    def __init__(self, c: Circuit, mode: str, name: str, shape: list[int], rng: random.Random):
        self.c, self.mode, self.name, self.shape = c, mode, name, shape
        size = math.prod(shape)
        self.values = [round(rng.uniform(-math.pi, math.pi), 6) for _ in range(size)]
        self.type = "tensor<" + "x".join(map(str, shape)) + "xf64>"

    def at(self, *idx: int) -> str:
        flat = 0
        for i, n in zip(idx, self.shape):
            flat = flat * n + i
        if self.mode == "static":
            return self.c.const(self.values[flat], "f64")
        return self.c.extract("%" + self.name, self.type, list(idx))


def hea(c: Circuit, a: dict, n: int, layers: int, **_):
    w = a["weights"]
    for l in range(layers):
        for i in range(n):
            c.gate("Rot", [w.at(l, i, 0), w.at(l, i, 1), w.at(l, i, 2)], [i])
        r = l % (n - 1) + 1 if n > 1 else 0
        if n > 1:
            for i in range(n):
                c.gate("CNOT", [], [i, (i + r) % n])
    return list(range(n))


def qaoa(c: Circuit, a: dict, n: int, layers: int, **_):
    two = c.const(2.0, "f64")
    for i in range(n):
        c.gate("Hadamard", [], [i])
    for l in range(layers):
        g = c.mulf(two, a["gamma"].at(l))
        for i in range(n):
            c.gate("IsingZZ", [g], [i, (i + 1) % n])
        b = c.mulf(two, a["beta"].at(l))
        for i in range(n):
            c.gate("RX", [b], [i])
    return list(range(n))


def feedback(c: Circuit, a: dict, n: int, layers: int, **_):
    for l in range(layers):
        c.gate("RY", [a["theta"].at(l)], [0])
        c.gate("CNOT", [], [0, 1])
        m = c.measure(1)
        c.if_gate(m, "PauliX", 1)
        c.if_gate(m, "PauliZ", 0)
    return [0]


def grover(c: Circuit, a: dict, n: int, layers: int, **_):
    for i in range(n):
        c.gate("Hadamard", [], [i])
    for _ in range(layers):
        c.gate("PauliZ", [], [n - 1], ctrls=list(range(n - 1)))
        for i in range(n):
            c.gate("Hadamard", [], [i])
        for i in range(n):
            c.gate("PauliX", [], [i])
        c.gate("PauliZ", [], [n - 1], ctrls=list(range(n - 1)))
        for i in range(n):
            c.gate("PauliX", [], [i])
        for i in range(n):
            c.gate("Hadamard", [], [i])
    return list(range(n))


def random_body(c: Circuit, a: dict, n: int, layers: int, rng: random.Random, **_):
    """One random template, repeated `layers` times, with per-iteration
    variation the roller must get right or leave alone."""
    w = a["weights"]
    shift = rng.randrange(1, n) if n > 1 else 0
    steps = []
    for s in range(rng.randint(2, 5)):
        kind = rng.choice(["rot-alias", "cnot-mod", "rev", "partial", "measure", "adjoint"])
        steps.append((kind, s, rng.randrange(n), rng.random() < 0.5))
    for l in range(layers):
        for kind, s, w0, flag in steps:
            if kind == "rot-alias":
                # one value in every slot, one slot varying
                t = w.at(0, s % n, 0)
                first = w.at(l, s % n, 1) if flag else t
                c.gate("Rot", [first, t, t], [(w0 + l) % n])
            elif kind == "cnot-mod" and n > 1:
                i = (w0 + l) % n
                c.gate("CNOT", [], [i, (i + shift) % n])
            elif kind == "rev":
                c.gate("RZ", [w.at(l, s % n, 2)], [n - 1 - (l % n)])
            elif kind == "partial":
                # varies in only some iterations
                x = w.at(l, 0, 0) if l % 3 == 0 else w.at(0, 0, 0)
                c.gate("RX", [x], [w0])
            elif kind == "measure" and n > 1:
                m = c.measure(w0)
                c.if_gate(m, "PauliX", (w0 + 1 + l % (n - 1)) % n)
            elif kind == "adjoint":
                ang = w.at(l, s % n, 1)

                def body(cc, ang=ang, w0=w0, l=l):
                    cc.gate("RY", [ang], [w0])
                    if n > 1:
                        cc.gate("CNOT", [], [w0, (w0 + 1 + l % (n - 1)) % n])

                c.adjoint_block(body)
    return list(range(n))


FAMILIES = {
    "hea": (hea, lambda n, L: {"weights": [L, n, 3]}),
    "qaoa": (qaoa, lambda n, L: {"gamma": [L], "beta": [L]}),
    "feedback": (feedback, lambda n, L: {"theta": [L]}),
    "grover": (grover, lambda n, L: {}),
    "random": (random_body, lambda n, L: {"weights": [L, n, 3]}),
}


def nested(depth: int) -> str:
    """Six RX gates inside `depth` regions, alternately scf.for (one
    iteration) and scf.if, threading one qubit: the nesting stress of the
    roller issue (every pass must grow linearly with the depth)."""
    c = Circuit(1, "first", [("x", "f64"), ("b", "i1")])
    lb, ub = c.const(0, "index"), c.const(1, "index")
    q = c.qubit(0)
    outer = []
    for d in range(depth):
        if d % 2 == 0:
            res, iv, arg = c.fresh("l"), c.fresh("i"), c.fresh("a")
            c.emit(f"{res} = scf.for {iv} = {lb} to {ub} step {ub} iter_args({arg} = {q})"
                   " -> (!quantum.bit) {", 2 + 2 * d)
            outer.append(("for", res, q))
            q = arg
        else:
            res = c.fresh("l")
            c.emit(f"{res} = scf.if %b -> (!quantum.bit) {{", 2 + 2 * d)
            outer.append(("if", res, q))
    for _ in range(6):
        g = c.fresh("g")
        c.emit(f'{g} = quantum.custom "RX"(%x) {q} : !quantum.bit', 2 + 2 * depth)
        q = g
    for d in reversed(range(depth)):
        kind, res, before = outer[d]
        pad = 2 + 2 * d
        c.emit(f"  scf.yield {q} : !quantum.bit", pad)
        if kind == "if":
            c.emit("} else {", pad)
            c.emit(f"  scf.yield {before} : !quantum.bit", pad)
        c.emit("}", pad)
        q = res
    c.live[0] = q
    return c.finish([0])


def build(family: str, wires: int, layers: int, form="first", angles="runtime", seed=0):
    """(module text, argument JSON list) of one program."""
    rng = random.Random(seed)
    fn, shapes = FAMILIES[family]
    shapes = shapes(wires, layers)
    args = []
    if angles == "runtime":
        args = [(name, "tensor<" + "x".join(map(str, s)) + "xf64>") for name, s in shapes.items()]
    c = Circuit(wires, "first" if form == "loop" else form, args)
    a = {name: Angles(c, angles, name, s, rng) for name, s in shapes.items()}
    observe = fn(c, a, n=wires, layers=layers, rng=rng)
    values = [a[name].values for name, _ in args]
    # <Z> of a QAOA state from |+...+> is 0 by symmetry: it would compare nothing.
    kind = "PauliX" if family == "qaoa" else "PauliZ"
    if form == "loop":
        if angles != "runtime" or family not in loopform.FAMILIES:
            raise ValueError(f"--form loop exists for {', '.join(sorted(loopform.FAMILIES))}, "
                             "with runtime angles")
        return loopform.build(family, wires, layers, args, observe, kind), values
    return c.finish(observe, kind=kind), values


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("family", choices=sorted(FAMILIES))
    ap.add_argument("--wires", type=int, default=4)
    ap.add_argument("--layers", type=int, default=6)
    ap.add_argument("--form", choices=("first", "chained", "qref", "loop"), default="first")
    ap.add_argument("--angles", choices=("runtime", "static"), default="runtime")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--args-out")
    o = ap.parse_args(argv)
    if o.wires < 2:
        ap.error("--wires must be at least 2")
    try:
        text, values = build(o.family, o.wires, o.layers, o.form, o.angles, o.seed)
    except ValueError as e:
        ap.error(str(e))
    (sys.stdout if o.output == "-" else open(o.output, "w")).write(text)
    if o.args_out:
        with open(o.args_out, "w") as f:
            json.dump(values, f)


if __name__ == "__main__":
    main()
