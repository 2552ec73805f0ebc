// qshape-cache: a miss runs the nested pipeline and stores its result; a hit
// installs the stored result without running the pipeline, and the output is
// identical. The key ignores spelling (generic form, SSA names, pipeline
// spacing, default options) and follows the salt, the pipeline and the mode.

// RUN: rm -rf %t && mkdir -p %t
// RUN: qshape-opt %s --qshape-cache='dir=%t/c pipeline=func.func(canonicalize,cse),symbol-dce emit-remarks' --mlir-print-ir-after-all -o %t/miss.mlir 2> %t/miss.err
// RUN: FileCheck %s --check-prefix=MISS < %t/miss.err
// MISS: remark: qshape-cache: miss blake3:{{[0-9a-f]{64}$}}
// MISS: IR Dump After Canonicalizer
// MISS: IR Dump After CSE
// MISS: IR Dump After SymbolDCE
// MISS: IR Dump After QShapeCache

// The result of the pipeline: 1.0 + 2.0 folded, @dead removed.
// RUN: FileCheck %s --check-prefix=OUT < %t/miss.mlir
// OUT-LABEL: module @circuit attributes {test.tag = "kept"}
// OUT:       func.func @f(%arg0: f64) -> f64
// OUT:       arith.constant 3.0
// OUT-NOT:   arith.addf
// OUT-NOT:   @dead

// Second process: a hit, the nested passes do not run, same output.
// RUN: qshape-opt %s --qshape-cache='dir=%t/c pipeline=func.func(canonicalize,cse),symbol-dce emit-remarks' --mlir-print-ir-after-all -o %t/hit.mlir 2> %t/hit.err
// RUN: FileCheck %s --check-prefix=HIT < %t/hit.err
// HIT:     remark: qshape-cache: hit blake3:
// HIT-NOT: IR Dump After Canonicalizer
// HIT-NOT: IR Dump After CSE
// HIT-NOT: IR Dump After SymbolDCE
// HIT:     IR Dump After QShapeCache
// RUN: diff %t/miss.mlir %t/hit.mlir
// RUN: qshape-opt %s --qshape-cache='dir=%t/c pipeline=func.func(canonicalize,cse),symbol-dce' --mlir-print-debuginfo -o %t/hit-loc.mlir
// RUN: qshape-opt %s --qshape-cache='dir=%t/c pipeline=func.func(canonicalize,cse),symbol-dce mode=write' --mlir-print-debuginfo -o %t/miss-loc.mlir
// RUN: diff %t/miss-loc.mlir %t/hit-loc.mlir

// Same key for the generic form, other SSA names, other pipeline spacing and
// explicit default options; the key is the one of the first run.
// RUN: qshape-opt %s --mlir-print-op-generic -o %t/generic.mlir
// RUN: sed -e 's/%arg0/%x/g' -e 's/%0/%v0/g' %s > %t/renamed.mlir
// RUN: qshape-opt %t/generic.mlir --qshape-cache='dir=%t/c pipeline=func.func(canonicalize,cse),symbol-dce emit-remarks' -o %t/generic-hit.mlir 2> %t/generic.err
// RUN: qshape-opt %t/renamed.mlir --pass-pipeline='builtin.module(qshape-cache{dir=%t/c pipeline="builtin.module( func.func(canonicalize{max-iterations=10}, cse) , symbol-dce)" emit-remarks})' -o %t/renamed-hit.mlir 2> %t/renamed.err
// RUN: cat %t/miss.err %t/hit.err %t/generic.err %t/renamed.err | FileCheck %s --check-prefix=SAMEKEY
// SAMEKEY: miss blake3:[[KEY:[0-9a-f]{64}]]
// SAMEKEY: hit blake3:[[KEY]]
// SAMEKEY: hit blake3:[[KEY]]
// SAMEKEY: hit blake3:[[KEY]]
// RUN: diff %t/miss.mlir %t/generic-hit.mlir
// RUN: diff %t/miss.mlir %t/renamed-hit.mlir

// Unregistered quantum ops (upstream mlir-opt, plugin, generic form) are
// cached too: bytecode keeps them.
// RUN: %upstream_mlir_opt --allow-unregistered-dialect --load-pass-plugin=%pass_plugin --pass-pipeline='builtin.module(qshape-cache{dir=%t/u pipeline="func.func(canonicalize,cse),symbol-dce" emit-remarks})' %t/generic.mlir -o %t/u-miss.mlir 2>&1 | FileCheck %s --check-prefix=UMISS
// RUN: %upstream_mlir_opt --allow-unregistered-dialect --load-pass-plugin=%pass_plugin --pass-pipeline='builtin.module(qshape-cache{dir=%t/u pipeline="func.func(canonicalize,cse),symbol-dce" emit-remarks})' %t/generic.mlir -o %t/u-hit.mlir 2>&1 | FileCheck %s --check-prefix=UHIT
// RUN: diff %t/u-miss.mlir %t/u-hit.mlir
// RUN: FileCheck %s --check-prefix=UOUT < %t/u-hit.mlir
// UMISS: remark: qshape-cache: miss
// UHIT:  remark: qshape-cache: hit
// UOUT:  "quantum.custom"
// UOUT-NOT: @dead

