# The oracle check for qshape-lower-ctrl and qshape-lower-adjoint: programs
# with quantum.ctrl and quantum.adjoint regions must simulate (qshape-sim,
# which runs the regions itself with a modifier stack) to the same results
# after the regions are lowered, in either order of the two passes, and the
# lowered programs must hold no region op.
#
# - W2 written as Catalyst's frontend traces it: for each estimation qubit,
#   ctrl(adjoint(TrotterProduct)) as a quantum.ctrl region around a
#   quantum.adjoint region around the forward Trotter circuit; it must also
#   match the flat W2 of utils/gen/workloads.py.
# - random circuits (utils/gen/randcircuit.py's gate mix) with loops over the
#   register (constant and dynamic trip counts, dynamic wires, angles from
#   the induction variable), wrapped at random in nested adjoint and ctrl
#   regions whose controls are ancilla qubits in superposition.
#
# RUN: %python %s %if asan %{--seeds 15%} %else %{--seeds 60%} --workdir %t
import argparse
import copy
import json
import os
import random
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "utils"))
from gen import randcircuit as rc  # noqa: E402
from gen import workloads  # noqa: E402

COMPARE = os.path.join(ROOT, "utils", "compare-results.py")
GATE_OPS = ("quantum.custom", "quantum.paulirot", "quantum.multirz", "quantum.gphase")
REGION_OPS = ("quantum.adjoint", "quantum.ctrl")


def is_quantum(v):
    return v.type in (rc.QUBIT, rc.QREG)


class RegionPrinter(rc.Printer):
    """randcircuit's printer, plus quantum.adjoint/ctrl (generic form with
    segment sizes) and quantum.yield."""

    def _print_generic_region_op(self, op, emit, depth):
        if op.name not in REGION_OPS:
            return super()._print_generic_region_op(op, emit, depth)
        ind = self.indent * depth
        props = ""
        if op.name == "quantum.ctrl":
            props = " <{operandSegmentSizes = array<i32: %d, %d, %d>, " \
                    "resultSegmentSizes = array<i32: %d, %d>}>" % (tuple(op.seg) + tuple(op.rseg))
        emit(ind + self._lhs(op) + '"%s"(%s)%s ({' % (op.name, self.ns(op.operands), props))
        blk = op.regions[0]
        emit(ind + "^bb0(%s):" % ", ".join("%s: %s" % (self.n(a), a.type) for a in blk.args))
        self._print_block(blk, emit, depth + 1)
        in_t = ", ".join(v.type for v in op.operands)
        out_t = ", ".join(v.type for v in op.results)
        emit(ind + "}) : (%s) -> (%s)" % (in_t, out_t))

    def _pretty(self, op):
        if op.name == "arith.sitofp":
            return "arith.sitofp %s : %s to %s" % (self.n(op.operands[0]), op.operands[0].type,
                                                   op.results[0].type)
        if op.name == "quantum.yield":
            return "quantum.yield %s : %s" % (self.ns(op.operands),
                                              ", ".join(v.type for v in op.operands))
        return super()._pretty(op)


def print_module(module):
    return RegionPrinter().print_module(module)


def quantum_in_out(op):
    """The (consumed, produced) quantum values of an op, paired 1:1."""
    ins = [v for v in op.operands if is_quantum(v)]
    outs = [v for v in op.results if is_quantum(v)]
    assert len(ins) == len(outs), op.name
    return ins, outs


def replace_uses(ops, old, new):
    for op in ops:
        op.operands = [new if v is old else v for v in op.operands]
        for blk in op.regions:
            replace_uses(blk.ops, old, new)


