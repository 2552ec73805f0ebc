#!/usr/bin/env python3
"""Random Catalyst-shaped circuits, metamorphic rewrites and mutations.

This is both a library (imported by ``utils/gen/workloads.py`` and by the tests)
and a command-line tool.  Everything is deterministic: the same seed and the
same options give byte-identical text.  Python 3.11 standard library only.

Contents
--------
* A small in-memory IR (``Value``, ``Op``, ``Block``, ``Func``, ``Module``) that
  prints the textual MLIR the Catalyst frontend emits (Catalyst's ``quantum``
  dialect, docs/catalyst.md), in the pretty form or, op
  by op, in the generic form.
* ``QNodeBuilder``: a wire-level builder (device, alloc, extract/gates/insert,
  measurements, dealloc, device_release, return) shared with workloads.py.
* ``generate(seed, ...)``: a random circuit.
* Rewrites that must NOT change the meaning (``REWRITES``) and mutations that
  MUST change it (``MUTATIONS``).
* ``simulate_text(text, args)``: a reference state-vector interpreter for the
  subset of MLIR these generators emit (pretty and generic forms, ``loc(...)``,
  ``scf.for``).  Used by the tests to check that rewrites keep the meaning,
  that W1's unrolled and loop forms agree and that W2's native and decomposed
  variants agree.

CLI
---
    python3 utils/gen/randcircuit.py --seed S [--rewrite NAME]... [--mutate NAME]
                                 [--wires W] [--gates N] -o out.mlir
    python3 utils/gen/randcircuit.py --list
    python3 utils/gen/randcircuit.py --simulate FILE [--args ARGS.json]

Locations: ``--rewrite locs`` attaches ``loc(...)`` to ops.  MLIR parses them
but prints them back only with ``-mlir-print-debuginfo``.
"""

from __future__ import annotations

import argparse
import cmath
import copy
import json
import math
import os
import random
import re
import struct
import sys

# --------------------------------------------------------------------------
# Constants of the format
# --------------------------------------------------------------------------

LIB_PATH = "/path/liblightning_qubit_catalyst.so"
DEVICE_NAME = "LightningSimulator"
DEVICE_KWARGS = "{'mcmc': False}"

QUBIT = "!quantum.bit"
QREG = "!quantum.reg"
OBS = "!quantum.obs"
QREF_BIT = "!qref.bit"        # the qref dialect (Catalyst's capture frontend)


def qref_reg(n):
    return "!qref.reg<%d>" % n

# name -> (number of f64 params, number of wires)
GATES = {
    "Identity": (0, 1), "PauliX": (0, 1), "PauliY": (0, 1), "PauliZ": (0, 1),
    "Hadamard": (0, 1), "S": (0, 1), "T": (0, 1), "SX": (0, 1),
    "RX": (1, 1), "RY": (1, 1), "RZ": (1, 1), "Rot": (3, 1), "PhaseShift": (1, 1),
    "CNOT": (0, 2), "CY": (0, 2), "CZ": (0, 2), "SWAP": (0, 2), "ISWAP": (0, 2),
    "CRX": (1, 2), "CRY": (1, 2), "CRZ": (1, 2), "CRot": (3, 2),
    "ControlledPhaseShift": (1, 2), "IsingXX": (1, 2), "IsingYY": (1, 2),
    "IsingZZ": (1, 2), "IsingXY": (1, 2), "SingleExcitation": (1, 2),
    "Toffoli": (0, 3), "CSWAP": (0, 3),
}
GATE_NAMES = list(GATES)  # fixed order (dict insertion order)
SELF_INVERSE = {"Identity", "PauliX", "PauliY", "PauliZ", "Hadamard", "CNOT", "CY",
                "CZ", "SWAP", "Toffoli", "CSWAP"}
# Gates whose unitary is unchanged when their wires are permuted.
WIRE_SYMMETRIC = {"CZ", "SWAP", "ISWAP", "ControlledPhaseShift", "IsingXX", "IsingYY",
                  "IsingZZ", "IsingXY"}
# Gates diagonal in the computational basis (commute with a Z measurement).
DIAGONAL = {"Identity", "PauliZ", "S", "T", "RZ", "PhaseShift", "CZ", "CRZ",
            "ControlledPhaseShift", "IsingZZ"}

# Ops that are ordered (side effects); everything else is ordered by dataflow only.
SIDE_EFFECTING = {
    "quantum.device", "quantum.device_release", "quantum.alloc", "quantum.dealloc",
    "quantum.alloc_qb", "quantum.dealloc_qb", "quantum.measure", "quantum.expval",
    "quantum.var", "quantum.probs", "quantum.state", "quantum.sample", "quantum.counts",
    "quantum.gphase", "quantum.init", "quantum.finalize", "quantum.set_state",
    "quantum.set_basis_state",
}
TERMINATORS = {"func.return", "scf.yield", "quantum.yield"}

# --------------------------------------------------------------------------
# Float formatting
# --------------------------------------------------------------------------


