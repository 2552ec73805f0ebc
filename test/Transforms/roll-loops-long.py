# Long loop bodies for qshape-roll-loops, checked by the oracle: seeded
# random bodies of 1k-20k gates on up to 10 qubits, repeated; with an
# interruption between two copies; and with a near-repeat (one copy
# differs from the others in one gate). Each rolled program must simulate
# like its input (qshape-sim, 1e-9), pass verify-roundtrip and
# qshape-check-linearity. Bodies whose gates all touch one wire (so that
# the copies stay contiguous) must roll as far as their structure allows:
#  - a clean repeat becomes one loop over all copies (at most body + 1/4 of
#    a body left, the loop's overhead included);
#  - an interruption leaves the copies on each side rolled or alone, never
#    a loop across it;
#  - a near-repeat is never rolled over the copy that differs (the ops
#    left cover at least that copy and one other body).
#
# RUN: %python %s --workdir %t
import argparse
import json
import os
import random
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COMPARE = os.path.join(HERE, "..", "..", "utils", "compare-results.py")

ONE = ["Hadamard", "S", "T", "PauliX"]
ROT = ["RX", "RY", "RZ"]


def body(rng, wires, size, chain):
    """`size` random gates: (name, wires, angle index or None). With
    `chain`, every gate touches wire 0 (gates on wire 0, or two-qubit gates
    between wire 0 and another wire), so the copies follow each other in
    every schedule; without, gates on other wires of the next copy may be
    scheduled among the last gates of a copy."""
    gates = []
    for _ in range(size):
        r = rng.random()
        w = 0 if chain else rng.randrange(wires)
        if r < 0.4:
            gates.append((rng.choice(ONE), [w], None))
        elif r < 0.75:
            gates.append((rng.choice(ROT), [w], rng.randrange(8)))
        else:
            a, b = (0, rng.randrange(1, wires)) if chain else rng.sample(range(wires), 2)
            if rng.random() < 0.5:
                a, b = b, a
            gates.append(("CNOT", [a, b], None))
    return gates


def emit(copies, wires, path):
    """One QNode applying the gate lists in `copies` in order (an entry
    None is an interruption: two gates on wire 0 that no body holds)."""
    out = ["module @module_circuit {",
           f"  func.func public @circuit(%arg0: tensor<8xf64>) -> tensor<{2 ** wires}xf64> "
           "attributes {qnode} {",
           "    %c0_i64 = arith.constant 0 : i64"]
    for i in range(8):
        out.append(f"    %ci{i} = arith.constant {i} : index")
        out.append(f"    %a{i} = tensor.extract %arg0[%ci{i}] : tensor<8xf64>")
    out.append('    quantum.device shots(%c0_i64) ["/path/liblightning_qubit_catalyst.so", '
               '"LightningSimulator", "{}"]')
    out.append(f"    %r = quantum.alloc( {wires}) : !quantum.reg")
    cur = []
    for w in range(wires):
        out.append(f"    %w{w} = quantum.extract %r[ {w}] : !quantum.reg -> !quantum.bit")
        cur.append(f"%w{w}")
    n = 0
    for gates in copies:
        if gates is None:
            gates = [("PhaseShift", [0], 7), ("Hadamard", [0], None)]
        for name, ws, angle in gates:
            n += 1
            args = f"(%a{angle})" if angle is not None else "()"
            ins = ", ".join(cur[w] for w in ws)
            if len(ws) == 1:
                out.append(f'    %g{n} = quantum.custom "{name}"{args} {ins} : !quantum.bit')
                cur[ws[0]] = f"%g{n}"
            else:
                out.append(f'    %g{n}:2 = quantum.custom "{name}"{args} {ins} : '
                           "!quantum.bit, !quantum.bit")
                for k, w in enumerate(ws):
                    cur[w] = f"%g{n}#{k}"
    reg = "%r"
    for w in range(wires):
        out.append(f"    %i{w} = quantum.insert {reg}[ {w}], {cur[w]} : !quantum.reg, !quantum.bit")
        reg = f"%i{w}"
    out.append(f"    %obs = quantum.compbasis qreg {reg} : !quantum.obs")
    out.append(f"    %p = quantum.probs %obs : tensor<{2 ** wires}xf64>")
    out.append(f"    quantum.dealloc {reg} : !quantum.reg")
    out.append("    quantum.device_release")
    out.append(f"    return %p : tensor<{2 ** wires}xf64>")
    out.append("  }")
    out.append("}")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def count_ops(path):
    out = run(["qshape-opt", path, "--qshape-stats=output=-", "-o", os.devnull])
    return json.loads(out.stdout)["ops"]


