#!/usr/bin/env python3
"""The topology index (qshape-compile --share-topology) is only used where it
is sound, checked against the oracle.

A program whose float literals are not exactly its lifted parameters gets no
index entry, so a second program with its skeleton (the same text but for
the float literals) is not given the first one's library with values read
from the wrong places. For each case, program A is compiled first, then
program B; B's library must give qshape-sim's results for B:

  merged   two equal constants, which the canonical form merges into one
           slot; B makes them differ
  complex  a complex constant (a Hermitian matrix: not lifted)
  f32      an f32 constant (not lifted)
  hex      an f64 angle spelled in hex (left in the skeleton) beside, on
           its line, an unused f32 constant whose decimal literal has the
           angle's value: the scanner alone took that literal for the
           angle's, and gave B the f32 literal as its angle; the parser's
           check of the map (Compilation::checkTopologyMap) refuses it

and where it is sound the index is used and right:

  splat    a splat dense<...> of coefficients, one literal for two slots
  sign     a literal's sign flips

A damaged index entry is a miss, never a wrong library, and is stored again.
Prints one line per failed check and a summary; exit code 1 on any failure.
"""
import argparse
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
st = __import__("share-topology")
compare_results = st.compare_results
check = st.check  # its counters: st.checks, st.failures


PROGRAM = """module @m {{
  func.func public @circuit() -> (f64, f64, f64) attributes {{qnode}} {{
    %c0_i64 = arith.constant 0 : i64
    quantum.device shots(%c0_i64) ["lib.so", "LightningSimulator", "{{}}"]
    %a = arith.constant {a} : f64
    %b = arith.constant {b} : f64
    {f32}
    %coeffs = arith.constant {coeffs} : tensor<2xf64>
    {matrix}
    %r = quantum.alloc( 2) : !quantum.reg
    %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
    %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
    %q0a = quantum.custom "RX"(%a) %q0 : !quantum.bit
    %q1a = quantum.custom "RY"(%b) %q1 : !quantum.bit
    %q0s = quantum.custom "RY"(%sw) %q0a : !quantum.bit
    %q0b, %q1b = quantum.custom "CNOT"() %q0s, %q1a : !quantum.bit, !quantum.bit
    %q1c = quantum.custom "RX"(%a) %q1b : !quantum.bit
    %z = quantum.namedobs %q0b[ PauliZ] : !quantum.obs
    %x = quantum.namedobs %q1c[ PauliY] : !quantum.obs
    %ham = quantum.hamiltonian(%coeffs : tensor<2xf64>) %z, %x : !quantum.obs
    %e = quantum.expval %ham : f64
    %ez = quantum.expval %z : f64
    {matrix_use}
    quantum.dealloc %r : !quantum.reg
    quantum.device_release
    return %e, %ez, %eh : f64, f64, f64
  }}
}}
"""
# The RY angle of wire 0: an f64 constant, or an f32 one extended; the third
# result: Z again, or a Hermitian observable of a complex matrix.
F64_ANGLE = "%sw = arith.constant {s} : f64"
F32_ANGLE = "%s = arith.constant {s} : f32\n    %sw = arith.extf %s : f32 to f64"
HEX_BESIDE = ("%sw = arith.constant 0x3FE6666666666666 : f64 "
              "%spare = arith.constant {s} : f32")
NO_MATRIX = ("", "%eh = quantum.expval %x : f64")
MATRIX = ("%h = arith.constant dense<[[({h}, 0.0), (0.0, 0.0)], [(0.0, 0.0), (-1.0, 0.0)]]>"
          " : tensor<2x2xcomplex<f64>>",
          "%hob = quantum.hermitian(%h : tensor<2x2xcomplex<f64>>) %q1c : !quantum.obs\n"
          "    %eh = quantum.expval %hob : f64")

BASE = dict(a="0.3", b="1.1", s="0.7", coeffs="dense<[0.5, -0.25]>", h="1.0")

# name: (A's changes, B's changes, whether B may hit by the topology index,
# the forms of the angle and the matrix)
CASES = {
    "merged": (dict(a="0.3", b="0.3"), dict(a="0.3", b="0.9"), False, F64_ANGLE, NO_MATRIX),
    "complex": ({}, dict(h="0.5"), False, F64_ANGLE, MATRIX),
    "f32": ({}, dict(s="-0.4"), False, F32_ANGLE, NO_MATRIX),
    "hex": ({}, dict(a="0.5", s="-0.4"), False, HEX_BESIDE, NO_MATRIX),
    "splat": (dict(coeffs="dense<0.5>"), dict(coeffs="dense<-1.25>"), True, F64_ANGLE,
              NO_MATRIX),
    "sign": ({}, dict(a="-0.3", coeffs="dense<[-0.5, 0.25]>"), True, F64_ANGLE, NO_MATRIX),
}