def f64_bits(v: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", v))[0]


def bits_f64(b: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def fmt_f64(v: float, form: str | None = None) -> str:
    """An MLIR f64 literal that parses back to exactly ``v``.

    form None: shortest round-trip decimal (Python repr, always with a '.');
    "17g": 17 significant digits; "hex": MLIR's ``0x...`` bit pattern form.
    Non-finite values always use the hex form.
    """
    v = float(v)
    if form is None:
        r = repr(v)
        if "e" not in r and "n" not in r:   # plain finite decimal: has a '.'
            return r
    if form == "hex" or v != v or v in (math.inf, -math.inf):
        return "0x%016X" % f64_bits(v)
    r = repr(v) if form is None else "%.17g" % v
    if "e" in r:
        mant, exp = r.split("e")
        if "." not in mant:
            mant += ".0"
        return mant + "e" + exp
    if "." not in r:
        r += ".0"
    return r


def next_ulp(v: float) -> float:
    """``v`` changed by one unit in the last place (bit pattern + 1 in magnitude)."""
    b = f64_bits(v)
    if b & 0x7FFFFFFFFFFFFFFF == 0x7FF0000000000000:   # +-inf: step toward zero
        return bits_f64(b - 1)
    return bits_f64(b + 1)   # 0.0 -> smallest subnormal with the same sign


# --------------------------------------------------------------------------
# In-memory IR
# --------------------------------------------------------------------------


class Value:
    """An SSA value.  ``name`` is None until a rewrite names it explicitly;
    otherwise the printer assigns ``%0, %1, ...`` or a hint-based name."""

    __slots__ = ("type", "name", "hint")

    def __init__(self, type_: str, hint: str | None = None):
        self.type = type_
        self.name = None
        self.hint = hint


class Block:
    def __init__(self, args=None, ops=None):
        self.args = list(args or [])
        self.ops = list(ops or [])


class Op:
    """One operation.  ``props`` holds inherent attributes by their ODS names
    (``gate_name``, ``adjoint``, ``idx_attr``, ...).  ``seg``/``rseg`` are the
    operand/result segment sizes for ops that have them."""

    __slots__ = ("name", "operands", "results", "props", "seg", "rseg", "regions",
                 "loc", "generic", "group", "prop_order", "fmt")

    def __init__(self, name, operands=(), result_types=(), props=None, seg=None,
                 rseg=None, regions=None, hints=None):
        self.name = name
        self.operands = list(operands)
        hints = hints or [None] * len(result_types)
        self.results = [Value(t, h) for t, h in zip(result_types, hints)]
        self.props = dict(props or {})
        self.seg = list(seg) if seg is not None else None
        self.rseg = list(rseg) if rseg is not None else None
        self.regions = list(regions or [])
        self.loc = None          # text inside loc(...) or an alias like "#loc3"
        self.generic = False     # print in generic form
        self.group = None        # explicit result group name (multi-result ops)
        self.prop_order = None   # permutation of generic property keys
        self.fmt = None          # float literal form for arith.constant

    # segment helpers -------------------------------------------------------
    def operand_segment(self, i):
        start = sum(self.seg[:i])
        return self.operands[start:start + self.seg[i]]

    def result_segment(self, i):
        start = sum(self.rseg[:i])
        return self.results[start:start + self.rseg[i]]


class Func:
    def __init__(self, name, arg_types, result_types, attrs=None, visibility="public"):
        self.name = name
        self.args = [Value(t, "arg%d" % i) for i, t in enumerate(arg_types)]
        self.result_types = list(result_types)
        # list of (key, value-text or None for a unit attribute), printed in order
        self.attrs = list(attrs if attrs is not None else QNODE_ATTRS)
        self.visibility = visibility
        self.body = Block()


QNODE_ATTRS = [("diff_method", '"adjoint"'), ("llvm.linkage", "#llvm.linkage<internal>"),
               ("qnode", None)]


class Module:
    def __init__(self, sym_name="module_circuit"):
        self.sym_name = sym_name
        self.funcs = []
        self.loc_aliases = []   # list of (alias name without '#', loc text)
        self.header = []        # comment lines printed before the module

    def clone(self):
        return copy.deepcopy(self)


def walk_blocks(block):
    yield block
    for op in block.ops:
        for r in op.regions:
            yield from walk_blocks(r)


def walk_ops(block):
    for op in block.ops:
        yield op
        for r in op.regions:
            yield from walk_ops(r)


def func_ops(func):
    return walk_ops(func.body)


# --------------------------------------------------------------------------
# Printer
# --------------------------------------------------------------------------

_IDENT_OK = re.compile(r"^[A-Za-z_][A-Za-z0-9_$.]*$|^[0-9]+$")


class Printer:
    """Prints a Module.  Names are assigned in print order for values that
    have no explicit name (MLIR style: ``%0``, ``%c3``, ``%cst_0``, ...)."""

    def __init__(self, indent="  ", force_generic=None):
        # force_generic: None (per-op ``Op.generic``), "quantum" (every
        # quantum.* op generic: the text then parses with upstream mlir-opt
        # --allow-unregistered-dialect), or "all" (every op but func.func).
        self.indent = indent
        self.force_generic = force_generic

    def _is_generic(self, op):
        if op.generic or self.force_generic == "all":
            return True
        return self.force_generic == "quantum" and op.name.startswith("quantum.")

    # names -------------------------------------------------------------------
    def _assign_names(self, func):
        names = {}
        used = set()
        counter = [0]

        next_suffix = {}

        def uniq(base):
            if base not in used:
                used.add(base)
                return base
            k = next_suffix.get(base, 0)
            while "%s_%d" % (base, k) in used:
                k += 1
            next_suffix[base] = k + 1
            n = "%s_%d" % (base, k)
            used.add(n)
            return n

        # explicit names first so generated ones never collide with them
        def reserve(v):
            if v.name is not None:
                used.add(v.name.split("#")[0])

        for v in func.args:
            reserve(v)
        for op in func_ops(func):
            if op.group:
                used.add(op.group)
            for v in op.results:
                reserve(v)
            for r in op.regions:
                for v in r.args:
                    reserve(v)

        def name_value(v):
            if v.name is not None:
                names[id(v)] = "%" + v.name
            elif v.hint:
                names[id(v)] = "%" + uniq(v.hint)
            else:
                while str(counter[0]) in used:
                    counter[0] += 1
                n = str(counter[0])
                used.add(n)
                counter[0] += 1
                names[id(v)] = "%" + n

        for v in func.args:
            name_value(v)

        def visit(block):
            for op in block.ops:
                if len(op.results) > 1 and (op.group or all(
                        v.name is None and not v.hint for v in op.results)):
                    base = op.group
                    if base is None:
                        while str(counter[0]) in used:
                            counter[0] += 1
                        base = str(counter[0])
                        used.add(base)
                        counter[0] += 1
                    for i, v in enumerate(op.results):
                        names[id(v)] = "%%%s#%d" % (base, i)
                    names[("group", id(op))] = base
                else:
                    for v in op.results:
                        name_value(v)
                for r in op.regions:
                    for v in r.args:
                        name_value(v)
                    visit(r)

        visit(func.body)
        return names

    # module ------------------------------------------------------------------
    def print_module(self, module, out=None):
        lines = [] if out is None else None
        emit = lines.append if out is None else (lambda s: out.write(s + "\n"))
        for h in module.header:
            emit("// " + h)
        emit("module @%s {" % module.sym_name)
        for f in module.funcs:
            self._print_func(f, emit)
        emit("}")
        for alias, text in module.loc_aliases:
            emit("#%s = loc(%s)" % (alias, text))
        if out is None:
            return "\n".join(lines) + "\n"
        return None

    def _print_func(self, f, emit):
        self.names = self._assign_names(f)
        args = ", ".join("%s: %s" % (self.n(a), a.type) for a in f.args)
        if len(f.result_types) == 1:
            res = " -> " + f.result_types[0]
        elif f.result_types:
            res = " -> (" + ", ".join(f.result_types) + ")"
        else:
            res = ""
        attrs = ""
        if f.attrs:
            attrs = " attributes {" + ", ".join(
                k if v is None else "%s = %s" % (k, v) for k, v in f.attrs) + "}"
        vis = (f.visibility + " ") if f.visibility else ""
        emit("%sfunc.func %s@%s(%s)%s%s {" % (self.indent, vis, f.name, args, res, attrs))
        self._print_block(f.body, emit, 2)
        emit(self.indent + "}")

    def _print_block(self, block, emit, depth):
        ind = self.indent * depth
        for op in block.ops:
            if op.regions:
                if self._is_generic(op):
                    self._print_generic_region_op(op, emit, depth)
                else:
                    self._print_region_op(op, emit, depth)
                continue
            text = self.op_text(op)
            emit(ind + text)

    def n(self, v):
        return self.names[id(v)]

    def ns(self, vs):
        return ", ".join(self.names[id(v)] for v in vs)

    def _lhs(self, op):
        if not op.results:
            return ""
        g = self.names.get(("group", id(op)))
        if g is not None:
            return "%%%s:%d = " % (g, len(op.results))
        return self.ns(op.results) + " = "

    def _loc(self, op):
        return "" if op.loc is None else " loc(%s)" % op.loc

    def op_text(self, op):
        if self._is_generic(op):
            return self._lhs(op) + self._generic(op) + self._loc(op)
        return self._lhs(op) + self._pretty(op) + self._loc(op)

    # pretty forms --------------------------------------------------------------
    def _pretty(self, op):
        n = op.name
        p = op.props
        o = op.operands
        if n.startswith("qref."):
            return self._pretty_qref(op)
        if n == "arith.constant":
            if p["type"] == "i1":  # MLIR prints booleans without a type
                return "arith.constant %s" % const_literal(p["value"], "i1")
            return "arith.constant %s : %s" % (const_literal(p["value"], p["type"], op.fmt),
                                               p["type"])
        if n in ("arith.mulf", "arith.addf", "arith.subf", "arith.divf", "arith.addi",
                 "arith.muli", "arith.subi"):
            return "%s %s : %s" % (n, self.ns(o), op.results[0].type)
        if n in ("arith.negf", "math.cos", "math.sin"):
            return "%s %s : %s" % (n, self.n(o[0]), op.results[0].type)
        if n == "arith.index_cast":
            return "arith.index_cast %s : %s to %s" % (self.n(o[0]), o[0].type,
                                                       op.results[0].type)
        if n == "tensor.extract":
            return "tensor.extract %s[%s] : %s" % (self.n(o[0]), self.ns(o[1:]), o[0].type)
        if n == "tensor.from_elements":
            return "tensor.from_elements %s : %s" % (self.ns(o), op.results[0].type)
        if n == "func.return":
            if not o:
                return "return"
            return "return %s : %s" % (self.ns(o), ", ".join(v.type for v in o))
        if n == "scf.yield":
            return "scf.yield %s : %s" % (self.ns(o), ", ".join(v.type for v in o))
        if n == "quantum.device":
            shots = " shots(%s)" % self.n(o[0]) if o else ""
            return 'quantum.device%s ["%s", "%s", "%s"]' % (shots, p["lib"], p["device_name"],
                                                           p["kwargs"])
        if n == "quantum.device_release":
            return "quantum.device_release"
        if n == "quantum.alloc":
            if o:
                return "quantum.alloc(%s) : %s" % (self.n(o[0]), QREG)
            return "quantum.alloc( %d) : %s" % (p["nqubits_attr"], QREG)
        if n == "quantum.dealloc":
            return "quantum.dealloc %s : %s" % (self.n(o[0]), QREG)
        if n == "quantum.extract":
            idx = self.n(o[1]) if len(o) > 1 else " %d" % p["idx_attr"]
            return "quantum.extract %s[%s] : %s -> %s" % (self.n(o[0]), idx, QREG, QUBIT)
        if n == "quantum.insert":
            if len(o) > 2:
                return "quantum.insert %s[%s], %s : %s, %s" % (
                    self.n(o[0]), self.n(o[1]), self.n(o[2]), QREG, QUBIT)
            return "quantum.insert %s[ %d], %s : %s, %s" % (
                self.n(o[0]), p["idx_attr"], self.n(o[1]), QREG, QUBIT)
        if n in ("quantum.custom", "quantum.paulirot", "quantum.multirz"):
            return self._gate(op, "quantum", QUBIT)
        if n == "quantum.gphase":
            params, ctrls, cvals = (op.operand_segment(i) for i in range(3))
            head = "quantum.gphase(%s)" % self.ns(params)
            if p.get("adjoint"):
                head += " {adjoint}"
            if ctrls:
                return head + " ctrls(%s) ctrlvals(%s) : ctrls %s" % (
                    self.ns(ctrls), self.ns(cvals), ", ".join([QUBIT] * len(ctrls)))
            return head + " :"
        if n == "quantum.namedobs":
            return "quantum.namedobs %s[ %s] : %s" % (self.n(o[0]), p["type"], OBS)
        if n == "quantum.compbasis":
            return "quantum.compbasis qubits %s : %s" % (self.ns(o), OBS)
        if n == "quantum.tensor":
            return "quantum.tensor %s : %s" % (self.ns(o), OBS)
        if n in ("quantum.expval", "quantum.var"):
            return "%s %s : f64" % (n, self.n(o[0]))
        if n in ("quantum.probs", "quantum.state"):
            return "%s %s : %s" % (n, self.n(o[0]), op.results[0].type)
        raise ValueError("no pretty form for " + n)

    def _gate(self, op, dialect, bit):
        """custom/paulirot/multirz of ``dialect`` (quantum or qref: the same
        syntax, qref's gates have no results)."""
        n = op.name[len(dialect) + 1:]
        p = op.props
        params, qubits, ctrls, cvals = (op.operand_segment(i) for i in range(4))
        if n == "custom":
            head = '%s.custom "%s"(%s) %s' % (dialect, p["gate_name"], self.ns(params),
                                              self.ns(qubits))
        elif n == "paulirot":
            head = "%s.paulirot [%s](%s) %s" % (
                dialect, ", ".join('"%s"' % c for c in p["pauli_product"]), self.ns(params),
                self.ns(qubits))
        else:
            head = "%s.multirz(%s) %s" % (dialect, self.ns(params), self.ns(qubits))
        if p.get("adjoint"):
            head += " adj"
        if ctrls:
            head += " ctrls(%s) ctrlvals(%s)" % (self.ns(ctrls), self.ns(cvals))
        types = ", ".join([bit] * len(qubits))
        if ctrls:
            types += " ctrls " + ", ".join([bit] * len(ctrls))
        return head + " : " + types

    def _pretty_qref(self, op):
        """Catalyst's capture frontend's qref text (docs/qref.md)."""
        n = op.name
        p = op.props
        o = op.operands
        if n in ("qref.custom", "qref.paulirot", "qref.multirz"):
            return self._gate(op, "qref", QREF_BIT)
        if n == "qref.alloc":
            return "qref.alloc( %d) : %s" % (p["nqubits_attr"], op.results[0].type)
        if n == "qref.dealloc":
            return "qref.dealloc %s : %s" % (self.n(o[0]), o[0].type)
        if n == "qref.get":
            if len(o) > 1:
                return "qref.get %s[%s] : %s, %s -> %s" % (self.n(o[0]), self.n(o[1]), o[0].type,
                                                          o[1].type, QREF_BIT)
            return "qref.get %s[ %d] : %s -> %s" % (self.n(o[0]), p["idx_attr"], o[0].type,
                                                   QREF_BIT)
        if n == "qref.gphase":
            params, ctrls, cvals = (op.operand_segment(i) for i in range(3))
            head = "qref.gphase(%s)" % self.ns(params)
            if ctrls:
                head += " ctrls(%s) ctrlvals(%s) : ctrls %s" % (
                    self.ns(ctrls), self.ns(cvals), ", ".join([QREF_BIT] * len(ctrls)))
            return head
        if n == "qref.namedobs":
            return "qref.namedobs %s[ %s] : %s" % (self.n(o[0]), p["type"], OBS)
        if n == "qref.compbasis":
            return "qref.compbasis qubits %s : %s" % (self.ns(o), OBS)
        raise ValueError("no pretty form for " + n)

    def _region_header(self, op):
        if op.name == "scf.for":
            lb, ub, st = op.operands[:3]
            inits = op.operands[3:]
            blk = op.regions[0]
            iv = blk.args[0]
            s = "scf.for %s = %s to %s step %s" % (self.n(iv), self.n(lb), self.n(ub),
                                                   self.n(st))
            if inits:
                s += " iter_args(%s)" % ", ".join(
                    "%s = %s" % (self.n(a), self.n(i)) for a, i in zip(blk.args[1:], inits))
                s += " -> (%s)" % ", ".join(v.type for v in inits)
            return s
        raise ValueError("no region form for " + op.name)

    def _print_region_op(self, op, emit, depth):
        ind = self.indent * depth
        emit(ind + self._lhs(op) + self._region_header(op) + " {")
        self._print_block(op.regions[0], emit, depth + 1)
        emit(ind + "}" + self._loc(op))

    def _print_generic_region_op(self, op, emit, depth):
        ind = self.indent * depth
        emit(ind + self._lhs(op) + '"%s"(%s) ({' % (op.name, self.ns(op.operands)))
        for r in op.regions:
            emit(ind + "^bb0(%s):" % ", ".join("%s: %s" % (self.n(a), a.type) for a in r.args))
            self._print_block(r, emit, depth + 1)
        in_t = ", ".join(v.type for v in op.operands)
        rt = [v.type for v in op.results]
        out_t = rt[0] if len(rt) == 1 else "(" + ", ".join(rt) + ")"
        emit(ind + "}) : (%s) -> %s" % (in_t, out_t) + self._loc(op))

    # generic form -------------------------------------------------------------
    def _generic(self, op):
        props = generic_props(op)
        if op.prop_order is not None and len(op.prop_order) == len(props):
            props = [props[i] for i in op.prop_order]
        ptxt = ""
        if props:
            ptxt = " <{" + ", ".join(k if v is None else "%s = %s" % (k, v)
                                     for k, v in props) + "}>"
        in_t = ", ".join(v.type for v in op.operands)
        rt = [v.type for v in op.results]
        out_t = rt[0] if len(rt) == 1 else "(" + ", ".join(rt) + ")"
        return '"%s"(%s)%s : (%s) -> %s' % (op.name, self.ns(op.operands), ptxt, in_t, out_t)


def const_literal(value, type_, form=None):
    if type_ == "f64":
        return fmt_f64(value, form)
    if type_ == "i1":
        return "true" if value else "false"
    return str(int(value))


def generic_props(op):
    """(key, text) pairs of the op's properties in MLIR's sorted order."""
    p = op.props
    n = op.name
    out = []

    def segs(key, vals):
        out.append((key, "array<i32: %s>" % ", ".join(str(x) for x in vals)))

    if n == "arith.constant":
        t = p["type"]
        if t == "i1":
            out.append(("value", const_literal(p["value"], t)))
        else:
            out.append(("value", "%s : %s" % (const_literal(p["value"], t, op.fmt), t)))
    elif n in ("quantum.custom", "quantum.paulirot", "quantum.multirz", "quantum.gphase"):
        if p.get("adjoint"):
            out.append(("adjoint", None))
        if n == "quantum.custom":
            out.append(("gate_name", '"%s"' % p["gate_name"]))
        segs("operandSegmentSizes", op.seg)
        if n == "quantum.paulirot":
            out.append(("pauli_product", "[%s]" % ", ".join('"%s"' % c
                                                             for c in p["pauli_product"])))
        if op.rseg is not None:
            segs("resultSegmentSizes", op.rseg)
    elif n in ("quantum.extract", "quantum.insert"):
        if p.get("idx_attr") is not None:
            out.append(("idx_attr", "%d : i64" % p["idx_attr"]))
    elif n == "quantum.alloc":
        out.append(("nqubits_attr", "%d : i64" % p["nqubits_attr"]))
    elif n == "quantum.device":
        out.append(("device_name", '"%s"' % p["device_name"]))
        out.append(("kwargs", '"%s"' % p["kwargs"]))
        out.append(("lib", '"%s"' % p["lib"]))
    elif n == "quantum.namedobs":
        out.append(("type", "#quantum<named_observable %s>" % p["type"]))
    elif n == "quantum.compbasis":
        segs("operandSegmentSizes", [len(op.operands), 0])
    elif n in ("quantum.probs", "quantum.state"):
        segs("operandSegmentSizes", [1, 0, 0])
    return out


def print_module(module, out=None, force_generic=None):
    """The module's text (or write it to ``out``).  See ``Printer``."""
    return Printer(force_generic=force_generic).print_module(module, out)


# --------------------------------------------------------------------------
# Builder
# --------------------------------------------------------------------------


class QNodeBuilder:
    """Builds one QNode function the way Catalyst's frontend traces it.

    consts="hoist": every distinct constant is defined once at the top of the
    function (what canonicalization produces); "inline": a fresh constant right
    before each use (what a raw trace looks like).

    semantics="value": the quantum dialect (extract, gates returning qubits,
    insert); "qref": what Catalyst's capture frontend emits (qref.alloc, a
    ``qref.get`` before each use of a wire, gates without results, no
    inserts, qref.namedobs/qref.compbasis, qref.dealloc).  Generators write
    one program for both: ``insert``/``insert_all`` are no-ops in qref,
    ``gate_on`` returns its input qubits there, and ``reg_loop`` carries the
    register only in value semantics.
    """

    def __init__(self, nqubits, arg_types=(), name="circuit", consts="hoist",
                 module_name="module_circuit", semantics="value"):
        if semantics not in ("value", "qref"):
            raise ValueError("semantics must be value or qref")
        self.qref = semantics == "qref"
        self.nqubits = nqubits
        self.module = Module(module_name)
        self.func = Func(name, arg_types, [])
        self.module.funcs.append(self.func)
        self.args = self.func.args
        self.consts = consts
        self.prologue = []
        self.ops = []            # current block
        self._memo = {}
        self.wire = {}           # wire -> current qubit value
        self._dyn_get = {}       # qref: id(dynamic qref.get result) -> its operands
        self._used = set()       # qref: ids of those already used by a gate
        self._nblockargs = 0
        shots = self.const(0, "i64")
        self.emit("quantum.device", [shots], [],
                  {"lib": LIB_PATH, "device_name": DEVICE_NAME, "kwargs": DEVICE_KWARGS})
        if self.qref:
            self.reg = self.emit("qref.alloc", [], [qref_reg(nqubits)],
                                 {"nqubits_attr": nqubits}).results[0]
        else:
            self.reg = self.emit("quantum.alloc", [], [QREG],
                                 {"nqubits_attr": nqubits}).results[0]

    # generic emission ----------------------------------------------------------
    def emit(self, name, operands, result_types, props=None, seg=None, rseg=None,
             hints=None):
        op = Op(name, operands, result_types, props, seg, rseg, hints=hints)
        self.ops.append(op)
        return op

    def const(self, value, type_, fresh=False):
        if type_ == "f64":
            value = float(value)
            key = (type_, f64_bits(value))
        else:
            key = (type_, int(value))
        if self.consts == "hoist" and not fresh:
            v = self._memo.get(key)
            if v is not None:
                return v
        hint = const_hint(value, type_)
        op = Op("arith.constant", [], [type_], {"value": value, "type": type_}, hints=[hint])
        if self.consts == "hoist" and not fresh:
            self.prologue.append(op)
            self._memo[key] = op.results[0]
        else:
            self.ops.append(op)
        return op.results[0]

    def cbool(self, b):
        return self.const(bool(b), "i1")

    def binop(self, name, a, b):
        return self.emit(name, [a, b], [a.type]).results[0]

    def tensor_extract(self, tensor, indices):
        idx = [self.const(i, "index") for i in indices]
        return self.emit("tensor.extract", [tensor] + idx, ["f64"],
                         hints=["extracted"]).results[0]

    # qubits ------------------------------------------------------------------
    def qubit(self, w):
        if self.qref:  # a fresh reference before each use, as the frontend emits
            return self.emit("qref.get", [self.reg], [QREF_BIT], {"idx_attr": w}).results[0]
        q = self.wire.get(w)
        if q is None:
            q = self.emit("quantum.extract", [self.reg], [QUBIT], {"idx_attr": w}).results[0]
            self.wire[w] = q
        return q

    def insert(self, w):
        if self.qref:
            return
        q = self.wire.pop(w)
        self.reg = self.emit("quantum.insert", [self.reg, q], [QREG],
                             {"idx_attr": w}).results[0]

    def insert_all(self):
        for w in sorted(self.wire):
            self.insert(w)

    def _gate_like(self, opname, props, params, wires, ctrls, cvals):
        assert len(set(wires) | set(ctrls)) == len(wires) + len(ctrls), (wires, ctrls)
        qs = [self.qubit(w) for w in wires]
        cs = [self.qubit(w) for w in ctrls]
        vs = [v if isinstance(v, Value) else self.cbool(v) for v in cvals]
        if self.qref:
            return self.emit("qref." + opname.split(".", 1)[1], list(params) + qs + cs + vs, [],
                             props, seg=[len(params), len(qs), len(cs), len(vs)])
        op = self.emit(opname, list(params) + qs + cs + vs, [QUBIT] * (len(qs) + len(cs)),
                       props, seg=[len(params), len(qs), len(cs), len(vs)],
                       rseg=[len(qs), len(cs)])
        for w, v in zip(list(wires) + list(ctrls), op.results):
            self.wire[w] = v
        return op

    def gate_on(self, name, params, qubits, adj=False):
        """A gate on explicit qubit values (no wire tracking; for loop bodies
        with dynamic indices).  Returns the output qubit values."""
        props = {"gate_name": name}
        if adj:
            props["adjoint"] = True
        if self.qref:
            self.emit("qref.custom", list(params) + [self._reget(q) for q in qubits], [], props,
                      seg=[len(params), len(qubits), 0, 0])
            return list(qubits)
        op = self.emit("quantum.custom", list(params) + list(qubits), [QUBIT] * len(qubits),
                       props, seg=[len(params), len(qubits), 0, 0], rseg=[len(qubits), 0])
        return op.results

    def scf_for(self, lb, ub, step, inits, body):
        """``scf.for`` with ``iter_args``: ``body(iv, iter_values)`` emits the
        loop body into the loop's block and returns the values to yield."""
        base = len(self.args) + self._nblockargs
        self._nblockargs += 1 + len(inits)
        iv = Value("index", "arg%d" % base)
        iters = [Value(v.type, "arg%d" % (base + 1 + k)) for k, v in enumerate(inits)]
        blk = Block([iv] + iters)
        saved, self.ops = self.ops, blk.ops
        ys = body(iv, iters)
        if ys or inits:  # a loop without results has no printed terminator
            self.emit("scf.yield", list(ys), [])
        self.ops = saved
        op = Op("scf.for", [lb, ub, step] + list(inits), [v.type for v in inits],
                regions=[blk])
        self.ops.append(op)
        return op.results

    def reg_loop(self, lb, ub, step, reg, body):
        """``scf.for`` over a register: ``body(iv, reg)`` emits the body and
        returns the register to yield.  Value semantics carry ``reg`` as
        ``iter_args`` and return the loop's result; qref's references need
        no carrying (a loop without results) and ``reg`` comes back."""
        if self.qref:
            def no_carry(iv, _):
                body(iv, reg)
                return []
            self.scf_for(lb, ub, step, [], no_carry)
            return reg
        return self.scf_for(lb, ub, step, [reg], lambda iv, it: [body(iv, it[0])])[0]

    def extract_at(self, reg, idx):
        """The qubit at a dynamic (i64) index: quantum.extract or qref.get."""
        if self.qref:
            q = self.emit("qref.get", [reg, idx], [QREF_BIT]).results[0]
            self._dyn_get[id(q)] = [reg, idx]
            return q
        return self.emit("quantum.extract", [reg, idx], [QUBIT]).results[0]

    def _reget(self, q):
        """qref: ``q`` at its first use by a gate, then a fresh ``qref.get``
        at the same dynamic index before each further use (the frontend's
        shape; static wires get theirs in ``qubit``)."""
        if id(q) not in self._dyn_get:
            return q
        if id(q) not in self._used:
            self._used.add(id(q))
            return q
        return self.emit("qref.get", self._dyn_get[id(q)], [QREF_BIT]).results[0]

    def insert_at(self, reg, idx, q):
        """Put ``q`` back at a dynamic index; returns the register (qref: ``reg``)."""
        if self.qref:
            return reg
        return self.emit("quantum.insert", [reg, idx, q], [QREG]).results[0]

    def gate(self, name, params, wires, ctrls=(), cvals=(), adj=False):
        props = {"gate_name": name}
        if adj:
            props["adjoint"] = True
        return self._gate_like("quantum.custom", props, params, wires, ctrls, cvals)

    def paulirot(self, word, angle, wires, ctrls=(), cvals=(), adj=False):
        props = {"pauli_product": list(word)}
        if adj:
            props["adjoint"] = True
        return self._gate_like("quantum.paulirot", props, [angle], wires, ctrls, cvals)

    def multirz(self, angle, wires, ctrls=(), cvals=(), adj=False):
        props = {"adjoint": True} if adj else {}
        return self._gate_like("quantum.multirz", props, [angle], wires, ctrls, cvals)

    def gphase(self, angle, ctrls=(), cvals=()):
        cs = [self.qubit(w) for w in ctrls]
        vs = [v if isinstance(v, Value) else self.cbool(v) for v in cvals]
        if self.qref:
            return self.emit("qref.gphase", [angle] + cs + vs, [], {}, seg=[1, len(cs), len(vs)])
        op = self.emit("quantum.gphase", [angle] + cs + vs, [QUBIT] * len(cs), {},
                       seg=[1, len(cs), len(vs)])
        for w, v in zip(ctrls, op.results):
            self.wire[w] = v
        return op

    def _d(self, op):
        """``op`` of the quantum or the qref dialect, by the semantics."""
        return ("qref." if self.qref else "quantum.") + op

    # measurements --------------------------------------------------------------
    def namedobs(self, w, kind="PauliZ"):
        return self.emit(self._d("namedobs"), [self.qubit(w)], [OBS],
                         {"type": kind}).results[0]

    def expval(self, obs):
        return self.emit("quantum.expval", [obs], ["f64"]).results[0]

    def probs(self, wires):
        obs = self.emit(self._d("compbasis"), [self.qubit(w) for w in wires], [OBS]).results[0]
        return self.emit("quantum.probs", [obs], ["tensor<%dxf64>" % (2 ** len(wires))],
                         ).results[0]

    def scalar_tensor(self, x):
        return self.emit("tensor.from_elements", [x], ["tensor<f64>"],
                         hints=["from_elements"]).results[0]

    def finish(self, results):
        """Insert every live qubit back, dealloc, release, return ``results``."""
        self.insert_all()
        self.emit(self._d("dealloc"), [self.reg], [])
        self.emit("quantum.device_release", [], [])
        self.emit("func.return", list(results), [])
        self.func.result_types = [v.type for v in results]
        self.func.body.ops = self.prologue + self.ops
        return self.module


def const_hint(value, type_):
    if type_ == "i1":
        return "true" if value else "false"
    if type_ == "index":
        return "c%d" % value if value >= 0 else "c_%d" % -value
    if type_ == "i64":
        return "c%d_i64" % value if value >= 0 else "c_%d_i64" % -value
    return "cst"


# --------------------------------------------------------------------------
# Random circuit generator
# --------------------------------------------------------------------------


def _rand_angle(rng):
    return rng.uniform(-math.pi, math.pi)


def generate(seed, wires=None, gates=None, runtime=True, consts="hoist"):
    """A random Catalyst-shaped QNode (a Module) with ``gates`` gate ops on
    ``wires`` wires.  Guarantees at least one 0.0 angle constant, one
    asymmetric two-qubit gate, one non-self-inverse gate, one controlled gate
    and an expval of a qubit that was just acted on by a gate (so every
    mutation has a target)."""
    rng = random.Random(seed)
    W = wires if wires is not None else rng.randint(3, 6)
    G = gates if gates is not None else rng.randint(20, 40)
    W = max(W, 3)
    n_rt = 4 if runtime else 0
    arg_types = ["tensor<%dxf64>" % n_rt] if runtime else []
    b = QNodeBuilder(W, arg_types, consts=consts)
    pool = [_rand_angle(rng) for _ in range(3)] + [0.0, math.pi / 2]

    def param():
        r = rng.random()
        if runtime and r < 0.2:
            return b.tensor_extract(b.args[0], [rng.randrange(n_rt)])
        if runtime and r < 0.3:
            x = b.tensor_extract(b.args[0], [rng.randrange(n_rt)])
            return b.binop("arith.mulf", x, b.const(rng.choice(pool), "f64"))
        if r < 0.55:
            return b.const(rng.choice(pool), "f64")
        return b.const(_rand_angle(rng), "f64")

    plan = []  # list of gate descriptions, then forced ones inserted
    for _ in range(G):
        r = rng.random()
        if r < 0.07:
            k = rng.randint(1, min(3, W))
            plan.append(("paulirot", "".join(rng.choice("XYZ") for _ in range(k)), k))
        elif r < 0.13:
            plan.append(("multirz", None, rng.randint(1, min(3, W))))
        elif r < 0.17:
            plan.append(("gphase", None, 0))
        else:
            plan.append(("custom", rng.choice(GATE_NAMES), None))
    forced = [("custom", "CNOT", "ctrl"), ("custom", "RZ", "zero"),
              ("custom", "S", "plain"), ("custom", "CRY", "plain")]
    for f in forced:
        plan.insert(rng.randint(0, len(plan)), f)

    # a layer of random rotations first, so that the state is generic and
    # meaning-changing mutations are visible in a simulation
    for w in range(W):
        b.gate("RY", [b.const(_rand_angle(rng), "f64")], [w])
        b.gate("RZ", [b.const(_rand_angle(rng), "f64")], [w])

    for kind, what, extra in plan:
        if kind == "custom":
            npar, nw = GATES[what]
        elif kind in ("paulirot", "multirz"):
            npar, nw = 1, extra
        else:
            npar, nw = 1, 0
        wires_ = rng.sample(range(W), nw) if nw else []
        free = [w for w in range(W) if w not in wires_]
        nctrl = 0
        if kind == "gphase":
            nctrl = rng.randint(1, min(2, len(free)))
        elif extra == "ctrl":
            nctrl = 1
        elif extra is None and free and rng.random() < 0.2:
            nctrl = rng.randint(1, min(2, len(free)))
        ctrls = rng.sample(free, nctrl) if nctrl else []
        cvals = [rng.random() < 0.7 for _ in ctrls]
        adj = extra not in ("zero", "plain") and rng.random() < 0.25
        if extra == "zero":
            params = [b.const(0.0, "f64")]
        else:
            params = [param() for _ in range(npar)]
        if kind == "custom":
            b.gate(what, params, wires_, ctrls, cvals, adj)
        elif kind == "paulirot":
            b.paulirot(what, params[0], wires_, ctrls, cvals, adj)
        elif kind == "multirz":
            b.multirz(params[0], wires_, ctrls, cvals, adj)
        else:
            b.gphase(params[0], ctrls, cvals)
        # occasionally give a qubit back to the register (re-extracted later)
        if b.wire and rng.random() < 0.08:
            w = rng.choice(sorted(b.wire))
            b.insert(w)

    # final non-diagonal gate on the measured wire, then measurements
    mw = rng.randrange(W)
    b.gate("RY", [b.const(_rand_angle(rng), "f64")], [mw])
    results = []
    obs = b.namedobs(mw, "PauliZ")
    results.append(b.scalar_tensor(b.expval(obs)))
    r = rng.random()
    if r < 0.5:
        results.append(b.probs(rng.sample(range(W), W)))
    elif r < 0.8:
        results.append(b.probs(rng.sample(range(W), rng.randint(1, min(3, W)))))
    return b.finish(results)


def default_args(module, seed=0):
    """Seeded values for every function argument (JSON-ready)."""
    rng = random.Random(seed * 7919 + 1)
    out = []
    for a in module.funcs[0].args:
        shape = tensor_shape(a.type)
        n = 1
        for d in shape:
            n *= d
        vals = [rng.uniform(-math.pi, math.pi) for _ in range(n)]
        out.append(vals[0] if not shape else vals)
    return out


def tensor_shape(t):
    m = re.match(r"tensor<(.*)>", t)
    if not m:
        return []
    parts = m.group(1).split("x")
    return [int(x) for x in parts[:-1]]


# --------------------------------------------------------------------------
# Rewrites (meaning-preserving)
# --------------------------------------------------------------------------


def _uses(func):
    """id(value) -> list of (op, operand index)."""
    uses = {}
    for op in func_ops(func):
        for i, v in enumerate(op.operands):
            uses.setdefault(id(v), []).append((op, i))
    return uses


def _defs(block):
    d = {}
    for op in block.ops:
        for v in op.results:
            d[id(v)] = op
    return d


def _rand_ident(rng):
    r = rng.random()
    if r < 0.3:
        return str(rng.randrange(100000))
    alpha = "abcdefghijklmnopqrstuvwxyz"
    s = rng.choice(alpha + "_") + "".join(rng.choice(alpha + "0123456789_")
                                           for _ in range(rng.randint(0, 6)))
    if rng.random() < 0.2:
        s += "." + rng.choice(alpha)
    if rng.random() < 0.2:
        s += "$"
    return s


def rw_rename(module, rng):
    """SSA renaming: every value (arguments included) gets a random name;
    multi-result ops get a random group name or per-result names."""
    for f in module.funcs:
        taken = set()

        def fresh():
            while True:
                s = _rand_ident(rng)
                if s not in taken:
                    taken.add(s)
                    return s
        for a in f.args:
            a.name = fresh()
        for op in func_ops(f):
            op.group = None
            if len(op.results) > 1 and rng.random() < 0.5:
                op.group = fresh()
                for v in op.results:
                    v.name = None
                    v.hint = None
            else:
                for v in op.results:
                    v.name = fresh()
            for r in op.regions:
                for v in r.args:
                    v.name = fresh()
        # group names are printed as %g#i; mark so the printer does not name them
        for op in func_ops(f):
            if op.group:
                for v in op.results:
                    v.name = "%s#%d" % (op.group, op.results.index(v))
    return module


def rw_locs(module, rng):
    """Random locations on ops: file:line:col, unknown, named, and aliases
    (``#locN = loc(...)`` after the module, referenced as ``loc(#locN)``)."""
    files = ["circuit.py", "/home/u/qpe.py", "jax_tracer.py", "x.py"]
    k = 0
    for f in module.funcs:
        for op in func_ops(f):
            r = rng.random()
            if r < 0.15:
                continue
            base = '"%s":%d:%d' % (rng.choice(files), rng.randint(1, 5000), rng.randint(1, 120))
            if r < 0.25:
                text = "unknown"
            elif r < 0.35:
                text = '"%s"(%s)' % (rng.choice(["RX", "ctrl", "adjoint", "qnode"]), base)
            else:
                text = base
            if rng.random() < 0.3:
                alias = "loc%d" % k
                k += 1
                module.loc_aliases.append((alias, text))
                op.loc = "#" + alias
            else:
                op.loc = text
    return module


def rw_attr_order(module, rng):
    """Shuffle attribute dictionaries: function attributes and, for ops that
    are printed generically, the property dictionary."""
    for f in module.funcs:
        while True:
            attrs = list(f.attrs)
            rng.shuffle(attrs)
            if attrs != f.attrs or len(attrs) < 2:
                break
        f.attrs = attrs
        for op in func_ops(f):
            n = len(generic_props(op))
            if n > 1:
                perm = list(range(n))
                rng.shuffle(perm)
                op.prop_order = perm
    return module


def _region_captures(op):
    caps = []
    for r in op.regions:
        for inner in walk_ops(r):
            caps.extend(inner.operands)
    return caps


def _topo_sort(block, rng=None, prefer=None):
    """Random (rng) or stable (prefer: op -> rank) topological order that
    respects dataflow and the relative order of side-effecting ops; the
    terminator stays last."""
    ops = block.ops
    index = {id(op): i for i, op in enumerate(ops)}
    defs = _defs(block)
    preds = [set() for _ in ops]
    last_side = None
    for i, op in enumerate(ops):
        for v in op.operands + _region_captures(op):
            d = defs.get(id(v))
            if d is not None and d is not op:
                preds[i].add(index[id(d)])
        side = op.name in SIDE_EFFECTING or op.name in TERMINATORS or op.regions
        if side:
            if last_side is not None:
                preds[i].add(last_side)
            last_side = i
    if ops and ops[-1].name in TERMINATORS:
        preds[-1] |= set(range(len(ops) - 1))
    succs = [[] for _ in ops]
    indeg = [len(p) for p in preds]
    for i, p in enumerate(preds):
        for j in sorted(p):
            succs[j].append(i)
    ready = [i for i in range(len(ops)) if indeg[i] == 0]
    out = []
    import heapq
    if prefer is not None:
        heap = [(prefer(ops[i]), i) for i in ready]
        heapq.heapify(heap)
    while ready if prefer is None else heap:
        if prefer is None:
            k = rng.randrange(len(ready))
            ready[k], ready[-1] = ready[-1], ready[k]
            i = ready.pop()
        else:
            i = heapq.heappop(heap)[1]
        out.append(ops[i])
        for s in succs[i]:
            indeg[s] -= 1
            if indeg[s] == 0:
                if prefer is None:
                    ready.append(s)
                else:
                    heapq.heappush(heap, (prefer(ops[s]), s))
    assert len(out) == len(ops), "cycle in block"
    block.ops = out


def rw_reorder(module, rng):
    """Random valid topological reorder of independent ops in every block."""
    for f in module.funcs:
        for blk in list(walk_blocks(f.body)):
            for _ in range(3):
                before = list(blk.ops)
                _topo_sort(blk, rng)
                if blk.ops != before:
                    break
    return module


GENERIC_OK = {
    "arith.constant", "arith.mulf", "arith.addf", "arith.subf", "arith.negf",
    "arith.index_cast", "tensor.extract", "tensor.from_elements", "func.return",
    "quantum.custom", "quantum.paulirot", "quantum.multirz", "quantum.gphase",
    "quantum.extract", "quantum.insert", "quantum.alloc", "quantum.dealloc",
    "quantum.device", "quantum.device_release", "quantum.namedobs",
    "quantum.compbasis", "quantum.expval", "quantum.var", "quantum.probs",
}


def rw_generic(module, rng):
    """Print about half of the ops (at least one) in the generic form with
    properties ``<{...}>``."""
    cands = [op for f in module.funcs for op in func_ops(f)
             if op.name in GENERIC_OK and not op.regions]
    for op in cands:
        op.generic = rng.random() < 0.5
    if cands and not any(op.generic for op in cands):
        gates = [op for op in cands if op.name == "quantum.custom"] or cands
        rng.choice(gates).generic = True
    return module


def rw_dup_const(module, rng):
    """Duplicate constants: a constant with several uses is defined again and
    a random part of its uses moves to the copy."""
    for f in module.funcs:
        uses = _uses(f)
        blk = f.body
        consts = [op for op in blk.ops if op.name == "arith.constant"
                  and len(uses.get(id(op.results[0]), [])) >= 2]
        if not consts:
            consts = [op for op in blk.ops if op.name == "arith.constant"
                      and uses.get(id(op.results[0]))]
        if not consts:
            continue
        picks = rng.sample(consts, max(1, min(len(consts), rng.randint(1, 4))))
        for c in picks:
            us = uses[id(c.results[0])]
            dup = Op("arith.constant", [], [c.results[0].type], dict(c.props),
                     hints=[c.results[0].hint])
            blk.ops.insert(blk.ops.index(c) + 1, dup)
            k = rng.randint(1, max(1, len(us) - 1)) if len(us) > 1 else 1
            moved = rng.sample(range(len(us)), k)
            for m in sorted(moved):
                op, i = us[m]
                op.operands[i] = dup.results[0]
    return module


def rw_const_index(module, rng):
    """``quantum.extract %r[ 3]`` -> ``%c3_i64 = arith.constant 3 : i64`` and
    ``quantum.extract %r[%c3_i64]`` (same for insert) for a random subset."""
    for f in module.funcs:
        for blk in list(walk_blocks(f.body)):
            new = []
            memo = {}
            for op in blk.ops:
                if op.name in ("quantum.extract", "quantum.insert") and \
                        op.props.get("idx_attr") is not None and rng.random() < 0.6:
                    k = op.props.pop("idx_attr")
                    op.props["idx_attr"] = None
                    c = memo.get(k) if rng.random() < 0.5 else None
                    if c is None:
                        cop = Op("arith.constant", [], ["i64"], {"value": k, "type": "i64"},
                                 hints=[const_hint(k, "i64")])
                        new.append(cop)
                        c = memo[k] = cop.results[0]
                    op.operands.insert(1, c)
                new.append(op)
            blk.ops = new
    # guarantee at least one change
    for f in module.funcs:
        if not any(o.name in ("quantum.extract", "quantum.insert") and len(o.operands) >
                   (1 if o.name == "quantum.extract" else 2) for o in func_ops(f)):
            for blk in walk_blocks(f.body):
                for i, op in enumerate(blk.ops):
                    if op.name == "quantum.extract" and op.props.get("idx_attr") is not None:
                        k = op.props["idx_attr"]
                        op.props["idx_attr"] = None
                        cop = Op("arith.constant", [], ["i64"], {"value": k, "type": "i64"},
                                 hints=[const_hint(k, "i64")])
                        blk.ops.insert(i, cop)
                        op.operands.insert(1, cop.results[0])
                        return module
    return module


def rw_float_format(module, rng):
    """Print f64 constants in a random exact form: shortest decimal, 17
    significant digits, or MLIR's hex bit-pattern form."""
    for f in module.funcs:
        for op in func_ops(f):
            if op.name == "arith.constant" and op.props["type"] == "f64":
                op.fmt = rng.choice([None, "17g", "hex"])
    return module


REWRITES = {
    "rename": rw_rename,
    "locs": rw_locs,
    "attr-order": rw_attr_order,
    "reorder": rw_reorder,
    "generic": rw_generic,
    "dup-const": rw_dup_const,
    "const-index": rw_const_index,
    "float-format": rw_float_format,
}


def apply_rewrite(module, name, rng):
    """Apply one rewrite (or "all": every rewrite, in a fixed order) to a
    copy of ``module`` and return the copy."""
    m = module.clone()
    names = list(REWRITES) if name == "all" else [name]
    # renaming must come last so that values created by other rewrites are named
    order = [n for n in names if n != "rename"] + [n for n in names if n == "rename"]
    for n in order:
        REWRITES[n](m, rng)
    return m


# --------------------------------------------------------------------------
# Mutations (meaning-changing)
# --------------------------------------------------------------------------

_SWAP_CLASSES = [
    ["Identity", "PauliX", "PauliY", "PauliZ", "Hadamard", "S", "T", "SX"],
    ["RX", "RY", "RZ"], ["RX", "RY", "PhaseShift"],
    ["CNOT", "CY", "CZ", "SWAP", "ISWAP"],
    ["CRX", "CRY", "CRZ", "ControlledPhaseShift", "IsingXX", "IsingYY", "IsingZZ",
     "IsingXY", "SingleExcitation"],
    ["Toffoli", "CSWAP"],
]


class MutationError(Exception):
    pass


def _main_block(module):
    return module.funcs[0].body


def _gates(module, names=("quantum.custom",)):
    return [op for op in func_ops(module.funcs[0]) if op.name in names]


def _hoisted_const(module, value, type_):
    blk = _main_block(module)
    for op in blk.ops:
        if op.name == "arith.constant" and op.props["type"] == type_ and \
                op.props["value"] == value:
            return op.results[0]
    op = Op("arith.constant", [], [type_], {"value": value, "type": type_},
            hints=[const_hint(value, type_)])
    blk.ops.insert(0, op)
    return op.results[0]


def _float_param_consts(module):
    """Constant ops whose value feeds a gate parameter."""
    f = module.funcs[0]
    defs = {}
    for op in func_ops(f):
        for v in op.results:
            defs[id(v)] = op
    out = []
    seen = set()
    for op in func_ops(f):
        if op.name in ("quantum.custom", "quantum.paulirot", "quantum.multirz",
                       "quantum.gphase"):
            for v in op.operand_segment(0):
                d = defs.get(id(v))
                if d is not None and d.name == "arith.constant" and id(d) not in seen:
                    seen.add(id(d))
                    out.append(d)
    return out


def _zero_param_ops(module):
    zeros = {id(c.results[0]) for c in _float_param_consts(module) if c.props["value"] == 0.0}
    return {id(op) for op in func_ops(module.funcs[0]) if op.seg and
            any(id(v) in zeros for v in op.operand_segment(0))}


def mu_gate_name(module, rng):
    cands = []
    zero = _zero_param_ops(module)
    for op in _gates(module):
        if id(op) in zero:
            continue
        g = op.props["gate_name"]
        alts = sorted({x for cls in _SWAP_CLASSES if g in cls for x in cls if x != g})
        if alts:
            cands.append((op, alts))
    if not cands:
        raise MutationError("no gate to rename")
    op, alts = rng.choice(cands)
    op.props["gate_name"] = rng.choice(alts)
    return module


def mu_param_ulp(module, rng):
    cands = [c for c in _float_param_consts(module) if c.props["value"] != 0.0] or \
        _float_param_consts(module)
    if not cands:
        raise MutationError("no float parameter")
    c = rng.choice(cands)
    c.props["value"] = next_ulp(c.props["value"])
    return module


def mu_neg_zero(module, rng):
    cands = [c for c in _float_param_consts(module) if c.props["value"] == 0.0]
    if not cands:
        raise MutationError("no 0.0 parameter")
    c = rng.choice(cands)
    c.props["value"] = -0.0 if math.copysign(1.0, c.props["value"]) > 0 else 0.0
    return module


def mu_angle_only(module, rng):
    cands = [c for c in _float_param_consts(module) if c.props["value"] != 0.0]
    if not cands:
        raise MutationError("no nonzero float parameter")
    c = rng.choice(cands)
    old = c.props["value"]
    new = old
    while new == old or abs(new - old) < 0.1:
        new = _rand_angle(rng)
    c.props["value"] = new
    return module


def mu_wiring(module, rng):
    """Swap the first two target qubits of an asymmetric multi-qubit gate
    (operands and results together, so each wire keeps its identity
    downstream: CNOT(a, b) becomes CNOT(b, a))."""
    zero = _zero_param_ops(module)
    cands = [op for op in _gates(module)
             if op.seg[1] >= 2 and op.props["gate_name"] not in WIRE_SYMMETRIC
             and id(op) not in zero]
    if not cands:
        raise MutationError("no asymmetric multi-qubit gate")
    op = rng.choice(cands)
    s = op.seg[0]
    # Toffoli's two controls are interchangeable: swap a control and the target
    j = 2 if op.props["gate_name"] == "Toffoli" else 1
    op.operands[s], op.operands[s + j] = op.operands[s + j], op.operands[s]
    op.results[0], op.results[j] = op.results[j], op.results[0]
    return module


def mu_ctrlval(module, rng):
    cands = [op for op in _gates(module, ("quantum.custom", "quantum.paulirot",
                                          "quantum.multirz", "quantum.gphase"))
             if op.operand_segment(len(op.seg) - 1)]
    if not cands:
        raise MutationError("no controlled gate")
    # prefer gates to controlled global phases (whose effect is a relative phase)
    cands = [op for op in cands if op.name != "quantum.gphase"] or cands
    op = rng.choice(cands)
    f = module.funcs[0]
    defs = {id(v): o for o in func_ops(f) for v in o.results}
    nseg = len(op.seg)
    start = sum(op.seg[:nseg - 1])
    k = start + rng.randrange(op.seg[nseg - 1])
    d = defs[id(op.operands[k])]
    op.operands[k] = _hoisted_const(module, not d.props["value"], "i1")
    return module


def mu_adjoint(module, rng):
    cands = [op for op in _gates(module, ("quantum.custom", "quantum.paulirot",
                                          "quantum.multirz"))
             if op.name != "quantum.custom" or op.props["gate_name"] not in SELF_INVERSE]
    consts = {id(c.results[0]) for c in _float_param_consts(module)
              if c.props["value"] == 0.0}
    cands = [op for op in cands if not any(id(v) in consts for v in op.operand_segment(0))]
    if not cands:
        raise MutationError("no non-self-inverse gate")
    op = rng.choice(cands)
    if op.props.get("adjoint"):
        op.props.pop("adjoint")
    else:
        op.props["adjoint"] = True
    return module


def mu_measure_order(module, rng):
    """Swap a gate and the measurement that follows it on the same qubit:
    the observable now reads the qubit before the gate and the gate runs
    after the expval."""
    f = module.funcs[0]
    blk = f.body
    defs = _defs(blk)
    cands = []
    for op in blk.ops:
        if op.name == "quantum.namedobs":
            g = defs.get(id(op.operands[0]))
            if g is not None and g.name == "quantum.custom":
                cands.append((op, g))
    if not cands:
        raise MutationError("no gate feeding a named observable")
    nonzdiag = [c for c in cands if c[1].props["gate_name"] not in DIAGONAL]
    obs, g = rng.choice(nonzdiag or cands)
    k = g.results.index(obs.operands[0])
    qin = g.operand_segment(1)[k] if k < g.seg[1] else \
        g.operand_segment(2)[k - g.seg[1]]
    obs.operands[0] = qin
    # the expval that reads this observable
    ev = [op for op in blk.ops if op.operands and op.operands[0] is obs.results[0]][0]
    blk.ops.remove(g)
    blk.ops.insert(blk.ops.index(ev) + 1, g)
    pos = {id(op): i for i, op in enumerate(blk.ops)}
    _topo_sort(blk, prefer=lambda op: pos[id(op)])
    return module


def mu_signature(module, rng):
    f = module.funcs[0]
    f.args.append(Value(rng.choice(["tensor<f64>", "tensor<2xf64>", "f64"]),
                        "arg%d" % len(f.args)))
    return module


def mu_symbol_name(module, rng):
    f = module.funcs[0]
    f.name = f.name + rng.choice(["_0", "_1", "2", "_jit"])
    return module


MUTATIONS = {
    "gate-name": mu_gate_name,
    "param-ulp": mu_param_ulp,
    "neg-zero": mu_neg_zero,
    "wiring": mu_wiring,
    "ctrlval": mu_ctrlval,
    "adjoint": mu_adjoint,
    "measure-order": mu_measure_order,
    "signature": mu_signature,
    "symbol-name": mu_symbol_name,
    "angle-only": mu_angle_only,
}
# Mutations whose effect a state-vector simulation can see (the others change
# bits, names or signatures but not probabilities).
SIMULATION_VISIBLE = {"gate-name", "wiring", "ctrlval", "adjoint", "measure-order",
                      "angle-only"}


def apply_mutation(module, name, rng):
    m = module.clone()
    MUTATIONS[name](m, rng)
    return m


# --------------------------------------------------------------------------
# Reference simulator (text in, numbers out)
# --------------------------------------------------------------------------

_SQ2 = 1 / math.sqrt(2)
_I2 = [[1, 0], [0, 1]]
_X = [[0, 1], [1, 0]]
_Y = [[0, -1j], [1j, 0]]
_Z = [[1, 0], [0, -1]]
PAULI = {"I": _I2, "X": _X, "Y": _Y, "Z": _Z}


def _kron(a, b):
    return [[x * y for x in ra for y in rb] for ra in a for rb in b]


def _mm(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))]
            for i in range(len(a))]


