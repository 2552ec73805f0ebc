// What a hit of the MLIR cache skips, and what it still checks.
//
// A miss verifies the module before storing it, so a hit installs it without
// running the verifier again: neither the bytecode reader nor the pass
// manager (qshape-cache and qshape-cache-store mark all analyses preserved
// after clearing them). An entry planted under the key with a module that
// does not verify shows it: the default hit installs it, and only the
// printer notices (it falls back to the generic form). With verify-hit the
// same entry is a miss, and the store replaces it. A damaged entry and a
// payload that is not bytecode are misses either way (the directory counts
// the damaged one as corrupt; the other passed its checksum).

// RUN: rm -rf %t && mkdir -p %t
// RUN: qshape-opt %s --qshape-cache='dir=%t/c pipeline=func.func(canonicalize) emit-remarks timing' -o %t/miss.mlir 2> %t/miss.err
// RUN: qshape-opt %s --qshape-cache='dir=%t/c pipeline=func.func(canonicalize) emit-remarks timing' -o %t/hit.mlir 2> %t/hit.err
// RUN: diff %t/miss.mlir %t/hit.mlir
// RUN: FileCheck %s --check-prefix=HIT < %t/hit.err
// HIT: remark: qshape-cache: hit blake3:
// HIT: remark: qshape-cache: timing: key {{[0-9.]+}} ms (fingerprint {{[0-9.]+}} ms), lookup {{[0-9.]+}} ms (load {{[0-9.]+}} ms, verify skipped), pipeline 0.000 ms
// RUN: FileCheck %s --check-prefix=OUT < %t/hit.mlir
// OUT: arith.constant 3.0

// Plant a module that does not verify (func.return of an i32 in a function
// returning f64) under the key of this input.
// RUN: sed -n 's/.*qshape-cache: miss \(blake3:[0-9a-f]*\).*/\1/p' %t/miss.err > %t/key
// RUN: qshape-opt %S/Inputs/cache-does-not-verify.mlir --mlir-very-unsafe-disable-verifier-on-parsing --emit-bytecode -o %t/bad.mlirbc
// RUN: qshape-cache --dir %t/c put --kind mlirbc $(cat %t/key) %t/bad.mlirbc

// Default: a hit, no verifier ran in the pass manager (it would have failed
// the run), the module is what the entry holds.
// RUN: qshape-opt %s --qshape-cache='dir=%t/c pipeline=func.func(canonicalize) emit-remarks' -o %t/planted.mlir 2> %t/planted.err
// RUN: FileCheck %s --check-prefix=PLANTED-REMARK < %t/planted.err
// RUN: FileCheck %s --check-prefix=PLANTED < %t/planted.mlir
// PLANTED-REMARK: remark: qshape-cache: hit blake3:
// PLANTED: "func.return"(%{{.*}}) : (i32) -> ()

// verify-hit: the same entry is a miss (one warning), the pipeline runs, the
// output is the miss's, and the store replaced the entry: the next hit,
// verified, installs the good module.
// RUN: qshape-opt %s --qshape-cache='dir=%t/c pipeline=func.func(canonicalize) emit-remarks verify-hit' -o %t/verified.mlir 2> %t/verified.err
// RUN: FileCheck %s --check-prefix=VERIFIED < %t/verified.err
// VERIFIED-NOT: remark: qshape-cache: hit
// VERIFIED: warning: qshape-cache: cache entry blake3:{{[0-9a-f]+}} does not load (the module does not verify: type of return operand 0 ('i32') doesn't match function result type ('f64') in function @f); recompiling and replacing it
// VERIFIED: remark: qshape-cache: miss blake3:
// RUN: diff %t/miss.mlir %t/verified.mlir
// RUN: qshape-opt %s --qshape-cache='dir=%t/c pipeline=func.func(canonicalize) emit-remarks timing verify-hit' -o %t/rehit.mlir 2> %t/rehit.err
// RUN: FileCheck %s --check-prefix=REHIT < %t/rehit.err
// REHIT:     remark: qshape-cache: hit blake3:
// REHIT-NOT: warning
// REHIT:     lookup {{[0-9.]+}} ms (load {{[0-9.]+}} ms, verify {{[0-9.]+}} ms), pipeline 0.000 ms
// RUN: diff %t/miss.mlir %t/rehit.mlir

