// Hand-written QNodes for the native differential suite (differential.py
// features): every measurement kind, qubit unitaries, every named gate,
// dynamic wires in loops, scf.if on measurement results, postselection,
// state preparation, and shots with fixed seeds (adjoint and ctrl regions,
// paulirot and multirz with modifiers: regions.mlir). Catalyst-shaped: public QNodes with tensor arguments and
// results. Each `// CASE:` line is one run of qshape-sim and of the four
// compiled libraries.

// CASE: observables --args [[[[1,0],[0,0]],[[0,0],[-1,0]]],[0.5,2.0],0.3]
// CASE: observables --args [[[[0,0],[0,-1]],[[0,1],[0,0]]],[-1.5,0.25],1.9]
func.func public @observables(%herm: tensor<2x2xcomplex<f64>>, %coeffs: tensor<2xf64>, %t: tensor<f64>) -> (tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>) attributes {qnode} {
  %c0 = arith.constant 0 : i64
  %theta = tensor.extract %t[] : tensor<f64>
  quantum.device shots(%c0) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 2) : !quantum.reg
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %a1 = quantum.custom "RY"(%theta) %a : !quantum.bit
  %b1 = quantum.custom "Hadamard"() %b : !quantum.bit
  %a2, %b2 = quantum.custom "CRX"(%theta) %a1, %b1 : !quantum.bit, !quantum.bit
  %z = quantum.namedobs %a2[ PauliZ] : !quantum.obs
  %e1 = quantum.expval %z : f64
  %v1 = quantum.var %z : f64
  %h = quantum.hermitian(%herm : tensor<2x2xcomplex<f64>>) %b2 : !quantum.obs
  %e2 = quantum.expval %h : f64
  %x = quantum.namedobs %b2[ PauliX] : !quantum.obs
  %zx = quantum.tensor %z, %x : !quantum.obs
  %e3 = quantum.expval %zx : f64
  %v3 = quantum.var %zx : f64
  %ham = quantum.hamiltonian(%coeffs : tensor<2xf64>) %z, %zx : !quantum.obs
  %e4 = quantum.expval %ham : f64
  %hd = quantum.namedobs %b2[ Hadamard] : !quantum.obs
  %v5 = quantum.var %hd : f64
  %t1 = tensor.from_elements %e1 : tensor<f64>
  %t2 = tensor.from_elements %v1 : tensor<f64>
  %t3 = tensor.from_elements %e2 : tensor<f64>
  %t4 = tensor.from_elements %e3 : tensor<f64>
  %t5 = tensor.from_elements %v3 : tensor<f64>
  %t6 = tensor.from_elements %e4 : tensor<f64>
  %t7 = tensor.from_elements %v5 : tensor<f64>
  %r1 = quantum.insert %r[ 0], %a2 : !quantum.reg, !quantum.bit
  %r2 = quantum.insert %r1[ 1], %b2 : !quantum.reg, !quantum.bit
  quantum.dealloc %r2 : !quantum.reg
  quantum.device_release
  return %t1, %t2, %t3, %t4, %t5, %t6, %t7 : tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>
}