def _controlled(u):
    d = len(u)
    m = [[0] * (2 * d) for _ in range(2 * d)]
    for i in range(d):
        m[i][i] = 1
        for j in range(d):
            m[d + i][d + j] = u[i][j]
    return m


def _diag(*xs):
    return [[xs[i] if i == j else 0 for j in range(len(xs))] for i in range(len(xs))]


def gate_matrix(name, params):
    """PennyLane's matrix of a gate (first wire = most significant bit)."""
    p = params
    if name in ("RX", "RY", "RZ", "CRX", "CRY", "CRZ", "IsingXX", "IsingYY", "IsingZZ",
                "IsingXY", "SingleExcitation"):
        c, s = math.cos(p[0] / 2), math.sin(p[0] / 2)
    if name == "Identity":
        return _I2
    if name == "PauliX":
        return _X
    if name == "PauliY":
        return _Y
    if name == "PauliZ":
        return _Z
    if name == "Hadamard":
        return [[_SQ2, _SQ2], [_SQ2, -_SQ2]]
    if name == "S":
        return _diag(1, 1j)
    if name == "T":
        return _diag(1, cmath.exp(1j * math.pi / 4))
    if name == "SX":
        return [[0.5 + 0.5j, 0.5 - 0.5j], [0.5 - 0.5j, 0.5 + 0.5j]]
    if name == "RX":
        return [[c, -1j * s], [-1j * s, c]]
    if name == "RY":
        return [[c, -s], [s, c]]
    if name == "RZ":
        return _diag(cmath.exp(-0.5j * p[0]), cmath.exp(0.5j * p[0]))
    if name == "PhaseShift":
        return _diag(1, cmath.exp(1j * p[0]))
    if name == "Rot":
        phi, theta, omega = p
        return _mm(gate_matrix("RZ", [omega]), _mm(gate_matrix("RY", [theta]),
                                                   gate_matrix("RZ", [phi])))
    if name == "CNOT":
        return _controlled(_X)
    if name == "CY":
        return _controlled(_Y)
    if name == "CZ":
        return _controlled(_Z)
    if name == "SWAP":
        return [[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]]
    if name == "ISWAP":
        return [[1, 0, 0, 0], [0, 0, 1j, 0], [0, 1j, 0, 0], [0, 0, 0, 1]]
    if name in ("CRX", "CRY", "CRZ", "CRot"):
        return _controlled(gate_matrix(name[1:], p))
    if name == "ControlledPhaseShift":
        return _diag(1, 1, 1, cmath.exp(1j * p[0]))
    if name == "IsingXX":
        return [[c, 0, 0, -1j * s], [0, c, -1j * s, 0], [0, -1j * s, c, 0], [-1j * s, 0, 0, c]]
    if name == "IsingYY":
        return [[c, 0, 0, 1j * s], [0, c, -1j * s, 0], [0, -1j * s, c, 0], [1j * s, 0, 0, c]]
    if name == "IsingZZ":
        a, b = cmath.exp(-0.5j * p[0]), cmath.exp(0.5j * p[0])
        return _diag(a, b, b, a)
    if name == "IsingXY":
        return [[1, 0, 0, 0], [0, c, 1j * s, 0], [0, 1j * s, c, 0], [0, 0, 0, 1]]
    if name == "SingleExcitation":
        return [[1, 0, 0, 0], [0, c, -s, 0], [0, s, c, 0], [0, 0, 0, 1]]
    if name == "Toffoli":
        return _controlled(_controlled(_X))
    if name == "CSWAP":
        return _controlled(gate_matrix("SWAP", []))
    raise ValueError("unknown gate " + name)


