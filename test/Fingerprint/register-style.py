# Register style does not change the fingerprint. Seeded random programs on
# one to three registers, with scf.for loops that carry the registers, are
# printed in three register styles that Catalyst's frontends produce:
#   per-gate  an extract and an insert around every gate;
#   threaded  one extract per wire at the start of each straight-line part
#             (the function body between loops, a loop body), one insert per
#             wire at its end, in a random order;
#   mixed     threaded, but after a gate a wire goes back to its register
#             now and then, and is extracted again at its next use.
# The three must have equal exact and shape digests (the canonical form
# sorts the last inserts of a chain by index: lib/Fingerprint/
# CanonicalRules.def, sortInsertChains), qshape-sim must give the same
# results for each program and its canonical form (the oracle), and the
# canonical form must stay linear (qshape-check-linearity).
#
# RUN: %python %s %if asan %{--cases 10%} %else %{--cases 40%} --workdir %t | FileCheck %s
# CHECK: register styles: {{(40|10)}} programs, 3 styles each, {{[0-9]+}} loops, {{[0-9]+}} with several registers: equal digests, equal results, linear: 0 failures
import argparse
import json
import os
import random
import shutil
import subprocess
import sys

GATES = {  # name: (parameters, qubits)
    "Hadamard": (0, 1), "PauliX": (0, 1), "S": (0, 1), "T": (0, 1),
    "RX": (1, 1), "RY": (1, 1), "RZ": (1, 1),
    "CNOT": (0, 2), "CZ": (0, 2), "CRX": (1, 2), "IsingXX": (1, 2),
    "Toffoli": (0, 3),
}
QUBIT = "!quantum.bit"
QREG = "!quantum.reg"


def random_program(rng, sizes, depth=0):
    """A list of steps: ("gate", name, angle or None, [(register, wire)]) or
    ("loop", trips, [steps])."""
    wires = [(r, w) for r, n in enumerate(sizes) for w in range(n)]
    steps = []
    for _ in range(rng.randint(3, 9)):
        if depth < 2 and rng.random() < 0.15:
            steps.append(("loop", rng.randint(1, 3), random_program(rng, sizes, depth + 1)))
            continue
        name = rng.choice([g for g, (_, k) in GATES.items() if k <= len(wires)])
        npar, k = GATES[name]
        angle = round(rng.uniform(-3.1, 3.1), 6) if npar else None
        steps.append(("gate", name, angle, rng.sample(wires, k)))
    return steps


