// The pass annotates functions and the module; the digest is the same
// whether or not qshape-canonicalize ran first, after a second run (the
// annotations are not hashed), and in upstream mlir-opt on unregistered ops.
//
// RUN: qshape-opt %S/Inputs/qnode.mlir --qshape-fingerprint | FileCheck %s
// RUN: qshape-opt %S/Inputs/qnode.mlir --qshape-canonicalize --qshape-fingerprint | FileCheck %s
// RUN: qshape-opt %S/Inputs/qnode.mlir --qshape-fingerprint --qshape-fingerprint | FileCheck %s
// RUN: qshape-opt %S/Inputs/qnode.mlir --mlir-print-op-generic | %upstream_mlir_opt --load-pass-plugin=%pass_plugin --allow-unregistered-dialect --pass-pipeline='builtin.module(qshape-fingerprint)' | FileCheck %s
// RUN: qshape-opt %S/Inputs/qnode.mlir --qshape-fingerprint=emit-remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// Nothing but the annotations changes:
// RUN: qshape-opt %S/Inputs/qnode.mlir > %t.plain.mlir
// RUN: qshape-opt %S/Inputs/qnode.mlir --qshape-fingerprint=annotate=false > %t.noannot.mlir
// RUN: diff %t.plain.mlir %t.noannot.mlir

// CHECK: module @module_circuit attributes {qshape.fingerprint = "blake3:5e17fcb49fa27ac1a1b8d921bd59e3d612d860a2b301bb7f79823462175a984e", qshape.shape_fingerprint = "blake3:c170a6324d1d81efc16605613d0a110966e546eab5c3e5405d7d026640f9435b"}
// CHECK: func.func public @circuit({{.*}}qshape.fingerprint = "blake3:[[FN:[0-9a-f]+]]"
// CHECK-NOT: qshape.fingerprint

// REMARK: remark: qshape-fingerprint @circuit: blake3:
// REMARK: remark: qshape-fingerprint module: blake3:5e17fcb49fa27ac1a1b8d921bd59e3d612d860a2b301bb7f79823462175a984e shape blake3:c170a6324d1d81efc16605613d0a110966e546eab5c3e5405d7d026640f9435b
