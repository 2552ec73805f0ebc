// qshape-cache-lookup / qshape-cache-store around stages that a driver runs
// one after the other (here three stages in one qshape-opt pipeline). A miss
// records the key, the stages run, the store saves the final module; a hit
// installs the final module at the start and the store saves nothing. The
// attributes of the lookup never reach the output.

// RUN: rm -rf %t && mkdir -p %t
// RUN: qshape-opt %s --pass-pipeline='builtin.module(qshape-cache-lookup{dir=%t/c pipeline="func.func(canonicalize),func.func(cse),symbol-dce" emit-remarks},func.func(canonicalize),func.func(cse),symbol-dce,qshape-cache-store{dir=%t/c emit-remarks})' --mlir-print-ir-after=symbol-dce -o %t/miss.mlir 2> %t/miss.err
// RUN: FileCheck %s --check-prefix=MISS < %t/miss.err
// MISS:      remark: qshape-cache: miss blake3:[[KEY:[0-9a-f]{64}]]
// The key is on the module while the stages run.
// MISS:      IR Dump After SymbolDCE
// MISS-NEXT: module @staged attributes {qshape.cache_key = "blake3:[[KEY]]"}
// MISS:      remark: qshape-cache: stored blake3:[[KEY]]
// RUN: FileCheck %s --check-prefix=OUT < %t/miss.mlir
// OUT:     module @staged {
// OUT-NOT: qshape.cache
// OUT:     arith.constant 5
// OUT-NOT: @unused

// RUN: qshape-opt %s --pass-pipeline='builtin.module(qshape-cache-lookup{dir=%t/c pipeline="func.func(canonicalize),func.func(cse),symbol-dce" emit-remarks},func.func(canonicalize),func.func(cse),symbol-dce,qshape-cache-store{dir=%t/c emit-remarks})' --mlir-print-ir-after=qshape-cache-lookup -o %t/hit.mlir 2> %t/hit.err
// RUN: FileCheck %s --check-prefix=HIT < %t/hit.err
// HIT:      remark: qshape-cache: hit blake3:[[KEY:[0-9a-f]{64}]]
// The stages in between get an empty module, marked; the store installs
// the final module.
// HIT:      IR Dump After QShapeCacheLookup
// HIT-NEXT: module @staged attributes {qshape.cache_hit = "deferred", qshape.cache_key = "blake3:[[KEY]]"} {
// HIT-NEXT: }
// HIT-NOT:  arith.addi
// HIT:      remark: qshape-cache: nothing to store for blake3:[[KEY]] (hit)
// RUN: diff %t/miss.mlir %t/hit.mlir
// RUN: qshape-cache --dir %t/c stats --json | FileCheck %s --check-prefix=STATS
// STATS: "entries": 1,
// STATS: "hits": 1,
// STATS: "misses": 1,
// STATS: "stores": 1,

// The same entry serves qshape-cache with the same pipeline: one key.
// RUN: qshape-opt %s --qshape-cache='dir=%t/c pipeline=func.func(canonicalize),func.func(cse),symbol-dce emit-remarks' -o %t/single.mlir 2> %t/single.err
// RUN: cat %t/miss.err %t/single.err | FileCheck %s --check-prefix=SAME
// SAME: miss blake3:[[KEY:[0-9a-f]{64}]]
// SAME: hit blake3:[[KEY]]
// RUN: diff %t/miss.mlir %t/single.mlir

// A store without a lookup warns and stores nothing; mode=off on both does
// nothing at all; mode=read on the store never stores.
// RUN: qshape-opt %s --qshape-cache-store='dir=%t/nolookup' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOKEY
// NOKEY: warning: qshape-cache-store: the module has no qshape.cache_key attribute; run qshape-cache-lookup at the start of the first stage (nothing stored)
// RUN: not ls %t/nolookup
// RUN: qshape-opt %s --pass-pipeline='builtin.module(qshape-cache-lookup{dir=%t/off mode=off},symbol-dce,qshape-cache-store{dir=%t/off mode=off})' -o %t/off.mlir 2>&1 | count 0
// RUN: not ls %t/off
// RUN: FileCheck %s --check-prefix=OFF < %t/off.mlir
// OFF:     module @staged {
// OFF-NOT: qshape.cache
// OFF-NOT: @unused
// RUN: qshape-opt %s --pass-pipeline='builtin.module(qshape-cache-lookup{dir=%t/ro mode=read},symbol-dce,qshape-cache-store{dir=%t/ro mode=read emit-remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=READ
// READ: remark: qshape-cache: nothing to store for blake3:{{[0-9a-f]+}} (mode=read)
// RUN: qshape-cache --dir %t/ro stats --json | FileCheck %s --check-prefix=READ-STATS
// READ-STATS: "entries": 0,
// READ-STATS: "misses": 1,
// READ-STATS: "stores": 0,

// The store takes the lookup's directory and mode in the same process; its
// own options override them.
// RUN: qshape-opt %s --pass-pipeline='builtin.module(qshape-cache-lookup{dir=%t/inherit},symbol-dce,qshape-cache-store{emit-remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=INHERIT
// INHERIT: remark: qshape-cache: stored blake3:
// RUN: qshape-cache --dir %t/inherit list | FileCheck %s --check-prefix=INHERIT-LIST
// INHERIT-LIST: blake3:{{[0-9a-f]+}} {{.*}} mlirbc
// RUN: qshape-opt %s --pass-pipeline='builtin.module(qshape-cache-lookup{dir=%t/inherit-ro mode=read},symbol-dce,qshape-cache-store{emit-remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=READ
// RUN: qshape-opt %s --pass-pipeline='builtin.module(qshape-cache-lookup{dir=%t/inherit-a salt=o},symbol-dce,qshape-cache-store{dir=%t/inherit-b emit-remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=OVERRIDE
// OVERRIDE: remark: qshape-cache: stored blake3:
// RUN: qshape-cache --dir %t/inherit-b stats --json | FileCheck %s --check-prefix=OVERRIDE-B
// OVERRIDE-B: "entries": 1,
// RUN: qshape-cache --dir %t/inherit-a stats --json | FileCheck %s --check-prefix=OVERRIDE-A
// OVERRIDE-A: "entries": 0,

// A key attribute that is not a key is refused, never used as a path.
// RUN: sed -e 's/module @staged {/module @staged attributes {qshape.cache_key = "..\/..\/etc"} {/' %s > %t/badkey.mlir
// RUN: qshape-opt %t/badkey.mlir --qshape-cache-store='dir=%t/bad' -o %t/badkey.out.mlir 2>&1 | FileCheck %s --check-prefix=BADKEY
// BADKEY: warning: qshape-cache-store: invalid cache key '../../etc': a key is 64 lowercase hex digits
// RUN: qshape-cache --dir %t/bad stats --json | FileCheck %s --check-prefix=BADKEY-STATS
// BADKEY-STATS: "entries": 0,
// RUN: FileCheck %s --check-prefix=BADKEY-OUT < %t/badkey.out.mlir
// BADKEY-OUT:     module @staged {
// BADKEY-OUT-NOT: qshape.cache
// BADKEY-OUT:     func.func private @unused

module @staged {
  func.func @f() -> i64 {
    %a = arith.constant 2 : i64
    %b = arith.constant 3 : i64
    %c = arith.addi %a, %b : i64
    return %c : i64
  }
  func.func private @unused() {
    return
  }
}