class Printer:
    def __init__(self, style, rng):
        self.style, self.rng = style, rng
        self.lines, self.counter, self.consts = [], 0, {}
        self.shots = self.const(0, "i64")

    def fresh(self, base="v"):
        self.counter += 1
        return f"%{base}{self.counter}"

    def emit(self, depth, text):
        self.lines.append("  " * (2 + depth) + text)

    def const(self, value, type_):
        key = (value, type_)
        if key not in self.consts:
            self.consts[key] = self.fresh("c")
        return self.consts[key]

    def extract(self, depth, regs, live, rw):
        if rw not in live:
            q = self.fresh("q")
            self.emit(depth, f"{q} = quantum.extract {regs[rw[0]]}[ {rw[1]}] : {QREG} -> {QUBIT}")
            live[rw] = q
        return live[rw]

    def insert(self, depth, regs, live, rw):
        r = self.fresh("r")
        self.emit(depth, f"{r} = quantum.insert {regs[rw[0]]}[ {rw[1]}], {live.pop(rw)} : "
                         f"{QREG}, {QUBIT}")
        regs[rw[0]] = r

    def insert_all(self, depth, regs, live):
        order = list(live)
        self.rng.shuffle(order)
        for rw in order:
            self.insert(depth, regs, live, rw)

    def gate(self, depth, regs, live, name, angle, rws):
        qs = [self.extract(depth, regs, live, rw) for rw in rws]
        params = f"({self.const(angle, 'f64')})" if angle is not None else "()"
        outs = self.fresh("g")
        lhs = outs if len(qs) == 1 else f"{outs}:{len(qs)}"
        self.emit(depth, f'{lhs} = quantum.custom "{name}"{params} {", ".join(qs)} : '
                         f'{", ".join([QUBIT] * len(qs))}')
        for k, rw in enumerate(rws):
            live[rw] = outs if len(qs) == 1 else f"{outs}#{k}"
        if self.style == "per-gate":
            for rw in rws:
                self.insert(depth, regs, live, rw)
        elif self.style == "mixed":
            for rw in rws:
                if self.rng.random() < 0.3:
                    self.insert(depth, regs, live, rw)

    def part(self, depth, regs, steps):
        """Prints `steps` with the registers `regs` (a list, updated). Returns
        the live qubits by wire; before a loop, every wire is back in its
        register (the loop carries registers only)."""
        live = {}
        for k, step in enumerate(steps):
            starts_run = step[0] == "gate" and (k == 0 or steps[k - 1][0] == "loop")
            if starts_run and self.style != "per-gate":  # the run's wires first
                end = next((j for j in range(k, len(steps)) if steps[j][0] == "loop"), len(steps))
                used = sorted({rw for s in steps[k:end] for rw in s[3]})
                self.rng.shuffle(used)
                for rw in used:
                    self.extract(depth, regs, live, rw)
            if step[0] == "gate":
                self.gate(depth, regs, live, *step[1:])
                continue
            _, trips, body = step
            self.insert_all(depth, regs, live)
            args = [self.fresh("a") for _ in regs]
            results = self.fresh("l")
            iv = self.fresh("i")
            iters = ", ".join(f"{a} = {r}" for a, r in zip(args, regs))
            self.emit(depth, f"{results}:{len(regs)} = scf.for {iv} = {self.const(0, 'index')} to "
                             f"{self.const(trips, 'index')} step {self.const(1, 'index')} "
                             f"iter_args({iters}) -> ({', '.join([QREG] * len(regs))}) {{")
            inner = list(args)
            self.insert_all(depth + 1, inner, self.part(depth + 1, inner, body))
            self.emit(depth + 1, f"scf.yield {', '.join(inner)} : {', '.join([QREG] * len(regs))}")
            self.emit(depth, "}")
            for i in range(len(regs)):
                regs[i] = f"{results}#{i}"
        return live

    def module(self, sizes, steps, measured):
        regs = []
        for n in sizes:
            r = self.fresh("r")
            self.emit(0, f"{r} = quantum.alloc( {n}) : {QREG}")
            regs.append(r)
        live = self.part(0, regs, steps)
        results = []
        for rw in measured:
            q = self.extract(0, regs, live, rw)
            obs, e = self.fresh("o"), self.fresh("e")
            self.emit(0, f"{obs} = quantum.namedobs {q}[ PauliZ] : !quantum.obs")
            self.emit(0, f"{e} = quantum.expval {obs} : f64")
            results.append(e)
            if self.style == "per-gate":
                self.insert(0, regs, live, rw)
        self.insert_all(0, regs, live)
        for r in regs:
            self.emit(0, f"quantum.dealloc {r} : {QREG}")
        self.emit(0, "quantum.device_release")
        self.emit(0, f"return {', '.join(results)} : {', '.join(['f64'] * len(results))}")
        head = ["module {",
                f"  func.func public @circuit() -> ({', '.join(['f64'] * len(results))}) "
                "attributes {qnode} {"]
        for (value, type_), name in self.consts.items():
            literal = repr(float(value)) if type_ == "f64" else str(value)
            head.append(f"    {name} = arith.constant {literal} : {type_}")
        head.append(f"    quantum.device shots({self.shots}) "
                    '["/path/liblightning_qubit_catalyst.so", "LightningSimulator", "{}"]')
        return "\n".join(head + self.lines + ["  }", "}", ""])


def count_loops(steps):
    return sum(1 + count_loops(s[2]) for s in steps if s[0] == "loop")


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {out.returncode}: {out.stderr.strip()}")
    return out.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=40)
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    styles = ["per-gate", "threaded", "mixed"]
    failures, loops, multi = [], 0, 0
    for case in range(args.cases):
        rng = random.Random(args.seed + case)
        sizes = [rng.randint(2, 4) for _ in range(rng.choice([1, 1, 2, 3]))]
        steps = random_program(rng, sizes)
        if case % 4 == 0 and not count_loops(steps):  # a loop in every fourth, at least
            steps.append(("loop", 2, random_program(rng, sizes, 1)))
        wires = [(r, w) for r, n in enumerate(sizes) for w in range(n)]
        measured = rng.sample(wires, rng.randint(1, min(3, len(wires))))
        loops += count_loops(steps)
        multi += len(sizes) > 1
        paths = []
        for style in styles:
            path = os.path.join(args.workdir, f"c{case}-{style}.mlir")
            with open(path, "w") as f:
                f.write(Printer(style, random.Random(rng.random())).module(sizes, steps, measured))
            paths.append(path)
        try:
            digests = [line.split(" ", 2)[:2] for line in
                       run(["qshape-fingerprint"] + paths).splitlines()]
            if any(d != digests[0] for d in digests):
                failures.append(f"case {case}: digests differ: " + "; ".join(
                    f"{s} {d[0]}" for s, d in zip(styles, digests)))
            expected = json.loads(run(["qshape-sim", paths[0]]))["results"]
            for style, path in zip(styles, paths):
                canonical = path + ".canonical.mlir"
                run(["qshape-opt", path, "--qshape-canonicalize", "--qshape-check-linearity",
                     "-o", canonical])
                for p in (path, canonical):
                    got = json.loads(run(["qshape-sim", p]))["results"]
                    if len(got) != len(expected) or any(
                            abs(a - b) > 1e-9 for a, b in zip(got, expected)):
                        failures.append(f"case {case}: {os.path.basename(p)}: {got} != {expected}")
        except RuntimeError as e:
            failures.append(f"case {case}: {e}")
    for f in failures[:10]:
        print("FAIL:", f)
    print(f"register styles: {args.cases} programs, {len(styles)} styles each, {loops} loops, "
          f"{multi} with several registers: equal digests, equal results, linear: "
          f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
