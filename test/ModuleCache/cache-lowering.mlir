// A nested pipeline that lowers to another dialect: the hit must load the
// dialects of the cached result (the pass declares the nested pipeline's
// dependent dialects). Also through the pass plugin in upstream mlir-opt,
// whose build id differs from qshape-opt's, so it has its own key.

// RUN: rm -rf %t && mkdir -p %t
// RUN: qshape-opt %s --qshape-cache='dir=%t/c pipeline=func.func(convert-arith-to-llvm),convert-func-to-llvm emit-remarks' -o %t/miss.mlir 2> %t/miss.err
// RUN: qshape-opt %s --qshape-cache='dir=%t/c pipeline=func.func(convert-arith-to-llvm),convert-func-to-llvm emit-remarks' -o %t/hit.mlir 2> %t/hit.err
// RUN: FileCheck %s --check-prefix=LLVM < %t/hit.mlir
// RUN: diff %t/miss.mlir %t/hit.mlir
// LLVM:     llvm.func @f(%arg0: f64, %arg1: i64) -> f64
// LLVM:     llvm.fmul
// LLVM-NOT: arith.

// RUN: %upstream_mlir_opt --load-pass-plugin=%pass_plugin --pass-pipeline='builtin.module(qshape-cache{dir=%t/c pipeline="func.func(convert-arith-to-llvm),convert-func-to-llvm" emit-remarks})' %s -o %t/plugin-miss.mlir 2> %t/plugin-miss.err
// RUN: %upstream_mlir_opt --load-pass-plugin=%pass_plugin --pass-pipeline='builtin.module(qshape-cache{dir=%t/c pipeline="func.func(convert-arith-to-llvm),convert-func-to-llvm" emit-remarks})' %s -o %t/plugin-hit.mlir 2> %t/plugin-hit.err
// RUN: diff %t/miss.mlir %t/plugin-hit.mlir
// RUN: diff %t/miss.mlir %t/plugin-miss.mlir
// RUN: cat %t/miss.err %t/hit.err %t/plugin-miss.err %t/plugin-hit.err | FileCheck %s --check-prefix=KEYS
// KEYS:     miss blake3:[[KEY:[0-9a-f]{64}]]
// KEYS:     hit blake3:[[KEY]]
// KEYS-NOT: [[KEY]]
// KEYS:     miss blake3:[[PKEY:[0-9a-f]{64}]]
// KEYS:     hit blake3:[[PKEY]]

module {
  func.func @f(%a: f64, %b: i64) -> f64 {
    %c = arith.constant 2.0 : f64
    %0 = arith.mulf %a, %c : f64
    %1 = arith.sitofp %b : i64 to f64
    %2 = arith.addf %0, %1 : f64
    return %2 : f64
  }
}