def pauli_matrix(word):
    m = [[1]]
    for c in word:
        m = _kron(m, PAULI[c])
    return m


def paulirot_matrix(word, theta):
    """PauliRot(theta, P) = exp(-i theta/2 P) = cos(theta/2) I - i sin(theta/2) P."""
    p = pauli_matrix(word)
    c, s = math.cos(theta / 2), math.sin(theta / 2)
    d = len(p)
    return [[(c if i == j else 0) - 1j * s * p[i][j] for j in range(d)] for i in range(d)]


def multirz_matrix(k, theta):
    """MultiRZ(theta) = exp(-i theta/2 Z...Z)."""
    xs = []
    for i in range(2 ** k):
        par = bin(i).count("1") % 2
        xs.append(cmath.exp((0.5j if par else -0.5j) * theta))
    return _diag(*xs)


def dagger(u):
    return [[complex(u[j][i]).conjugate() for j in range(len(u))] for i in range(len(u))]


class StateVector:
    def __init__(self, n):
        self.n = n
        self.amp = [0j] * (1 << n)
        self.amp[0] = 1 + 0j

    def apply(self, u, wires, ctrls=(), cvals=()):
        n = self.n
        k = len(wires)
        tb = [1 << (n - 1 - w) for w in wires]
        tmask = sum(tb)
        cmask = cval = 0
        for w, v in zip(ctrls, cvals):
            bit = 1 << (n - 1 - w)
            cmask |= bit
            if v:
                cval |= bit
        offs = []
        for loc in range(1 << k):
            o = 0
            for j in range(k):
                if (loc >> (k - 1 - j)) & 1:
                    o |= tb[j]
            offs.append(o)
        amp = self.amp
        dim = 1 << k
        diag = all(u[i][j] == 0 for i in range(dim) for j in range(dim) if i != j)
        for base in range(1 << n):
            if base & tmask or (base & cmask) != cval:
                continue
            if diag:
                for r in range(dim):
                    amp[base + offs[r]] *= u[r][r]
                continue
            vec = [amp[base + o] for o in offs]
            for r in range(dim):
                row = u[r]
                acc = 0j
                for c in range(dim):
                    if row[c] != 0:
                        acc += row[c] * vec[c]
                amp[base + offs[r]] = acc

    def phase(self, phi, ctrls=(), cvals=()):
        """quantum.gphase(phi): multiply by exp(-i phi) where controls match."""
        f = cmath.exp(-1j * phi)
        n = self.n
        cmask = cval = 0
        for w, v in zip(ctrls, cvals):
            bit = 1 << (n - 1 - w)
            cmask |= bit
            if v:
                cval |= bit
        for i in range(1 << n):
            if (i & cmask) == cval:
                self.amp[i] *= f

    def probs(self, wires):
        n = self.n
        k = len(wires)
        out = [0.0] * (1 << k)
        for i, a in enumerate(self.amp):
            p = a.real * a.real + a.imag * a.imag
            if p == 0.0:
                continue
            j = 0
            for w in wires:
                j = (j << 1) | ((i >> (n - 1 - w)) & 1)
            out[j] += p
        return out

    def expval(self, terms):
        """terms: list of (kind, wire) for a tensor product of named observables."""
        tmp = StateVector(self.n)
        tmp.amp = list(self.amp)
        for kind, w in terms:
            m = {"Identity": _I2, "PauliX": _X, "PauliY": _Y, "PauliZ": _Z,
                 "Hadamard": gate_matrix("Hadamard", [])}[kind]
            tmp.apply(m, [w])
        return sum((a.conjugate() * b).real for a, b in zip(self.amp, tmp.amp))