// Another salt, another pipeline, another input: misses with other keys.
// RUN: qshape-opt %s --qshape-cache='dir=%t/c pipeline=func.func(canonicalize,cse),symbol-dce salt=v2 emit-remarks' -o /dev/null 2> %t/salt.err
// RUN: qshape-opt %s --qshape-cache='dir=%t/c pipeline=func.func(canonicalize),symbol-dce emit-remarks' -o /dev/null 2> %t/pipe.err
// RUN: sed -e 's/2.0 : f64/2.5 : f64/' %s > %t/other.mlir
// RUN: qshape-opt %t/other.mlir --qshape-cache='dir=%t/c pipeline=func.func(canonicalize,cse),symbol-dce emit-remarks' -o /dev/null 2> %t/other.err
// RUN: cat %t/miss.err %t/salt.err %t/pipe.err %t/other.err | FileCheck %s --check-prefix=OTHERKEY
// OTHERKEY:     miss blake3:[[KEY:[0-9a-f]{64}]]
// OTHERKEY-NOT: [[KEY]]
// OTHERKEY:     miss blake3:
// OTHERKEY-NOT: [[KEY]]
// OTHERKEY:     miss blake3:
// OTHERKEY-NOT: [[KEY]]
// OTHERKEY:     miss blake3:
// OTHERKEY-NOT: [[KEY]]
// RUN: qshape-cache --dir %t/c stats --json | FileCheck %s --check-prefix=STATS4
// STATS4: "entries": 4,
// STATS4: "hits": 4,
// STATS4: "misses": 4,
// STATS4: "stores": 5,

// mode=read never stores, mode=off does not touch the cache, mode=write
// stores without looking up.
// RUN: qshape-opt %s --qshape-cache='dir=%t/c pipeline=symbol-dce mode=read emit-remarks' -o /dev/null 2>&1 | FileCheck %s --check-prefix=READ
// READ: remark: qshape-cache: miss
// RUN: qshape-opt %s --qshape-cache='dir=%t/c pipeline=symbol-dce mode=read emit-remarks' -o /dev/null 2>&1 | FileCheck %s --check-prefix=READ
// RUN: qshape-opt %s --qshape-cache='dir=%t/c pipeline=func.func(canonicalize,cse),symbol-dce mode=off emit-remarks' -o %t/off.mlir 2>&1 | count 0
// RUN: diff %t/miss.mlir %t/off.mlir
// RUN: qshape-opt %s --qshape-cache='dir=%t/c pipeline=func.func(canonicalize,cse),symbol-dce mode=write emit-remarks' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRITE
// WRITE: remark: qshape-cache: write blake3:
// RUN: qshape-cache --dir %t/c stats --json | FileCheck %s --check-prefix=STATS-MODES
// STATS-MODES: "entries": 4,
// STATS-MODES: "hits": 4,
// STATS-MODES: "misses": 6,
// STATS-MODES: "stores": 6,

// The timing remark splits the pass's time.
// RUN: qshape-opt %s --qshape-cache='dir=%t/c pipeline=func.func(canonicalize,cse),symbol-dce timing' -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMING
// TIMING: remark: qshape-cache: timing: key {{[0-9.]+}} ms (fingerprint {{[0-9.]+}} ms), lookup {{[0-9.]+}} ms (load {{[0-9.]+}} ms, verify skipped), pipeline 0.000 ms, store 0.000 ms, total {{[0-9.]+}} ms

// QSHAPE_CACHE_DIR is the default directory.
// RUN: env QSHAPE_CACHE_DIR=%t/env qshape-opt %s --qshape-cache='pipeline=symbol-dce' -o /dev/null
// RUN: qshape-cache --dir %t/env stats --json | FileCheck %s --check-prefix=ENV
// ENV: "entries": 1,

module @circuit attributes {test.tag = "kept"} {
  func.func @f(%arg0: f64) -> f64 {
    %c1 = arith.constant 1.0 : f64
    %c2 = arith.constant 2.0 : f64
    %0 = arith.addf %c1, %c2 : f64
    %1 = arith.mulf %arg0, %0 : f64
    %2 = arith.mulf %arg0, %0 : f64
    %r = quantum.alloc( 2) : !quantum.reg
    %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
    %q1 = quantum.custom "RX"(%1) %q0 : !quantum.bit
    %q2 = quantum.custom "RY"(%2) %q1 : !quantum.bit
    %r1 = quantum.insert %r[ 0], %q2 : !quantum.reg, !quantum.bit
    quantum.dealloc %r1 : !quantum.reg
    return %1 : f64
  }
  func.func private @dead() {
    return
  }
}
