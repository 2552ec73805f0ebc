// Bad options of the cache passes are errors; cache problems are never
// errors: one warning per process, and the compilation goes on.

// RUN: rm -rf %t && mkdir -p %t
// RUN: not qshape-opt %s --qshape-cache='pipeline=no-such-pass' 2>&1 | FileCheck %s --check-prefix=PIPE
// PIPE: error: qshape-cache: invalid nested pipeline 'no-such-pass': {{.*}}'no-such-pass' does not refer to a registered pass or pass pipeline
// RUN: not qshape-opt %s --qshape-cache='pipeline=symbol-dce mode=sometimes' 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: error: qshape-cache: invalid mode 'sometimes': use readwrite, read, write or off
// RUN: not qshape-opt %s --qshape-cache='pipeline=symbol-dce max-size=lots' 2>&1 | FileCheck %s --check-prefix=SIZE
// SIZE: error: qshape-cache: invalid max-size 'lots': use bytes or K, M, G, T, e.g. 500M or 2G
// RUN: not qshape-opt %s --qshape-cache-lookup='pipeline=func.func(nope)' 2>&1 | FileCheck %s --check-prefix=LOOKUP-PIPE
// LOOKUP-PIPE: error: qshape-cache-lookup: invalid pipeline 'func.func(nope)'
// RUN: not qshape-opt %s --qshape-cache-store='mode=never' 2>&1 | FileCheck %s --check-prefix=STORE-MODE
// STORE-MODE: error: qshape-cache-store: invalid mode 'never'
// RUN: not qshape-opt %s --qshape-cache='pipeline=symbol-dce remote=http://cache:80' 2>&1 | FileCheck %s --check-prefix=REMOTE
// REMOTE: error: qshape-cache: invalid remote: 'http://cache:80' is not a remote cache URL; use redis://[USER[:PASSWORD]@]HOST[:PORT][/DB][?ATTRIBUTES]
// RUN: not qshape-opt %s --qshape-cache-lookup='remote=redis://h?ttl=soon' 2>&1 | FileCheck %s --check-prefix=REMOTE-ATTR
// REMOTE-ATTR: error: qshape-cache-lookup: invalid remote: 'redis://h?ttl=soon': ttl='soon' is not a duration like 250ms, 3s, 5m, 2h or 7d

// A bad $QSHAPE_CACHE_REMOTE is not the user's option: one warning, and
// the directory works as before. remote=off ignores it.
// RUN: env QSHAPE_CACHE_REMOTE=redis://h:port qshape-opt %s --pass-pipeline='builtin.module(qshape-cache{dir=%t/env pipeline=symbol-dce emit-remarks},qshape-cache{dir=%t/env pipeline=canonicalize salt=2})' -o /dev/null 2> %t/env.err
// RUN: FileCheck %s --check-prefix=ENV < %t/env.err
// ENV: warning: qshape-cache: QSHAPE_CACHE_REMOTE: 'redis://h:port': port 'port' is not a number in 1..65535; using the local cache only
// ENV: remark: qshape-cache: miss blake3:
// RUN: grep -c warning: %t/env.err | FileCheck %s --check-prefix=ONE
// RUN: env QSHAPE_CACHE_REMOTE=redis://h:port qshape-opt %s --qshape-cache='dir=%t/env pipeline=symbol-dce remote=off emit-remarks' -o /dev/null 2>&1 | FileCheck %s --check-prefix=ENV-OFF --implicit-check-not=warning
// ENV-OFF: remark: qshape-cache: hit blake3:

// A failing nested pipeline fails the pass, and nothing is stored.
// RUN: not qshape-opt %s --qshape-cache='dir=%t/fail pipeline=func.func(test-no-such),symbol-dce' 2>&1 | FileCheck %s --check-prefix=PIPE2
// PIPE2: error: qshape-cache: invalid nested pipeline
// RUN: not qshape-opt %s --qshape-cache='dir=%t/fail pipeline=symbol-dce,qshape-stats{output=%t/no/such/dir/s.json}' 2>&1 | FileCheck %s --check-prefix=RUNFAIL
// RUNFAIL: error: {{.*}}s.json
// RUN: qshape-cache --dir %t/fail stats --json | FileCheck %s --check-prefix=NOSTORE
// NOSTORE: "entries": 0,

// A group-writable directory is refused: one warning for the whole process
// (two cache passes here), the result is still compiled, nothing is written.
// RUN: mkdir -p %t/gw && chmod 0770 %t/gw
// RUN: qshape-opt %s --pass-pipeline='builtin.module(qshape-cache{dir=%t/gw pipeline=symbol-dce},qshape-cache{dir=%t/gw pipeline=canonicalize salt=2})' -o %t/gw.mlir 2> %t/gw.err
// RUN: FileCheck %s --check-prefix=GW < %t/gw.err
// RUN: grep -c warning: %t/gw.err | FileCheck %s --check-prefix=ONE
// GW:  warning: qshape-cache: cache directory '{{.*}}gw' is writable by group or others (mode 0770), so others could plant entries; the cache is disabled. Fix: chmod 700
// ONE: {{^1$}}
// RUN: FileCheck %s --check-prefix=COMPILED < %t/gw.mlir
// COMPILED-NOT: @dead
// RUN: ls -A %t/gw | count 0

// The same through the staged passes.
// RUN: qshape-opt %s --pass-pipeline='builtin.module(qshape-cache-lookup{dir=%t/gw},symbol-dce,qshape-cache-store{dir=%t/gw})' -o %t/gw2.mlir 2> %t/gw2.err
// RUN: grep -c warning: %t/gw2.err | FileCheck %s --check-prefix=ONE
// RUN: FileCheck %s --check-prefix=COMPILED < %t/gw2.mlir
// RUN: ls -A %t/gw | count 0

module {
  func.func @f() {
    return
  }
  func.func private @dead() {
    return
  }
}