# --- parsing the emitted subset ------------------------------------------------


def _split_top(s, sep=","):
    """Split at top-level separators (outside (), [], <>, {} and quotes)."""
    out, depth, cur, q = [], 0, [], False
    i = 0
    while i < len(s):
        ch = s[i]
        if q:
            cur.append(ch)
            if ch == "\\":
                cur.append(s[i + 1])
                i += 1
            elif ch == '"':
                q = False
        elif ch == '"':
            q = True
            cur.append(ch)
        elif ch in "([{<":
            depth += 1
            cur.append(ch)
        elif ch in ")]}>" and not (ch == ">" and i > 0 and s[i - 1] == "-"):
            depth -= 1
            cur.append(ch)
        elif ch == sep and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
        i += 1
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


def _strip_comment_and_loc(line):
    # remove // comments outside strings
    q = False
    for i, ch in enumerate(line):
        if ch == '"':
            q = not q
        elif not q and line.startswith("//", i):
            line = line[:i]
            break
    line = line.rstrip()
    # remove a trailing loc(...)
    while line.endswith(")"):
        depth = 0
        q = False
        for i in range(len(line) - 1, -1, -1):
            ch = line[i]
            if ch == '"':
                q = not q
            elif q:
                continue
            elif ch == ")":
                depth += 1
            elif ch == "(":
                depth -= 1
                if depth == 0:
                    break
        if line[:i].endswith("loc") and (i < 4 or not (line[i - 4].isalnum()
                                                        or line[i - 4] in "_.")):
            line = line[:i - 3].rstrip()
        else:
            break
    return line


