"""The loop form of each family in utils/gen/families.py: the program a user
writes as Python loops, as Catalyst's autograph traces it (scf.for over the
layers and the wires, the register carried, each wire extracted at an index
computed from the induction variables). It is the yardstick of the roller's
size target: a rolled program should be at most 1.5x its ops. Runtime angles
only; the arguments and observables are those of families.build().
"""

from __future__ import annotations


class LoopWriter:
    """Text emitter of one QNode with loops, in value semantics."""

    def __init__(self, wires: int, args: list[tuple[str, str]]):
        self.wires, self.args = wires, args
        self.lines: list[str] = []
        self.consts: dict[tuple[int, str], str] = {}
        self.n = 0
        self.depth = 2
        self.emit("%shots = arith.constant 0 : i64")
        self.emit('quantum.device shots(%shots) ["liblightning_qubit_catalyst.so", '
                  '"LightningSimulator", "{}"]')
        self.reg = self.fresh("r")
        self.emit(f"{self.reg} = quantum.alloc({wires:3d}) : !quantum.reg")

    def fresh(self, stem="v") -> str:
        self.n += 1
        return f"%{stem}{self.n}"

    def emit(self, line: str):
        self.lines.append(" " * self.depth + line)

    def const(self, value, type_="index") -> str:
        key = (value, type_)
        if key not in self.consts:
            self.consts[key] = f"%k{len(self.consts)}"
        return self.consts[key]

    def op(self, text: str, type_="index", stem="i") -> str:
        v = self.fresh(stem)
        self.emit(f"{v} = {text} : {type_}")
        return v

    def wire(self, i: str) -> str:
        """The i64 wire index of an index value."""
        w = self.fresh("w")
        self.emit(f"{w} = arith.index_cast {i} : index to i64")
        return w

    def loop(self, count: int, body):
        """scf.for %i in [0, count) carrying the register; body(i) emits."""
        i, r = self.fresh("i"), self.fresh("r")
        res = self.fresh("r")
        self.emit(f"{res} = scf.for {i} = {self.const(0)} to {self.const(count)} step "
                  f"{self.const(1)} iter_args({r} = {self.reg}) -> (!quantum.reg) {{")
        self.depth += 2
        self.reg = r
        body(i)
        self.emit(f"scf.yield {self.reg} : !quantum.reg")
        self.depth -= 2
        self.emit("}")
        self.reg = res

    def gate(self, name: str, params: list[str], wires: list[str], ctrls=()):
        """A gate on wires given as index values: extracted, applied, put back."""
        idx = [self.wire(w) for w in list(wires) + list(ctrls)]
        qs = []
        for w in idx:
            q = self.fresh("q")
            self.emit(f"{q} = quantum.extract {self.reg}[{w}] : !quantum.reg -> !quantum.bit")
            qs.append(q)
        res = self.fresh("o")
        n = len(qs)
        t, c = qs[:len(wires)], qs[len(wires):]
        text = f'{res}:{n}' if n > 1 else res
        text += f' = quantum.custom "{name}"({", ".join(params)}) {", ".join(t)}'
        types = ", ".join(["!quantum.bit"] * len(t))
        if c:
            true = self.const(1, "i1")
            text += f" ctrls({', '.join(c)}) ctrlvals({', '.join([true] * len(c))})"
            types += " ctrls " + ", ".join(["!quantum.bit"] * len(c))
        self.emit(f"{text} : {types}")
        for k, w in enumerate(idx):
            r = self.fresh("r")
            out = f"{res}#{k}" if n > 1 else res
            self.emit(f"{r} = quantum.insert {self.reg}[{w}], {out} : !quantum.reg, !quantum.bit")
            self.reg = r

    def each_wire(self, name: str, params=()):
        self.loop(self.wires, lambda i: self.gate(name, list(params), [i]))

    def finish(self, observe: list[int], kind: str) -> str:
        results = []
        for w in observe:
            q, o, e = self.fresh("q"), self.fresh("obs"), self.fresh("e")
            self.emit(f"{q} = quantum.extract {self.reg}[{w:3d}] : !quantum.reg -> !quantum.bit")
            self.emit(f"{o} = quantum.namedobs {q}[ {kind}] : !quantum.obs")
            self.emit(f"{e} = quantum.expval {o} : f64")
            results.append(e)
        self.emit(f"quantum.dealloc {self.reg} : !quantum.reg")
        self.emit("quantum.device_release")
        self.emit(f"return {', '.join(results)} : {', '.join(['f64'] * len(results))}")
        consts = [f"    {v} = arith.constant true" if t == "i1" else
                  f"    {v} = arith.constant {k} : {t}" for (k, t), v in self.consts.items()]
        sig = ", ".join(f"%{n}: {t}" for n, t in self.args)
        rtypes = ", ".join(["f64"] * len(results))
        return "\n".join([
            "module @module_circuit {",
            f"  func.func public @circuit({sig}) -> ({rtypes}) attributes {{qnode}} {{",
            *consts, *("  " + line for line in self.lines), "  }", "}", "",
        ])