def wrap(ops, i, j, kind, ctrl=None, ctrlval=None, toggle_reverse=False):
    """Moves ops[i:j] into a region op placed at i; classical ops of the
    window go before it. kind: "quantum.adjoint" or "quantum.ctrl" (then
    `ctrl` is a qubit value the window does not use). With toggle_reverse,
    the body is the window reversed with every adjoint flag flipped (so an
    adjoint region of it equals the window). Returns the region op and a
    map from each consumed outer value to the region result replacing its
    final value."""
    window = ops[i:j]
    classical = [op for op in window if not op.regions and not op.name.startswith("quantum.")
                 and not any(is_quantum(v) for v in op.operands + op.results)]
    qops = [op for op in window if op not in classical]
    # Each consumed outer value starts a wire; outputs continue their input's.
    wire, live_in, final = {}, [], []
    for op in qops:
        for v, o in zip(*quantum_in_out(op)):
            if id(v) not in wire:
                wire[id(v)] = len(live_in)
                live_in.append(v)
                final.append(v)
            wire[id(o)] = wire[id(v)]
            final[wire[id(v)]] = o
    args = [rc.Value(v.type) for v in live_in]
    if toggle_reverse:
        cur = list(args)
        body = []
        for op in reversed(qops):
            new = copy.copy(op)
            new.props = dict(op.props)
            if new.props.pop("adjoint", False) is False:
                new.props["adjoint"] = True
            new.results = [rc.Value(v.type) for v in op.results]
            pairs = dict(zip(map(id, quantum_in_out(op)[0]), quantum_in_out(new)[1]))
            new.operands = [cur[wire[id(v)]] if id(v) in pairs else v for v in op.operands]
            for v in quantum_in_out(op)[0]:
                cur[wire[id(v)]] = pairs[id(v)]
            body.append(new)
        yields = cur
    else:
        body = qops
        for v, a in zip(live_in, args):
            replace_uses(body, v, a)
        yields = final
    body.append(rc.Op("quantum.yield", yields, []))
    body[-1].generic = True
    blk = rc.Block(args, body)
    if kind == "quantum.adjoint":
        region = rc.Op(kind, live_in, [v.type for v in live_in], regions=[blk])
        outs = region.results
    else:
        region = rc.Op(kind, [ctrl, ctrlval] + live_in,
                       [rc.QUBIT] + [v.type for v in live_in], regions=[blk])
        region.seg = [1, 1, len(live_in)]
        region.rseg = [1, len(live_in)]
        outs = region.results[1:]
    region.generic = True
    rest = ops[j:]
    for f, o in zip(final, outs):
        replace_uses(rest, f, o)
    if kind == "quantum.ctrl":
        replace_uses(rest, ctrl, region.results[0])
    ops[i:j] = classical + [region]
    return region, {id(v): o for v, o in zip(live_in, outs)}


# --------------------------------------------------------------------------
# W2 as traced: ctrl(adjoint(TrotterProduct)) per estimation qubit
# --------------------------------------------------------------------------

def strip_control(op):
    """The gate without its (single, last) control."""
    new = copy.copy(op)
    p, q, c, v = op.seg if op.name != "quantum.gphase" else (op.seg[0], 0, op.seg[1], op.seg[2])
    assert c == 1 and v == 1, op.seg
    new.operands = op.operands[:p + q]
    ctrl, val = op.operands[p + q], op.operands[p + q + 1]
    if op.name == "quantum.gphase":
        new.seg = [p, 0, 0]
        new.results = []
        out = op.results[0]
    else:
        new.seg = [p, q, 0, 0]
        new.rseg = [q, 0]
        new.results = op.results[:q]
        out = op.results[q]
    new.props = dict(op.props)
    return new, ctrl, val, out


def w2_regions(n_trotter):
    module = workloads.build_w2(n_trotter=n_trotter, prep="standard", adjoint_style="flag")
    ops = module.funcs[0].body.ops
    # The controlled blocks: maximal runs of gates controlled by one qubit chain.
    k = 0
    while k < len(ops):
        op = ops[k]
        if op.name not in GATE_OPS or not op.seg or op.seg[-2] != 1:
            k += 1
            continue
        j, chain, run = k, None, []
        while j < len(ops):
            o = ops[j]
            if o.name in GATE_OPS and o.seg and o.seg[-2] == 1:
                p = o.seg[0] + (o.seg[1] if o.name != "quantum.gphase" else 0)
                c = o.operands[p]
                if chain is not None and c is not chain:
                    break
                chain = o.results[-1]
                run.append(j)
            elif o.name == "quantum.extract":
                # the register is not written before the end: read it first
                ops.insert(k, ops.pop(j))
                k += 1
                run = [r + 1 for r in run]
            elif o.name in GATE_OPS or any(is_quantum(v) for v in o.operands + o.results):
                break
            j += 1
        # Strip the control from the run, remembering the chain's ends.
        first_ctrl = last_out = val = None
        for idx in run:
            new, ctrl, v, out = strip_control(ops[idx])
            if first_ctrl is None:
                first_ctrl, val = ctrl, v
            last_out = out
            new.generic = True  # a gphase without controls has no pretty form here
            ops[idx] = new
        end = run[-1] + 1
        # adjoint region of the reversed, flag-flipped run == the run.
        adj, _ = wrap(ops, k, end, "quantum.adjoint", toggle_reverse=True)
        pos = ops.index(adj)
        wrap(ops, pos, pos + 1, "quantum.ctrl", ctrl=first_ctrl, ctrlval=val)
        ctrl_op = ops[pos]
        replace_uses(ops[pos + 1:], last_out, ctrl_op.results[0])
        k = pos + 1
    return module