class SimOp:
    __slots__ = ("results", "name", "operands", "props", "seg", "types", "body", "extra")

    def __init__(self):
        self.results = []
        self.operands = []
        self.props = {}
        self.seg = None
        self.types = None
        self.body = None
        self.extra = None


def _expand_results(lhs):
    out = []
    for part in _split_top(lhs):
        m = re.match(r"^(%[^:\s]+)(?::(\d+))?$", part.strip())
        if not m:
            raise ValueError("bad result list: " + lhs)
        if m.group(2):
            out.extend("%s#%d" % (m.group(1), i) for i in range(int(m.group(2))))
        else:
            out.append(m.group(1))
    return out


def _parse_value_list(s):
    s = s.strip()
    return [x.strip() for x in _split_top(s)] if s else []


def _parse_props(text):
    props = {}
    for item in _split_top(text):
        if "=" not in item.split("<")[0].split("[")[0].split('"')[0]:
            props[item.strip()] = True
            continue
        k, v = item.split("=", 1)
        props[k.strip()] = v.strip()
    return props


def _parse_generic(rest, op):
    m = re.match(r'^"([\w.]+)"\((.*?)\)\s*(<\{(.*)\}>)?\s*(\{.*\})?\s*:\s*\((.*?)\)\s*->\s*(.*)$',
                 rest)
    if not m:
        raise ValueError("bad generic op: " + rest)
    op.name = m.group(1)
    op.operands = _parse_value_list(m.group(2))
    raw = _parse_props(m.group(4)) if m.group(4) else {}
    if m.group(5):
        raw.update(_parse_props(m.group(5)[1:-1]))
    rt = m.group(7).strip()
    if rt.startswith("(") and rt.endswith(")"):
        rt = rt[1:-1]
    op.types = [t.strip() for t in _split_top(rt)] if rt else []
    in_types = [t.strip() for t in _split_top(m.group(6))] if m.group(6).strip() else []
    p = op.props
    for k, v in raw.items():
        if k == "operandSegmentSizes":
            op.seg = [int(x) for x in v[v.index(":") + 1:-1].split(",")]
        elif k == "gate_name":
            p["gate_name"] = v.strip('"')
        elif k == "adjoint":
            p["adjoint"] = True
        elif k in ("idx_attr", "nqubits_attr"):
            p[k] = int(v.split(":")[0])
        elif k == "pauli_product":
            p[k] = [x.strip().strip('"') for x in v[1:-1].split(",")]
        elif k == "type":
            p[k] = re.search(r"named_observable\s+(\w+)", v).group(1)
        elif k == "value":
            p[k] = _parse_literal(v, in_types, op.types)
    if op.name == "arith.constant":
        p["type"] = op.types[0]