def program(work, name, changes, angle=F64_ANGLE, matrix=NO_MATRIX):
    values = dict(BASE, **changes)
    values["f32"] = angle.format(**values)
    values["matrix"] = matrix[0].format(**values)
    values["matrix_use"] = matrix[1]
    path = os.path.join(work, name + ".mlir")
    with open(path, "w") as f:
        f.write(PROGRAM.format(**values))
    return path


def compile_shared(tools, src, out, cache):
    p = st.run([os.path.join(tools, "qshape-compile"), "--share-topology", src, "-o", out, "-v",
                "--timing", "--cache-dir", cache])
    if p.returncode:
        raise SystemExit(f"qshape-compile --share-topology {src} failed:\n{p.stderr}")
    kind = st.KEY.search(p.stderr).group(1)
    via = st.VIA.search(p.stderr)
    return kind, via.group(1) if via else None, p.stderr


def agrees(tools, src, lib):
    want = st.results(os.path.join(tools, "qshape-sim"), src, None)
    got = st.results(os.path.join(tools, "qshape-run"), lib, None)
    return compare_results.compare(got, want, 1e-9, False, "results"), want


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tools", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    for name, (changes_a, changes_b, may_hit, angle, matrix) in CASES.items():
        cache = os.path.join(a.work, name + "-cache")
        src_a = program(a.work, name + "-a", changes_a, angle, matrix)
        src_b = program(a.work, name + "-b", changes_b, angle, matrix)
        kind_a, _, err_a = compile_shared(a.tools, src_a, src_a + ".so", cache)
        check(kind_a == "miss", f"{name}: A was a {kind_a}, expected a miss")
        indexed = "no topology index entry" not in err_a
        check(indexed == may_hit, f"{name}: A {'got' if indexed else 'did not get'} a "
              f"topology index entry:\n{err_a}")
        _, via_b, _ = compile_shared(a.tools, src_b, src_b + ".so", cache)
        check((via_b == "topology index") == may_hit,
              f"{name}: B's library was found by {via_b}")
        for label, src in (("A", src_a), ("B", src_b)):
            d, _ = agrees(a.tools, src, src + ".so")
            check(d is None, f"{name}: {label}'s shared library vs qshape-sim: {d}")
        _, want_a = agrees(a.tools, src_a, src_a + ".so")
        _, want_b = agrees(a.tools, src_b, src_b + ".so")
        check(compare_results.compare(want_a, want_b, 1e-6, False, "results") is not None,
              f"{name}: A and B have the same results: the check cannot tell them apart")

    # A damaged index entry: a miss (B's library found by its parse), never a
    # crash or a library with the wrong values.
    cache = os.path.join(a.work, "damaged-cache")
    src_a = program(a.work, "damaged-a", {})
    src_b = program(a.work, "damaged-b", dict(a="0.8"))
    compile_shared(a.tools, src_a, src_a + ".so", cache)
    damaged = 0
    for root, _, files in os.walk(cache):
        for f in files:
            path = os.path.join(root, f)
            data = open(path, "rb").read()
            at = data.find(b"qshape-topology-map 1\nslots ")
            if at >= 0:
                # A slot count the map's claims do not cover.
                data = data[:at] + data[at:].replace(b"slots ", b"slots 9", 1)
                open(path, "wb").write(data)
                damaged += 1
    check(damaged == 1, f"found {damaged} topology index entries to damage, expected 1")
    kind_b, via_b, err_b = compile_shared(a.tools, src_b, src_b + ".so", cache)
    check(via_b != "topology index", f"damaged: B hit by the damaged entry:\n{err_b}")
    d, _ = agrees(a.tools, src_b, src_b + ".so")
    check(d is None, f"damaged: B's library vs qshape-sim: {d}")
    # B's compile stored the entry again: a third program hits by it.
    src_c = program(a.work, "damaged-c", dict(a="1.7"))
    _, via_c, err_c = compile_shared(a.tools, src_c, src_c + ".so", cache)
    check(via_c == "topology index", f"damaged: the entry was not stored again:\n{err_c}")
    d, _ = agrees(a.tools, src_c, src_c + ".so")
    check(d is None, f"damaged: C's library vs qshape-sim: {d}")

    print(f"topology-index: {len(CASES) + 1} cases, {st.checks} checks, {len(st.failures)} failed")
    return 1 if st.failures else 0


if __name__ == "__main__":
    sys.exit(main())