# --------------------------------------------------------------------------
# Random circuits with register loops and nested regions
# --------------------------------------------------------------------------

def random_gate(b, rng, wires, params):
    r = rng.random()
    if r < 0.08:
        n = rng.randint(1, min(3, len(wires)))
        ws = rng.sample(wires, n)
        return b.paulirot("".join(rng.choice("XYZ") for _ in ws), params(), ws, adj=rng.random() < 0.3)
    if r < 0.14:
        ws = rng.sample(wires, rng.randint(1, min(3, len(wires))))
        return b.multirz(params(), ws, adj=rng.random() < 0.3)
    if r < 0.18:
        c = rng.choice(wires)
        return b.gphase(params(), [c], [rng.random() < 0.7])
    name = rng.choice(rc.GATE_NAMES)
    npar, nw = rc.GATES[name]
    if nw > len(wires):
        name, npar, nw = "RY", 1, 1
    ws = rng.sample(wires, nw)
    free = [w for w in wires if w not in ws]
    ctrls = rng.sample(free, 1) if free and rng.random() < 0.2 else []
    return b.gate(name, [params() for _ in range(npar)], ws, ctrls,
                  [rng.random() < 0.7 for _ in ctrls], adj=rng.random() < 0.25)


def register_loop(b, rng, nwires):
    """scf.for over wires lo..hi-1 of the register: dynamic extract/insert,
    an angle from the induction variable, and a gate between wire i and
    wire i+1 when there is one."""
    b.insert_all()
    lo = rng.randint(0, 1)
    hi = rng.randint(lo + 1, nwires - 1)
    step = rng.choice([1, 1, 2])
    c_lo, c_step = b.const(lo, "index"), b.const(step, "index")
    if rng.random() < 0.5:
        c_hi = b.const(hi, "index")
    else:  # not a constant op: the lowering must compute the trip count
        c_hi = b.emit("arith.addi", [b.const(hi - 1, "index"), b.const(1, "index")],
                      ["index"]).results[0]
    scale = b.const(rng.uniform(-1.5, 1.5), "f64")
    name2 = rng.choice(["CNOT", "CZ", "IsingXX", "CRY", "SWAP"])

    def body(iv, iters):
        reg = iters[0]
        i64 = b.emit("arith.index_cast", [iv], ["i64"]).results[0]
        one = b.const(1, "i64")
        j64 = b.emit("arith.addi", [i64, one], ["i64"]).results[0]
        f = b.emit("arith.sitofp", [i64], ["f64"]).results[0]
        theta = b.binop("arith.mulf", f, scale)
        q = b.emit("quantum.extract", [reg, i64], [rc.QUBIT]).results[0]
        p = b.emit("quantum.extract", [reg, j64], [rc.QUBIT]).results[0]
        q = b.gate_on(rng.choice(["RX", "RY", "RZ", "PhaseShift"]), [theta], [q],
                      adj=rng.random() < 0.3)[0]
        npar = rc.GATES[name2][0]
        q, p = b.gate_on(name2, [theta] * npar, [q, p])
        q = b.gate_on("Hadamard", [], [q])[0]
        reg = b.emit("quantum.insert", [reg, i64, q], [rc.QREG]).results[0]
        reg = b.emit("quantum.insert", [reg, j64, p], [rc.QREG]).results[0]
        return [reg]

    b.reg = b.scf_for(c_lo, c_hi, c_step, [b.reg], body)[0]