def check(name, copies, wires, workdir, seed, expect):
    src = os.path.join(workdir, f"{name}.mlir")
    rolled = os.path.join(workdir, f"{name}.rolled.mlir")
    args = os.path.join(workdir, f"{name}.args.json")
    emit(copies, wires, src)
    rng = random.Random(seed)
    with open(args, "w") as f:
        json.dump([[rng.uniform(-3, 3) for _ in range(8)]], f)
    r = run(["qshape-opt", src, "--qshape-roll-loops=verify-roundtrip", "--qshape-check-linearity",
             "-o", rolled])
    if r.returncode != 0:
        return f"{name}: qshape-roll-loops failed:\n{r.stderr.strip()[:800]}"
    outs = []
    for f in (src, rolled):
        s = run(["qshape-sim", f, "--args", "@" + args])
        if s.returncode != 0:
            return f"{name}: qshape-sim failed on {f}:\n{s.stderr.strip()[:800]}"
        with open(f + ".out.json", "w") as o:
            o.write(s.stdout)
        outs.append(f + ".out.json")
    c = run([sys.executable, COMPARE, outs[0], outs[1], "--tol", "1e-9"])
    if c.returncode != 0:
        return f"{name}: results differ after rolling: {c.stderr.strip()}"
    before, after = count_ops(src), count_ops(rolled)
    problem = expect(before, after)
    print(f"{name}: {before} -> {after} ops" + (f" ({problem})" if problem else ""))
    return f"{name}: {problem}" if problem else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    failures = []
    # (body size, wires, copies): bodies far beyond the former max-period of
    # 256, up to 20k gates.
    for i, (size, wires, k) in enumerate([(1000, 6, 4), (5000, 10, 3), (20000, 8, 3)]):
        rng = random.Random(100 + i)
        # Bodies on parallel wires: the oracle checks only (see the report
        # printed; the canonical schedule interleaves such copies).
        if size <= 5000:
            free = body(rng, wires, size, chain=False)
            failures.append(check(f"parallel-{size}", [free] * k, wires, args.workdir, i,
                                  lambda before, after: None))
        b = body(rng, wires, size, chain=True)
        fixed = 2 * 8 + 4 + 3 * wires  # argument reads, device, register, measurement
        # One loop over all k copies: one body and its overhead remain.
        failures.append(check(f"repeat-{size}", [b] * k, wires, args.workdir, i,
                              lambda before, after, size=size, fixed=fixed:
                              None if after <= fixed + size * 5 // 4
                              else f"expected one loop of the {size}-gate body"))
        # An interruption between two groups of k copies: each group rolls
        # (two bodies and their overheads remain), and no loop holds the
        # interruption (that would leave about one body).
        failures.append(check(f"interrupted-{size}", [b] * k + [None] + [b] * k, wires,
                              args.workdir, i,
                              lambda before, after, size=size, fixed=fixed:
                              None if fixed + size <= after <= fixed + 2 * size + size // 2
                              else "expected two loops or one loop and two copies"))
        # A near-repeat: copy 1 of k + 2 has one gate replaced. A loop may
        # cover the copies after it (from inside it, rotated), never it.
        near = list(b)
        pos = rng.randrange(size)
        name, ws, angle = near[pos]
        near[pos] = ("RY" if name != "RY" else "RZ", [ws[0]], 3)
        failures.append(check(f"near-{size}", [b, near] + [b] * k, wires, args.workdir, i,
                              lambda before, after, size=size, fixed=fixed:
                              None if fixed + 2 * size <= after <= fixed + 3 * size + size // 2
                              else "the differing copy must stay out of the loop"))
    failures = [f for f in failures if f]
    for f in failures:
        print("FAIL:", f)
    print(f"roll-loops long bodies: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
