// qshape-stats on Catalyst's capture-frontend (qref) input counts its
// value-semantics form on a copy: the same gates and qubits as the value
// twin, and the IR is left as it was.
// RUN: qshape-opt %s --qshape-stats=output=%t.qref.json | FileCheck %s --check-prefix=SAME
// RUN: qshape-opt %S/../Conversion/Inputs/while-twin.mlir --qshape-stats=output=%t.value.json -o /dev/null
// RUN: FileCheck %s < %t.qref.json
// RUN: %python -c "import json,sys; a,b=(json.load(open(p)) for p in sys.argv[1:]); k=['gates','gates_by_name','qubits','loops']; sys.exit(0 if all(a[x]==b[x] for x in k) else 1)" %t.qref.json %t.value.json
// SAME: qref.alloc( 3)
// SAME: qref.custom "Hadamard"
// CHECK: "gates": 2,
// CHECK: "qubits": 3,

// A use after deallocation is the conversion's located error.
// RUN: not qshape-opt %S/Inputs/use-after-dealloc.mlir --qshape-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=UAF
// RUN: not qshape-opt %S/Inputs/use-after-dealloc.mlir --qshape-check-linearity -o /dev/null 2>&1 | FileCheck %s --check-prefix=UAF
// UAF: use-after-dealloc.mlir:7:3: error: qshape-to-value-semantics: a use of a qubit reference after its deallocation
// UAF: use-after-dealloc.mlir:6:3: note: deallocated here

// RUN: qshape-opt %s --qshape-check-linearity -o /dev/null
func.func public @whiles(%x: f64) -> (f64, f64) attributes {qnode} {
  %shots = arith.constant 0 : i64
  quantum.device shots(%shots) ["liblightning_qubit_catalyst.so", "LightningSimulator", "{}"]
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c3 = arith.constant 3 : i64
  %a = qref.alloc(3) : !qref.reg<3>
  %q0 = qref.get %a[0] : !qref.reg<3> -> !qref.bit
  %n = scf.while (%i = %c0) : (i64) -> i64 {
    %go = arith.cmpi slt, %i, %c3 : i64
    scf.condition(%go) %i : i64
  } do {
  ^bb0(%j: i64):
    %q = qref.get %a[%j] : !qref.reg<3>, i64 -> !qref.bit
    qref.custom "Hadamard"() %q : !qref.bit
    qref.custom "RY"(%x) %q0 : !qref.bit
    %next = arith.addi %j, %c1 : i64
    scf.yield %next : i64
  }
  %q2 = qref.get %a[2] : !qref.reg<3> -> !qref.bit
  %o0 = qref.namedobs %q0 [ PauliZ] : !quantum.obs
  %e0 = quantum.expval %o0 : f64
  %o2 = qref.namedobs %q2 [ PauliX] : !quantum.obs
  %e2 = quantum.expval %o2 : f64
  qref.dealloc %a : !qref.reg<3>
  quantum.device_release
  return %e0, %e2 : f64, f64
}