def random_program(seed):
    rng = random.Random(seed)
    nwires = rng.randint(3, 5)
    nanc = 2
    b = rc.QNodeBuilder(nwires + nanc, ["tensor<4xf64>"])
    wires = list(range(nwires))
    anc = list(range(nwires, nwires + nanc))

    def params():
        if rng.random() < 0.3:
            return b.tensor_extract(b.args[0], [rng.randrange(4)])
        return b.const(rng.uniform(-3.1, 3.1), "f64")

    for w in wires:
        b.gate("RY", [b.const(rng.uniform(-3, 3), "f64")], [w])
    for a in anc:
        b.gate("Hadamard", [], [a])
    # Segments of gates or loops; windows of them get wrapped below. The
    # ancillas are extracted once, up front, so their values are live across
    # every window (they are the controls).
    anc_values = [b.qubit(a) for a in anc]
    segments = []
    for _ in range(rng.randint(3, 6)):
        start = len(b.ops)
        if rng.random() < 0.45:
            # the loop needs every qubit of the register back; the ancillas
            # stay extracted (they are not touched inside windows)
            saved = {a: b.wire.pop(a) for a in anc}
            register_loop(b, rng, nwires)
            b.wire.update(saved)
        else:
            for _ in range(rng.randint(2, 6)):
                random_gate(b, rng, wires, params)
        segments.append((start, len(b.ops)))
    results = [b.probs(wires)]
    obs = b.namedobs(anc[0], "PauliX")
    results.append(b.scalar_tensor(b.expval(obs)))
    module = b.finish(results)
    return module, rng, anc_values


def wrap_randomly(module, rng, nanc_values):
    ops = module.funcs[0].body.ops
    wrappable = lambda op: (op.name in GATE_OPS + REGION_OPS or op.name == "scf.for" or
                            (not op.name.startswith("quantum.") and
                             not any(is_quantum(v) for v in op.operands + op.results)))
    ancillas = nanc_values
    for _ in range(rng.randint(1, 4)):
        # a window of wrappable ops that holds at least one quantum op
        candidates = []
        for i in range(len(ops)):
            for j in range(i + 1, min(len(ops), i + 12) + 1):
                win = ops[i:j]
                if not all(wrappable(o) for o in win):
                    break
                if any(o.name in GATE_OPS + REGION_OPS + ("scf.for",) for o in win):
                    candidates.append((i, j))
        if not candidates:
            break
        loops = [c for c in candidates if any(o.name == "scf.for" for o in ops[c[0]:c[1]])]
        i, j = rng.choice(loops if loops and rng.random() < 0.6 else candidates)
        window = ops[i:j]
        used = set()
        for o in window:
            for v in o.operands:
                used.add(id(v))
            stack = list(o.regions)
            while stack:
                blk = stack.pop()
                for inner in blk.ops:
                    used.update(id(v) for v in inner.operands)
                    stack.extend(inner.regions)
        def defined_before(a):
            # the ancilla's current value must exist where the region goes
            for pos, o in enumerate(ops[:i]):
                if any(r is a for r in o.results):
                    return True
            return False

        free = [k for k, a in enumerate(ancillas) if id(a) not in used and defined_before(a)]
        if free and rng.random() < 0.5:
            k = rng.choice(free)
            val = rc.Op("arith.constant", [], ["i1"], {"value": rng.random() < 0.6, "type": "i1"})
            ops.insert(i, val)
            region, outs = wrap(ops, i + 1, j + 1, "quantum.ctrl", ctrl=ancillas[k],
                                ctrlval=val.results[0])
            ancillas[k] = region.results[0]
        else:
            region, outs = wrap(ops, i, j, "quantum.adjoint")
        # an ancilla consumed by the window (as a control inside) continues
        # as a result of the region
        ancillas[:] = [outs.get(id(a), a) for a in ancillas]
    return module


# --------------------------------------------------------------------------
# Checking
# --------------------------------------------------------------------------

def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def simulate(path, args_path, out_path):
    r = run(["qshape-sim", path, "--args", "@" + args_path])
    if r.returncode != 0:
        return "qshape-sim failed on %s:\n%s" % (path, r.stderr.strip())
    with open(out_path, "w") as f:
        f.write(r.stdout)
    return None