def _extract(c: LoopWriter, arg: str, type_: str, idx: list[str]) -> str:
    v = c.fresh("x")
    c.emit(f"{v} = tensor.extract %{arg}[{', '.join(idx)}] : {type_}")
    return v


def hea(c: LoopWriter, types: dict, n: int, layers: int):
    def layer(l):
        c.loop(n, lambda i: c.gate(
            "Rot", [_extract(c, "weights", types["weights"], [l, i, c.const(k)]) for k in range(3)],
            [i]))
        # r = l mod (n - 1) + 1; CNOT(i, (i + r) mod n)
        r = c.op(f"arith.addi {c.op(f'arith.remsi {l}, {c.const(n - 1)}')}, {c.const(1)}")
        c.loop(n, lambda i: c.gate(
            "CNOT", [], [i, c.op(f"arith.remsi {c.op(f'arith.addi {i}, {r}')}, {c.const(n)}")]))
    c.loop(layers, layer)


def qaoa(c: LoopWriter, types: dict, n: int, layers: int):
    two = c.const(2.0, "f64")
    c.each_wire("Hadamard")

    def layer(l):
        g = c.op(f"arith.mulf {two}, {_extract(c, 'gamma', types['gamma'], [l])}", "f64", "m")
        c.loop(n, lambda i: c.gate(
            "IsingZZ", [g], [i, c.op(f"arith.remsi {c.op(f'arith.addi {i}, {c.const(1)}')}, "
                                     f"{c.const(n)}")]))
        b = c.op(f"arith.mulf {two}, {_extract(c, 'beta', types['beta'], [l])}", "f64", "m")
        c.each_wire("RX", [b])
    c.loop(layers, layer)


def feedback(c: LoopWriter, types: dict, n: int, layers: int):
    def round_(l):
        zero, one = c.const(0), c.const(1)
        c.gate("RY", [_extract(c, "theta", types["theta"], [l])], [zero])
        c.gate("CNOT", [], [zero, one])
        w1 = c.wire(one)
        q = c.fresh("q")
        c.emit(f"{q} = quantum.extract {c.reg}[{w1}] : !quantum.reg -> !quantum.bit")
        m, out = c.fresh("b"), c.fresh("q")
        c.emit(f"{m}, {out} = quantum.measure {q} : i1, !quantum.bit")
        r = c.fresh("r")
        c.emit(f"{r} = quantum.insert {c.reg}[{w1}], {out} : !quantum.reg, !quantum.bit")
        c.reg = r
        for name, w in (("PauliX", one), ("PauliZ", zero)):
            res = c.fresh("r")
            c.emit(f"{res} = scf.if {m} -> (!quantum.reg) {{")
            c.depth += 2
            before = c.reg
            c.gate(name, [], [w])
            c.emit(f"scf.yield {c.reg} : !quantum.reg")
            c.depth -= 2
            c.emit("} else {")
            c.emit(f"  scf.yield {before} : !quantum.reg")
            c.emit("}")
            c.reg = res
    c.loop(layers, round_)


def grover(c: LoopWriter, types: dict, n: int, layers: int):
    c.each_wire("Hadamard")
    last, ctrls = c.const(n - 1), [c.const(w) for w in range(n - 1)]

    def iteration(_):
        c.gate("PauliZ", [], [last], ctrls)
        c.each_wire("Hadamard")
        c.each_wire("PauliX")
        c.gate("PauliZ", [], [last], ctrls)
        c.each_wire("PauliX")
        c.each_wire("Hadamard")
    c.loop(layers, iteration)


FAMILIES = {"hea": hea, "qaoa": qaoa, "feedback": feedback, "grover": grover}


def build(family: str, wires: int, layers: int, args: list[tuple[str, str]], observe: list[int],
          kind: str) -> str:
    """The loop form of `family`, with families.build()'s arguments."""
    c = LoopWriter(wires, args)
    FAMILIES[family](c, dict(args), wires, layers)
    return c.finish(observe, kind)