def _parse_literal(v, _in_types, out_types):
    v = v.strip()
    lit = v.split(":")[0].strip()
    if lit in ("true", "false"):
        return lit == "true"
    t = out_types[0] if out_types else v.split(":")[1].strip()
    if t == "f64":
        if lit.lower().startswith("0x"):
            return bits_f64(int(lit, 16))
        return float(lit)
    return int(lit)


_RE_GATE = re.compile(r"^(?P<head>.*?)\s*(?P<adj>\sadj)?(?:\s+ctrls\((?P<c>[^)]*)\))?"
                      r"(?:\s+ctrlvals\((?P<v>[^)]*)\))?\s*:\s*(?P<types>.*)$")


def _parse_pretty(rest, op):
    name = rest.split()[0].split("(")[0].split("[")[0] if not rest.startswith("return") \
        else "func.return"
    if rest == "return" or rest.startswith("return "):
        name = "func.return"
    op.name = name
    body = rest[len(name):].strip() if name != "func.return" else rest[6:].strip()
    p = op.props
    if name == "quantum.custom" or name == "quantum.paulirot" or name == "quantum.multirz":
        if name == "quantum.custom":
            m = re.match(r'^"(\w+)"\((.*?)\)\s+(.*)$', rest[len("quantum.custom"):].strip())
            p["gate_name"] = m.group(1)
        elif name == "quantum.paulirot":
            m = re.match(r"^\[(.*?)\]\((.*?)\)\s+(.*)$", rest[len("quantum.paulirot"):].strip())
            p["pauli_product"] = [x.strip().strip('"') for x in m.group(1).split(",")]
        else:
            m = re.match(r"^()\((.*?)\)\s+(.*)$", rest[len("quantum.multirz"):].strip())
        params = _parse_value_list(m.group(2))
        tail = m.group(3)
        g = _RE_GATE.match(" " + tail)
        head = g.group("head").strip()
        if head.endswith(" adj") or head == "adj":
            head = head[:-3].strip()
            p["adjoint"] = True
        if g.group("adj"):
            p["adjoint"] = True
        if "{adjoint}" in head:
            head = head.replace("{adjoint}", "").strip()
            p["adjoint"] = True
        qubits = _parse_value_list(head)
        ctrls = _parse_value_list(g.group("c") or "")
        vals = _parse_value_list(g.group("v") or "")
        op.operands = params + qubits + ctrls + vals
        op.seg = [len(params), len(qubits), len(ctrls), len(vals)]
        return
    if name.startswith("quantum.gphase"):
        op.name = "quantum.gphase"
        m = re.match(r"^quantum\.gphase\((.*?)\)(.*)$", rest)
        params = _parse_value_list(m.group(1))
        tail = m.group(2)
        if "adjoint" in tail.split("ctrls")[0]:
            p["adjoint"] = True
        cm = re.search(r"ctrls\(([^)]*)\)", tail)
        vm = re.search(r"ctrlvals\(([^)]*)\)", tail)
        ctrls = _parse_value_list(cm.group(1)) if cm else []
        vals = _parse_value_list(vm.group(1)) if vm else []
        op.operands = params + ctrls + vals
        op.seg = [len(params), len(ctrls), len(vals)]
        return
    if name == "arith.constant":
        m = re.match(r"^(\S+)\s*:\s*(\S+)$", body)
        if m:
            lit, t = m.group(1), m.group(2)
        else:  # i1 without type
            lit, t = body.strip(), "i1"
        p["type"] = t
        p["value"] = _parse_literal(lit + " : " + t, None, [t])
        return
    if name in ("arith.mulf", "arith.addf", "arith.subf", "arith.divf", "arith.negf",
                "arith.addi", "arith.muli", "arith.subi", "math.cos", "math.sin"):
        op.operands = _parse_value_list(body.rsplit(":", 1)[0])
        return
    if name == "arith.index_cast":
        op.operands = [body.split(":")[0].strip()]
        return
    if name == "tensor.extract":
        m = re.match(r"^(%\S+)\[(.*?)\]\s*:\s*(.*)$", body)
        op.operands = [m.group(1)] + _parse_value_list(m.group(2))
        op.extra = m.group(3).strip()
        return
    if name == "tensor.from_elements":
        op.operands = _parse_value_list(body.rsplit(":", 1)[0])
        return
    if name in ("func.return", "scf.yield"):
        op.operands = _parse_value_list(body.rsplit(":", 1)[0]) if ":" in body else []
        return
    if name == "quantum.device":
        m = re.search(r"shots\((%[^)]*)\)", body)
        op.operands = [m.group(1)] if m else []
        return
    if name == "quantum.alloc":
        m = re.match(r"^\(\s*(\S+?)\s*\)", body)
        v = m.group(1)
        if v.startswith("%"):
            op.operands = [v]
        else:
            p["nqubits_attr"] = int(v)
        return
    if name == "quantum.dealloc":
        op.operands = [body.split(":")[0].strip()]
        return
    if name in ("quantum.extract", "quantum.insert"):
        m = re.match(r"^(%\S+?)\[\s*([^\]]*?)\s*\](.*?):", body)
        reg, idx, tail = m.group(1), m.group(2), m.group(3)
        op.operands = [reg]
        if idx.startswith("%"):
            op.operands.append(idx)
        else:
            p["idx_attr"] = int(idx)
        if name == "quantum.insert":
            op.operands.append(tail.strip().lstrip(",").strip())
        return
    if name == "quantum.namedobs":
        m = re.match(r"^(%\S+?)\[\s*(\w+)\s*\]", body)
        op.operands = [m.group(1)]
        p["type"] = m.group(2)
        return
    if name == "quantum.compbasis":
        b2 = body.split(":")[0].strip()
        if b2.startswith("qubits"):
            b2 = b2[len("qubits"):]
        op.operands = _parse_value_list(b2)
        return
    if name in ("quantum.tensor", "quantum.expval", "quantum.var", "quantum.probs",
                "quantum.state"):
        op.operands = _parse_value_list(body.split(":")[0])
        return
    if name == "quantum.device_release":
        return
    raise ValueError("simulator cannot parse op: " + rest)


def _strip_loc_anywhere(s):
    """Remove every ``loc(...)`` (balanced) from ``s``."""
    out = []
    i = 0
    while i < len(s):
        if s.startswith("loc(", i) and (i == 0 or not (s[i - 1].isalnum() or s[i - 1] in "_.")):
            i = _matching_paren(s, i + 3) + 1
            continue
        out.append(s[i])
        i += 1
    return "".join(out)


def _arg_list(text):
    """'%a: t loc(..), %b: u' -> (names, types)."""
    names, types = [], []
    for a in _split_top(_strip_loc_anywhere(text)):
        if not a:
            continue
        nm, t = a.split(":", 1)
        names.append(nm.strip())
        types.append(t.strip().split(" {")[0].strip())
    return names, types


def _matching_paren(s, start):
    """Index of the ')' that closes s[start] == '(' (parentheses in strings
    do not count); len(s) when there is none."""
    depth, q = 0, False
    for j in range(start, len(s)):
        ch = s[j]
        if ch == '"':
            q = not q
        elif not q and ch == "(":
            depth += 1
        elif not q and ch == ")":
            depth -= 1
            if depth == 0:
                return j
    return len(s)


def _paren_body(s, start):
    """Text between s[start] == '(' and its matching ')'."""
    j = _matching_paren(s, start)
    if j == len(s):
        raise ValueError("unbalanced parentheses")
    return s[start + 1:j]