// CASE: state_probs --args [0.7]
func.func public @state_probs(%t: tensor<f64>) -> (tensor<8xcomplex<f64>>, tensor<4xf64>, tensor<8xf64>) attributes {qnode} {
  %c0 = arith.constant 0 : i64
  %theta = tensor.extract %t[] : tensor<f64>
  quantum.device shots(%c0) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 3) : !quantum.reg
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %c = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %a1 = quantum.custom "RY"(%theta) %a : !quantum.bit
  %c1 = quantum.custom "PauliX"() %c : !quantum.bit
  %b1 = quantum.custom "RX"(%theta) %b : !quantum.bit
  %b2, %c2 = quantum.custom "IsingXY"(%theta) %b1, %c1 : !quantum.bit, !quantum.bit
  %o1 = quantum.compbasis qubits %a1, %b2, %c2 : !quantum.obs
  %s1 = quantum.state %o1 : tensor<8xcomplex<f64>>
  %o3 = quantum.compbasis qubits %c2, %a1 : !quantum.obs
  %p3 = quantum.probs %o3 : tensor<4xf64>
  %r1 = quantum.insert %r[ 0], %a1 : !quantum.reg, !quantum.bit
  %r2 = quantum.insert %r1[ 1], %b2 : !quantum.reg, !quantum.bit
  %r3 = quantum.insert %r2[ 2], %c2 : !quantum.reg, !quantum.bit
  %o4 = quantum.compbasis qreg %r3 : !quantum.obs
  %p4 = quantum.probs %o4 : tensor<8xf64>
  quantum.dealloc %r3 : !quantum.reg
  quantum.device_release
  return %s1, %p3, %p4 : tensor<8xcomplex<f64>>, tensor<4xf64>, tensor<8xf64>
}

// Shots from quantum.device (20), the random stream fixed by the seed.
// CASE: samples --args [1.1] --seed 7
// CASE: samples --args [1.1] --seed 8
// CASE: samples --args [2.5] --seed 123456789
func.func public @samples(%t: tensor<f64>) -> (tensor<20x2xf64>, tensor<4xf64>, tensor<4xi64>, tensor<20x1xf64>, tensor<2xf64>, tensor<2xi64>, tensor<f64>, tensor<f64>, tensor<4xf64>) attributes {qnode} {
  %shots = arith.constant 20 : i64
  %theta = tensor.extract %t[] : tensor<f64>
  quantum.device shots(%shots) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 2) : !quantum.reg
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %a1 = quantum.custom "RY"(%theta) %a : !quantum.bit
  %a2, %b1 = quantum.custom "CNOT"() %a1, %b : !quantum.bit, !quantum.bit
  %b2 = quantum.custom "RX"(%theta) %b1 : !quantum.bit
  %o = quantum.compbasis qubits %a2, %b2 : !quantum.obs
  %s = quantum.sample %o : tensor<20x2xf64>
  %ev, %cn = quantum.counts %o : tensor<4xf64>, tensor<4xi64>
  %ob = quantum.compbasis qubits %b2 : !quantum.obs
  %sz = quantum.sample %ob : tensor<20x1xf64>
  %evz, %cnz = quantum.counts %ob : tensor<2xf64>, tensor<2xi64>
  %z = quantum.namedobs %b2[ PauliZ] : !quantum.obs
  %e = quantum.expval %z : f64
  %v = quantum.var %z : f64
  %p = quantum.probs %o : tensor<4xf64>
  %te = tensor.from_elements %e : tensor<f64>
  %tv = tensor.from_elements %v : tensor<f64>
  quantum.device_release
  return %s, %ev, %cn, %sz, %evz, %cnz, %te, %tv, %p : tensor<20x2xf64>, tensor<4xf64>, tensor<4xi64>, tensor<20x1xf64>, tensor<2xf64>, tensor<2xi64>, tensor<f64>, tensor<f64>, tensor<4xf64>
}

// An analytic device; --shots turns the estimates on.
// CASE: estimates --args [1.2]
// CASE: estimates --args [1.2] --shots 500 --seed 3
// CASE: estimates --args [1.2] --shots 500 --seed 4
func.func public @estimates(%t: tensor<f64>) -> (tensor<f64>, tensor<f64>, tensor<f64>, tensor<2xf64>) attributes {qnode} {
  %c0 = arith.constant 0 : i64
  %theta = tensor.extract %t[] : tensor<f64>
  quantum.device shots(%c0) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 2) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %p = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "RY"(%theta) %q : !quantum.bit
  %p1 = quantum.custom "Hadamard"() %p : !quantum.bit
  %z = quantum.namedobs %q1[ PauliZ] : !quantum.obs
  %x = quantum.namedobs %p1[ PauliX] : !quantum.obs
  %zx = quantum.tensor %z, %x : !quantum.obs
  %e = quantum.expval %z : f64
  %v = quantum.var %z : f64
  %e2 = quantum.expval %zx : f64
  %o = quantum.compbasis qubits %q1 : !quantum.obs
  %pr = quantum.probs %o : tensor<2xf64>
  %te = tensor.from_elements %e : tensor<f64>
  %tv = tensor.from_elements %v : tensor<f64>
  %te2 = tensor.from_elements %e2 : tensor<f64>
  quantum.device_release
  return %te, %tv, %te2, %pr : tensor<f64>, tensor<f64>, tensor<f64>, tensor<2xf64>
}