def check(name, module, args, workdir, failures, reference=None):
    src = os.path.join(workdir, name + ".mlir")
    args_path = os.path.join(workdir, name + ".args.json")
    with open(src, "w") as f:
        f.write(print_module(module))
    with open(args_path, "w") as f:
        json.dump(args, f)
    err = simulate(src, args_path, src + ".out.json")
    if err:
        failures.append(name + ": " + err)
        return
    outs = [src + ".out.json"]
    if reference is not None:
        outs.append(reference)
    for order in (["--qshape-lower-ctrl", "--qshape-lower-adjoint"],
                  ["--qshape-lower-adjoint", "--qshape-lower-ctrl"]):
        low = os.path.join(workdir, "%s.%s.mlir" % (name, order[0][8:]))
        r = run(["qshape-opt", src] + order + ["-o", low])
        if r.returncode != 0:
            failures.append("%s: %s failed:\n%s" % (name, " ".join(order), r.stderr.strip()))
            return
        text = open(low).read()
        if "quantum.adjoint" in text or "quantum.ctrl" in text:
            failures.append("%s: a region op is left after %s" % (name, " ".join(order)))
            return
        err = simulate(low, args_path, low + ".out.json")
        if err:
            failures.append(name + ": " + err)
            return
        outs.append(low + ".out.json")
    for other in outs[1:]:
        c = run([sys.executable, COMPARE, outs[0], other, "--tol", "1e-9"])
        if c.returncode != 0:
            failures.append("%s: %s differs from the region form: %s"
                            % (name, os.path.basename(other), c.stderr.strip()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=100)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    failures = []
    regions = 0
    shapes = {"adjoint with scf.for": 0, "of them with a dynamic trip count": 0,
              "ctrl with scf.for": 0, "nested regions": 0}

    def count_shapes(fn):
        for op in rc.walk_ops(fn.body):
            if op.name not in REGION_OPS:
                continue
            inner = [o.name for o in rc.walk_ops(op.regions[0])]
            if "scf.for" in inner:
                shapes[("adjoint" if op.name == "quantum.adjoint" else "ctrl") + " with scf.for"] += 1
                dynamic = any(o.name == "scf.for" and o.operands[1].type == "index" and
                              any(r is o.operands[1] for d in rc.walk_ops(fn.body)
                                  if d.name == "arith.addi" for r in d.results)
                              for o in rc.walk_ops(op.regions[0]))
                if op.name == "quantum.adjoint" and dynamic:
                    shapes["of them with a dynamic trip count"] += 1
            if any(n in REGION_OPS for n in inner):
                shapes["nested regions"] += 1

    # W2: the region form must equal utils/gen/workloads.py's flat W2 too.
    for n in (1, 2):
        flat = workloads.build_w2(n_trotter=n, prep="standard", adjoint_style="flag")
        flat_path = os.path.join(args.workdir, "w2-%d.flat.mlir" % n)
        with open(flat_path, "w") as f:
            f.write(rc.print_module(flat))
        w2args = os.path.join(args.workdir, "w2.args.json")
        with open(w2args, "w") as f:
            json.dump(workloads.w2_args(), f)
        err = simulate(flat_path, w2args, flat_path + ".out.json")
        if err:
            failures.append(err)
            continue
        module = w2_regions(n)
        regions += sum(1 for op in rc.walk_ops(module.funcs[0].body) if op.name in REGION_OPS)
        count_shapes(module.funcs[0])
        check("w2-%d" % n, module, workloads.w2_args(), args.workdir, failures,
              reference=flat_path + ".out.json")

    for seed in range(args.seeds):
        module, rng, anc_values = random_program(seed)
        fn = module.funcs[0]
        wrap_randomly(module, rng, anc_values)
        regions += sum(1 for op in rc.walk_ops(fn.body) if op.name in REGION_OPS)
        count_shapes(fn)
        check("rand-%d" % seed, module, rc.default_args(module, seed), args.workdir, failures)

    for f in failures[:10]:
        print("FAIL:", f)
    print("lower-regions semantics: %d programs, %d region ops (%s), %d failures"
          % (args.seeds + 2, regions, ", ".join("%s: %d" % kv for kv in shapes.items()),
             len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
