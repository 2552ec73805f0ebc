// adjoint and ctrl regions for the native differential suite
// (differential.py features), apart from features.mlir so that a failure
// of the region lowerings is reported on its own.

// Regions and modifiers: an adjoint region (with a loop inside), a ctrl
// region with ctrlvals true and false, controlled global phases, paulirot
// and multirz with controls and adj.
// CASE: regions --args [[0.3,1.1,-0.8]]
// CASE: regions --args [[2.3,-1.7,0.05]]
func.func public @regions(%p: tensor<3xf64>) -> (tensor<16xf64>, tensor<f64>) attributes {qnode} {
  %c0_i64 = arith.constant 0 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %true = arith.constant true
  %false = arith.constant false
  %a0 = tensor.extract %p[%c0] : tensor<3xf64>
  %a1 = tensor.extract %p[%c1] : tensor<3xf64>
  %a2 = tensor.extract %p[%c2] : tensor<3xf64>
  quantum.device shots(%c0_i64) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 4) : !quantum.reg
  %w0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %w1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %w0h = quantum.custom "Hadamard"() %w0 : !quantum.bit
  %w1h = quantum.custom "Hadamard"() %w1 : !quantum.bit
  %r0 = quantum.insert %r[ 0], %w0h : !quantum.reg, !quantum.bit
  %r1 = quantum.insert %r0[ 1], %w1h : !quantum.reg, !quantum.bit
  %r2 = quantum.adjoint(%r1) : !quantum.reg {
  ^bb0(%x: !quantum.reg):
    %x1 = scf.for %i = %c0 to %c3 step %c1 iter_args(%reg = %x) -> (!quantum.reg) {
      %w = arith.index_cast %i : index to i64
      %q = quantum.extract %reg[%w] : !quantum.reg -> !quantum.bit
      %t = tensor.extract %p[%i] : tensor<3xf64>
      %q1 = quantum.custom "RX"(%t) %q : !quantum.bit
      %q2 = quantum.custom "T"() %q1 : !quantum.bit
      %reg1 = quantum.insert %reg[%w], %q2 : !quantum.reg, !quantum.bit
      scf.yield %reg1 : !quantum.reg
    }
    %q = quantum.extract %x1[ 2] : !quantum.reg -> !quantum.bit
    %s = quantum.extract %x1[ 3] : !quantum.reg -> !quantum.bit
    %q1, %s1 = quantum.custom "IsingYY"(%a1) %q, %s : !quantum.bit, !quantum.bit
    %x2 = quantum.insert %x1[ 2], %q1 : !quantum.reg, !quantum.bit
    %x3 = quantum.insert %x2[ 3], %s1 : !quantum.reg, !quantum.bit
    quantum.yield %x3 : !quantum.reg
  }
  %c = quantum.extract %r2[ 0] : !quantum.reg -> !quantum.bit
  %d = quantum.extract %r2[ 1] : !quantum.reg -> !quantum.bit
  %e = quantum.extract %r2[ 2] : !quantum.reg -> !quantum.bit
  %f = quantum.extract %r2[ 3] : !quantum.reg -> !quantum.bit
  %oc, %od, %oe, %of = quantum.ctrl(%c, %d) ctrlvals(%true, %false) (%e, %f) : !quantum.bit, !quantum.bit -> !quantum.bit, !quantum.bit {
  ^bb0(%x: !quantum.bit, %y: !quantum.bit):
    %x1 = quantum.custom "RY"(%a0) %x : !quantum.bit
    %x2, %y1 = quantum.custom "CRZ"(%a2) %x1, %y : !quantum.bit, !quantum.bit
    quantum.gphase(%a1)
    quantum.yield %x2, %y1 : !quantum.bit, !quantum.bit
  }
  %og1, %og2 = quantum.gphase(%a2) ctrls(%oc, %od) ctrlvals(%true, %true) : ctrls !quantum.bit, !quantum.bit
  %pe, %pf, %pc = quantum.paulirot ["X", "Y"](%a0) %oe, %of adj ctrls(%og1) ctrlvals(%true) : !quantum.bit, !quantum.bit ctrls !quantum.bit
  %me, %mf, %md = quantum.multirz(%a1) %pe, %pf adj ctrls(%og2) ctrlvals(%false) : !quantum.bit, !quantum.bit ctrls !quantum.bit
  %pc1 = quantum.custom "Hadamard"() %pc : !quantum.bit
  %o = quantum.compbasis qubits %pc1, %md, %me, %mf : !quantum.obs
  %pr = quantum.probs %o : tensor<16xf64>
  %ox = quantum.namedobs %pc1[ PauliX] : !quantum.obs
  %ex = quantum.expval %ox : f64
  %tx = tensor.from_elements %ex : tensor<f64>
  quantum.device_release
  return %pr, %tx : tensor<16xf64>, tensor<f64>
}