// Qubit unitaries: a constant matrix (adjoint, controlled with ctrlval
// false) and a two-qubit matrix from the arguments.
// CASE: unitaries --args [[[[0.6,0],[0,0.8]],[[0,0.8],[0.6,0]]],[[[1,0],[0,0],[0,0],[0,0]],[[0,0],[0,0],[1,0],[0,0]],[[0,0],[0,0],[0,0],[0,1]],[[0,0],[0,-1],[0,0],[0,0]]]]
func.func public @unitaries(%u2: tensor<2x2xcomplex<f64>>, %u4: tensor<4x4xcomplex<f64>>) -> tensor<8xf64> attributes {qnode} {
  %c0 = arith.constant 0 : i64
  %false = arith.constant false
  %hm = arith.constant dense<[[(0.7071067811865475, 0.0), (0.7071067811865475, 0.0)], [(0.7071067811865475, 0.0), (-0.7071067811865475, 0.0)]]> : tensor<2x2xcomplex<f64>>
  %s = arith.constant dense<[[(1.0, 0.0), (0.0, 0.0)], [(0.0, 0.0), (0.0, 1.0)]]> : tensor<2x2xcomplex<f64>>
  quantum.device shots(%c0) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 3) : !quantum.reg
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %c = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %a1 = quantum.unitary(%hm : tensor<2x2xcomplex<f64>>) %a : !quantum.bit
  %a2 = quantum.unitary(%s : tensor<2x2xcomplex<f64>>) %a1 adj : !quantum.bit
  %b1, %a3 = quantum.unitary(%u2 : tensor<2x2xcomplex<f64>>) %b ctrls(%a2) ctrlvals(%false) : !quantum.bit ctrls !quantum.bit
  %b2, %c1 = quantum.unitary(%u4 : tensor<4x4xcomplex<f64>>) %b1, %c : !quantum.bit, !quantum.bit
  %a4 = quantum.custom "Hadamard"() %a3 : !quantum.bit
  %o = quantum.compbasis qubits %a4, %b2, %c1 : !quantum.obs
  %p = quantum.probs %o : tensor<8xf64>
  quantum.device_release
  return %p : tensor<8xf64>
}

