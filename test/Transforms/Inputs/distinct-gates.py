"""A function of N gates that no loop can roll (every gate has its own name)
and that is not in canonical form (gates of independent wires interleaved,
equal constants repeated out of order, a dead op): what a pass that
canonicalized it would change. For roll-loops-unchanged.mlir."""
import sys

n = int(sys.argv[1])
wires = 8
print("func.func @distinct(%r: !quantum.reg, %a: f64) -> !quantum.reg {")
q = []
for w in range(wires):
    print(f"  %q{w}_0 = quantum.extract %r[{w:2d}] : !quantum.reg -> !quantum.bit")
    q.append(f"%q{w}_0")
print("  %dead = arith.mulf %a, %a : f64")
for i in range(n):
    w = (i * 5) % wires  # interleaves the wires
    print(f"  %k{i} = arith.constant {0.5 if i % 2 else 0.25} : f64")
    print(f'  %g{i} = quantum.custom "G{i}"(%k{i}) {q[w]} : !quantum.bit')
    q[w] = f"%g{i}"
reg = "%r"
for w in range(wires):
    print(f"  %r{w} = quantum.insert {reg}[{w:2d}], {q[w]} : !quantum.reg, !quantum.bit")
    reg = f"%r{w}"
print(f"  return {reg} : !quantum.reg")
print("}")