// The staged pair: the same key (same `pipeline` text), the same rule. The
// lookup's default installs the planted module at the store without a
// verifier; its verify-hit makes it a miss, and the stages run.
// RUN: qshape-cache --dir %t/c put --kind mlirbc $(cat %t/key) %t/bad.mlirbc
// RUN: qshape-opt %s --pass-pipeline='builtin.module(qshape-cache-lookup{dir=%t/c pipeline="func.func(canonicalize)" emit-remarks},func.func(canonicalize),qshape-cache-store)' -o %t/staged-planted.mlir 2> %t/staged-planted.err
// RUN: FileCheck %s --check-prefix=PLANTED-REMARK < %t/staged-planted.err
// RUN: FileCheck %s --check-prefix=PLANTED < %t/staged-planted.mlir
// RUN: qshape-opt %s --pass-pipeline='builtin.module(qshape-cache-lookup{dir=%t/c pipeline="func.func(canonicalize)" emit-remarks verify-hit},func.func(canonicalize),qshape-cache-store)' -o %t/staged-verified.mlir 2> %t/staged-verified.err
// RUN: FileCheck %s --check-prefix=VERIFIED < %t/staged-verified.err
// RUN: diff %t/miss.mlir %t/staged-verified.mlir

// A miss whose module does not verify (verification off in the pass
// manager, an empty nested pipeline) is not stored.
// RUN: qshape-opt %S/Inputs/cache-does-not-verify.mlir --mlir-very-unsafe-disable-verifier-on-parsing -verify-each=false --qshape-cache='dir=%t/n pipeline=symbol-dce emit-remarks' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOSTORE-REMARK
// NOSTORE-REMARK: remark: qshape-cache: miss blake3:
// RUN: qshape-cache --dir %t/n stats --json | FileCheck %s --check-prefix=NOSTORE
// NOSTORE: "entries": 0,
// NOSTORE: "stores": 0,

// A damaged entry (one flipped byte at the end of the payload) is a miss,
// and so is a checksummed payload that is not bytecode, with or without
// verify-hit; each time the output is the miss's.
// RUN: %python -c "import sys; k=open(sys.argv[1]).read().strip().split(':')[1]; p=sys.argv[2]+'/'+k[:2]+'/'+k; b=bytearray(open(p,'rb').read()); b[-1]^=0xff; open(p,'wb').write(b)" %t/key %t/c
// RUN: qshape-opt %s --qshape-cache='dir=%t/c pipeline=func.func(canonicalize) emit-remarks' -o %t/damaged.mlir 2>&1 | FileCheck %s --check-prefix=DAMAGED
// DAMAGED-NOT: remark: qshape-cache: hit
// DAMAGED:     remark: qshape-cache: miss blake3:
// RUN: diff %t/miss.mlir %t/damaged.mlir
// RUN: printf 'not MLIR bytecode' > %t/garbage
// RUN: qshape-cache --dir %t/c put --kind mlirbc $(cat %t/key) %t/garbage
// RUN: qshape-opt %s --qshape-cache='dir=%t/c pipeline=func.func(canonicalize) emit-remarks' -o %t/garbage.mlir 2>&1 | FileCheck %s --check-prefix=GARBAGE
// GARBAGE: warning: qshape-cache: cache entry blake3:{{[0-9a-f]+}} does not load
// GARBAGE: remark: qshape-cache: miss blake3:
// RUN: diff %t/miss.mlir %t/garbage.mlir
// RUN: qshape-cache --dir %t/c stats --json | FileCheck %s --check-prefix=STATS
// STATS: "corrupt": 1,

module @circuit {
  func.func @f(%arg0: f64) -> f64 {
    %c1 = arith.constant 1.0 : f64
    %c2 = arith.constant 2.0 : f64
    %0 = arith.addf %c1, %c2 : f64
    %1 = arith.mulf %arg0, %0 : f64
    return %1 : f64
  }
}
