// QAOA's layers, gamma and beta runtime arrays (issue 32), 80 layers on 3
// wires: generated, because below about 70 layers the canonical order's
// result is over 1/16 of the program, which sends the function through the
// given order anyway. The canonical order follows qubits by producer, so it
// runs the RX of layer p among the IsingZZ of layer p + 1: its loop body
// reads gamma[i] and gamma[i + 1] (wire-order=0), with one layer's gates
// left before and after the loop. A loop that reads in one iteration what
// the next reads too sends the function through the given order as well
// (GivenOrder.cpp, straddlesIterations), where the layers roll whole: one
// read of each array per iteration, no gate outside the loop but the
// Hadamards.
// RUN: %python %qshape_src/utils/gen/families.py qaoa --wires 3 --layers 80 -o %t.mlir --args-out %t.args.json
// RUN: qshape-opt %t.mlir '--qshape-roll-loops=verify-roundtrip' --qshape-check-linearity -o %t.rolled.mlir
// RUN: FileCheck %s < %t.rolled.mlir
// RUN: qshape-opt %t.mlir '--qshape-roll-loops=wire-order=0' | FileCheck %s --check-prefix=CANON
// RUN: qshape-sim %t.mlir --args @%t.args.json --decimals 9 > %t.in.json
// RUN: qshape-sim %t.rolled.mlir --args @%t.args.json --decimals 9 > %t.out.json
// RUN: %python %qshape_src/utils/compare-results.py %t.in.json %t.out.json --tol 1e-9

// CANON-LABEL: func.func public @circuit
// CANON: scf.for
// CANON: tensor.extract %arg0[%{{.*}}]
// CANON-NOT: scf.yield
// CANON: tensor.extract %arg0[%{{.*}}]
// CANON: scf.yield

// CHECK-LABEL: func.func public @circuit
// CHECK-COUNT-3: quantum.custom "Hadamard"
// CHECK-NOT: quantum.custom
// CHECK: scf.for %[[I:.*]] = %c0 to %c80 step %c1
// CHECK-NOT: {{arith.addi|scf.yield}}
// CHECK: tensor.extract %arg0[%[[I]]]
// CHECK-NOT: {{arith.addi|tensor.extract %arg0|scf.yield}}
// CHECK: tensor.extract %arg1[%[[I]]]
// CHECK-NOT: {{arith.addi|tensor.extract}}
// CHECK: scf.yield
// CHECK-NOT: quantum.custom
// CHECK: return