// Dynamic wires in loops: an index-dependent rotation on every wire, then a
// CNOT ladder (i, i+1), with extract/insert at run-time indices.
// CASE: loops --args [[0.1,0.7,1.3,2.1,2.9],[3]]
// CASE: loops --args [[2.0,-0.4,0.9,1.6,-2.2],[4]]
func.func public @loops(%angles: tensor<5xf64>, %n: tensor<1xi64>) -> (tensor<32xf64>, tensor<f64>) attributes {qnode} {
  %c0_i64 = arith.constant 0 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  quantum.device shots(%c0_i64) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 5) : !quantum.reg
  %r1 = scf.for %i = %c0 to %c5 step %c1 iter_args(%reg = %r) -> (!quantum.reg) {
    %w = arith.index_cast %i : index to i64
    %q = quantum.extract %reg[%w] : !quantum.reg -> !quantum.bit
    %t = tensor.extract %angles[%i] : tensor<5xf64>
    %q1 = quantum.custom "RY"(%t) %q : !quantum.bit
    %q2 = quantum.custom "RZ"(%t) %q1 : !quantum.bit
    %reg1 = quantum.insert %reg[%w], %q2 : !quantum.reg, !quantum.bit
    scf.yield %reg1 : !quantum.reg
  }
  %nn = tensor.extract %n[%c0] : tensor<1xi64>
  %ub = arith.index_cast %nn : i64 to index
  %r2 = scf.for %i = %c0 to %ub step %c1 iter_args(%reg = %r1) -> (!quantum.reg) {
    %w = arith.index_cast %i : index to i64
    %one = arith.constant 1 : i64
    %w1 = arith.addi %w, %one : i64
    %q = quantum.extract %reg[%w] : !quantum.reg -> !quantum.bit
    %p = quantum.extract %reg[%w1] : !quantum.reg -> !quantum.bit
    %q1, %p1 = quantum.custom "CNOT"() %q, %p : !quantum.bit, !quantum.bit
    %reg1 = quantum.insert %reg[%w], %q1 : !quantum.reg, !quantum.bit
    %reg2 = quantum.insert %reg1[%w1], %p1 : !quantum.reg, !quantum.bit
    scf.yield %reg2 : !quantum.reg
  }
  %o = quantum.compbasis qreg %r2 : !quantum.obs
  %p = quantum.probs %o : tensor<32xf64>
  %q4 = quantum.extract %r2[ 4] : !quantum.reg -> !quantum.bit
  %z = quantum.namedobs %q4[ PauliZ] : !quantum.obs
  %e = quantum.expval %z : f64
  %te = tensor.from_elements %e : tensor<f64>
  quantum.device_release
  return %p, %te : tensor<32xf64>, tensor<f64>
}

// Mid-circuit measurements: teleportation with scf.if corrections on the
// outcomes, a reset, and postselection.
// CASE: mid_circuit --args [1.0471975511965976] --seed 1
// CASE: mid_circuit --args [1.0471975511965976] --seed 2
// CASE: mid_circuit --args [0.4] --seed 5
func.func public @mid_circuit(%t: tensor<f64>) -> (tensor<f64>, tensor<f64>, tensor<3xi1>, tensor<f64>) attributes {qnode} {
  %c0 = arith.constant 0 : i64
  %theta = tensor.extract %t[] : tensor<f64>
  quantum.device shots(%c0) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 4) : !quantum.reg
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %q2 = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %q3 = quantum.extract %r[ 3] : !quantum.reg -> !quantum.bit
  %s0 = quantum.custom "RY"(%theta) %q0 : !quantum.bit
  %s1 = quantum.custom "Hadamard"() %q1 : !quantum.bit
  %s1b, %s2 = quantum.custom "CNOT"() %s1, %q2 : !quantum.bit, !quantum.bit
  %u0, %u1 = quantum.custom "CNOT"() %s0, %s1b : !quantum.bit, !quantum.bit
  %u0h = quantum.custom "Hadamard"() %u0 : !quantum.bit
  %m0, %v0 = quantum.measure %u0h : i1, !quantum.bit
  %m1, %v1 = quantum.measure %u1 : i1, !quantum.bit
  %x2 = scf.if %m1 -> (!quantum.bit) {
    %y = quantum.custom "PauliX"() %s2 : !quantum.bit
    scf.yield %y : !quantum.bit
  } else {
    scf.yield %s2 : !quantum.bit
  }
  %z2 = scf.if %m0 -> (!quantum.bit) {
    %y = quantum.custom "PauliZ"() %x2 : !quantum.bit
    scf.yield %y : !quantum.bit
  } else {
    scf.yield %x2 : !quantum.bit
  }
  %oz = quantum.namedobs %z2[ PauliZ] : !quantum.obs
  %ez = quantum.expval %oz : f64
  %ox = quantum.namedobs %z2[ PauliX] : !quantum.obs
  %ex = quantum.expval %ox : f64
  // reset: measure, flip back when 1
  %h3 = quantum.custom "Hadamard"() %q3 : !quantum.bit
  %m3, %w3 = quantum.measure %h3 : i1, !quantum.bit
  %w3r = scf.if %m3 -> (!quantum.bit) {
    %y = quantum.custom "PauliX"() %w3 : !quantum.bit
    scf.yield %y : !quantum.bit
  } else {
    scf.yield %w3 : !quantum.bit
  }
  %h4 = quantum.custom "Hadamard"() %w3r : !quantum.bit
  %m4, %w4 = quantum.measure %h4 postselect 1 : i1, !quantum.bit
  %o4 = quantum.namedobs %w4[ PauliZ] : !quantum.obs
  %e4 = quantum.expval %o4 : f64
  %ms = tensor.from_elements %m0, %m1, %m4 : tensor<3xi1>
  %tz = tensor.from_elements %ez : tensor<f64>
  %tx = tensor.from_elements %ex : tensor<f64>
  %t4 = tensor.from_elements %e4 : tensor<f64>
  quantum.device_release
  return %tz, %tx, %ms, %t4 : tensor<f64>, tensor<f64>, tensor<3xi1>, tensor<f64>
}

