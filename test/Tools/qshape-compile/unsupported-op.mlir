// An op the lowering cannot turn into runtime calls is a located error that
// names it; the compile fails with exit code 1 and writes nothing. Here a
// sample of a named observable (Catalyst's runtime samples computational-basis
// states only) and, in generic form, an op of a dialect nobody knows.

// RUN: rm -rf %t && mkdir -p %t
// RUN: split-file %s %t
// RUN: not qshape-compile %t/sample.mlir -o %t/out.so 2>&1 | FileCheck %s --check-prefix=SAMPLE
// RUN: not qshape-compile %t/unknown.mlir --allow-unregistered-dialect -o %t/out.so 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not qshape-compile %t/unknown.mlir --allow-unregistered-dialect --emit=llvm -o %t/out.ll 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: ls -A %t | count 2
// RUN: ls -A %t | FileCheck %s --check-prefix=FILES

// SAMPLE: sample.mlir:8:8: error: 'quantum.sample' op of an observable other than quantum.compbasis has no function in Catalyst's runtime
// SAMPLE: qshape-compile: error: {{.*}}sample.mlir: the MLIR pipeline failed (see the diagnostics above)
// UNKNOWN: unknown.mlir:5:8: error: failed to legalize operation 'foo.bar'
// UNKNOWN: qshape-compile: error: {{.*}}unknown.mlir: the MLIR pipeline failed (see the diagnostics above)
// FILES: sample.mlir
// FILES-NEXT: unknown.mlir
// FILES-NOT: {{.}}

//--- sample.mlir
func.func public @circuit() -> tensor<4xf64> attributes {qnode} {
  %shots = arith.constant 4 : i64
  quantum.device shots(%shots) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "Hadamard"() %q : !quantum.bit
  %z = quantum.namedobs %q1[ PauliZ] : !quantum.obs
  %s = quantum.sample %z : tensor<4xf64>
  quantum.device_release
  return %s : tensor<4xf64>
}
//--- unknown.mlir
func.func public @circuit(%x: tensor<f64>) -> tensor<f64> attributes {qnode} {
  %c0 = arith.constant 0 : i64
  quantum.device shots(%c0) ["lib.so", "LightningSimulator", "{}"]
  %v = tensor.extract %x[] : tensor<f64>
  %y = "foo.bar"(%v) : (f64) -> f64
  %t = tensor.from_elements %y : tensor<f64>
  quantum.device_release
  return %t : tensor<f64>
}