def parse_function(text, name=None):
    """Parse the first ``func.func`` (or the one called ``name``) of the
    text into (arg names, arg types, list of SimOp).  Accepts the pretty and
    the generic form (``"func.func"() <{...}> ({ ^bb0(...): ... })``), with
    or without locations (``-mlir-print-debuginfo``)."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        raw = lines[i].strip()
        m = re.match(r"^func\.func\s+(?:public\s+|private\s+)?@([\w.$]+)\(", raw)
        if m and (name is None or m.group(1) == name):
            names, types = _arg_list(_paren_body(raw, m.end() - 1))
            ops, i = _parse_block(lines, i + 1)
            return names, types, ops
        if raw.startswith('"func.func"'):
            sm = re.search(r'sym_name = "([^"]+)"', raw)
            if name is None or (sm and sm.group(1) == name):
                names, types, ops, i = _parse_generic_region(lines, i + 1)
                return names, types, ops
        i += 1
    raise ValueError("no function found")


def _parse_generic_region(lines, i):
    """Lines from ``^bb0(args):`` to the closing ``})``."""
    raw = lines[i].strip()
    if raw.startswith("^bb"):
        names, types = _arg_list(_paren_body(raw, raw.index("(")))
        i += 1
    else:
        names, types = [], []
    ops, i = _parse_block(lines, i)
    return names, types, ops, i


def _parse_block(lines, i):
    ops = []
    while i < len(lines):
        raw = lines[i]
        ln = _strip_comment_and_loc(raw).strip()
        i += 1
        if not ln:
            continue
        if ln.startswith("}"):
            return ops, i
        op = SimOp()
        rest = ln
        m = re.match(r"^(%[^=]*?)\s*=\s*(.*)$", ln)
        if m and not ln.startswith('"') and "=" in ln.split('"')[0]:
            op.results = _expand_results(m.group(1))
            rest = m.group(2)
        if rest.startswith("scf.for"):
            fm = re.match(r"^scf\.for\s+(%\S+)\s*=\s*(%\S+)\s+to\s+(%\S+)\s+step\s+(%\S+)"
                          r"(?:\s+iter_args\((.*?)\)\s*->\s*\((.*?)\))?\s*\{$", rest)
            op.name = "scf.for"
            iters = []
            inits = []
            if fm.group(5):
                for pair in _split_top(fm.group(5)):
                    a, b = pair.split("=")
                    iters.append(a.strip())
                    inits.append(b.strip())
            op.operands = [fm.group(2), fm.group(3), fm.group(4)] + inits
            op.extra = [fm.group(1)] + iters
            op.body, i = _parse_block(lines, i)
            ops.append(op)
            continue
        if rest.startswith('"') and rest.endswith("({"):
            gm = re.match(r'^"([\w.]+)"\((.*?)\)\s*(<\{.*\}>)?\s*\(\{$', rest)
            op.name = gm.group(1)
            op.operands = _parse_value_list(gm.group(2))
            names, _types, op.body, i = _parse_generic_region(lines, i)
            op.extra = names
            ops.append(op)
            continue
        if rest.startswith('"'):
            _parse_generic(rest, op)
        else:
            _parse_pretty(rest, op)
        ops.append(op)
    return ops, i


def simulate_text(text, args=None, func=None):
    """Run the QNode in ``text`` on a state-vector simulator.

    ``args``: the JSON argument list (numbers for scalars / 0-d tensors, flat
    lists for tensors).  Returns the list of returned values (floats, or flat
    lists of floats for tensors).  Gate conventions are PennyLane's;
    ``quantum.gphase(phi)`` multiplies by exp(-i phi); controls apply the gate
    where each control qubit equals its ctrlval.
    """
    arg_names, arg_types, ops = parse_function(text, func)
    env = {}
    args = args or []
    if len(args) != len(arg_names):
        raise ValueError("function takes %d arguments, got %d" % (len(arg_names), len(args)))
    for nm, t, v in zip(arg_names, arg_types, args):
        if t.startswith("tensor<"):
            env[nm] = Tensor(tensor_shape(t), v if isinstance(v, list) else [v])
        else:
            env[nm] = v
    state = {"sv": None}
    out = _run_block(ops, env, state)
    return [x.value() if isinstance(x, Tensor) else x for x in out]


class Tensor:
    __slots__ = ("shape", "data")

    def __init__(self, shape, data):
        self.shape = list(shape)
        self.data = list(data)

    def value(self):
        return self.data[0] if not self.shape else self.data


class Qubit:
    __slots__ = ("wire",)

    def __init__(self, wire):
        self.wire = wire


class Obs:
    __slots__ = ("kind", "data")

    def __init__(self, kind, data):
        self.kind = kind
        self.data = data


def _run_block(ops, env, st):
    for op in ops:
        n = op.name
        o = [env[x] if x in env else _missing(x) for x in op.operands]
        res = None
        if n == "arith.constant":
            res = [op.props["value"]]
        elif n == "arith.mulf" or n == "arith.muli":
            res = [o[0] * o[1]]
        elif n == "arith.addf" or n == "arith.addi":
            res = [o[0] + o[1]]
        elif n == "arith.subf" or n == "arith.subi":
            res = [o[0] - o[1]]
        elif n == "arith.divf":
            res = [o[0] / o[1]]
        elif n == "arith.negf":
            res = [-o[0]]
        elif n == "math.cos":
            res = [math.cos(o[0])]
        elif n == "math.sin":
            res = [math.sin(o[0])]
        elif n == "arith.index_cast":
            res = [int(o[0])]
        elif n == "tensor.extract":
            t = o[0]
            if len(o) - 1 != len(t.shape):
                raise ValueError("tensor.extract: wrong number of indices")
            flat = 0
            for d, k in zip(t.shape, o[1:]):
                if not 0 <= int(k) < d:
                    raise ValueError("tensor.extract: index out of range")
                flat = flat * d + int(k)
            res = [float(t.data[flat])]
        elif n == "tensor.from_elements":
            res = [Tensor([len(o)] if len(o) != 1 else [], list(o))]
        elif n == "quantum.device":
            pass
        elif n == "quantum.alloc":
            nq = op.props.get("nqubits_attr")
            if nq is None:
                nq = int(o[0])
            st["sv"] = StateVector(nq)
            res = ["reg"]
        elif n == "quantum.extract":
            idx = op.props.get("idx_attr")
            if idx is None:
                idx = int(o[1])
            if not 0 <= idx < st["sv"].n:
                raise ValueError("extract index %d out of range" % idx)
            res = [Qubit(idx)]
        elif n == "quantum.insert":
            res = ["reg"]
        elif n in ("quantum.custom", "quantum.paulirot", "quantum.multirz"):
            s = op.seg
            params = o[:s[0]]
            qs = [x.wire for x in o[s[0]:s[0] + s[1]]]
            cs = [x.wire for x in o[s[0] + s[1]:s[0] + s[1] + s[2]]]
            vs = o[s[0] + s[1] + s[2]:]
            if n == "quantum.custom":
                u = gate_matrix(op.props["gate_name"], params)
            elif n == "quantum.paulirot":
                u = paulirot_matrix(op.props["pauli_product"], params[0])
            else:
                u = multirz_matrix(len(qs), params[0])
            if op.props.get("adjoint"):
                u = dagger(u)
            if len(set(qs) | set(cs)) != len(qs) + len(cs):
                raise ValueError("gate wires not distinct: %s %s" % (qs, cs))
            st["sv"].apply(u, qs, cs, vs)
            res = [Qubit(w) for w in qs + cs]
        elif n == "quantum.gphase":
            s = op.seg
            phi = o[0]
            cs = [x.wire for x in o[1:1 + s[1]]]
            vs = o[1 + s[1]:]
            if op.props.get("adjoint"):
                phi = -phi
            st["sv"].phase(phi, cs, vs)
            res = [Qubit(w) for w in cs]
        elif n == "quantum.namedobs":
            res = [Obs("named", [(op.props["type"], o[0].wire)])]
        elif n == "quantum.tensor":
            res = [Obs("named", [t for x in o for t in x.data])]
        elif n == "quantum.compbasis":
            res = [Obs("basis", [x.wire for x in o])]
        elif n == "quantum.expval":
            res = [st["sv"].expval(o[0].data)]
        elif n == "quantum.var":
            e = st["sv"].expval(o[0].data)
            res = [1.0 - e * e]
        elif n == "quantum.probs":
            res = [Tensor([2 ** len(o[0].data)], st["sv"].probs(o[0].data))]
        elif n in ("quantum.dealloc", "quantum.device_release"):
            pass
        elif n == "scf.for":
            lb, ub, step = int(o[0]), int(o[1]), int(o[2])
            cur = list(o[3:])
            for it in range(lb, ub, step):
                env[op.extra[0]] = it
                for nm, v in zip(op.extra[1:], cur):
                    env[nm] = v
                cur = _run_block(op.body, env, st)
            res = cur
        elif n == "scf.yield":
            return o
        elif n == "func.return":
            return o
        else:
            raise ValueError("simulator: unsupported op " + n)
        if res is not None:
            if len(res) != len(op.results):
                raise ValueError("result count mismatch for %s" % n)
            for nm, v in zip(op.results, res):
                env[nm] = v
    return None


def _missing(name):
    raise ValueError("use of undefined value " + name)


# --------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--wires", type=int, default=None)
    ap.add_argument("--gates", type=int, default=None)
    ap.add_argument("--no-runtime", action="store_true",
                    help="no runtime (argument) parameters")
    ap.add_argument("--consts", choices=["hoist", "inline"], default="hoist")
    ap.add_argument("--rewrite", action="append", default=[],
                    help="meaning-preserving rewrite (repeatable; 'all' for every one): "
                    + ", ".join(REWRITES))
    ap.add_argument("--mutate", default=None,
                    help="meaning-changing mutation: " + ", ".join(MUTATIONS))
    ap.add_argument("--rewrite-seed", type=int, default=None,
                    help="seed of the rewrite/mutation choices (default: --seed)")
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--args-out", default=None, help="write the argument JSON here")
    ap.add_argument("--list", action="store_true", help="list rewrites and mutations")
    ap.add_argument("--simulate", metavar="FILE", default=None,
                    help="simulate FILE (MLIR) and print the results as JSON")
    ap.add_argument("--args", default=None, help="argument JSON for --simulate")
    a = ap.parse_args(argv)
    if a.list:
        print("rewrites:  " + " ".join(list(REWRITES) + ["all"]))
        print("mutations: " + " ".join(MUTATIONS))
        return 0
    if a.simulate:
        with open(a.simulate) as fh:
            text = fh.read()
        args = []
        if a.args:
            with open(a.args) as fh:
                args = json.load(fh)
        print(json.dumps(simulate_text(text, args)))
        return 0
    for r in a.rewrite:
        if r not in REWRITES and r != "all":
            ap.error("unknown rewrite %r" % r)
    if a.mutate and a.mutate not in MUTATIONS:
        ap.error("unknown mutation %r" % a.mutate)
    m = generate(a.seed, a.wires, a.gates, runtime=not a.no_runtime, consts=a.consts)
    rng = random.Random(a.seed if a.rewrite_seed is None else a.rewrite_seed)
    for r in a.rewrite:
        m = apply_rewrite(m, r, rng)
    if a.mutate:
        m = apply_mutation(m, a.mutate, rng)
    text = print_module(m)
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as fh:
            fh.write(text)
    if a.args_out:
        with open(a.args_out, "w") as fh:
            json.dump(default_args(m, a.seed), fh)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:          # e.g. piped into head
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