// Every named gate of the runtime, a few with adj and controls.
// CASE: gates --args [[0.37,-1.21,2.03]]
func.func public @gates(%p: tensor<3xf64>) -> tensor<32xf64> attributes {qnode} {
  %c0_i64 = arith.constant 0 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %true = arith.constant true
  %x = tensor.extract %p[%c0] : tensor<3xf64>
  %y = tensor.extract %p[%c1] : tensor<3xf64>
  %z = tensor.extract %p[%c2] : tensor<3xf64>
  quantum.device shots(%c0_i64) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 5) : !quantum.reg
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %q2 = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %q3 = quantum.extract %r[ 3] : !quantum.reg -> !quantum.bit
  %q4 = quantum.extract %r[ 4] : !quantum.reg -> !quantum.bit
  %a0 = quantum.custom "Hadamard"() %q0 : !quantum.bit
  %a1 = quantum.custom "PauliX"() %q1 : !quantum.bit
  %a2 = quantum.custom "PauliY"() %q2 : !quantum.bit
  %a3 = quantum.custom "SX"() %q3 : !quantum.bit
  %a4 = quantum.custom "S"() %q4 adj : !quantum.bit
  %b0 = quantum.custom "T"() %a0 : !quantum.bit
  %b1 = quantum.custom "PauliZ"() %a1 : !quantum.bit
  %b2 = quantum.custom "Identity"() %a2 : !quantum.bit
  %b3 = quantum.custom "RX"(%x) %a3 : !quantum.bit
  %b4 = quantum.custom "RY"(%y) %a4 : !quantum.bit
  %c0q = quantum.custom "RZ"(%z) %b0 : !quantum.bit
  %c1q = quantum.custom "PhaseShift"(%x) %b1 : !quantum.bit
  %c2q = quantum.custom "Rot"(%x, %y, %z) %b2 adj : !quantum.bit
  %d0, %d1 = quantum.custom "CNOT"() %c0q, %c1q : !quantum.bit, !quantum.bit
  %d2, %d3 = quantum.custom "CY"() %c2q, %b3 : !quantum.bit, !quantum.bit
  %d4, %e0 = quantum.custom "CZ"() %b4, %d0 : !quantum.bit, !quantum.bit
  %e1, %e2 = quantum.custom "SWAP"() %d1, %d2 : !quantum.bit, !quantum.bit
  %e3, %e4 = quantum.custom "ISWAP"() %d3, %d4 adj : !quantum.bit, !quantum.bit
  %f0, %f1 = quantum.custom "CRX"(%x) %e0, %e1 : !quantum.bit, !quantum.bit
  %f2, %f3 = quantum.custom "CRY"(%y) %e2, %e3 : !quantum.bit, !quantum.bit
  %f4, %g0 = quantum.custom "CRZ"(%z) %e4, %f0 : !quantum.bit, !quantum.bit
  %g1, %g2 = quantum.custom "CRot"(%x, %y, %z) %f1, %f2 : !quantum.bit, !quantum.bit
  %g3, %g4 = quantum.custom "ControlledPhaseShift"(%y) %f3, %f4 : !quantum.bit, !quantum.bit
  %h0, %h1 = quantum.custom "IsingXX"(%x) %g0, %g1 : !quantum.bit, !quantum.bit
  %h2, %h3 = quantum.custom "IsingYY"(%y) %g2, %g3 : !quantum.bit, !quantum.bit
  %h4, %i0 = quantum.custom "IsingZZ"(%z) %g4, %h0 : !quantum.bit, !quantum.bit
  %i1, %i2 = quantum.custom "IsingXY"(%x) %h1, %h2 : !quantum.bit, !quantum.bit
  %i3, %i4 = quantum.custom "SingleExcitation"(%y) %h3, %h4 : !quantum.bit, !quantum.bit
  %j0, %j1, %j2, %j3 = quantum.custom "DoubleExcitation"(%z) %i0, %i1, %i2, %i3 : !quantum.bit, !quantum.bit, !quantum.bit, !quantum.bit
  %k0, %k1, %k2 = quantum.custom "Toffoli"() %j0, %j1, %i4 : !quantum.bit, !quantum.bit, !quantum.bit
  %k3, %k4, %l0 = quantum.custom "CSWAP"() %j2, %j3, %k0 : !quantum.bit, !quantum.bit, !quantum.bit
  %l1, %l2 = quantum.custom "RX"(%y) %k1 ctrls(%k2) ctrlvals(%true) : !quantum.bit ctrls !quantum.bit
  %l3, %l4, %m0 = quantum.custom "SWAP"() %k3, %k4 adj ctrls(%l0) ctrlvals(%true) : !quantum.bit, !quantum.bit ctrls !quantum.bit
  %o = quantum.compbasis qubits %l1, %l2, %l3, %l4, %m0 : !quantum.obs
  %pr = quantum.probs %o : tensor<32xf64>
  quantum.device_release
  return %pr : tensor<32xf64>
}

