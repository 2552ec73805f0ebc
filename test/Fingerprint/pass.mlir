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

// CHECK: module @module_circuit attributes {qshape.fingerprint = "blake3:6ac8edb7d100af87f6b95fd97999620fe941bab668f50dfaf685c3459ba8be71", qshape.shape_fingerprint = "blake3:a91a829ba54a83d8241724d703c1dc5dcb1fb70429a59e2035d544048d3a4a7b"}
// CHECK: func.func public @circuit({{.*}}qshape.fingerprint = "blake3:[[FN:[0-9a-f]+]]"
// CHECK-NOT: qshape.fingerprint

// REMARK: remark: qshape-fingerprint @circuit: blake3:
// REMARK: remark: qshape-fingerprint module: blake3:6ac8edb7d100af87f6b95fd97999620fe941bab668f50dfaf685c3459ba8be71 shape blake3:a91a829ba54a83d8241724d703c1dc5dcb1fb70429a59e2035d544048d3a4a7b
