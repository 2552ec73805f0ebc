// A module that does not parse: a located error, exit code 1, and OUT is
// neither created nor touched (a previous OUT stays as it was), and no
// temporary is left next to it.

// RUN: rm -rf %t && mkdir -p %t
// RUN: not qshape-compile %s -o %t/out.so 2>&1 | FileCheck %s
// RUN: ls -A %t | count 0
// RUN: echo previous > %t/keep.so
// RUN: not qshape-compile %s -o %t/keep.so 2>&1 | FileCheck %s
// RUN: cat %t/keep.so | FileCheck %s --check-prefix=KEEP
// RUN: ls -A %t | count 1

// CHECK: malformed.mlir:[[# @LINE + 6]]:{{[0-9]+}}: error:
// CHECK: qshape-compile: error: {{.*}}malformed.mlir: cannot parse the module (see above)
// KEEP: previous
func.func public @circuit() -> tensor<f64> attributes {qnode} {
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "Hadamard"() %q : !quantum.bit %q
  return
}