// State preparation overwrites the device (every wire is an operand here);
// single-qubit allocations.
// CASE: prepare --args [[[0.6,0],[0,0],[0,0],[0,0],[0,0.8],[0,0],[0,0],[0,0]],[true,false,true]]
// CASE: prepare --args [[[0.5,0],[0,0.5],[0,0],[0,0],[0.5,0],[0,0],[0,0],[0,-0.5]],[false,true,true]]
func.func public @prepare(%s: tensor<8xcomplex<f64>>, %bits: tensor<3xi1>) -> (tensor<8xcomplex<f64>>, tensor<8xf64>) attributes {qnode} {
  %c0 = arith.constant 0 : i64
  %half = arith.constant 0.5 : f64
  quantum.device shots(%c0) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 2) : !quantum.reg
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %x = quantum.alloc_qb : !quantum.bit
  %a1, %b1, %x1 = quantum.set_state(%s) %a, %b, %x : (tensor<8xcomplex<f64>>, !quantum.bit, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit, !quantum.bit)
  %x2 = quantum.custom "Hadamard"() %x1 : !quantum.bit
  %b2 = quantum.custom "RY"(%half) %b1 : !quantum.bit
  %o1 = quantum.compbasis qubits %a1, %b2, %x2 : !quantum.obs
  %st = quantum.state %o1 : tensor<8xcomplex<f64>>
  %a3, %b3, %x3 = quantum.set_basis_state(%bits) %a1, %b2, %x2 : (tensor<3xi1>, !quantum.bit, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit, !quantum.bit)
  %b4 = quantum.custom "RY"(%half) %b3 : !quantum.bit
  %o2 = quantum.compbasis qubits %a3, %b4, %x3 : !quantum.obs
  %pr = quantum.probs %o2 : tensor<8xf64>
  quantum.dealloc_qb %x3 : !quantum.bit
  quantum.device_release
  return %st, %pr : tensor<8xcomplex<f64>>, tensor<8xf64>
}
