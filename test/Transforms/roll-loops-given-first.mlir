// W3's layers (8 wires: RX, RY, RZ on each, then a CNOT ladder; 32 layers),
// each angle a constant traced just before its gate. With their wires, the
// gates repeat one period exactly 32 times, so the order they came in goes
// first (GivenOrder.cpp, givenOrderRepeatsWhole), its constants moved to
// the start of the block (hoistConstants): the 32 layers roll into one
// loop, which leaves less than 1/16 of the ops, and the canonical order is
// not tried, as the remark on the orders says. The canonical order's loop
// would cut the layers (26 copies, with wire-order=0).
// RUN: %python %qshape_src/utils/gen/workloads.py w3 --ops 1000 --angles const > %t.mlir
// RUN: qshape-opt %t.mlir '--qshape-roll-loops=emit-remarks verify-roundtrip' --qshape-check-linearity -o %t.rolled.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: qshape-opt %t.mlir '--qshape-roll-loops=emit-remarks wire-order=0' -o /dev/null 2>&1 | FileCheck %s --check-prefix=CANON
// RUN: FileCheck %s < %t.rolled.mlir
// With 13 layers, fewer than 16, the given order still goes first: its
// layers pair wires (CNOTs) and no gate acts on all of them, so the
// canonical order would interleave them (givenOrderGoesFirst's open
// layers). Before that probe, both orders ran and the canonical order's
// loop of 7 copies was thrown away.
// RUN: %python %qshape_src/utils/gen/workloads.py w3 --ops 400 --angles const > %t.13.mlir
// RUN: qshape-opt %t.13.mlir '--qshape-roll-loops=emit-remarks' -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPEN
// With 3 layers both orders are tried; only the kept one's remarks show.
// RUN: %python %qshape_src/utils/gen/workloads.py w3 --ops 100 --angles const > %t.3.mlir
// RUN: qshape-opt %t.3.mlir '--qshape-roll-loops=emit-remarks' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BOTH
// StronglyEntanglingLayers (6 wires, 12 layers): the CNOT range changes
// from layer to layer, so with their wires the gates repeat every 5 layers
// only (2.4 times), but without them every layer, on the same wires
// (givenOrderRepeatsLayers): the given order goes first, rolls the 12
// layers, and the canonical order, which cannot roll them, is not tried.
// RUN: %python %qshape_src/utils/gen/families.py hea --wires 6 --layers 12 -o %t.hea.mlir
// RUN: qshape-opt %t.hea.mlir '--qshape-roll-loops=emit-remarks verify-roundtrip' -o /dev/null 2>&1 | FileCheck %s --check-prefix=LAYERS
// Grover (5 wires): the first layer of Hadamards stays unrolled in either
// order, and with its register reads it is less than a quarter of the
// rolled ops, so the other order could not be a quarter smaller and is
// not tried (leftUnrolled): at 8 iterations the canonical order
// goes first and alone; at 20 the given order does.
// RUN: %python %qshape_src/utils/gen/families.py grover --wires 5 --layers 8 -o %t.g8.mlir
// RUN: qshape-opt %t.g8.mlir '--qshape-roll-loops=emit-remarks verify-roundtrip' -o /dev/null 2>&1 | FileCheck %s --check-prefix=GROVER8
// RUN: %python %qshape_src/utils/gen/families.py grover --wires 5 --layers 20 -o %t.g20.mlir
// RUN: qshape-opt %t.g20.mlir '--qshape-roll-loops=emit-remarks verify-roundtrip' -o /dev/null 2>&1 | FileCheck %s --check-prefix=GROVER20
// RUN: qshape-sim %t.mlir --decimals 9 > %t.in.json
// RUN: qshape-sim %t.rolled.mlir --decimals 9 > %t.out.json
// RUN: %python %qshape_src/utils/compare-results.py %t.in.json %t.out.json --tol 1e-9

// REMARK: remark: qshape-roll-loops: given order: 109 ops; the canonical order was not tried
// REMARK: remark: qshape-roll-loops: rolled 32 copies of a 31-op body into a loop
// REMARK-NOT: remark

// LAYERS: remark: qshape-roll-loops: given order: 62 ops; the canonical order was not tried
// LAYERS: remark: qshape-roll-loops: rolled 12 copies of a 12-op body into a loop

// GROVER8: remark: qshape-roll-loops: canonical order: 59 ops; kept the canonical order
// GROVER20: remark: qshape-roll-loops: given order: 59 ops; the canonical order was not tried

// CANON: remark: qshape-roll-loops: canonical order: {{[0-9]+}} ops; kept the canonical order
// CANON: remark: qshape-roll-loops: rolled 26 copies of a 31-op body into a loop

// OPEN: remark: qshape-roll-loops: given order: 109 ops; the canonical order was not tried
// OPEN: remark: qshape-roll-loops: rolled 13 copies of a 31-op body into a loop
// OPEN-NOT: rolled

// BOTH: remark: qshape-roll-loops: canonical order: 190 ops; given order: 109 ops; kept the given order
// BOTH: remark: qshape-roll-loops: rolled 3 copies of a 31-op body into a loop

// CHECK-LABEL: func.func public @circuit
// CHECK-NOT: quantum.custom
// CHECK: scf.for %[[I:.*]] = %c0 to %c32 step %c1
// CHECK-COUNT-24: quantum.custom "R{{[XYZ]}}"
// CHECK-COUNT-7: quantum.custom "CNOT"
// CHECK: scf.yield
// CHECK-NOT: quantum.custom
// CHECK: return
