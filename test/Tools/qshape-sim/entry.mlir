// Which function runs: --entry NAME; else the only public function; else
// the only function with a `qnode` attribute; else an error.

// RUN: qshape-sim %s --entry helper | FileCheck %s --check-prefix=HELPER
// RUN: qshape-sim %s --entry @helper | FileCheck %s --check-prefix=HELPER
// RUN: qshape-sim %s | FileCheck %s --check-prefix=QNODE
// RUN: not qshape-sim %s --entry nope 2>&1 | FileCheck %s --check-prefix=NOPE
// RUN: not qshape-sim %s --entry external 2>&1 | FileCheck %s --check-prefix=EXTERNAL
// RUN: qshape-opt %s | sed -e 's/ qnode}/}/' -e 's/attributes {qnode}//' | not qshape-sim - 2>&1 | FileCheck %s --check-prefix=AMBIGUOUS

// HELPER: {"results": [2]}
// QNODE: {"results": [1]}
// NOPE: qshape-sim: error: no function named 'nope' (functions: @helper, @circuit, @private_one, @external)
// EXTERNAL: qshape-sim: error: function 'external' has no body
// AMBIGUOUS: qshape-sim: error: cannot choose the entry function: 2 public functions (@helper, @circuit) and 0 with a qnode attribute (); pass --entry NAME

func.func @helper() -> i64 {
  %c = arith.constant 2 : i64
  return %c : i64
}
func.func @circuit() -> i64 attributes {qnode} {
  %c = arith.constant 1 : i64
  return %c : i64
}
func.func private @private_one() -> i64 {
  %c = arith.constant 3 : i64
  return %c : i64
}
func.func private @external() -> i64
